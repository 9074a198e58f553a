"""Read the value(s) a write request asks for: "set HCM01 to 1.5 A", "increase ... by 0.2".

Pure and deterministic. A request without a value raises ``MissingWriteValue`` (the
capability turns it into a question); units are converted to the channel's own units, and a
unit that does not fit the channel is an error rather than a guess.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from typing import Literal

from osprey_desktop.language import units
from osprey_desktop.language.lexicon import NO_WAY_VERBS
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed, read_number
from osprey_desktop.language.write_states import parse_state_request

Mode = Literal["absolute", "delta", "percent", "state"]


class WriteRequestError(ValueError):
    """The write request cannot be turned into values; the message says what is missing."""


class MissingWriteValue(WriteRequestError):
    """The request names a change but no value ("set HCM01", "increase the gap")."""


class UnitMismatch(WriteRequestError):
    """The value's unit cannot be converted to the channel's unit."""


@dataclass(frozen=True)
class ValueSpec:
    """One value the request gives: for which words, absolute or a change, in which unit."""

    target: str
    mode: Mode
    amount: float
    unit: str | None
    text: str
    #: mode "state": the state word or verb ("open", "off", "Fast"), matched against the
    #: channel's own states when the write is prepared (``write_states.resolve_state``).
    state: str | None = None

    def describe(self) -> str:
        if self.mode == "state":
            return f"to {self.state}"
        unit = f" {self.unit}" if self.unit else ""
        if self.mode == "absolute":
            return f"to {as_typed(self.amount)}{unit}"
        if self.mode == "percent":
            return f"by {'+' if self.amount >= 0 else ''}{as_typed(self.amount)}%"
        return f"by {'+' if self.amount >= 0 else ''}{as_typed(self.amount)}{unit}"


def lookup_unit(unit: str) -> tuple[str, float] | None:
    """(base unit, scale to base) for a unit as typed; "MV"/"mV" keep their case."""
    return units.lookup_unit(unit)


def convert_units(
    amount: float, typed_unit: str | None, channel_unit: str, *, delta: bool = False
) -> float:
    """``amount`` given in ``typed_unit``, expressed in ``channel_unit`` (through pint)."""
    try:
        return units.convert(amount, typed_unit, channel_unit, delta=delta)
    except units.UnitConversionError as exc:
        raise UnitMismatch(str(exc)) from exc


_UNSIGNED = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_NUM = r"(?:[-+−]\s?)?" + _UNSIGNED
_VALUE = rf"(?P<num>{_NUM}|(?:minus|negative)\s+{_UNSIGNED}|{SPELLED_NUMBER_PATTERN})"
_UNIT = r"(?:\s*(?P<unit>%|[a-zA-Zµ]+\b))?"
_NOT_CLOCK = r"(?!\d|\.\d|\s*:\d)"  # "at 10:00" is a time, not a value
_END = r"(?![\w:])"  # "SR01:2A:X" and "XF:23ID1" hold no value
_UP = r"increase|raise|increment|bump\s+up|bump|up|higher|open"
_DOWN = r"decrease|lower|reduce|decrement|bump\s+down|down|drop|close"
_VERBS = r"set|change|put|move|ramp|adjust|write|zero|make|bring|return|drive|take|nudge|tweak|trim"
# "assign": "X to 1.5 A", "X at 0.3 A", "X -> 1.2", "X = 2", "X := 2", "ID05 gap: 21.5 mm".
_MARK = r"(?P<mark>\b(?:to|at)\s+|(?:->|→|:=|=)\s*|(?<=[^\W\d_]):\s*|(?<!:):\s+)"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # "add 0.1 A to HCM01", "subtract 2 mm from the gap": the target follows.
    (
        "add",
        re.compile(rf"\b(?P<verb>add|subtract|remove)\s+{_VALUE}{_UNIT}\s+(?:to|from)\b", re.I),
    ),
    # "write 0.1 to X", "put 2 A on it": the target follows.
    ("put", re.compile(rf"\b(?:write|put|apply)\s+{_VALUE}{_UNIT}\s+(?:to|on|into)\b", re.I)),
    # "... by 0.2 A" after a direction verb.
    ("by", re.compile(rf"\bby\s+{_VALUE}{_NOT_CLOCK}{_UNIT}{_END}", re.I)),
    ("assign", re.compile(rf"{_MARK}{_VALUE}{_NOT_CLOCK}{_UNIT}{_END}", re.I)),
    # "HCM01 1.5 A", "set ID05 gap 21.5mm": right after a device's name (see _after_name).
    ("after_name", re.compile(rf"(?<=\w)\s+{_VALUE}{_NOT_CLOCK}{_UNIT}{_END}", re.I)),
    # "zero HCM05", "zero the correctors in sector 2".
    ("zero", re.compile(r"\b(?P<verb>zero)\s+(?=\S)", re.I)),
]
_LEAD_WORDS = re.compile(
    r"^(?:\s|,|and|then|also|please|now|could you|can you|go|it's|it|the|a|"
    + _VERBS
    + "|"
    + _UP
    + "|"
    + _DOWN
    + r")+\b",
    re.I,
)
_AND_VERB = r"\band\s+(?=(?:then\s+)?(?:" + _VERBS + "|" + _UP + "|" + _DOWN + r")\b)"
_TRAIL_WORDS = re.compile(r"(?:\s|,|and|then|up|down|back|please)+$", re.I)
_NOT_UNIT_WORDS = "and then on for in please at to now from with if or but instead again each"
_NOT_UNITS = frozenset(_NOT_UNIT_WORDS.split())
# "I want HCM02 at 0.4 A", "we need the ID04 gap at 20 mm": a wish for a value is a command
_WISH = r"(?:i|we)(?:'d|\s+would)?\s+(?:want|need|like)"
_CHANGE_WORDS = re.compile(rf"\b(?:{_VERBS}|{_UP}|{_DOWN}|{_WISH})\b", re.I)
_CLAUSE_BREAK = r"[.;?!](?!\d)|\bthen\b"
# A device named with its number, then at most two words for the field ("ID05 gap").
_DEVICE_NAME = re.compile(
    r"^(?:the\s+)?(?=[\w:\-]*[a-z])(?=[\w:\-]*\d)[\w:\-]+(?P<fields>(?:\s+[a-z]+){0,2})$", re.I
)
_NOT_FIELD_WORDS_TEXT = """is are was were be been being at to of in on for from than by with
about over under above below near around since until after before last past next each every all"""
_NOT_FIELD_WORDS = frozenset(_NOT_FIELD_WORDS_TEXT.split())
# What may follow a value given right after a name: the end of the clause.
_CLAUSE_END = re.compile(r"\s*(?:$|[,;!?]|\.(?!\d)|(?:and|then|please|now)\b)", re.I)
_ENDS_WITH_NUMBER = re.compile(
    rf"(?:^|\s)(?:[-+]?\d+(?:[.:]\d+)?|{SPELLED_NUMBER_PATTERN})\s*$", re.I
)
#: Units of time and percentages are not given right after a name ("HCM01 2 hours" is a
#: history, "lifetime 50%" no setting); they need "to", "=" or "by".
_NOT_AFTER_NAME = frozenset({"s", "%"})
#: "open the gap 2 mm": to 2 mm, or by 2 mm? Asked, never guessed.
_TO_OR_BY = frozenset({"open", "close"})


class AmbiguousWriteValue(MissingWriteValue):
    """The value could be the new value or the change ("open the gap 2 mm")."""


# "set HCM01 to 1.5 A, no wait, 1.2 A": the operator corrects the value as they type
CORRECTION = (
    r"(?:no[,\s]+wait|no[,\s]+sorry|sorry|i\s+mean|i\s+meant|actually|correction|"
    r"make\s+(?:that|it)|rather|oops)"
)
_CORRECTED = re.compile(
    rf"^(?P<before>.*?)(?P<old>{_NUM}|{SPELLED_NUMBER_PATTERN})(?:\s*[a-zA-Zµ%]+)?\s*[,;.!-]*\s*"
    rf"\b{CORRECTION}\b[\s,:;.!-]*(?P<new>(?:{_NUM}|{SPELLED_NUMBER_PATTERN})(?:\s*[a-zA-Zµ%]+)?)"
    r"\s*[.!]*$",
    re.I | re.S,
)


#: a comparative with no amount ("a bit smaller", "a little higher")
_COMPARED_ONLY = re.compile(
    r"\b(?:a\s+(?:bit|little|touch|tad|notch)|slightly|somewhat)\s+(?:more\s+|less\s+)?"
    r"(?P<cmp>higher|lower|smaller|larger|bigger|wider|narrower|more|less|up|down)\b"
    # "lower HCM3 a little": the verb says which way, the vague amount comes after its object
    r"|\b(?P<verb>raise|lower|increase|decrease|reduce|open|close|widen|narrow)\b[^.,;?!]{0,40}?"
    r"\b(?:a\s+(?:bit|little|touch|tad|notch)|slightly|somewhat)\b",
    re.I,
)


def corrected(text: str) -> str:
    """``text`` with a value the operator corrected replaced by the correction."""
    found = _CORRECTED.match(text.strip())
    return f"{found.group('before')}{found.group('new')}" if found else text


def parse_write_request(text: str) -> list[ValueSpec]:
    """Every value ``text`` asks to write, in order; ``MissingWriteValue`` when there is none.

    Each value's ``target`` holds the words naming its channel: the words since the previous
    value for "X to 1" / "X by 1" / "X 1 A", the words after it for "add 1 to X".

    Without a change verb before it in its clause, a value needs an unmistakable cue: an
    assignment sign ("X = 2", "X -> 2", "X: 2"), "to" after a name (not after a number:
    "sectors 2 to 4" is a range), or a unit of a setting right after a device named with its
    number ("HCM01 1.5 A"). A bare number after a name ("HCM01 1.5") is a value only after a
    change verb ("set HCM01 1.5").
    """
    text = corrected(text)
    looked_up = _TextIndex(text)
    found: list[tuple[int, int, str, re.Match[str]]] = []  # kept sorted, never overlapping
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            at = bisect.bisect_left(found, m.start(), key=lambda item: item[0])
            overlaps = (at > 0 and found[at - 1][1] > m.start()) or (
                at < len(found) and found[at][0] < m.end()
            )
            if not overlaps and _is_value(kind, m, text, looked_up):
                found.insert(at, (m.start(), m.end(), kind, m))
    if not found:
        state = parse_state_request(text)
        if state is not None:  # "open the cooling valve", "turn the heater off"
            target, word, words = state
            return [ValueSpec(target, "state", math.nan, None, words, state=word)]
        compared = _COMPARED_ONLY.search(text)
        if compared:
            # "make the gap on ID07 a bit smaller": how much, in the operator's own word
            said = (compared["cmp"] or compared["verb"]).lower()
            raise MissingWriteValue(
                f"“{said}” says no amount: say by how much (for example 'by 0.1 A') or the "
                "value to set (for example 'to 1.5 A')"
            )
        verb = _CHANGE_WORDS.search(text)
        what = f"'{verb.group(0)}'" if verb else "the change"
        raise MissingWriteValue(
            f"{what} needs a value: say for example 'set HCM01 to 1.5 A' or "
            "'increase HCM01 by 0.1 A'"
        )
    specs = []
    cursor = 0
    for index, (start, end, kind, m) in enumerate(found):
        following = found[index + 1][0] if index + 1 < len(found) else len(text)
        if kind in ("add", "put", "zero"):
            target = _after(text[end:following])
        else:
            target = _before(text[cursor:start])
        specs.append(_spec(kind, m, looked_up, target))
        cursor = end
    return specs


class _TextIndex:
    """Where the clause breaks, change words and direction words of a text are, found once,
    so each candidate value looks back in constant or logarithmic time: a look back over the
    whole text before every value would be quadratic in a long request."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.breaks = [m.end() for m in re.finditer(_CLAUSE_BREAK, text, flags=re.I)]
        self.changes = [m.start() for m in _CHANGE_WORDS.finditer(text)]
        self.directions = [
            (m.start(), m.group(0).lower(), 1.0 if m.group("up") else -1.0)
            for m in _DIRECTION.finditer(text)
        ]

    def clause_start(self, at: int) -> int:
        """Where the clause holding position ``at`` starts (after the last break before it)."""
        i = bisect.bisect_right(self.breaks, at) - 1
        return self.breaks[i] if i >= 0 else 0

    def recent_clause(self, at: int) -> str:
        """The end of the clause before ``at``: its last ``_LOOK_BACK`` characters, from a
        word's start (what is looked for there, a name or a number, is short)."""
        start = self.clause_start(at)
        if at - start > _LOOK_BACK:
            space = self.text.find(" ", at - _LOOK_BACK, at)
            start = at if space < 0 else space + 1
        return self.text[start:at]

    def commanded(self, at: int) -> bool:
        """Whether a change word starts in the clause before ``at``."""
        i = bisect.bisect_left(self.changes, self.clause_start(at))
        return i < len(self.changes) and self.changes[i] < at

    def last_direction(self, at: int, since: int = 0) -> tuple[str, float] | None:
        """The last direction word ("raise", "lower") wholly before ``at``, from ``since``."""
        i = bisect.bisect_left(self.directions, (at,)) - 1
        while i >= 0:
            start, word, sign = self.directions[i]
            if start < since:
                return None
            if start + len(word) <= at:
                return word, sign
            i -= 1
        return None


