"""Device names as operators type them, and values given to devices without a verb.

"qd 08" is the device QD08 but "at 5 mm" is an amount; "quad 18" names a device by the list's
words and its number; "QD08 to 98 A" gives a device a value with no verb to say so.
"""

from __future__ import annotations

import re
from functools import lru_cache

from osprey_desktop.language.clauses import is_question, negated
from osprey_desktop.language.lexicon import (
    GOLDEN_WORDS,
    GRAMMAR_WORDS,
    PLACE_WORDS,
    ROLE_WORDS,
    VALUE_OFFERS,
)
from osprey_desktop.language.numbers import SPOKEN_DEVICE_NUMBER, spoken_device_number
from osprey_desktop.language.parsed_request import Vocabulary
from osprey_desktop.language.quantities import Quantity, amounts
from osprey_desktop.language.shortenings import shortenings_of
from osprey_desktop.language.units import lookup_unit
from osprey_desktop.language.words import stem


def is_channel_word(word: str, vocabulary: Vocabulary) -> bool:
    """A word of the channel list, or one of its words shortened the way operators do ("lt"
    lifetime, "pres" pressure: ``language.shortenings``) that the grammar has no use for."""
    if word in vocabulary.channel_words:
        return True
    if word in GRAMMAR_WORDS or not vocabulary.channel_words or lookup_unit(word):
        return False
    return bool(shortenings_of(vocabulary.channel_words).meanings(word))


_SPOKEN_NUMBER = re.compile(rf"(?P<number>{SPOKEN_DEVICE_NUMBER})(?![\w-])", re.I)
#: Words that carry a number on as an amount ("two point four", "two hundred").
_AMOUNT_GOES_ON = frozenset({"point", "hundred", "thousand", "million", "and", "half", "quarter"})
_SPELLED_LETTERS = re.compile(r"\b[A-Za-z](?:\s+[A-Za-z]\b){1,3}")
#: letters as a dictation writes their names ("queue f forty seven", "vee see em thirteen",
#: "eye dee two"): each name is its letter when a run of them spells a device prefix
_LETTER_NAMES = {
    "queue": "q",
    "cue": "q",
    "vee": "v",
    "see": "c",
    "sea": "c",
    "cee": "c",
    "em": "m",
    "eye": "i",
    "dee": "d",
    "ef": "f",
    "eff": "f",
    "aitch": "h",
    "haitch": "h",
    "gee": "g",
    "jay": "j",
    "kay": "k",
    "el": "l",
    "ell": "l",
    "en": "n",
    "pee": "p",
    "are": "r",
    "ar": "r",
    "ess": "s",
    "tee": "t",
    "ex": "x",
    "why": "y",
    "zed": "z",
    "zee": "z",
    "bee": "b",
}
_LETTER_RUN = re.compile(r"\b(?:(?:[A-Za-z]|" + "|".join(_LETTER_NAMES) + r")\b\s*){2,4}", re.I)


def numbers_after_a_device(text: str, vocabulary: Vocabulary) -> str:
    """ "hcm 10 & 11 to 0.25" -> "hcm 10 and hcm 11 to 0.25": bare numbers listed after a
    device's number are devices of its family (never an amount: no unit, no decimal)."""
    if not vocabulary.device_prefixes:
        return text
    prefixes = "|".join(sorted(map(re.escape, vocabulary.device_prefixes), key=len, reverse=True))
    number = r"\d{1,3}\b(?![.:]\d|\s*(?:%|[a-zµ]{1,4}\b(?<!\band)(?<!\bto)(?<!\bor)))"
    run = re.compile(
        rf"\b(?P<prefix>{prefixes})(?P<gap>[\s-]?)(?P<first>\d{{1,3}})\b"
        # "vcm 3 + 4" lists two; "qf13 +1" is a signed amount, never QF1
        rf"(?P<rest>(?:(?:\s*(?:,|&|\band\b)|\s\+\s)\s*{number})+)",
        re.I,
    )

    def spread(m: re.Match[str]) -> str:
        others = re.findall(r"\d{1,3}", m["rest"])
        names = [f"{m['prefix']}{m['gap']}{n}" for n in [m["first"], *others]]
        return ", ".join(names[:-1]) + " and " + names[-1]

    return run.sub(spread, text)


