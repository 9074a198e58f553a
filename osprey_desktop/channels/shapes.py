"""Channels grouped by shape, so a 100,000-channel list is read once per kind of channel.

A facility's channels differ mostly by their numbers: ``SR:BPM:0001:X`` … ``SR:BPM:0250:X``
say the same words around different numbers. ``ShapeTable`` groups records whose texts (name,
description, device, synonyms, aliases), family and role are equal but for their digits,
with the same count of digits and leading zeros in every number. Each number of a group is a
*slot*; a group keeps every member's value of every slot in one numpy array.

What an index reads from a channel is then computed once per group, on a *probe*: the group's
first member with every number replaced by a sentinel unique to its slot, as long as the
original and with the same leading zeros (the readers' rules look at how long a word is, never
at which digits it has). A word read off the probe becomes a ``Template``: its digit runs map
back to slots, in the raw form (``0005``) or the integer form (``5``). A member's word is the
template filled with its values; a request's word finds the members whose values it spells.

Records that cannot be grouped that way (numbers longer than 18 digits, digits other than
ASCII ones, a NUL character in a text) form groups of their own with no slots, and their words
hold their digits as they are.
"""

from __future__ import annotations

import operator
import re
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from osprey_desktop.channels.record_table import record_table

if TYPE_CHECKING:
    from osprey_desktop.channels.records import ChannelRecord

DIGITS = re.compile(r"\d+")
#: Splits a word into its letters and its digit runs: ``["bpm", "05", ""]``.
SPLIT_DIGITS = re.compile(r"(\d+)")
_ZEROED = bytes.maketrans(b"123456789", b"000000000")
_DIGIT_RUNS = re.compile(rb"0+")
_NON_ASCII_DIGIT = re.compile(r"(?![0-9])\d")
_MAX_DIGITS = 18  # an int64 holds every 18-digit number
_SEP = "\x00"


def aliases_of(record: Any) -> tuple[str, ...]:
    """A record's ``aliases`` (the list's own names), () for a ChannelRecord, which has none.

    ``getattr(record, "aliases", ())`` on a pydantic model without the field costs an
    exception per call: 0.6 s on 100,000 records.
    """
    kind = type(record)
    aliasless = _ALIASLESS.get(kind)
    if aliasless is None:
        fields = getattr(kind, "model_fields", None)
        forbidden = getattr(kind, "model_config", {}).get("extra") == "forbid"
        aliasless = _ALIASLESS[kind] = fields is not None and "aliases" not in fields and forbidden
    if aliasless:
        return ()
    return tuple(getattr(record, "aliases", ()) or ())


_ALIASLESS: dict[type, bool] = {}


@dataclass(frozen=True)
class Probe:
    """The fields of a record the indexes read, as a stand-in for the record."""

    name: str
    description: str
    device: str | None
    synonyms: tuple[str, ...]
    aliases: tuple[str, ...]
    family: str
    role: str
    sector: int | None = None


@dataclass(frozen=True)
class Template:
    """A word of a group with slots for its numbers: ``literals`` around ``refs``.

    A ref is ``(slot, width)``: ``width`` 0 for a number's integer form (``5``), else the
    length of its raw form (``0005``, zeros kept).
    """

    literals: tuple[str, ...]
    refs: tuple[tuple[int, int], ...]

    def fill(self, values: Sequence[int]) -> str:
        """The word with ``values`` (one per ref) in its slots."""
        out = [self.literals[0]]
        for (_, width), value, literal in zip(self.refs, values, self.literals[1:], strict=True):
            out.append(str(value).rjust(width, "0") if width else str(value))
            out.append(literal)
        return "".join(out)