#: How far back a number ending a clause or a device name before a value is looked for.
_LOOK_BACK = 200


def _unit_of(m: re.Match[str]) -> str | None:
    unit = m.groupdict().get("unit")
    if unit and lookup_unit(unit) is None and unit.lower() in _NOT_UNITS:
        return None  # the next word ("and", "then") is not a unit
    return unit


def _is_value(kind: str, m: re.Match[str], text: str, index: _TextIndex) -> bool:
    """Whether a candidate is a value the operator gives (see parse_write_request)."""
    if kind not in ("assign", "by", "after_name"):
        return True
    clause = index.recent_clause(m.start())
    commanded = index.commanded(m.start())
    unit = _unit_of(m)
    if kind == "after_name":
        return _after_name(m, text, clause, commanded, unit)
    if commanded:
        return True
    mark = (m.groupdict().get("mark") or "").strip().lower()
    if mark in ("=", "->", "→", ":="):
        return True  # an assignment is a command whatever follows
    if mark == "at":
        return False  # "HCM01 at 1.5 A" states a value, it does not ask for one
    ended = _ENDS_WITH_NUMBER.search(clause) if mark == "to" else None
    if ended is not None and (
        re.search(r"\bfrom\s*$", clause[: ended.start()])  # "from zero up to 0.8": a move
        or not _no_range_end(ended.group(0), m.group("num"))
    ):
        return False  # "sectors 2 to 4", "from 10:00 to 12:00": a range
    return unit is None or lookup_unit(unit) is not None


