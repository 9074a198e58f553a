"""Counts typed as words ("two hours ago", "sector three"): one table for every parser.

The time-range parser (``language.time_points``) and the channel finder
(``connectors.channel_database``) both read numbers spelled out; one table keeps them reading
the same words the same way. Amounts spelled out ("two point five", "minus three hundred", "half
an") are read by one grammar too (``SPELLED_NUMBER_PATTERN``, ``read_number``), which the write
parser uses for the values of a write.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: Cardinal numbers an operator spells out, as typed (lower case).
NUMBER_WORDS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "twenty-four": 24,
    "thirty": 30,
    "forty": 40,
    "forty-five": 45,
    "fifty": 50,
    "sixty": 60,
    "ninety": 90,
}


def as_typed(value: float) -> str:
    """A value written back into a sentence with every digit the operator typed ("499.6545",
    not the six significant digits of ``:g``; "0.1", not "0.1000000001")."""
    return f"{value:.12g}"


def words_pattern(words: dict[str, object]) -> str:
    """A regex alternation of ``words``, longest first so "twenty-four" is not read as "twenty"."""
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


#: Regex alternation of NUMBER_WORDS (no group, no anchors).
NUMBER_WORD_PATTERN = words_pattern(NUMBER_WORDS)


# -- amounts spelled out ("two point five", "minus three hundred", "one and a half") -------
# One grammar read two ways: SPELLED_NUMBER_PATTERN finds an amount in a sentence, and
# spelled_number() computes it. Digits are read too (read_number), so a parser that accepts
# values asks one function for both.

_DIGIT_VALUES = {
    "zero": 0,
    "oh": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_TEEN_VALUES = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS_VALUES = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_FRACTIONS = {
    "half": 0.5,
    "halves": 0.5,
    "quarter": 0.25,
    "quarters": 0.25,
    "tenth": 0.1,
    "tenths": 0.1,
}
_NEGATIVE = frozenset({"minus", "negative"})


def _any(words: dict[str, object]) -> str:
    return rf"(?:{words_pattern(words)})\b"


_COUNT_WORDS = {k: v for k, v in _DIGIT_VALUES.items() if k != "oh"}
_BELOW_100 = (
    rf"(?:{_any(_TENS_VALUES)}(?:[\s-]+{_any(_COUNT_WORDS)})?|{_any(_TEEN_VALUES)}"
    rf"|{_any(_COUNT_WORDS)})"
)
# "one twenty one" (121), "one oh five" (105): hundreds said the way numbers are read aloud
_NONZERO = {k: v for k, v in _COUNT_WORDS.items() if v}
_SPOKEN_HUNDREDS = (
    rf"(?:{_any(_NONZERO)}\s+(?:{_any(_TENS_VALUES)}(?:[\s-]+{_any(_NONZERO)})?|{_any(_TEEN_VALUES)}"
    rf"|(?:oh|zero)\s+{_any(_NONZERO)}))"
)
_BELOW_1000 = (
    rf"(?:(?:an?|{_BELOW_100})\s+hundred\b(?:\s+(?:and\s+)?{_BELOW_100})?"
    # "hundred twenty-one": the "one" of the hundreds left out (never "hundred" alone)
    rf"|hundred\s+(?:and\s+)?{_BELOW_100}|{_SPOKEN_HUNDREDS}|{_BELOW_100})"
)
_CARDINAL = (
    rf"(?:(?:an?|{_BELOW_1000})\s+(?:thousand|million)\b(?:\s+(?:and\s+)?{_BELOW_1000})?"
    rf"|{_BELOW_1000})"
)
_DECIMALS = rf"point(?:\s+{_any(_DIGIT_VALUES)})+"
# "a quarter of an amp", "half a millimetre": the article before the unit belongs to the amount.
# Tried first, so "three quarters" is not read as "three" followed by a unit.
_FRACTION = r"(?:(?:a|one|two|three)\s+)?(?:half|halves|quarters?|tenths?)\b(?:\s+of)?(?:\s+an?\b)?"
_AND_FRACTION = r"and\s+(?:a|one|three)\s+(?:half|quarters?)\b"

# "four nine nine point six five": a whole number read digit by digit, before its decimals
_DIGIT_RUN = rf"(?:{_any(_DIGIT_VALUES)}\s+)+{_any(_DIGIT_VALUES)}(?=\s+point\b)"

#: Regex of an amount in words, optionally negative (no group, no anchors; case-insensitive).
SPELLED_NUMBER_PATTERN = (
    rf"\b(?:(?:minus|negative|plus)\s+)?"
    rf"(?:{_FRACTION}|{_DIGIT_RUN}\s+{_DECIMALS}"
    rf"|{_CARDINAL}(?:\s+{_DECIMALS}|\s+{_AND_FRACTION})?|{_DECIMALS})"
)
_SPELLED = re.compile(rf"{SPELLED_NUMBER_PATTERN}$", re.I)
_DIGITS = re.compile(r"[-+−]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


#: A device's number said aloud: digit by digit after "zero"/"oh" ("zero five" is 05), else a
#: whole number below a hundred ("twenty two", "eight"). No group, no anchors.
SPOKEN_DEVICE_NUMBER = rf"(?:(?:zero|oh)(?:[\s-]+{_any(_DIGIT_VALUES)})+|{_BELOW_100})"


def spoken_device_number(words: str) -> str | None:
    """The digits of a device number said aloud ("zero five" -> "05", "twenty two" -> "22")."""
    tokens = words.lower().replace("-", " ").split()
    if tokens and tokens[0] in ("zero", "oh"):
        if all(t in _DIGIT_VALUES for t in tokens):
            return "".join(str(_DIGIT_VALUES[t]) for t in tokens)
        return None
    value = _cardinal(tokens)
    return None if value is None or value >= 100 else str(int(value))


def spelled_number(phrase: str) -> float | None:
    """The amount ``phrase`` spells out, or None when it is not exactly one amount.

    Compound cardinals ("three hundred and twenty", "two thousand"), "point" decimals read
    digit by digit ("zero point two five"), halves and quarters ("one and a half", "half an",
    "three quarters of a") and a leading "minus"/"negative".
    """
    text = " ".join(phrase.lower().replace("-", " ").split())
    if not _SPELLED.match(text):
        return None
    tokens = text.split()
    sign = 1.0
    if tokens[0] in _NEGATIVE or tokens[0] == "plus":
        sign = -1.0 if tokens[0] in _NEGATIVE else 1.0
        tokens = tokens[1:]
    while tokens and tokens[-1] in ("a", "an", "of"):
        tokens = tokens[:-1]  # "half an (amp)", "a quarter of (an amp)"
    fraction = 0.0
    if tokens and tokens[-1] in _FRACTIONS:
        count = tokens[-2] if len(tokens) > 1 else "a"
        parts = 1.0 if count in ("a", "an") else float(_DIGIT_VALUES.get(count, 1))
        fraction = parts * _FRACTIONS[tokens[-1]]
        tokens = tokens[: -2 if len(tokens) > 1 and count in ("a", "an", *_DIGIT_VALUES) else -1]
        if tokens and tokens[-1] == "and":
            tokens = tokens[:-1]
    whole = _cardinal(tokens)
    return None if whole is None else sign * (whole + fraction)


def _cardinal(tokens: list[str]) -> float | None:
    """Words of a whole number with decimals ("three hundred and twenty point five" ->
    320.5); no words -> 0, for a fraction on its own ("a half")."""
    if "point" in tokens:
        at = tokens.index("point")
        digits = tokens[at + 1 :]
        if not digits or any(d not in _DIGIT_VALUES for d in digits):
            return None
        before = tokens[:at]
        if len(before) > 1 and all(t in _DIGIT_VALUES for t in before):
            whole: float | None = float("".join(str(_DIGIT_VALUES[t]) for t in before))
        else:
            whole = _cardinal(before)
        decimals = "".join(str(_DIGIT_VALUES[d]) for d in digits)
        return None if whole is None else whole + float(f"0.{decimals}")
    spoken = _spoken_hundreds(tokens)
    if spoken is not None:
        return spoken
    total = current = 0
    for token in tokens:
        if token in ("a", "an", "and"):
            current = current or (1 if token != "and" else 0)
        elif token in _DIGIT_VALUES or token in _TEEN_VALUES or token in _TENS_VALUES:
            current += {**_DIGIT_VALUES, **_TEEN_VALUES, **_TENS_VALUES}[token]
        elif token == "hundred":
            current = (current or 1) * 100
        elif token in _SCALES:
            total += (current or 1) * _SCALES[token]
            current = 0
        else:
            return None
    return float(total + current)


def _spoken_hundreds(tokens: list[str]) -> float | None:
    """ "one twenty one" -> 121, "one oh five" -> 105; None for any other words."""
    if len(tokens) < 2 or _COUNT_WORDS.get(tokens[0], 0) == 0:
        return None
    rest = tokens[1:]
    if rest[0] in ("oh", "zero") and len(rest) == 2 and _COUNT_WORDS.get(rest[1], 0):
        return float(100 * _COUNT_WORDS[tokens[0]] + _COUNT_WORDS[rest[1]])
    if rest[0] in _TEEN_VALUES and len(rest) == 1:
        return float(100 * _COUNT_WORDS[tokens[0]] + _TEEN_VALUES[rest[0]])
    if rest[0] in _TENS_VALUES and len(rest) <= 2:
        ones = _COUNT_WORDS.get(rest[1], -1) if len(rest) == 2 else 0
        if ones >= 0:
            return float(100 * _COUNT_WORDS[tokens[0]] + _TENS_VALUES[rest[0]] + ones)
    return None


def read_number(text: str) -> float | None:
    """An amount typed as digits ("-0.3", "1e-3", "minus 0.4") or words ("two point five")."""
    raw = " ".join(text.strip().split())
    sign = 1.0
    head, _, rest = raw.partition(" ")
    if head.lower() in _NEGATIVE and _DIGITS.fullmatch(rest):
        sign, raw = -1.0, rest
    if _DIGITS.fullmatch(raw):
        return sign * float(raw.replace("−", "-").replace(" ", ""))
    return spelled_number(raw)


#: "0,5 A", "2,25 mm": a decimal comma before a unit; "1,500 A": a thousands separator
_DECIMAL_COMMA = re.compile(r"(?<![\w.,])(?P<whole>\d+),(?P<part>\d+)(?=\s*(?P<unit>[A-Za-zµ%]+)?)")
_FRACTION_SIGNS = {"½": ".5", "¼": ".25", "¾": ".75"}


_FRACTION_BEFORE_A_UNIT = re.compile(
    r"(?<![\d/.:])(?P<top>[1-9])/(?P<bottom>[2-9]|1[0-6])(?![\d/])(?=\s*(?P<unit>[a-zµ%]+)\b)", re.I
)


def numbers_typed_plainly(text: str, is_unit: Callable[[str], bool]) -> str:
    """``text`` with numbers typed in other conventions said with a decimal point: a decimal
    comma before a unit ("0,5 A" is 0.5 A), a thousands separator ("1,500 A"), a fraction
    sign ("2½ hours" is 2.5 hours). A comma between numbers with no unit after them ("HCM 1,2")
    is a list and stays, unless the first is 0 ("0,35": a value, no list of devices)."""

    def plain(found: re.Match[str]) -> str:
        unit = found["unit"]
        if found["whole"] == "0" and found["part"] != "0":
            return f"0.{found['part']}"  # "0,35 is better": no list starts with device 0
        if unit is None or not is_unit(unit):
            return found.group(0)
        if len(found["part"]) == 3 and found["whole"] != "0":
            return f"{found['whole']}{found['part']}"  # "1,500 A"
        return f"{found['whole']}.{found['part']}"

    text = _DECIMAL_COMMA.sub(plain, text)
    # "QD 16 up 1/2 A", "open it 3/4 mm": a fraction before a unit (a date has no unit after)
    text = _FRACTION_BEFORE_A_UNIT.sub(
        lambda m: as_typed(int(m["top"]) / int(m["bottom"])) if is_unit(m["unit"]) else m[0],
        text,
    )
    for sign, decimal in _FRACTION_SIGNS.items():
        text = re.sub(rf"(?<=\d){sign}", decimal, text)
        text = re.sub(rf"(?<![\d.]){sign}", f"0{decimal}", text)
    return text


# "VCM17 −0.1A", "RF freq −500 Hz", "13:00–14:30": a minus sign or a dash typed by a keyboard
# or a phone in place of the hyphen, before a digit; one sign for every rule after this one
_TYPED_MINUS = re.compile(r"[\u2212\u2012\u2013\u2014\u2010\u2011\ufe63\uff0d](?=\s?\.?\d)")


# "set HCM3 to - 0.2 A", "HCM3 = - 0.2": a sign set apart from its value after a word or a mark
# that gives a value
_SIGN_SET_APART = re.compile(
    r"(?:(?<=\bto)|(?<=\bat)|(?<=\bby)|(?<=[=:>→]))(\s*)-\s+(?=\.?\d)", re.I
)


def minus_signs_typed_plainly(text: str) -> str:
    """``text`` with each minus sign or dash before a digit typed as the hyphen-minus, next to
    its value when a value is given ("to - 0.2 A" is "to -0.2 A")."""
    return _SIGN_SET_APART.sub(r"\1-", _TYPED_MINUS.sub("-", text))