class ShapeGroup:
    """Records equal but for their numbers; ``values[m, s]`` is member m's number in slot s."""

    __slots__ = ("members", "values", "zeros", "widths", "probe", "_sentinels")

    def __init__(
        self,
        members: np.ndarray,
        values: np.ndarray,
        zeros: tuple[int, ...],
        widths: tuple[int, ...],
        probe: Probe,
        sentinels: dict[str, tuple[int, int]],
    ) -> None:
        self.members = members
        self.values = values
        self.zeros = zeros
        self.widths = widths
        self.probe = probe
        self._sentinels = sentinels

    @property
    def first(self) -> int:
        return int(self.members[0])

    @property
    def has_slots(self) -> bool:
        return bool(self.widths)

    def template(self, word: str) -> Template | None:
        """``word`` read off the probe as a template; None when one of its digit runs is no
        sentinel (then the members must be read one by one)."""
        pieces = SPLIT_DIGITS.split(word)
        if not self.widths or len(pieces) == 1:
            return Template((word,), ())
        refs = []
        for run in pieces[1::2]:
            ref = self._sentinels.get(run)
            if ref is None:
                return None
            refs.append(ref)
        return Template(tuple(pieces[0::2]), tuple(refs))

    def slot_of(self, value: int) -> int | None:
        """The slot whose sentinel is ``value`` (a number a reader returned from the probe)."""
        ref = self._sentinels.get(str(value))
        return ref[0] if ref is not None and ref[1] == 0 else None

    def matching(self, template: Template, runs: Sequence[str]) -> np.ndarray:
        """The members whose values fill ``template`` to a word with the digit ``runs``."""
        mask = self.mask(template, runs)
        if mask is True:
            return self.members
        if mask is False:
            return self.members[:0]
        return self.members[mask]

    def mask(self, template: Template, runs: Sequence[str]) -> np.ndarray | bool:
        """Which members fill ``template`` to the word with the digit ``runs`` (True: all)."""
        mask: np.ndarray | bool = True
        for (slot, width), run in zip(template.refs, runs, strict=True):
            if len(run) > _MAX_DIGITS:
                return False
            value = int(run)
            if width:
                if len(run) != width:
                    return False
            elif str(value) != run:
                return False
            mask = mask & (self.values[:, slot] == value)
        return mask

    def distinct_words(self, template: Template) -> set[str]:
        """The words ``template`` gives this group's members."""
        if not template.refs:
            return {template.literals[0]}
        columns = self.values[:, [slot for slot, _ in template.refs]]
        return {template.fill(row) for row in np.unique(columns, axis=0).tolist()}


class ShapeTable:
    """The records of one list grouped by shape (see the module's docstring)."""

    def __init__(self, records: Sequence[ChannelRecord]) -> None:
        self.records = record_table(records)
        self.groups: list[ShapeGroup] = []
        pending: dict[tuple[Any, ...], tuple[list[int], list[str]]] = {}
        for index, record in enumerate(self.records):
            synonyms = tuple(record.synonyms)
            aliases = aliases_of(record)
            fields = (record.name, record.description, record.device or "", *synonyms, *aliases)
            joined = _SEP.join(fields)
            if joined.isascii() and joined.count(_SEP) == len(fields) - 1:
                zeroed = joined.encode("ascii").translate(_ZEROED)
                key: tuple[Any, ...] = (zeroed, len(synonyms), record.family, record.role)
            elif _NON_ASCII_DIGIT.search(joined) is None and joined.count(_SEP) == len(fields) - 1:
                key = (_zeroed_text(joined), len(synonyms), record.family, record.role)
            else:
                key = ("own", index)
            entry = pending.get(key)
            if entry is None:
                pending[key] = ([index], [joined])
            else:
                entry[0].append(index)
                entry[1].append(joined)
        for key, (members, texts) in pending.items():
            if key[0] == "own":
                self.groups.append(_own_group(self.records[members[0]], members[0]))
            else:
                self.groups += _split_group(key, members, texts, self.records)
        self.groups.sort(key=lambda g: g.first)
        self.group_of = np.empty(len(self.records), dtype=np.int64)
        for number, group in enumerate(self.groups):
            self.group_of[group.members] = number

    def same_records(self, records: Sequence[Any]) -> bool:
        if records is self.records:
            return True
        return len(records) == len(self.records) and all(map(operator.is_, records, self.records))


_tables: list[weakref.ref[ShapeTable]] = []
_tables_lock = threading.Lock()


def shape_table(records: Sequence[ChannelRecord]) -> ShapeTable:
    """The table of ``records``: the one built for the same record objects if it is still in
    use (the database builds it, the finder then reads the same records), else a new one."""
    with _tables_lock:
        alive = [table for ref in _tables if (table := ref()) is not None]
    for table in alive:
        if table.same_records(records):
            return table
    table = ShapeTable(records)
    with _tables_lock:
        _tables[:] = [weakref.ref(t) for t in [*alive, table][-4:]]
    return table


def _zeroed_text(text: str) -> str:
    return DIGITS.sub(lambda m: "0" * len(m.group()), text)


def _own_group(record: Any, index: int) -> ShapeGroup:
    """A group of one record, its numbers kept as they are (no slots)."""
    probe = Probe(
        record.name,
        record.description,
        record.device,
        tuple(record.synonyms),
        aliases_of(record),
        record.family,
        record.role,
    )
    return ShapeGroup(
        np.array([index], dtype=np.int64), np.zeros((1, 0), dtype=np.int64), (), (), probe, {}
    )