def letter_names_read(text: str, vocabulary: Vocabulary) -> str:
    """ "queue f forty seven" -> "q f forty seven", "are f voltage" -> "r f voltage": a run of
    letters said by their names that spells a device prefix or a word of the list, its letters
    (joined later with the number after them); any other run stays as typed ("I see")."""
    if not vocabulary.device_prefixes and not vocabulary.channel_words:
        return text

    def read(m: re.Match[str]) -> str:
        tokens = m.group(0).split()
        letters = [_LETTER_NAMES.get(t.lower(), t.lower()) for t in tokens]
        if not any(t.lower() in _LETTER_NAMES for t in tokens) or any(len(x) != 1 for x in letters):
            return m.group(0)
        joined = "".join(letters)
        known = joined in vocabulary.device_prefixes or (
            joined in vocabulary.channel_words and joined not in GRAMMAR_WORDS
        )
        trailing = " " if m.group(0).endswith((" ", "\t")) else ""
        return " ".join(letters) + trailing if known else m.group(0)

    return _LETTER_RUN.sub(read, text)


def spoken_device_names(text: str, vocabulary: Vocabulary) -> str:
    """A device said the way a dictation writes it: "q d eight" -> "qd 8", "I D two" -> "id
    2", "vertical corrector zero five" -> "vertical corrector 05". Letters spelled one by one
    are joined when they make a device prefix of the list and a number follows; a number in
    words is written in digits after a device prefix or a word of the list, unless a unit
    follows it ("lifetime five hours" keeps its amount)."""
    if not vocabulary.device_prefixes and not vocabulary.channel_words:
        return text

    def letters(m: re.Match[str]) -> str:
        joined = re.sub(r"\s+", "", m.group(0))
        after = text[m.end() :]
        numbered = re.match(rf"\s+(?:\d|{SPOKEN_DEVICE_NUMBER}(?![\w-]))", after, re.I)
        if joined.lower() in vocabulary.device_prefixes and numbered:
            return joined
        if joined.lower() in vocabulary.channel_words and joined.lower() not in GRAMMAR_WORDS:
            return joined  # "the R F voltage"
        return m.group(0)

    text = _SPELLED_LETTERS.sub(letters, text)
    out: list[str] = []
    at = 0
    for word in re.finditer(r"[A-Za-z]+", text):
        if word.start() < at:
            continue
        name = word.group(0).lower()
        if name not in vocabulary.device_prefixes and not (
            name in vocabulary.channel_words and name not in GRAMMAR_WORDS
        ):
            continue  # "to two point four": a value, after a word of the grammar
        gap = re.match(r"\s+", text[word.end() :])
        if gap is None:
            continue
        start = word.end() + gap.end()
        spoken = _SPOKEN_NUMBER.match(text, start)
        if spoken is None:
            continue
        digits = spoken_device_number(spoken.group("number"))
        following = re.match(r"\s*([A-Za-zµ%]+)(\s+[A-Za-z])?", text[spoken.end() :])
        after = following.group(1).lower() if following else ""
        if after in ("a", "an") and following.group(2):
            after = ""  # "VCM twenty a little lower": an article, not amperes
        if after == "and" and not re.match(
            r"\s*and\s+(?:a\b|an\b|half|quarter|\d)", text[spoken.end() :], re.I
        ):
            after = ""  # "hcm seven and hcm eight": the next item, not "seven and a half"
        if digits is None or after in _AMOUNT_GOES_ON or lookup_unit(after):
            continue  # "lifetime five hours", "voltage two point four": amounts
        out.append(text[at:start] + digits)
        at = spoken.end()
    return "".join(out) + text[at:]


def join_device_names(text: str, vocabulary: Vocabulary) -> str:
    """ "qd 08" -> "QD08", "hcm 5" -> "HCM5": a device prefix of the facility, a space, and a
    number that is not an amount (no unit after it)."""
    if not vocabulary.device_prefixes:
        return text
    prefixes = "|".join(sorted(map(re.escape, vocabulary.device_prefixes), key=len, reverse=True))
    # "qd 08", "HCM-14", "vcm_3", "QF #7": a space, a dash or a mark between name and number
    pattern = re.compile(
        rf"\b({prefixes})(?:\s*[-#_]\s*|\s+)(\d{{1,3}})\b(?!\.\d)(?!\s*[-–]\s*\d)", re.I
    )

    def join(m: re.Match[str]) -> str:
        after = text[m.end() :].lstrip()
        unit = re.match(r"[a-zµ%]+", after, re.I)
        word = unit.group(0).lower() if unit else ""
        if word and lookup_unit(word) and word not in ("a", "x", "y"):
            return m.group(0)  # "at 5 mm": an amount, not a device number
        return f"{m.group(1).upper()}{m.group(2)}"

    return pattern.sub(join, text)