def _no_range_end(before: str, said: str) -> bool:
    """ "the correctors in sector 8 to 0 A": a number no range from ``before`` ends on (not
    above it, or not whole) is a value."""
    if ":" in before:
        return False  # "from 10:00 to 12:00"
    start, end = read_number(before.strip()), read_number(said.strip())
    return start is not None and end is not None and (end <= start or end != int(end))


def _after_name(
    m: re.Match[str], text: str, clause: str, commanded: bool, unit: str | None
) -> bool:
    rest = text[m.end() if unit else m.end("num") :]
    if not _CLAUSE_END.match(rest):
        return False
    name = _DEVICE_NAME.match(_clean(re.split(r"\band\b|,", clause, flags=re.I)[-1]))
    if name is None or not all(map(_is_field_word, name.group("fields").split())):
        return False
    if unit is None:  # a bare number: only after a change verb, and only in digits
        return commanded and re.fullmatch(_NUM, m.group("num").strip()) is not None
    known = lookup_unit(unit)
    return known is not None and known[0] not in _NOT_AFTER_NAME


def _is_field_word(word: str) -> bool:
    """A word naming a device's field ("gap", "setpoint"), not a verb ("was", "jumped")."""
    word = word.lower()
    return word not in _NOT_FIELD_WORDS and not word.endswith(("ed", "ing"))


