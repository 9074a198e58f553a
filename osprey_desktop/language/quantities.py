"""Amounts in a request: the number, its unit, and whether it is a value, a change or a
direction without a number ("to 98 A", "by 2 mm", "0.2 A higher", "up 1 kHz", "a touch
lower"). Numbers that name a device or a place ("sector 5", "first three") are none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from osprey_desktop.language.lexicon import (
    DOWN_WORDS,
    ORDINALS,
    PLACE_WORDS,
    UP_WORDS,
    VAGUE_AMOUNTS,
)
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed, read_number
from osprey_desktop.language.units import lookup_unit

NUM_PATTERN = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?"
# a number, with its unit written against it or not ("0.3A", "20mm"); never part of a name
# ("QF3", "SR01:2A:X") and never an ordinal ("3rd")
_NUMBER = re.compile(
    rf"(?<![\w.:])(?P<sign>(?:minus|negative|plus)\s+)?{NUM_PATTERN}(?P<glued>[a-zµΩ%]+)?(?![\w:])"
    rf"|\b{SPELLED_NUMBER_PATTERN}\b",
    re.I,
)


@dataclass(frozen=True)
class Quantity:
    #: factor: a scale of another channel's value ("half the ID09 gap": 0.5)
    kind: Literal["absolute", "relative", "percent", "comparative", "factor"]
    value: float | None  # relative: signed; comparative without a number: None
    unit: str | None
    words: str

    def describe(self) -> str:
        if self.value is None:
            return f"{self.kind}, no number ({self.words!r})"
        unit = f" {self.unit}" if self.unit else ""
        sign = "+" if self.kind != "absolute" and self.value > 0 else ""
        return f"{self.kind} {sign}{as_typed(self.value)}{unit}"


def _unit_after(text: str, end: int) -> tuple[str | None, int]:
    after = text[end:]
    m = re.match(r"\s*(%|[a-zµΩ]+(?:/[a-z]+)?)", after, re.I)
    if not m:
        return None, end
    word = m.group(1)
    if word == "%" or word.lower() in ("percent", "per cent", "pct"):
        return "%", end + m.end()
    if word.lower() in ("a",) and re.match(r"\s*a\s+(?:touch|bit|little|tad)", after, re.I):
        return None, end
    found = lookup_unit(word)
    return (word, end + m.end()) if found else (None, end)


def _is_target_number(text: str, start: int, end: int | None = None) -> bool:
    """A number that names a device or a place ("sector 5", "BPM 12", "first three")."""
    before = text[:start].rstrip().lower()
    ranged = re.search(
        rf"\b(?:{'|'.join(PLACE_WORDS)})\s+(?P<first>\d+)\s*(?:to|through|thru|-|and)$", before
    )
    if ranged:
        # "sectors 2 to 4"; not "the undulator in sector 9 to 25 mm": a unit makes it a value,
        # and so does a number no range could end on ("the correctors in sector 8 to zero")
        said = read_number(text[start:end]) if end is not None else None
        if said is not None and (said <= int(ranged["first"]) or said != int(said)):
            return False
        unit = re.match(r"\s*([a-zA-Zµ%]+)\b", text[end:]) if end is not None else None
        return unit is None or unit.group(1) in ("x", "y", "X", "Y") or not lookup_unit(unit[1])
    last = re.findall(r"[a-z]+$", before)
    if last and (last[0] in PLACE_WORDS or last[0] in ORDINALS or last[0].endswith("s")):
        return last[0] not in (
            *("is", "was", "its", "plus", "minus", "us", "has", "does", "this", "less", "as"),
            "times",
        )
    return bool(last and last[0] in ("number", "no", "gauge", "monitor", "corrector", "quadrupole"))


@dataclass(frozen=True)
class Amount:
    value: float
    unit: str | None
    start: int
    end: int
    words: str


def amounts(text: str) -> list[Amount]:
    out = []
    for m in _NUMBER.finditer(text):
        if _is_target_number(text, m.start(), m.end()):
            continue
        glued = m.group("glued")
        if glued and glued != "%" and lookup_unit(glued) is None:
            continue  # "3rd", "2nd": an ordinal, no amount
        number = m.group(0)[: len(m.group(0)) - len(glued)] if glued else m.group(0)
        sign = m.group("sign")
        value = read_number(number[len(sign) :] if sign else number)
        if value is None:
            continue
        if sign and not sign.lower().startswith("plus"):
            value = -value  # "to minus 0.3 A"
        unit, end = _unit_after(text, m.start() + len(number))
        if unit in ("x", "y", "X", "Y"):
            continue
        out.append(Amount(value, unit, m.start(), end, text[m.start() : end]))
    return out


#: Words that may end a request after its amount ("down some please").
_POLITE_END = frozenset({"please", "pls", "thanks", "more", "then", "now"})


def _direction(words: list[str]) -> int:
    for w in reversed(words):
        if w in UP_WORDS:
            return 1
        if w in DOWN_WORDS:
            return -1
    return 0


#: Verbs that say a direction and take an amount as the change ("raise QF3 2 A"); "open" and
#: "close" do not (is "open the gap 2 mm" to 2 mm or by 2 mm? the writer asks).
_DIRECTION_VERBS = {
    **dict.fromkeys(("increase", "raise", "rise", "boost", "bump", "up", "increment", "add"), 1),
    **dict.fromkeys(
        ("decrease", "lower", "reduce", "drop", "cut", "decrement", "diminish", "subtract"), -1
    ),
}


def _verb_direction(before_words: list[str]) -> int:
    """The sign a direction verb gives an amount that no "to", "at" or "by" marks: the verb
    leads the words before the amount (after politeness), none of them a mark."""
    for w in reversed(before_words[-6:]):
        if w in ("of", "with"):
            continue  # "decrease of 1 A the QD 10", "reduce QF 3 with 1 ampere"
        if w in ("to", "at", "by", "from", "is", "was", "than"):
            return 0
        if w in _DIRECTION_VERBS and before_words.index(w) <= 2:
            return _DIRECTION_VERBS[w]
    return 0


#: "1 mm more", "0.2 A further": the same way again, the way the verb says
_FURTHER = frozenset({"more", "further", "extra"})
#: The way a verb moves a value when "more" follows its amount ("close the gap 1 mm more").
_VERB_WAYS = {**_DIRECTION_VERBS, "open": 1, "widen": 1, "close": -1, "narrow": -1}


def _way_of_the_verb(before_words: list[str]) -> int:
    """The way the request's leading verb moves its value (0 when no such verb leads)."""
    return next((_VERB_WAYS[w] for w in before_words[:3] if w in _VERB_WAYS), 0)


