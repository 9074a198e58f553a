"""Read the value(s) a write request asks for: "set HCM01 to 1.5 A", "increase ... by 0.2".

Pure and deterministic. A request without a value raises ``MissingWriteValue`` (the
capability turns it into a question); units are converted to the channel's own units, and a
unit that does not fit the channel is an error rather than a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Mode = Literal["absolute", "delta", "percent"]


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

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.mode == "absolute":
            return f"to {self.amount:g}{unit}"
        if self.mode == "percent":
            return f"by {self.amount:+g}%"
        return f"by {self.amount:+g}{unit}"


_UNIT_TABLE: dict[str, tuple[str, float]] = {}


def _units(base: str, scale: float, *spellings: str) -> None:
    for spelling in spellings:
        _UNIT_TABLE[spelling] = (base, scale)


_units("A", 1.0, "a", "amp", "amps", "ampere", "amperes")
_units("A", 1e-3, "ma", "milliamp", "milliamps", "milliampere", "milliamperes")
_units("A", 1e-6, "ua", "µa", "microamp", "microamps")
_units("A", 1e3, "ka", "kiloamp", "kiloamps")
_units("m", 1.0, "m", "meter", "meters", "metre", "metres")
_units("m", 1e-3, "mm", "millimeter", "millimeters", "millimetre", "millimetres")
_units("m", 1e-6, "um", "µm", "micron", "microns", "micrometer", "micrometers")
_units("m", 1e-9, "nm", "nanometer", "nanometers")
_units("m", 1e-2, "cm")
_units("Hz", 1.0, "hz", "hertz")
_units("Hz", 1e3, "khz", "kilohertz")
_units("Hz", 1e6, "mhz", "megahertz")
_units("Hz", 1e9, "ghz", "gigahertz")
_units("V", 1.0, "v", "volt", "volts")
_units("V", 1e3, "kv", "kilovolt", "kilovolts")
_units("V", 1e6, "MV", "megavolt", "megavolts")
_units("V", 1e-3, "mV", "millivolt", "millivolts")
_units("eV", 1.0, "ev")
_units("eV", 1e3, "kev")
_units("eV", 1e6, "mev")
_units("eV", 1e9, "gev")
_units("s", 1.0, "s", "sec", "secs", "second", "seconds")
_units("s", 1e-3, "ms")
_units("s", 3600.0, "h", "hr", "hrs", "hour", "hours")
_units("Torr", 1.0, "torr")
_units("Torr", 0.750062, "mbar")
_units("Torr", 0.00750062, "pa")
_units("rad", 1.0, "rad")
_units("rad", 1e-3, "mrad")
_units("rad", 1e-6, "urad", "µrad")
_units("%", 1.0, "%", "percent")


def lookup_unit(unit: str) -> tuple[str, float] | None:
    """(base unit, scale to base) for a unit as typed; "MV"/"mV" keep their case."""
    unit = unit.strip()
    return _UNIT_TABLE.get(unit) or _UNIT_TABLE.get(unit.lower())


def convert_units(amount: float, typed_unit: str | None, channel_unit: str) -> float:
    """``amount`` given in ``typed_unit``, expressed in ``channel_unit``."""
    if not typed_unit:
        return amount
    typed = lookup_unit(typed_unit)
    target = lookup_unit(channel_unit) if channel_unit else None
    if not channel_unit:
        raise UnitMismatch(
            f"the channel has no units, so '{typed_unit}' cannot be converted: give the bare number"
        )
    if typed is None or target is None or typed[0] != target[0]:
        raise UnitMismatch(
            f"'{typed_unit}' cannot be converted to the channel's unit '{channel_unit}': "
            f"give the value in {channel_unit}"
        )
    return amount * typed[1] / target[1]


_UNSIGNED = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_NUM = r"(?:[-+−]\s?)?" + _UNSIGNED
_VALUE = rf"(?P<num>{_NUM}|zero|(?:minus|negative)\s+{_UNSIGNED})"
_UNIT = r"(?:\s*(?P<unit>%|[a-zA-Zµ]+\b))?"
_NOT_CLOCK = r"(?!\d|\.\d|\s*:\d)"  # "at 10:00" is a time, not a value
_UP = r"increase|raise|increment|bump\s+up|bump|up|higher|open"
_DOWN = r"decrease|lower|reduce|decrement|bump\s+down|down|drop|close"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # "add 0.1 A to HCM01", "subtract 2 mm from the gap": the target follows.
    (
        "add",
        re.compile(rf"\b(?P<verb>add|subtract|remove)\s+{_VALUE}{_UNIT}\s+(?:to|from)\b", re.I),
    ),
    # "write 0.1 to X", "put 2 A on it": the target follows.
    ("put", re.compile(rf"\b(?:write|put|apply)\s+{_VALUE}{_UNIT}\s+(?:to|on|into)\b", re.I)),
    # "... by 0.2 A" after a direction verb.
    ("by", re.compile(rf"\bby\s+{_VALUE}{_NOT_CLOCK}{_UNIT}", re.I)),
    # "... to 1.5 A", "... at 0.3 A", "X -> 1.2", "X = 2".
    ("to", re.compile(rf"(?:\b(?:to|at)\s+|(?:->|→|:=|=)\s*){_VALUE}{_NOT_CLOCK}{_UNIT}", re.I)),
    # "zero HCM05", "zero the correctors in sector 2".
    ("zero", re.compile(r"\b(?P<verb>zero)\s+(?=\S)", re.I)),
]
_LEAD_WORDS = re.compile(
    r"^(?:\s|,|and|then|also|please|now|could you|can you|set|change|put|move|ramp|adjust|"
    r"bring|write|open|close|make|go|it's|it|the|a|" + _UP + "|" + _DOWN + r")+\b",
    re.I,
)
_AND_VERB = (
    r"\band\s+(?=(?:then\s+)?(?:set|change|put|move|ramp|adjust|write|zero|"
    + _UP
    + "|"
    + _DOWN
    + r")\b)"
)
_TRAIL_WORDS = re.compile(r"(?:\s|,|and|then|up|down|please)+$", re.I)
_NOT_UNIT_WORDS = "and then on for in please at to now from with if or but instead again each"
_NOT_UNITS = frozenset(_NOT_UNIT_WORDS.split())
_CHANGE_WORDS = re.compile(
    rf"\b(?:set|change|put|move|ramp|adjust|write|zero|{_UP}|{_DOWN})\b", re.I
)


def parse_write_request(text: str) -> list[ValueSpec]:
    """Every value ``text`` asks to write, in order; ``MissingWriteValue`` when there is none.

    Each value's ``target`` holds the words naming its channel: the words since the previous
    value for "X to 1" / "X by 1", the words after it for "add 1 to X" / "write 1 to X".
    """
    found: list[tuple[int, int, str, re.Match[str]]] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if not any(m.start() < end and start < m.end() for start, end, _, _ in found):
                found.append((m.start(), m.end(), kind, m))
    found.sort(key=lambda item: item[0])
    if not found:
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
        specs.append(_spec(kind, m, text[:start], target))
        cursor = end
    return specs


def _spec(kind: str, m: re.Match[str], before: str, target: str) -> ValueSpec:
    fragment = m.group(0).strip()
    if kind == "zero":
        return ValueSpec(target, "absolute", 0.0, None, fragment)
    amount = _number(m.group("num"))
    unit = m.group("unit")
    if unit and lookup_unit(unit) is None and unit.lower() in _NOT_UNITS:
        unit = None  # the next word ("and", "then") is not a unit
    # Any other word after the number is kept as its unit: "5 furlongs" must not become 5 A.
    if kind in ("add", "by"):
        if kind == "add":
            sign = -1.0 if m.group("verb").lower() in ("subtract", "remove") else 1.0
            amount *= sign
        else:
            direction = _last_direction(before)
            if direction is not None:
                amount = abs(amount) * direction
        mode: Mode = "percent" if unit == "%" else "delta"
        return ValueSpec(target, mode, amount, unit, fragment)
    return ValueSpec(target, "absolute", amount, unit, fragment)


def _number(raw: str) -> float:
    raw = raw.replace("−", "-").replace(" ", "").lower()
    if raw == "zero":
        return 0.0
    for word in ("minus", "negative"):
        if raw.startswith(word):
            return -float(raw[len(word) :])
    return float(raw)


def _last_direction(before: str) -> float | None:
    up = [m.end() for m in re.finditer(rf"\b(?:{_UP})\b", before, re.I)]
    down = [m.end() for m in re.finditer(rf"\b(?:{_DOWN})\b", before, re.I)]
    if not up and not down:
        return None
    return 1.0 if max(up or [-1]) > max(down or [-1]) else -1.0


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
    "MissingWriteValue",
    "UnitMismatch",
    "ValueSpec",
    "WriteRequestError",
    "convert_units",
    "lookup_unit",
    "parse_write_request",
]
