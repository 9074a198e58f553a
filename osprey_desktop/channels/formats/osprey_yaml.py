"""Osprey Desktop's own channel list (``resources/channels.yaml``): every field stated.

The format is this app's, so it is read strictly: an entry that does not validate stops the
load with the entry named, as a typo in a limit must not quietly lose the limit. Setpoints and
readbacks the file does not pair are paired by name (see ``pairing``); roles stay as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.pairing import pair_setpoints
from osprey_desktop.channels.records import ChannelDatabaseError, ChannelRecord

FORMAT = "Osprey Desktop YAML"


def is_osprey_yaml(data: Any) -> bool:
    entries = data.get("channels") if isinstance(data, dict) else None
    if not isinstance(entries, list) or "hierarchy" in data:
        return False
    sample = [e for e in entries[:50] if isinstance(e, dict)]
    return not sample or any("name" in e for e in sample)


def read(data: Any, file: Path, problems: list[ListProblem]) -> list[ChannelRecord]:
    entries = data.get("channels") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ChannelDatabaseError(
            f"Channel database {file} has no 'channels:' list; see resources/channels.yaml."
        )
    records: list[ChannelRecord] = []
    for index, item in enumerate(entries):
        try:
            records.append(ChannelRecord.model_validate(item))
        except ValidationError as exc:
            label = item.get("name") if isinstance(item, dict) else None
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ChannelDatabaseError(
                f"Channel database {file}, entry {index} ({label or 'no name'}): "
                f"{where}: {first['msg']}."
            ) from exc
    return _paired(records, problems)


def _paired(records: list[ChannelRecord], problems: list[ListProblem]) -> list[ChannelRecord]:
    """Records with the setpoint/readback links the file left out, found by name."""
    unpaired = [
        ChannelDraft(name=r.name, where=r.name, role=r.role)
        for r in records
        if (r.role == "setpoint" and r.readback is None)
        or (r.role == "readback" and r.setpoint is None)
    ]
    if not any(d.role == "setpoint" for d in unpaired):
        return records
    pair_setpoints(unpaired, problems)
    links = {
        d.name: {"readback": d.readback, "setpoint": d.setpoint}
        for d in unpaired
        if d.readback or d.setpoint
    }
    return [r.model_copy(update=links[r.name]) if r.name in links else r for r in records]
