"""Step two of finding channels: what a channel's name and record say about it.

Read once per shape (channels named alike but for their numbers): which number of a name is
its instance (``HCM09`` -> 9; a number every sibling shares, the 1 of ``Curr1``, is not), which
first segment places it (``SR03C``, ``05G``: sector or girder), its area (the letters the
name starts with), the words naming its kind of device and its fields, whether it is a
setpoint, readback, stored reference, command or monitor (``access_of``), and the words with
numbers each channel has on its own (``_digit_words``), with how strongly a channel has a
word: ``STRONG`` (its names), ``OWN`` (its description), ``CONTEXT`` (a heading above it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from osprey_desktop.channels.shapes import ShapeGroup, aliases_of
from osprey_desktop.channels.words import _SPLIT, name_words, normalize

if TYPE_CHECKING:
    from osprey_desktop.channels.records import ChannelRecord

_UNIT_AFTER_NUMBER = re.compile(r"^(\d+)(min|hr|s|ms|hz|khz|mhz|mm|kv)$")
#: A first name segment that places a channel: letters then its number (``SR03C``, ``LI24``),
#: or its number then a letter or two (``05G``: girder 5).
_SECTOR_SEGMENT = re.compile(r"^(?:[a-z]{1,3}(\d{1,2})[a-z]?|(\d{1,2})[a-z]{1,2})$")
_SECTOR_PREFIX = re.compile(
    r"^(?:([A-Za-z]{1,3})\d{1,2}(?=[A-Za-z]?[^A-Za-z0-9])|\d{1,2}(?=([A-Za-z]{1,2})[^A-Za-z0-9]))"
)
_SETPOINT_TOKENS = frozenset({"sp", "set", "setpoint", "setcurrent", "setvalue", "demand"})
#: Name words of stored reference values (what a setpoint should be) and of commands.
_REFERENCE_TOKENS = frozenset({"golden", "reference", "ref", "saved", "design"})
_COMMAND_TOKENS = frozenset({"control", "cmd", "command"})
#: Kinds of channel a readback request rules out, and a question about a device skips.
_WRITTEN_KINDS = frozenset({"setpoint", "reference", "command"})
_READBACK_TOKENS = frozenset({"rb", "rbv", "readback", "monitor", "mon", "reading", "actual"})
#: Words that say how a channel is used, not what it is: never learned as a meaning.
_ACCESS_WORDS = frozenset(
    {*_SETPOINT_TOKENS, *_READBACK_TOKENS, *_REFERENCE_TOKENS, *_COMMAND_TOKENS}
    | {"readback", "setpoint", "set", "read", "back", "point", "value", "status"}
)
#: What ``_access`` says a channel is, by code (``ChannelFinder._access_codes``).
_ACCESS_KINDS = ("monitor", "setpoint", "readback", "reference", "command")


#: How much a word counts, by where a channel has it: its names (and what they abbreviate),
#: its own description, or the description of the groups it belongs to (a hierarchy's upper
#: levels describe whole systems and mention every family in them).
STRONG, OWN, CONTEXT = 1.0, 0.6, 0.15
_TITLE_WORDS = 5
#: A unit written with a slash ("mrem/hour", "counts/s"): how a value is measured.
_UNIT = re.compile(r"[\w.-]*\w/\w[\w./-]*")
_LEVELS = " | "


_DIGITS = re.compile(r"\d+")
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")


def _has_digit(word: str) -> bool:
    """For the index's words (letters and digits only): whether a digit is among them."""
    return not word.isalpha()


@dataclass(frozen=True, eq=False)
class _Shape:
    words: dict[str, float]
    kind_words: frozenset[str]
    field_words: frozenset[str]
    said: frozenset[str]
    access: str
    numbering: tuple[int | None, int | None, int | None]


def _shape_key(record: ChannelRecord) -> tuple[Any, ...]:
    """Everything the index reads from a channel, numbers blanked."""
    return (
        _DIGITS.sub("#", record.name),
        _DIGITS.sub("#", record.description),
        tuple(_DIGITS.sub("#", s) for s in record.synonyms),
        tuple(_DIGITS.sub("#", a) for a in aliases_of(record)),
        record.family,
        _DIGITS.sub("#", record.device or ""),
        record.role,
    )


