"""What a channel's names and words say about it: role, device, family, sector.

Facility lists rarely state a channel's role; its name usually does (``…:CURRENT:SP``,
``GunVoltageSet``, ``FilamentCurrentRB``, ``SR01C:HCM1:SetCurrent``), and its description
sometimes does ("set value", "read back value", "(read-only)"). These readings are shared by
every format reader so that one list reads the same whatever file it came in.

Names outrank descriptions: a description is consulted only when no name carries a role.
A "golden" or "reference" setpoint is a stored value, not the control, so it reads as a
monitor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Literal

NameRole = Literal["setpoint", "readback", "reference"]

# Words of a name: separators split, and so do case changes (SetValue, SX3Set, XReadBack).
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z][a-z]+|[a-z]+|\d+")
# The role word sits in the last piece of a name ("SP", "Setpoint", "GunVoltageSet").
_UP_TO_TAIL = re.compile(r".*[:_\-./\s\[\](){}]", re.DOTALL)
_SETPOINT_ENDINGS = tuple(
    tuple(e.split())
    for e in ["sp", "set", "setpoint", "setpt", "set point", "set value", "setvalue", "set pt"]
)
_READBACK_ENDINGS = tuple(
    tuple(e.split()) for e in ["rb", "rbv", "readback", "read back", "rdbk", "mon", "monitor"]
)
_REFERENCE_WORDS = frozenset({"golden", "reference", "ref", "saved", "design"})
# The last words a marked name can end in: a name ending otherwise is decided at once.
_MARKED_ENDINGS = tuple({e[-1] for e in _SETPOINT_ENDINGS + _READBACK_ENDINGS} | _REFERENCE_WORDS)

_TEXT_REFERENCE = re.compile(
    r"\b(?:golden|reference|saved|stored|design)\s+(?:set[\s-]?point|set[\s-]?value)", re.I
)
_TEXT_SETPOINT = re.compile(r"\bset[\s-]?points?\b|\bset[\s-]?values?\b", re.I)
_TEXT_READBACK = re.compile(r"\bread[\s-]?backs?\b|\brbv?\b", re.I)
_TEXT_READ_ONLY = re.compile(r"\bread[\s-]?only\b|\breadonly\b", re.I)
_TEXT_READ_WRITE = re.compile(
    r"\bread[\s/-]?write\b|\(write\)|\bwrite[\s-]?only\b|\bwritable\b|\bsettable\b", re.I
)

#: A device-like name piece: letters, digits, perhaps one letter (HCM09, IP149A, SR03C).
_DEVICE_PIECE = re.compile(r"([A-Za-z][A-Za-z-]*?)(\d+)([A-Za-z]?)")
_LEADING_DEVICE = re.compile(r"([A-Z][A-Za-z]*?)(\d+)([A-Z]?)(?=[A-Z][a-z]|$|[A-Z]{2})")
_SECTOR_PIECE = re.compile(r"(?:SR|SEC|SECTOR)(\d{1,2})[A-Z]?", re.I)
_SECTOR_IN_NAME = re.compile(
    r"(?:^|(?<=[:_\-./\s\[\]]))(?:SR|SEC|SECTOR)(\d{1,2})[A-Z]?(?=$|[:_\-./\s\[\]])", re.I
)


def humanize(name: str) -> str:
    """A name as words: "TerminalVoltageSetPoint" -> "Terminal Voltage Set Point"."""
    return " ".join(_WORD.findall(name))


def role_marker(name: str) -> tuple[NameRole, str] | None:
    """(role, stem) when the name carries a role word; the stem is the name without it.

    The stem is what a setpoint and its readback share: ``SR:HCM:01:CURRENT`` for
    ``…:CURRENT:SP`` and ``…:CURRENT:RB``; ``SR01C:HCM1:Current`` for ``SR01C:HCM1:SetCurrent``.
    """
    if not name.lower().endswith(_MARKED_ENDINGS) and "Set" not in name:
        return None  # the common case, decided without splitting the name into words
    head = _UP_TO_TAIL.match(name)
    offset = head.end() if head else 0
    found = _tail_marker(name[offset:])
    if found is None:
        return None
    role, start, end = found
    if start == 0 and end < len(name) - offset:  # a leading "Set": keep what follows it
        stem = name[:offset] + name[offset + end :]
    else:
        stem = name[: offset + start].rstrip(":_-./ ")
    return (role, stem) if stem else None


def role_word(key: str) -> NameRole | None:
    """The role a field name alone says: "Setpoint", "SP", "VoltageSetpoint", "Monitor"."""
    found = _tail_marker(key.strip())
    return found[0] if found else None


@lru_cache(maxsize=1 << 16)  # a list repeats its tails (":SP", ":RB") many thousand times
def _tail_marker(tail: str) -> tuple[NameRole, int, int] | None:
    """(role, start, end) of the role word(s) in the last piece of a name."""
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(tail)]
    if not words:
        return None
    lowered = tuple(w[0].lower() for w in words)
    for role, endings in (("setpoint", _SETPOINT_ENDINGS), ("readback", _READBACK_ENDINGS)):
        for ending in endings:
            if lowered[-len(ending) :] == ending:
                return role, words[-len(ending)][1], len(tail)  # type: ignore[return-value]
    if lowered[-1] in _REFERENCE_WORDS:
        return "reference", len(tail), len(tail)
    if len(words) > 1 and words[0][0] == "Set" and words[0][1] == 0:  # SetCurrent
        return "setpoint", 0, words[0][2]
    return None


def role_from_names(names: Iterable[str]) -> NameRole | None:
    """The role the first name that carries one says."""
    for name in names:
        marker = role_marker(name)
        if marker is not None:
            return marker[0]
    return None


def role_from_texts(texts: Sequence[str]) -> NameRole | None:
    """The role the most specific text states (texts run from the most specific out)."""
    for text in texts:
        lowered = text.lower()
        if "set" not in lowered and "read" not in lowered and "rb" not in lowered:
            continue  # the common case, decided without a regular expression
        if _TEXT_REFERENCE.search(text):
            return "reference"
        setpoint = bool(_TEXT_SETPOINT.search(text))
        readback = bool(_TEXT_READBACK.search(text))
        if setpoint != readback:
            return "setpoint" if setpoint else "readback"
        if setpoint and readback:
            return None  # "the readback follows the setpoint": says nothing about this one
    return None


def writable_from_texts(texts: Sequence[str]) -> bool | None:
    """True / False when the most specific text that says so states read-write / read-only."""
    for text in texts:
        lowered = text.lower()
        if "read" not in lowered and "writ" not in lowered and "settable" not in lowered:
            continue
        read_only = bool(_TEXT_READ_ONLY.search(text))
        read_write = bool(_TEXT_READ_WRITE.search(text))
        if read_only != read_write:
            return read_write
    return None


def sector_of(name: str) -> int | None:
    """The sector a PV name places its channel in (a segment such as SR03C or SR01)."""
    match = _SECTOR_IN_NAME.search(name)
    return int(match.group(1)) if match else None


def device_of(name: str) -> tuple[str, str] | None:
    """(family, device) a PV name spells, or None.

    ``SR:MAG:HCM:01:CURRENT:SP`` -> (HCM, HCM01): a number segment after a word segment;
    ``SR01C:BPM1:X`` -> (BPM, BPM1): the first device-like segment that is not a sector;
    ``IP41Pressure`` / ``SX3Set`` -> (IP, IP41) / (SX, SX3): a device at the start of a name.
    """
    pieces = [p for p in name.split(":") if p]
    for before, piece in zip(pieces, pieces[1:], strict=False):
        if piece.isdigit() and before[:1].isalpha():
            return before, f"{before}{piece}"
    fallback: tuple[str, str] | None = None
    for index, piece in enumerate(pieces):
        match = _DEVICE_PIECE.fullmatch(piece)
        if match is None:
            continue
        if _SECTOR_PIECE.fullmatch(piece):
            if fallback is None and index > 0 and not _SECTOR_PIECE.fullmatch(pieces[index - 1]):
                fallback = pieces[index - 1], piece  # GAUGE:SR01 -> a gauge named SR01
            continue
        return match.group(1), piece
    if fallback is not None:
        return fallback
    if len(pieces) == 1:
        match = _LEADING_DEVICE.match(pieces[0])
        if match:
            return match.group(1), match.group(0)
    return None


def path_description(texts: Sequence[str]) -> str:
    """One description from a path's texts, ring first: the channel's own text whole, and of
    every level above it its heading ("Dipole Bending Magnets: Main bending magnets that …"
    gives "Dipole Bending Magnets"), so a level's words do not spill onto all its channels."""
    kept = [t.strip() for t in texts if t and t.strip()]
    if not kept:
        return ""
    headings = [_heading(t) for t in kept[:-1]]
    return " | ".join(dict.fromkeys([*headings, kept[-1]]))


def _heading(text: str) -> str:
    head, colon, _ = text.partition(":")
    if colon and len(head) <= 80:
        return head.strip()
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    return sentence.strip()
