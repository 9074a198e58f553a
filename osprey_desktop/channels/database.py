"""The channel database: what channels exist and what they mean, loaded and validated.

Loaded from ``resources/channels.yaml`` unless ``control_system.channel_database`` names another
file, in this app's YAML or in a format a facility keeps its list in (Osprey in_context,
hierarchical and middle_layer JSON, CSV, EPICS .db: see ``channel_formats``); every channel is
validated (``ChannelRecord``) and errors name the file and the bad entry.
``ChannelDatabase`` looks channels up by name and answers ``search`` / ``top_matches`` /
``suggest`` through the ranked search in ``channel_search`` (whose ``ChannelMatch`` and
``STOPWORDS`` are re-exported here, where callers import them from).

It also answers whether a *name* an operator typed exists at all (``channels_named``): a
device such as ``HCM09`` or a piece of a PV name such as ``SR03C:HCM09``. The ranked search
tolerates typos on purpose; a name that is not in the list must not be tolerated into a
neighbour, so channel finding checks names here before it trusts the search.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

from osprey_desktop.channels.addresses import channel_key
from osprey_desktop.channels.errors import ChannelNotFoundError
from osprey_desktop.channels.names import DEVICE_NAME, NameIndex, name_key
from osprey_desktop.channels.record_table import RecordTable, record_table
from osprey_desktop.channels.records import (
    AlarmLimits,
    ChannelDatabaseError,
    ChannelLimits,
    ChannelRecord,
    Role,
)
from osprey_desktop.channels.search import (
    STOPWORDS,
    ChannelMatch,
    ChannelSearchIndex,
    is_sector_reference,
)
from osprey_desktop.channels.shapes import shape_table

__all__ = [
    "DEVICE_NAME",
    "STOPWORDS",
    "AlarmLimits",
    "ChannelDatabase",
    "ChannelDatabaseError",
    "ChannelLimits",
    "ChannelMatch",
    "ChannelRecord",
    "Role",
    "name_key",
]


class ChannelDatabase:
    """Channel records indexed by name, with search by meaning."""

    def __init__(self, records: Sequence[ChannelRecord], source: str = "<memory>") -> None:
        self.source = source
        #: Every record in the list's order, as columns when read back from a kept index
        #: (``channels.record_table``): the shape table and the finders share it.
        self.records: RecordTable = record_table(records)
        names = self.records.names
        if len(set(names)) != len(names):
            seen: set[str] = set()
            twice = next(n for n in names if n in seen or seen.add(n))  # type: ignore[func-returns-value]
            raise ChannelDatabaseError(
                f"Channel database {source} lists '{twice}' twice; keep one entry."
            )
        self._by_lower: dict[str, int] | None = None
        self._search_index: ChannelSearchIndex | None = None
        # which channels a typed name names, kept per shape group (channel_names); the
        # finder reuses the same groups
        self.shapes = shape_table(self.records)
        self._names = NameIndex(self.shapes)

    def __getstate__(self) -> dict[str, object]:
        # what is quick to build again is not kept: the lower-case names, the ranked search
        return {**self.__dict__, "_by_lower": None, "_search_index": None}

    # ----- lookup ------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.records)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._position(name) is not None

    def __iter__(self) -> Iterator[ChannelRecord]:
        return iter(self.records)

    @property
    def names(self) -> list[str]:
        return list(self.records.names)

    def get(self, name: str) -> ChannelRecord | None:
        """The record for a name (case-insensitive; ``ca://X``, ``pva://X`` and ``X`` alike)."""
        position = self._position(name)
        return None if position is None else self.records[position]

    def _position(self, name: str) -> int | None:
        position = self.records.position(name)
        if position is not None:
            return position
        if self._by_lower is None:  # built on the first name not spelt as the list does
            self._by_lower = {
                channel_key(n).lower(): i for i, n in enumerate(self.records.names)
            }  # pva://X is X
        return self._by_lower.get(channel_key(name).lower())

    def require(self, name: str) -> ChannelRecord:
        """The record for a name, or ``ChannelNotFoundError`` with the nearest names."""
        record = self.get(name)
        if record is None:
            near = self.suggest(name, limit=3)
            hint = f" Did you mean: {', '.join(near)}?" if near else ""
            raise ChannelNotFoundError(
                name, f"Channel '{name}' is not in the channel database ({self.source}).{hint}"
            )
        return record

    def readback_for(self, name: str) -> str | None:
        """The channel that shows whether a write to ``name`` took effect."""
        record = self.get(name)
        return record.readback if record else None

    def channels_named(self, name: str) -> list[str]:
        """Channels a typed name refers to, or [] when the list has no such name.

        ``name`` is one piece ("HCM09", "hcm9": a PV-name segment, a device, or a word of a
        description or synonym) or several joined by ":" ("SR03C:HCM09", "HCM09:SP"), which
        must appear in that order in one PV name.
        """
        pieces = [name_key(p) for p in name.split(":") if p.strip()]
        if not pieces:
            return []
        names = self.records.names
        if len(pieces) == 1:
            return [names[i] for i in self._names.named(pieces[0])]
        return [names[i] for i in self._names.in_order(pieces)]

    def device_prefixes(self) -> frozenset[str]:
        """The letters device names start with ("hcm", "id", "sr"), lower case."""
        return self._names.prefixes()

    def devices_like(self, name: str) -> list[str]:
        """The existing devices named with the same letters as ``name``, by number.

        ``devices_like("HCM99")`` is HCM01 … HCM36 on the shipped ring; [] when no device
        name starts with those letters.
        """
        match = DEVICE_NAME.fullmatch(name.strip())
        family = self._names.devices(match.group(1).lower()) if match else {}
        return sorted(family.values(), key=lambda d: (_number(d), d))

    def nearest_devices(self, name: str, limit: int = 3) -> list[str]:
        """Existing device names closest to ``name``: by spelling first, then by number.

        For "HCM99": HCM09 (one digit apart) and HCM36 (the highest number). Devices with
        other letters are offered only when no device has the same letters.
        """
        family = self.devices_like(name)
        if not family:
            everything = self._names.all_devices()
            keys = {name_key(d): d for d in everything}
            hits = difflib.get_close_matches(name_key(name), list(keys), n=limit, cutoff=0.5)
            return [keys[h] for h in hits]
        key, number = name_key(name), _number(name)
        by_spelling = sorted(
            family,
            key=lambda d: (
                -difflib.SequenceMatcher(None, key, name_key(d)).ratio(),
                abs(_number(d) - number),
            ),
        )
        by_number = sorted(family, key=lambda d: abs(_number(d) - number))
        picked: dict[str, None] = {}
        for pair in zip(by_spelling, by_number, strict=True):
            for device in pair:
                picked.setdefault(device, None)
        return list(picked)[:limit]

    def device_numbers(self, name: str) -> frozenset[int]:
        """The numbers of the devices in a channel's name, sectors aside (HCM09 -> {9})."""
        record = self.get(name)
        if record is None:
            return frozenset()
        pieces = [*record.name.split(":"), record.device or ""]
        found = (DEVICE_NAME.fullmatch(p) for p in pieces if not is_sector_reference(p))
        return frozenset(int(m.group(2)) for m in found if m)

    def family(self, family: str, sector: int | None = None) -> list[ChannelRecord]:
        fam = family.upper()
        return [
            r
            for r in self.records
            if r.family.upper() == fam and (sector is None or r.sector == sector)
        ]

    # ----- search (ranked by channel_search) ------------------------------------------------------
    @property
    def _index(self) -> ChannelSearchIndex:
        """The ranked search, built on first use: finding channels does not need it (the
        finder answers), suggestions and the fallback search do."""
        if self._search_index is None:
            self._search_index = ChannelSearchIndex(self.records)
        return self._search_index

    def search(
        self,
        query: str,
        limit: int = 10,
        writable: bool | None = None,
        min_score: float | None = None,
    ) -> list[ChannelMatch]:
        """Channels ranked by how well they match ``query`` (best first, scores 0..1)."""
        return self._index.search(query, limit=limit, writable=writable, min_score=min_score)

    def top_matches(
        self, query: str, writable: bool | None = None, margin: float = 0.03, limit: int = 50
    ) -> list[ChannelMatch]:
        """Every channel scoring within ``margin`` of the best match (the answer group)."""
        return self._index.top_matches(query, writable=writable, margin=margin, limit=limit)

    def suggest(self, query: str, limit: int = 5) -> list[str]:
        """Nearest channel names for a "did you mean" clarification."""
        return self._index.suggest(query, limit=limit)


def _number(name: str) -> int:
    match = DEVICE_NAME.fullmatch(name.strip())
    return int(match.group(2)) if match else 0