def _numbering(name: str) -> tuple[int | None, int | None, int | None]:
    """Which of the name's digit groups is the instance number, which ends the device part,
    and which the family key blanks (``SR01C:BPM#:X``: siblings share it); the same for every
    channel of one shape."""
    segments = [(m.start(), m.end()) for m in _ALNUM_RUN.finditer(name)]
    instance = device = family = None
    for index, found in enumerate(_DIGITS.finditer(name)):
        start, end = next(seg for seg in segments if seg[0] <= found.start() < seg[1])
        segment = name[start:end].lower()
        if not _UNIT_AFTER_NUMBER.match(name[found.start() : end].lower()):
            device = index
        if _UNIT_AFTER_NUMBER.match(segment):
            continue
        family = index
        sector = (start, end) == segments[0] and _SECTOR_SEGMENT.match(segment)
        if not (sector and len(segments) > 2):
            instance = index
    return instance, device, family


def _varying_numbering(
    group: ShapeGroup, name: str, numbering: tuple[int | None, int | None, int | None]
) -> tuple[int | None, int | None, int | None]:
    """``numbering`` unless its instance number is the same for every channel of the group
    (``05G-COR2H:Curr1``: the 1 of every monitor): then the last number before it that does
    tell the siblings apart, sector and quantity numbers aside, is the instance."""
    instance = numbering[0]
    if instance is None or not group.has_slots or len(group.members) < 2:
        return numbering
    runs = list(_DIGITS.finditer(name))
    if instance >= len(runs) or instance >= group.values.shape[1]:
        return numbering
    if (group.values[:, instance] != group.values[0, instance]).any():
        return numbering
    segments = [(m.start(), m.end()) for m in _ALNUM_RUN.finditer(name)]
    for slot in range(instance - 1, -1, -1):
        if not (group.values[:, slot] != group.values[0, slot]).any():
            continue
        start, end = next(seg for seg in segments if seg[0] <= runs[slot].start() < seg[1])
        segment = name[start:end].lower()
        if _UNIT_AFTER_NUMBER.match(segment):
            continue
        if (start, end) == segments[0] and _SECTOR_SEGMENT.match(segment) and len(segments) > 2:
            continue
        return slot, slot, slot
    return numbering


_DIGIT_TOKEN = re.compile(r"[a-z0-9]*\d[a-z0-9]*")


def _digit_tokens(text: str) -> list[str]:
    """The words of ``text`` that hold a digit, as ``text_words`` reads them."""
    return [normalize(t) for t in _DIGIT_TOKEN.findall(text.lower())]


def _digit_words(record: ChannelRecord) -> dict[str, float]:
    """The words of a channel that hold numbers ("bpm5", "5", "1hr"), with their strength:
    what its shape does not share with its siblings."""
    out: dict[str, float] = {}

    def put(words: Iterable[str], strength: float) -> None:
        for word in words:
            if not _has_digit(word):
                continue
            if out.get(word, 0.0) < strength:
                out[word] = strength
            match = _UNIT_AFTER_NUMBER.match(word)
            if match:
                key = f"{int(match.group(1))}{match.group(2)}"
                out[key] = max(out.get(key, 0.0), strength)

    for text in (record.name, *_list_names(record), record.device or ""):
        if _DIGITS.search(text):
            words, composites = name_words(text)
            put(words + composites, STRONG)
    for text in (*record.synonyms, record.family, record.device or ""):
        if _DIGITS.search(text):
            put(_digit_tokens(text), STRONG)
    if not _DIGITS.search(record.description):
        return out
    levels = [p for p in record.description.split(_LEVELS) if p.strip()]
    if levels:
        put(_digit_tokens(levels[-1]), OWN)
        for level in levels[:-1]:
            if not _DIGITS.search(level):
                continue
            title = level.split(":", 1)[0] if ":" in level else level
            titled = ":" in level or len(level.split()) <= _TITLE_WORDS
            put(_digit_tokens(level), CONTEXT)
            if titled:
                put(_digit_tokens(title), OWN)
    return out