# Words after which a number is an amount ("above 0.5", "at 1.2", "by 2"), not a device's number.
_AMOUNT_MARKERS = frozenset(
    (
        *("at", "to", "by", "above", "below", "over", "under", "than", "is", "was", "are"),
        *("equals", "equal", "from", "between", "plus", "minus", "about", "around", "near"),
        *("exceeds", "exceeded", "reach", "reached"),
    )
)


def names_a_device(
    text: str, quantity: Quantity | None, changes: bool, reads: bool = False
) -> bool:
    """Whether the request's only number names a device ("focusing quad 18 current", "QF 18")
    rather than giving an amount: nothing is changed, the number has no unit, and it follows a
    name word instead of a word that introduces an amount."""
    if changes or quantity is None or quantity.kind != "absolute" or quantity.unit:
        return False
    found = [a for a in amounts(text) if a.unit is None]
    if not found or "." in found[0].words:
        return False  # "hcm15 .25": a decimal point names no device
    if _device_range_end(text[: found[0].start], found[0].value, reads):
        return True  # "read HCM 25 to 27", "horizontal correctors 25 through 27": 25-27
    before = re.findall(r"[A-Za-z][\w-]*|[^\w\s]", text[: found[0].start])
    run = list(before)
    while run and run[-1].lower() in (",", "and", "or", "&"):
        run.pop()
    if run and re.search(r"\d$", run[-1]):
        before = run  # "VCM3, 4 and 5": the numbers continue a device name ("ok, 0.55" does not)
    listed = re.findall(r"[A-Za-z][\w-]*|\d+|[^\w\s]", text[: found[0].start])
    while listed and (listed[-1].isdigit() or listed[-1].lower() in (",", "and", "or", "&")):
        listed.pop()
    numbers_before = re.findall(r"\d+", text[: found[0].start])
    if (
        numbers_before
        and listed
        and re.search(r"(?:\d|,)\s*(?:and|or|&)?\s*$", text[: found[0].start])
    ):
        before = listed  # "sectors 1, 2 and 3": a list of numbers after a name word
    return (
        bool(before)
        and before[-1][0].isalpha()
        and before[-1].lower() not in _AMOUNT_MARKERS
        and before[-1].lower() not in VALUE_OFFERS
    )


def _device_range_end(before: str, value: float | None, reads: bool) -> bool:
    """The number ends a range of device numbers begun just before ("25 to", "HCM25 through",
    a smaller first number) in a request that changes nothing and reads (a reading verb, or
    devices named in the plural: "correctors 25 to 27"). Without either, "HCM01 to 2" is the
    terse form of a change, and is read as one."""
    begun = re.search(
        r"(?:^|(?P<name>[A-Za-z]+)\s*|\s)(?P<first>\d{1,3})\s*(?:to|through|thru|till|until|-)\s*$",
        before,
    )
    if begun is None or value is None or value != int(value):
        return False
    plural = (begun.group("name") or "").lower()
    if not reads and not (len(plural) > 3 and plural.endswith("s")):
        return False
    return 0 <= int(value) - int(begun.group("first")) <= _MAX_RANGE


_MAX_RANGE = 99


def names_a_channel(clause: str, vocabulary: Vocabulary) -> bool:
    """A device name or a word of the channel list, and no amount ("HCM 7 readback please")."""
    if amounts(clause):
        return False
    words = re.findall(r"[a-z]+\d*", clause.lower())
    return any(re.fullmatch(r"[a-z]{1,5}\d+", w) or w in vocabulary.channel_words for w in words)


_WHAT_IS_BARE = re.compile(
    r"^(?:what\s+is|what'?s|what\s+are)\s+(?!(?:the|a|an|this|that|these|those|our|my|its|"
    r"your)\b)(?P<what>[a-z][a-z -]{0,40}?)\s*[?.!]*$",
    re.I,
)


