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
    if not name.isascii():
        found = _marker_cut(name)
    else:  # names differing only by their digits are cut alike: read each shape once
        found = _shape_marker_cut(name.encode("ascii").translate(_ZEROED).decode("ascii"))
    if found is None:
        return None
    role, keep, resume = found
    return role, name[:keep] + name[resume:]


_ZEROED = bytes.maketrans(b"123456789", b"000000000")


def _marker_cut(name: str) -> tuple[NameRole, int, int] | None:
    """(role, keep, resume): the stem is ``name[:keep] + name[resume:]``. Only where the
    digits are counts, never which digits they are."""
    head = _UP_TO_TAIL.match(name)
    offset = head.end() if head else 0
    found = _tail_marker(name[offset:])
    if found is None:
        return None
    role, start, end = found
    if start == 0 and end < len(name) - offset:  # a leading "Set": keep what follows it
        keep, resume = offset, offset + end
    else:
        keep = len(name[: offset + start].rstrip(":_-./ "))
        resume = len(name)
    return (role, keep, resume) if keep or resume < len(name) else None


_shape_marker_cut = lru_cache(maxsize=1 << 14)(_marker_cut)


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
        said = _text_access(_digits_zeroed(text))
        if said is not None:
            return said
    return None


@lru_cache(maxsize=1 << 14)
def _text_access(text: str) -> bool | None:
    """What one text says of writability; its digits count only as word characters."""
    read_only = bool(_TEXT_READ_ONLY.search(text))
    read_write = bool(_TEXT_READ_WRITE.search(text))
    return read_write if read_only != read_write else None


def _digits_zeroed(text: str) -> str:
    """``text`` with every ASCII digit 0, so descriptions differing by numbers share a cache
    entry (the patterns read a digit only as a word character, whichever it is)."""
    if text.isascii():
        return text.encode("ascii").translate(_ZEROED).decode("ascii")
    return text


def sector_of(name: str) -> int | None:
    """The sector a PV name places its channel in (a segment such as SR03C or SR01)."""
    span = _shape_sector_span(_digits_zeroed(name)) if name.isascii() else _sector_span(name)
    return int(name[span[0] : span[1]]) if span else None


def _sector_span(name: str) -> tuple[int, int] | None:
    match = _SECTOR_IN_NAME.search(name)
    return match.span(1) if match else None


_shape_sector_span = lru_cache(maxsize=1 << 14)(_sector_span)


def device_of(name: str) -> tuple[str, str] | None:
    """(family, device) a PV name spells, or None.

    ``SR:MAG:HCM:01:CURRENT:SP`` -> (HCM, HCM01): a number segment after a word segment;
    ``SR01C:BPM1:X`` -> (BPM, BPM1): the first device-like segment that is not a sector;
    ``IP41Pressure`` / ``SX3Set`` -> (IP, IP41) / (SX, SX3): a device at the start of a name.
    """
    cut = _shape_device_cut(_digits_zeroed(name)) if name.isascii() else _device_cut(name)
    if cut is None:
        return None
    (start, end), spans = cut
    return name[start:end], "".join(name[a:b] for a, b in spans)


Span = tuple[int, int]


def _device_cut(name: str) -> tuple[Span, tuple[Span, ...]] | None:
    """``device_of`` as positions (family, device pieces): names differing only by their
    digits are cut alike, so a list reads each shape of name once."""
    pieces: list[tuple[str, int]] = []
    position = 0
    for part in name.split(":"):
        if part:
            pieces.append((part, position))
        position += len(part) + 1
    for (before, at), (piece, piece_at) in zip(pieces, pieces[1:], strict=False):
        if piece.isdigit() and before[:1].isalpha():
            family = (at, at + len(before))
            return family, (family, (piece_at, piece_at + len(piece)))
    fallback: tuple[Span, tuple[Span, ...]] | None = None
    for index, (piece, at) in enumerate(pieces):
        match = _DEVICE_PIECE.fullmatch(piece)
        if match is None:
            continue
        whole = (at, at + len(piece))
        if _SECTOR_PIECE.fullmatch(piece):
            if fallback is None and index > 0 and not _SECTOR_PIECE.fullmatch(pieces[index - 1][0]):
                before, before_at = pieces[index - 1]  # GAUGE:SR01 -> a gauge named SR01
                fallback = (before_at, before_at + len(before)), (whole,)
            continue
        return (at + match.start(1), at + match.end(1)), (whole,)
    if fallback is not None:
        return fallback
    if len(pieces) == 1:
        piece, at = pieces[0]
        match = _LEADING_DEVICE.match(piece)
        if match:
            return (at + match.start(1), at + match.end(1)), ((at, at + match.end()),)
    return None


_shape_device_cut = lru_cache(maxsize=1 << 14)(_device_cut)


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