def _instance_number(record: ChannelRecord) -> int | None:
    """The number that tells this device from its siblings (HCM09 -> 9, BPM[BPM05] -> 5).

    The last number of the name that is neither the sector segment nor part of a quantity
    ("AVG_1MIN").
    """
    segments = [s for s in _SPLIT.split(record.name) if s]
    numbers: list[int] = []
    for position, segment in enumerate(segments):
        lowered = segment.lower()
        if _UNIT_AFTER_NUMBER.match(lowered):
            continue
        if position == 0 and _SECTOR_SEGMENT.match(lowered) and len(segments) > 2:
            continue
        numbers += [int(n) for n in re.findall(r"\d+", lowered)]
    if not numbers and record.device:
        numbers = [int(n) for n in re.findall(r"\d+", record.device)]
    return numbers[-1] if numbers else None


def _list_names(record: ChannelRecord) -> list[str]:
    """The list's own names for a channel: its aliases, and synonyms written as one name
    (``StorageRing_QuadFocusAchromat_01_Current_Setpoint``)."""
    aliases = list(aliases_of(record))
    return aliases + [s for s in record.synonyms if s and not any(c.isspace() for c in s)]


def _own_description(record: ChannelRecord) -> str:
    """The last level of a description (a hierarchy's own words for this channel)."""
    levels = [p for p in record.description.split(_LEVELS) if p.strip()]
    return levels[-1] if levels else ""


def _kind_words(record: ChannelRecord, device_end: int | None = None) -> frozenset[str]:
    """The words naming a channel's kind of device: its names (the PV name and the list's
    own) up to the instance number (``device_end`` in the PV name, when known), sector
    segments left out."""
    words: list[str] = []
    for number, text in enumerate((record.name, *_list_names(record))):
        cut = text[:device_end] if number == 0 and device_end is not None else _device_key(text)
        whole, _ = name_words(cut)
        words += whole
    return frozenset(w for w in words if not w.isdigit() and not _SECTOR_SEGMENT.match(w))


def _field_words(record: ChannelRecord, device_end: int | None = None) -> frozenset[str]:
    """The words of a channel's name after its device (``X:Error`` of ``SR01C:BPM1:X:Error``),
    access words left out."""
    end = device_end if device_end is not None else len(_device_key(record.name))
    tail = record.name[end:]
    words, _ = name_words(tail)
    ignored = _SETPOINT_TOKENS | _READBACK_TOKENS
    return frozenset(w for w in words if w not in ignored)


def _device_key(name: str) -> str:
    """The name up to its instance number: one device's channels share it (``SR:MAG:HCM:12``)."""
    last = None
    for found in re.finditer(r"\d+", name):
        piece = re.split(r"[^A-Za-z0-9]", name[found.start() :], maxsplit=1)[0].lower()
        if not _UNIT_AFTER_NUMBER.match(piece):
            last = found
    return name[: last.end()] if last is not None else name


_AREA = re.compile(r"[A-Za-z]+")


def _area_of(name: str) -> str:
    first = next((s for s in _SPLIT.split(name) if s), "")
    found = _AREA.match(first)
    return found.group().upper() if found else ""


def _sector(record: ChannelRecord) -> int | None:
    """The sector a name starts with (``SR03C:``, ``05G-``), else the one its description
    states ("storage ring sector 3 …"): the list's own word for where the channel is."""
    first = next((s for s in _SPLIT.split(record.name) if s), "").lower()
    match = _SECTOR_SEGMENT.match(first)
    if match and ":" in record.name:
        return int(match.group(1) or match.group(2))
    said = _SECTOR_SAID.search(record.description)
    return int(said.group(1)) if said else None


_SECTOR_SAID = re.compile(r"\b(?:sector|cell)\s*#?\s*(\d{1,3})\b", re.IGNORECASE)


def access_of(record: ChannelRecord) -> str:
    """What a channel is for: setpoint, readback, reference, command or monitor."""
    return _access(record)


def _access(record: ChannelRecord) -> str:
    """setpoint, readback, reference (golden), command or monitor: from the list's role,
    else from the words of the name."""
    own, _ = name_words(record.name)
    if set(own) & _REFERENCE_TOKENS:
        return "reference"
    if set(own) & _COMMAND_TOKENS:
        return "command"
    if record.role in ("setpoint", "readback"):
        return record.role
    if set(own) & _SETPOINT_TOKENS:
        return "setpoint"
    if set(own) & _READBACK_TOKENS:
        return "readback"
    return "monitor"


__all__ = ["CONTEXT", "OWN", "STRONG", "access_of"]