def names_a_concept(text: str, vocabulary: Vocabulary) -> bool:
    """ "what is emittance?": one bare noun the channel list has no word for is a concept to
    explain ("what is lifetime?" names a channel; "what is the chromaticity" a channel the
    list may lack, asked of the finder)."""
    found = _WHAT_IS_BARE.match(text.strip())
    if found is None or not vocabulary.channel_words:
        return False
    words = re.findall(r"[a-z]+", found.group("what").lower())
    known = vocabulary.channel_words | vocabulary.device_prefixes
    return len(words) == 1 and not any(w in known or stem(w) in stems(known) for w in words)


#: "HCM4 back to its 10:00 value", "HCM2 to golden": a device given a value from elsewhere, no verb
GIVEN_A_REFERENCE = re.compile(
    r"^\W*(?:the\s+)?[A-Za-z]{1,5}\d{1,3}\b[^,;?]*?\s(?:back\s+(?:to|the\s+way|where|how|as|like)\b|"
    r"to\s+(?:its\s+|their\s+|the\s+)?"
    rf"(?:{'|'.join(sorted(GOLDEN_WORDS))})\b)",
    re.I,
)


_MARK_BEFORE = re.compile(r"(?:\bto|\bat|->|→|:?=|:)\s*$", re.I)


_COMPARED_BEFORE = re.compile(
    r"(?:\b(?:below|above|under|over|beyond|exceeding|exceeds?|(?:less|more|greater|higher|lower|"
    r"bigger|smaller)\s+than)|(?<![-=])[<>]|[≤≥])\s*(?:about\s+|around\s+)?[-+−]?\s*$",
    re.I,
)


def gives_a_value(
    text: str,
    quantity: Quantity | None,
    verb: str | None,
    unknown: list[str],
    targets: tuple[str, ...],
    vocabulary: Vocabulary,
) -> bool:
    """A statement without a verb that gives a device a value: an absolute amount with a unit
    or after "to", "at", "=", "->", ":", and a target naming a device (a name with a number,
    or a family the list abbreviates). Not a question, not negated."""
    if verb is not None or unknown or quantity is None or quantity.kind != "absolute":
        return False
    if is_question(text) or negated(text) or not targets:
        return False
    found = amounts(text)
    if not found:
        return False
    if _COMPARED_BEFORE.search(text[: found[-1].start]):
        return False  # "the current below 490 mA": a threshold, never a value given
    marked = bool(_MARK_BEFORE.search(text[: found[-1].start]))
    if not (marked or quantity.unit):
        return False  # "HCM01 1.5": a bare number after a name gives no value (it is read)
    before = re.search(r"\b(\d+)\s*(?:to|through|thru|-|–)\s*$", text[: found[-1].start])
    last = found[-1]
    if before and last.unit is None and last.value == int(last.value) > int(before.group(1)):
        return False  # "BPMs 1 to 3", "correctors 5 to 8": a range of devices, no value
    for target in targets:
        if re.search(r"[A-Za-z]{2,5}\d", target):
            return True
        if any(w.lower() in vocabulary.device_prefixes for w in re.findall(r"[A-Za-z]+", target)):
            return True
        if _described_device(target, vocabulary):
            return True
        ranged = re.search(r"\b\d{1,3}\s+(?:through|thru)\s+\d{1,3}\b", target)
        words = {stem(w.lower()) for w in re.findall(r"[A-Za-z]+", target)}
        if ranged and words & {stem(w) for w in vocabulary.channel_words}:
            return True  # "vertical correctors 31 through 33 to 0.05 A": each of those devices
    # "RF voltage 2.6 MV": one channel named by the list's words alone, given an amount in a
    # unit; the writer then asks, or refuses when nothing there can be written
    named = [w.lower() for t in targets for w in re.findall(r"[A-Za-z]+", t)]
    named = [w for w in named if w not in ("the", "a", "an", "of")]
    # "quad SP → 121A": a role beside the list's words names which channel of them, and
    # "the gap in sector 9 -> 25 mm": where it is names which one
    words = [w for w in named if w not in ROLE_WORDS | PLACE_WORDS and w not in ("in", "at", "on")]
    return bool(
        (quantity.unit or re.search(r"(?:->|→|:?=)\s*$", text[: found[-1].start]))
        and len(targets) == 1
        and words
        and vocabulary.channel_words
        and all(is_channel_word(w, vocabulary) for w in words)
    )