def _split_group(
    key: tuple[Any, ...], members: list[int], texts: list[str], records: Sequence[Any]
) -> list[ShapeGroup]:
    """Groups of records with one zeroed text: split by the leading zeros of each number."""
    zeroed = key[0]
    if isinstance(zeroed, bytes):
        spans = [(m.start(), m.end()) for m in _DIGIT_RUNS.finditer(zeroed)]
        length = len(zeroed)
        grid = np.frombuffer("".join(texts).encode("ascii"), dtype=np.uint8)
        grid = grid.reshape(len(texts), length)
    else:
        spans = [(m.start(), m.end()) for m in re.finditer(r"0+", zeroed)]
        length = len(zeroed)
        grid = np.array([[ord(c) for c in t] for t in texts], dtype=np.int64)
    if any(end - start > _MAX_DIGITS for start, end in spans):
        return [_own_group(records[i], i) for i in members]
    count = len(members)
    values = np.zeros((count, len(spans)), dtype=np.int64)
    zeros = np.zeros((count, len(spans)), dtype=np.int64)
    for slot, (start, end) in enumerate(spans):
        digits = grid[:, start:end].astype(np.int64) - ord("0")
        values[:, slot] = digits @ (10 ** np.arange(end - start - 1, -1, -1, dtype=np.int64))
        nonzero = digits != 0
        zeros[:, slot] = np.where(nonzero.any(axis=1), nonzero.argmax(axis=1), end - start - 1)
    indices = np.array(members, dtype=np.int64)
    if not spans:
        return [_group(indices, values, (), (), texts[0], spans, key, records)]
    kinds, inverse = np.unique(zeros, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    out = []
    for kind, row in enumerate(kinds.tolist()):
        picked = np.flatnonzero(inverse == kind)
        widths = tuple(end - start - z for (start, end), z in zip(spans, row, strict=True))
        group = _group(
            indices[picked],
            values[picked],
            tuple(row),
            widths,
            texts[picked[0]],
            spans,
            key,
            records,
        )
        if group is None:
            out += [_own_group(records[i], i) for i in indices[picked].tolist()]
        else:
            out.append(group)
    return out


def _group(
    members: np.ndarray,
    values: np.ndarray,
    zeros: tuple[int, ...],
    widths: tuple[int, ...],
    text: str,
    spans: list[tuple[int, int]],
    key: tuple[Any, ...],
    records: Sequence[Any],
) -> ShapeGroup | None:
    """One group with its probe; None when its slots cannot all get distinct sentinels."""
    used: dict[int, int] = {}
    sentinels: dict[str, tuple[int, int]] = {}
    pieces: list[str] = []
    position = 0
    for slot, ((start, end), width, zero) in enumerate(zip(spans, widths, zeros, strict=True)):
        taken = used.get(width, 0)
        used[width] = taken + 1
        if width == 1:
            if taken > 9:
                return None
            value = (taken + 1) % 10  # 1 … 9, then 0
        else:
            value = 10 ** (width - 1) + taken
            if value >= 10**width:
                return None
        sentinels[str(value)] = (slot, 0)
        if zero:
            sentinels["0" * zero + str(value)] = (slot, zero + width)
        pieces += [text[position:start], "0" * zero + str(value)]
        position = end
    pieces.append(text[position:])
    fields = "".join(pieces).split(_SEP)
    first = records[int(members[0])]
    synonyms = len(first.synonyms)
    probe = Probe(
        fields[0],
        fields[1],
        fields[2] if first.device is not None else None,
        tuple(fields[3 : 3 + synonyms]),
        tuple(fields[3 + synonyms :]),
        key[2],
        key[3],
    )
    return ShapeGroup(members, values, zeros, widths, probe, sentinels)


def group_results(
    table: ShapeTable, group: ShapeGroup, read: Callable[[Any], int | None]
) -> np.ndarray:
    """``read`` (a number a record's texts give, or None) for every member, as an array with
    -1 for None: read once off the probe when the number is a slot, else member by member."""
    found = read(group.probe)
    count = len(group.members)
    if found is None or not group.has_slots:
        return np.array([-1 if found is None else found] * count, dtype=object)
    slot = group.slot_of(found)
    if slot is not None:
        return group.values[:, slot].copy()
    answers = [read(table.records[i]) for i in group.members.tolist()]
    return np.array([-1 if a is None else a for a in answers], dtype=object)


__all__ = [
    "DIGITS",
    "SPLIT_DIGITS",
    "Probe",
    "ShapeGroup",
    "ShapeTable",
    "Template",
    "aliases_of",
    "shape_table",
]
