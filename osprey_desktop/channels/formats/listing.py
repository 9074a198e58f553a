"""A channel list as read from a file: its records, its format and what was wrong with it.

Readers turn their format into ``ChannelDraft``s: what the file states, and no more. ``finish``
then does what every format needs alike: drops repeated names, fills family / device / sector
from the PV name where the file gave none, settles role and writability, pairs setpoints with
readbacks and validates each draft into a ``ChannelRecord``. A draft that cannot become a
record is reported (``ListProblem``) and left out; the rest of the list still loads.

Writability is never guessed upwards: a channel is writable when the list says so or when it is
clearly a setpoint (its name or its own description says so). What the list does not state is
unknown, and unknown means read-only. A list that contradicts itself (a setpoint listed
read-only) is read the safe way and reported.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.naming import (
    device_of,
    role_from_texts,
    sector_of,
    writable_from_texts,
)
from osprey_desktop.channels.formats.pairing import pair_setpoints
from osprey_desktop.channels.records import ChannelRecord


@dataclass
class ChannelList:
    """What a channel list file holds, as records, and the problems found reading it."""

    source: Path
    format: str
    records: list[ChannelRecord]
    problems: list[ListProblem] = field(default_factory=list)

    def to_database(self) -> ChannelDatabase:
        return ChannelDatabase(self.records, source=str(self.source))

    def summary(self) -> dict[str, Any]:
        """Counts a person checking the list wants: families, roles, pairs, writable."""
        roles = Counter(r.role for r in self.records)
        families = Counter(r.family or "(none)" for r in self.records)
        names = {r.name for r in self.records}
        pairs = sum(1 for r in self.records if r.role == "setpoint" and r.readback in names)
        return {
            "file": str(self.source),
            "format": self.format,
            "channels": len(self.records),
            "families": dict(sorted(families.items(), key=lambda kv: (-kv[1], kv[0]))),
            "devices": len({r.device for r in self.records if r.device}),
            "roles": {role: roles.get(role, 0) for role in ("setpoint", "readback", "monitor")},
            "pairs": pairs,
            "setpoints_without_readback": roles.get("setpoint", 0) - pairs,
            "writable": sum(1 for r in self.records if r.writable),
            "problems": [p.to_dict() for p in self.problems],
        }


def finish(drafts: list[ChannelDraft], problems: list[ListProblem]) -> list[ChannelRecord]:
    """Records from drafts: unique names, roles settled, setpoints paired, each validated."""
    unique = _unique(drafts, problems)
    for draft in unique:
        _fill_from_name(draft)
        _settle_role(draft, problems)
    pair_setpoints(unique, problems)
    records: list[ChannelRecord] = []
    for draft in unique:
        try:
            records.append(ChannelRecord.model_validate(draft.record_fields()))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            problems.append(
                ListProblem(draft.where, f"'{draft.name}' left out: {where}: {first['msg']}")
            )
    return records


def _unique(drafts: list[ChannelDraft], problems: list[ListProblem]) -> list[ChannelDraft]:
    first: dict[str, ChannelDraft] = {}
    for draft in drafts:
        kept = first.setdefault(draft.name, draft)
        if kept is not draft:
            problems.append(
                ListProblem(
                    draft.where,
                    f"'{draft.name}' is listed again (first at {kept.where}); the first is kept",
                )
            )
    return list(first.values())


def _fill_from_name(draft: ChannelDraft) -> None:
    if not draft.family or draft.device is None:
        found = device_of(draft.name)
        if found is None:
            found = next((d for d in map(device_of, draft.aliases) if d is not None), None)
        if found is not None:
            draft.family = draft.family or found[0]
            draft.device = draft.device if draft.device is not None else found[1]
    if draft.sector is None:
        draft.sector = sector_of(draft.name)


def _settle_role(draft: ChannelDraft, problems: list[ListProblem]) -> None:
    texts = draft.texts if draft.texts is not None else [draft.description]
    if draft.writable is None:
        draft.writable = writable_from_texts(texts)
    role: str | None = draft.role
    if role is None:
        markers = draft.role_markers()
        role = markers[0][0] if markers else role_from_texts(texts)
        if role == "reference":
            role = "monitor"
    if draft.writable is None:
        draft.writable = role == "setpoint"
    elif draft.writable and role in (None, "monitor"):
        role = "setpoint"
    elif draft.writable and role == "readback":
        draft.writable = False
        problems.append(
            ListProblem(
                draft.where,
                f"'{draft.name}' is listed as writable but named as a readback; kept read-only",
            )
        )
    elif not draft.writable and role == "setpoint":
        role = "monitor"
        if not draft.kept_read_only:
            problems.append(
                ListProblem(
                    draft.where,
                    f"'{draft.name}' is named as a setpoint but listed read-only; kept read-only",
                )
            )
    draft.role = role or "monitor"  # type: ignore[assignment]