def offers_a_bare_value(
    text: str, quantity: Quantity | None, verb: str | None, targets: tuple[str, ...]
) -> bool:
    """ "HCM01 1.5", "qf5 -0.3": one device named by its name, then a number with a decimal
    point or a sign and nothing else: a value meant for it, or a slip? Asked, never written
    and never silently read. Not a question, not negated, no verb, no unit, no "to"."""
    if verb is not None or quantity is None or quantity.kind != "absolute" or quantity.unit:
        return False
    if is_question(text) or negated(text) or len(targets) != 1:
        return False
    if not re.fullmatch(r"[A-Za-z]{1,5}\s?\d{1,3}", targets[0].strip()):
        return False
    # the device's own number is no amount ("HCM 12 0.4": only 0.4 is)
    named = re.match(r"\s*[A-Za-z]{1,5}\s?\d{1,3}\b", text)
    rest = text[named.end() :] if named else text
    found = amounts(rest)
    text = rest
    return (
        len(found) == 1
        and bool(re.search(r"\.|^[-+−]", found[0].words.strip()))
        and not _MARK_BEFORE.search(text[: found[0].start])
        and not text[found[0].end :].strip(" .!")
    )


def _described_device(target: str, vocabulary: Vocabulary) -> bool:
    """A device named by the list's words and its number ("horizontal corrector 14",
    "quad 18"): a channel word right before the number, not a place ("sector 4")."""
    for word, _ in re.findall(r"\b([a-z]+)\s+(\d{1,3})\b(?!\.\d)", target.lower()):
        # "vertical correctors 19, 20, 21": a plural of a word of the list names devices too
        single = word[:-1] if word.endswith("s") and len(word) > 3 else word
        if word in PLACE_WORDS or single in PLACE_WORDS:
            continue
        if is_channel_word(word, vocabulary) or is_channel_word(single, vocabulary):
            return True
    return False


@lru_cache(maxsize=4)
def stems(words: frozenset[str]) -> frozenset[str]:
    """The stems of a channel list's words, kept: the parse asks for them per word."""
    return frozenset(stem(w) for w in words)


#: Verbs that name a change in any of their forms ("setting", "raised", "give").
_CHANGE_FORMS = frozenset(
    stem(v)
    for v in (
        *("set", "put", "give", "raise", "lower", "increase", "decrease", "reduce", "change"),
        *("move", "adjust", "bump", "nudge", "open", "close", "apply", "ramp", "trim", "tweak"),
    )
)
_STATED = re.compile(
    r"\b(?:was|were|been|is|are|got|has|have|had)\s+(?:\w+\s+)?(?P<word>[a-z]+)\b", re.I
)
_ASKS_FOR_ACTION = re.compile(
    r"\b(?:can|could|would|will|shall|may)\s+(?:we|you|i|someone|somebody)\b|"
    r"\bgo\s+ahead\b|\b(?:might|may|would)\s+be\s+worth\b",
    re.I,
)
_STATE_QUESTION = re.compile(r"^\W*(?:is|are|was|were|does|do|did|has|have)\b", re.I)


def hints_a_change(
    text: str, quantity: Quantity | None, changes: bool, targets: tuple[str, ...]
) -> bool:
    """A value with its unit and a change verb that the parse did not read as the request's
    change ("The beamline at ID07 is asking for a 10 mm gap, can we give them that?",
    "worth checking the ID04 gap before setting it to 20 mm"): asked, never only read. Not a
    question of state ("is HCM3 set to 0.5 A?"), a statement ("QF3 was raised by 1 A"), or a
    refusal."""
    if changes or quantity is None or not quantity.unit or not targets:
        return False
    if _STATE_QUESTION.match(text) or negated(text):
        return False
    if is_question(text) and not _ASKS_FOR_ACTION.search(text):
        return False  # "which correctors changed by more than 0.5 A today?": about the past
    text = re.sub(r"\bgive\s+(?:me|us)\b", " ", text, flags=re.I)  # "give me X": a reading
    stated = {stem(m["word"].lower()) for m in _STATED.finditer(text)}
    words = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    return bool((words & _CHANGE_FORMS) - stated)