def _signs_disagree(amount: Amount, used: set[str]) -> tuple[Quantity, set[str]]:
    """A negative amount with a word of direction ("lower by -1 A", "-0.1 A down") says two
    ways at once: the amount is asked, never guessed."""
    return Quantity("comparative", None, None, amount.words), used


def read_quantity(text: str, lowered_words: list[str]) -> tuple[Quantity | None, set[str]]:
    """The quantity of a request and the words it used (``text`` without its times)."""
    found = amounts(text)
    used: set[str] = set()
    if found:
        amount = found[-1]  # the last value given wins ("1.5 A, no wait, 1.2 A")
        before = text[: amount.start].lower()
        after = text[amount.end :].lower()
        before_words = re.findall(r"[a-z]+", before)
        after_words = re.findall(r"[a-z]+", after)[:2]
        used.update(re.findall(r"[a-z]+", amount.words.lower()))
        unit = amount.unit
        if unit == "%":
            sign = _direction(before_words[-8:] + after_words) or 1  # "lower the RF voltage by 2%"
            return Quantity("percent", sign * amount.value, "%", amount.words), used
        comparative = _direction(after_words)
        if comparative and before_words[-1:] != ["to"]:
            used.update(after_words[:1])
            if after_words[0] in _FURTHER:
                # "close the ID5 gap 1 mm more": further the verb's way, not "more" upwards
                comparative = _way_of_the_verb(before_words) or comparative
            if amount.value < 0:
                return _signs_disagree(amount, used)  # "-0.1 A down": which way?
            return Quantity("relative", comparative * amount.value, unit, amount.words), used
        if before_words[-1:] == ["times"] or re.search(r"(?:\s[x*×]|multiplied\s+by)\s*$", before):
            # "the same value as ID09 times 0.5": a scale of the source's value
            used.add("times")
            return Quantity("factor", amount.value, None, amount.words), used
        if before_words[-1:] == ["by"]:
            # "please lower the last horizontal corrector in sector 12 (HCM 36) by 0.3 A": the
            # verb leading a long description says the way too
            way = _direction(before_words[-8:]) or _way_of_the_verb(before_words)
            if not way and "back" in before_words[-4:-1]:
                way = -1  # "ease VCM 20 back by 0.05 A", "dial it back by 1 kHz": less
            if way and amount.value < 0:
                return _signs_disagree(amount, used)  # "lower QF3 by -1 A": which way?
            sign = way or 1
            return Quantity("relative", sign * amount.value, unit, amount.words), used
        marked = re.search(r"(?:\bto|\bat|=|->|→|:)\s*$", before)
        # "QF23 +1 A", "vcm 22 = vcm 23 + 0.05": a sign set apart from its number is an offset;
        # so is a plus after a name's colon ("QF 3: +1 A", "QF3, QF5: +1 A each"), a label
        assigned = marked and not re.search(r"[\w)]\s*:\s*$", before)
        spaced = re.search(r"[\w)]\s*\+\s*$", before) and not marked
        if spaced or (re.match(r"\+|plus\b", amount.words, re.I) and not assigned):
            return Quantity("relative", amount.value, unit, amount.words), used  # "QF23 +1 A"
        if before_words[-1:] in (["more"], ["less"], ["extra"]) and not marked:
            # "HCM3 more 0.1 A", "make HCM3 less 0.1 A": a change
            sign = -1 if before_words[-1] == "less" else 1
            used.add(before_words[-1])
            return Quantity("relative", sign * amount.value, unit, amount.words), used
        verb_sign = _verb_direction(before_words)
        if verb_sign:  # "increase HCM14 0.1 A", "drop QD16 half an amp": a change, no "by"
            return Quantity("relative", verb_sign * amount.value, unit, amount.words), used
        if before_words[-1:] == ["plus"] and before_words[-2:-1] != ["to"]:  # "QD4 plus 0.5 A"
            used.add("plus")
            return Quantity("relative", amount.value, unit, amount.words), used
        if re.match(r"(?:minus|negative)\b", amount.words, re.I) and before_words[-1:] not in (
            ["to"],
            ["at"],
        ):  # "QD4 minus 0.5 A": a change; "to minus 0.5 A" a value
            return Quantity("relative", amount.value, unit, amount.words), used
        if before_words[-1:] and before_words[-1] in ("up", "down", "dn", "dwn"):  # "up 2 kHz"
            sign = _direction(before_words[-1:])
            used.add(before_words[-1])
            return Quantity("relative", sign * amount.value, unit, amount.words), used
        return Quantity("absolute", amount.value, unit, amount.words), used
    for i, w in enumerate(lowered_words):
        rest = lowered_words[i + 1 :]
        if w == "some" and i and set(rest) <= _POLITE_END:
            # "QF3 up some", "down some please", "can we close it some?": an amount nobody
            # gave, the way said just before or by the verb (never "up some plots")
            way = next(
                (p for p in reversed(lowered_words[max(0, i - 5) : i]) if _direction([p])), None
            )
            if way is not None:
                used.update([way, w])
                return Quantity("comparative", None, None, f"{way} some"), used
        if w == "few" and i and lowered_words[i - 1] == "a":
            # "HCM 28 needs a few more mA", "a few mA lower": an amount nobody gave
            way = next((p for p in lowered_words[i + 1 : i + 4] if _direction([p])), None)
            if way is not None:
                used.update(["few", way])
                return Quantity("comparative", None, None, f"a few {way}"), used
        if w in VAGUE_AMOUNTS:
            following = lowered_words[i + 1 : i + 3]
            if _direction(following):
                used.update([w, *following[:1]])
                return Quantity("comparative", None, None, " ".join([w, *following])), used
            # "move it up a little", "down a bit": the direction before the vague amount
            preceding = [p for p in lowered_words[max(0, i - 5) : i] if p not in ("a", "an")]
            # "close it a little", "open the gap a bit": the verb's direction, two words back
            way = next((p for p in reversed(preceding) if _direction([p])), None)
            if way is not None:
                used.update([w, way])
                return Quantity("comparative", None, None, f"{way} {w}"), used
    return None, used