def _spec(kind: str, m: re.Match[str], index: _TextIndex, target: str) -> ValueSpec:
    fragment = m.group(0).strip()
    if kind == "zero":
        return ValueSpec(target, "absolute", 0.0, None, fragment)
    amount = _number(m.group("num"))
    unit = _unit_of(m)
    # Any other word after the number is kept as its unit: "5 furlongs" must not become 5 A.
    if kind == "after_name":
        direction = index.last_direction(m.start(), since=index.clause_start(m.start()))
        if direction is not None and direction[0] in _TO_OR_BY:
            raise AmbiguousWriteValue(
                f"'{direction[0]} ... {fragment}' could mean to {fragment} or by {fragment}: "
                f"say '{direction[0]} ... to {fragment}' or '{direction[0]} ... by {fragment}'"
            )
        if direction is not None:  # "raise HCM03 200 mA": a change, like "by"
            kind = "by"
        elif m.group("num").lstrip().startswith("+"):
            kind = "by"  # "QF13 +0.5 A; QF15 +0.5 A": a signed plus is a change, as alone
    if kind in ("add", "by"):
        if kind == "add":
            sign = -1.0 if m.group("verb").lower() in ("subtract", "remove") else 1.0
            amount *= sign
        else:
            direction = index.last_direction(m.start())
            if direction is not None:
                amount = abs(amount) * direction[1]
            elif not re.match(r"\s*[-+−]", m.group("num")) and _NO_WAY_VERB.search(
                index.text[index.clause_start(m.start()) : m.start()]
            ):
                # "change QF 41 by 0.5 A", "move the ID 9 gap by 3 mm": no way is said
                said = re.sub(r"^\s*by\s+", "", fragment.strip(), flags=re.I)
                raise MissingWriteValue(
                    f"“by {said}” says no way: say up or down (for example 'increase … by "
                    f"{said}' or 'decrease … by {said}')"
                )
        percent = unit is not None and (lookup_unit(unit) or ("",))[0] == "%"
        mode: Mode = "percent" if percent else "delta"
        return ValueSpec(target, mode, amount, unit, fragment)
    return ValueSpec(target, "absolute", amount, unit, fragment)


