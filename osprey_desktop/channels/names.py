"""Which channels a typed name names: a PV-name segment, a device, a word of a description.

``ChannelDatabase.channels_named`` asks this index. It is kept per shape group
(``channel_shapes``): a group's name pieces are read once off its probe, as templates, and a
typed piece finds the members whose numbers spell it. A 100,000-channel list has millions of
(piece, channel) pairs but only a few thousand templates. Answers are in list order, as a
dictionary filled channel by channel would give them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from osprey_desktop.channels.shapes import (
    SPLIT_DIGITS,
    ShapeGroup,
    ShapeTable,
    Template,
)

#: A device-like name piece: letters, then digits, perhaps one letter (HCM09, ID2, SR03C).
DEVICE_NAME = re.compile(r"([a-z]+)(\d+)([a-z]?)", re.IGNORECASE)
_NAME_WORD = re.compile(r"[a-z0-9]+", re.IGNORECASE)


@lru_cache(maxsize=1 << 18)  # a 100k-channel list repeats its pieces: 2 s less to index
def name_key(piece: str) -> str:
    """How name pieces compare: case-free, digit groups without leading zeros (HCM9 == HCM09)."""
    return re.sub(r"\d+", lambda m: str(int(m.group())), piece.strip().lower())


def named_pieces(record: Any) -> list[str]:
    """The keys of everything a channel can be called by: its PV-name segments (and the parts
    of a hyphened one), its device, and the words of its description and synonyms (a facility
    may call a device only there)."""
    segments = record.name.split(":")
    # a segment of hyphened parts ("05G-BPM3") is also called by each part ("BPM3")
    parts = [p for segment in segments if "-" in segment for p in segment.split("-")]
    pieces = [*segments, *parts, record.device or ""]
    words = _NAME_WORD.findall(" ".join([record.description, *record.synonyms]))
    return list(dict.fromkeys(name_key(p) for p in [*pieces, *words] if p))


def segment_keys(name: str) -> list[str]:
    return [name_key(p) for p in name.split(":")]


class NameIndex:
    """Typed name pieces -> channel indices, and device names by their letters."""

    def __init__(self, table: ShapeTable) -> None:
        self.table = table
        self._groups: dict[str, list[int]] = defaultdict(list)
        self._templates: dict[tuple[str, ...], list[tuple[int, Template]]] = defaultdict(list)
        self._single: dict[str, list[int]] = defaultdict(list)
        # per group: its name segments as templates (None: read its channels one by one)
        self._segments: list[list[Template] | None] = []
        # letters -> (group, position, key template, spelling template) of device pieces
        self._device_pieces: dict[str, list[tuple[int, int, Template, Template]]] = defaultdict(
            list
        )
        self._devices: dict[str, dict[str, str]] = {}
        for number, group in enumerate(table.groups):
            self._add_group(number, group)

    def _add_group(self, number: int, group: ShapeGroup) -> None:
        probe = group.probe
        templates = [group.template(key) for key in named_pieces(probe)]
        if any(t is None for t in templates):
            for index in group.members.tolist():
                for key in named_pieces(self.table.records[index]):
                    self._single[key].append(index)
        else:
            for template in templates:
                if template.refs:  # type: ignore[union-attr]
                    self._templates[template.literals].append((number, template))  # type: ignore[union-attr]
                else:
                    self._groups[template.literals[0]].append(number)  # type: ignore[union-attr]
        segments = [group.template(key) for key in segment_keys(probe.name)]
        self._segments.append(None if any(t is None for t in segments) else segments)  # type: ignore[arg-type]
        for position, piece in enumerate([*probe.name.split(":"), probe.device or ""]):
            match = DEVICE_NAME.fullmatch(piece)
            if match:
                key, spelling = group.template(name_key(piece)), group.template(piece)
                if key is None or spelling is None:
                    key = spelling = None  # read member by member
                self._device_pieces[match.group(1).lower()].append(
                    (number, position, key, spelling)  # type: ignore[arg-type]
                )

    def named(self, key: str) -> list[int]:
        """Indices of the channels with the piece ``key`` (a ``name_key``), ascending."""
        groups = self.table.groups
        found = [groups[number].members for number in self._groups.get(key, ())]
        pieces = SPLIT_DIGITS.split(key)
        if len(pieces) > 1:
            for number, template in self._templates.get(tuple(pieces[0::2]), ()):
                found.append(groups[number].matching(template, pieces[1::2]))
        single = self._single.get(key)
        if single:
            found.append(np.array(single, dtype=np.int64))
        if not found:
            return []
        return np.unique(np.concatenate(found)).tolist()

    def in_order(self, keys: Sequence[str]) -> list[int]:
        """Indices of the channels whose name segments hold ``keys`` in that order."""
        found: list[np.ndarray] = []
        for number, group in enumerate(self.table.groups):
            segments = self._segments[number]
            if segments is None:
                found += [
                    np.array([i], dtype=np.int64)
                    for i in group.members.tolist()
                    if in_order(keys, segment_keys(self.table.records[i].name))
                ]
                continue
            mask = _greedy(group, segments, keys)
            if mask is not False:
                found.append(group.members if mask is True else group.members[mask])
        if not found:
            return []
        return np.unique(np.concatenate(found)).tolist()

    def prefixes(self) -> frozenset[str]:
        return frozenset(self._device_pieces)

    def devices(self, letters: str) -> dict[str, str]:
        """Device name key -> its first spelling in the list, for devices named ``letters``
        and a number, in list order."""
        cached = self._devices.get(letters)
        if cached is not None:
            return cached
        rows: list[tuple[int, int, str, str]] = []
        groups = self.table.groups
        records = self.table.records
        for number, position, key, spelling in self._device_pieces.get(letters, ()):
            group = groups[number]
            members = group.members.tolist()
            if key is None:
                for index in members:
                    record = records[index]
                    piece = [*record.name.split(":"), record.device or ""][position]
                    rows.append((index, position, name_key(piece), piece))
                continue
            keys = _fill_all(group, key)
            spellings = _fill_all(group, spelling)
            rows += zip(members, [position] * len(members), keys, spellings, strict=True)
        rows.sort(key=lambda row: (row[0], row[1]))
        family: dict[str, str] = {}
        for _, _, key_text, spelling_text in rows:
            family.setdefault(key_text, spelling_text)
        self._devices[letters] = family
        return family

    def all_devices(self) -> set[str]:
        return {d for letters in self._device_pieces for d in self.devices(letters).values()}


def _fill_all(group: ShapeGroup, template: Template) -> list[str]:
    if not template.refs:
        return [template.literals[0]] * len(group.members)
    columns = group.values[:, [slot for slot, _ in template.refs]].tolist()
    return [template.fill(row) for row in columns]


def _greedy(group: ShapeGroup, segments: list[Template], keys: Sequence[str]) -> np.ndarray | bool:
    """``in_order`` for every member at once: each key takes the first segment after the
    previous key's that equals it."""
    count = len(group.members)
    position = np.full(count, -1)
    alive: np.ndarray | bool = True
    for key in keys:
        pieces = SPLIT_DIGITS.split(key)
        runs = pieces[1::2]
        literals = tuple(pieces[0::2])
        following = np.full(count, len(segments))
        for at in range(len(segments) - 1, -1, -1):
            segment = segments[at]
            if segment.literals != literals:
                continue
            equal = group.mask(segment, runs) if segment.refs else True
            if equal is False:
                continue
            following = np.where(equal & (at > position), at, following)
        alive = alive & (following < len(segments))
        if not np.any(alive):
            return False
        position = following
    return alive if not isinstance(alive, bool) else alive


def in_order(pieces: Sequence[str], segments: Sequence[str]) -> bool:
    """True when every piece is one of ``segments``, in the same order (gaps allowed)."""
    remaining = iter(segments)
    return all(any(piece == segment for segment in remaining) for piece in pieces)


__all__ = ["DEVICE_NAME", "NameIndex", "in_order", "name_key", "named_pieces"]