#: verbs of a change that say no way ("change", "move", "adjust", "trim by 0.5 A")
_NO_WAY_VERB = re.compile(rf"\b(?:{'|'.join(sorted(NO_WAY_VERBS))})\b", re.I)


def _number(raw: str) -> float:
    number = read_number(raw)
    if number is None:  # the patterns only match numbers read_number reads
        raise WriteRequestError(f"'{raw}' is not a number")
    return number


_DIRECTION = re.compile(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b", re.I)


def _before(segment: str) -> str:
    """The words naming the target: the last clause before the value."""
    clause = re.split(r"[.;?!]|\bthen\b|" + _AND_VERB, segment, flags=re.I)[-1]
    return _clean(clause)


def _after(segment: str) -> str:
    clause = re.split(r"[.;?!]|\band\b|\bthen\b", segment, maxsplit=1, flags=re.I)[0]
    return _clean(clause)


def _clean(words: str) -> str:
    words = _LEAD_WORDS.sub("", words.strip())
    return _TRAIL_WORDS.sub("", words).strip()


__all__ = [
    "AmbiguousWriteValue",
    "MissingWriteValue",
    "UnitMismatch",
    "ValueSpec",
    "WriteRequestError",
    "convert_units",
    "lookup_unit",
    "parse_write_request",
]
