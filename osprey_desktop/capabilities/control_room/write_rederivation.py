"""A derived write's facts, checked again right before it is sent.

A copy, a restore or a conditional write was approved for a reason the operator read: "copied
from VCM07 (read 0.000 A)", "restored from the archive: QF11 was 2.0 A at 09:30", "condition
checked: HCM03 reads 1.0 A, above 0.5 A". The machine may move while the approval waits, so
right before the first put each fact is derived again from fresh reads:

* a **copy** reads its source again: the value it would copy now must be the approved one (a
  mean, each of its sources);
* a **restore** asks the archive again for the sample in force at the moment, or, for a
  period ("this morning"), for every sample in force during it: it must still be one value,
  the approved one;
* a **condition** reads its channel again: the verdict must still be the approved one (the
  value written does not depend on how far above the threshold the reading is);
* a value from the channel list (a nominal value) is looked up again.

Any difference means nothing is sent and the operator is asked again with the new facts
(``write_execution``). A fact that cannot be derived again (a source that cannot be read, an
archive that does not answer, an approval stored without what is needed to check it) counts
as a difference: fail closed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from osprey_desktop.capabilities.control_room.write_operations import (
    moved_beyond_precision,
    show_reading,
)
from osprey_desktop.connectors.base import ConnectorError, to_float

#: The comparisons a condition's origin may store, as functions of (reading, threshold).
COMPARISONS = {
    "<": lambda value, threshold: value < threshold,
    "<=": lambda value, threshold: value <= threshold,
    ">": lambda value, threshold: value > threshold,
    ">=": lambda value, threshold: value >= threshold,
    "==": lambda value, threshold: value == threshold,
    "!=": lambda value, threshold: value != threshold,
}


async def changed_facts(
    operations: Sequence[Mapping[str, Any]], connector: Any, archiver: Any = None
) -> list[str]:
    """Why the approved facts of ``operations`` no longer hold (empty: they all still do).

    ``archiver`` is the archive connector, or None to use the configured one (asked only when
    an operation restores an archived value).
    """
    reasons: list[str] = []
    for op in operations:
        origin = op.get("derived_from")
        if not isinstance(origin, Mapping):
            continue
        kind = origin.get("kind")
        if kind == "copy":
            reason = await _copy_changed(op, origin, connector)
        elif kind == "mean":
            # each source of a mean, read again: any of them moved is a difference
            parts = origin.get("sources") or []
            found = [await _copy_changed(op, part, connector) for part in parts]
            reason = (
                "; ".join(r for r in found if r)
                if parts
                else (f"the sources of the mean for {op.get('channel')} are not recorded")
            )
        elif kind == "condition":
            reason = await _condition_changed(origin, connector)
        elif kind == "archive" and "period" in origin:
            archiver = archiver or await _configured_archiver()
            reason = await _period_changed(origin, archiver)
        elif kind == "archive":
            archiver = archiver or await _configured_archiver()
            reason = await _archive_changed(origin, archiver)
        elif kind == "listed":
            reason = _listed_changed(origin)
        else:
            reason = f"the origin of the value for {op.get('channel')} cannot be checked again"
        if reason:
            reasons.append(reason)
    return reasons


async def _read(connector: Any, channel: str) -> tuple[float | None, Any, str | None]:
    """(value, reading, problem) of one channel read now."""
    try:
        reading = await connector.read_channel(channel)
    except ConnectorError as exc:
        return None, None, f"{channel} cannot be read again to check it ({exc})"
    value = to_float(reading.value)
    if value is None or not math.isfinite(value):
        return None, reading, f"{channel} has no numeric reading now ({reading.value!r})"
    return value, reading, None


async def _copy_changed(op: Mapping[str, Any], origin: Mapping[str, Any], connector: Any) -> str:
    source = str(origin.get("channel") or "")
    if not source:
        return f"the source of the value for {op.get('channel')} is not recorded"
    value, reading, problem = await _read(connector, source)
    if problem:
        return f"{problem}; the copy to {op.get('channel')} was not checked"
    precision = origin.get("precision")
    if precision is None:
        precision = getattr(getattr(reading, "metadata", None), "precision", None)
    if not moved_beyond_precision(origin.get("value"), value, precision):
        return ""
    units = str(origin.get("units") or "")
    return (
        f"{source} now reads {show_reading(value, units, precision)}, not "
        f"{show_reading(origin.get('value'), units, precision)} as when the copy to "
        f"{op.get('channel')} was approved"
    )


async def _condition_changed(origin: Mapping[str, Any], connector: Any) -> str:
    subject = str(origin.get("channel") or "")
    comparison = COMPARISONS.get(str(origin.get("comparison")))
    threshold = to_float(origin.get("threshold"))
    if not subject or comparison is None or threshold is None:
        return "the condition was stored without what is needed to check it again"
    value, reading, problem = await _read(connector, subject)
    if problem:
        return f"{problem}; the condition {origin.get('condition')} was not checked again"
    if comparison(value, threshold):
        return ""
    units = str(origin.get("units") or "")
    shown = show_reading(value, units, getattr(reading.metadata, "precision", None))
    return (
        f"the condition no longer holds: {subject} now reads {shown}, not {origin.get('condition')}"
    )


async def _archive_changed(origin: Mapping[str, Any], archiver: Any) -> str:
    from osprey_desktop.connectors.archiver_base import ArchiverError

    channel = str(origin.get("channel") or "")
    stamp = to_float(origin.get("moment"))
    if not channel or stamp is None:
        return "the restored value was stored without its channel and moment"
    moment = datetime.fromtimestamp(stamp, UTC)
    try:
        found = await archiver.values_at([channel], moment)
    except (ArchiverError, ConnectorError, OSError) as exc:
        return f"the archive cannot be asked again for {channel} ({exc})"
    sample = found.get(channel)
    value = to_float(getattr(sample, "value", None))
    if value is None or not math.isfinite(value):
        return f"the archive no longer has a value of {channel} at that moment"
    if not moved_beyond_precision(origin.get("value"), value, origin.get("precision")):
        return ""
    units = str(origin.get("units") or "")
    return (
        f"the archive now gives {show_reading(value, units, origin.get('precision'))} for "
        f"{channel} at that moment, not {show_reading(origin.get('value'), units, None)}"
    )


async def _period_changed(origin: Mapping[str, Any], archiver: Any) -> str:
    """A value held all of a period: the archive must still show that one value all of it."""
    from osprey_desktop.capabilities.control_room.held_values import (
        describe_held,
        values_held,
    )
    from osprey_desktop.capabilities.control_room.write_origins import held_during
    from osprey_desktop.connectors.archiver_base import ArchiverError

    channel = str(origin.get("channel") or "")
    period = origin.get("period")
    start = to_float(period.get("start")) if isinstance(period, Mapping) else None
    end = to_float(period.get("end")) if isinstance(period, Mapping) else None
    if not channel or start is None or end is None:
        return "the restored value was stored without its channel and period"
    during = held_during(str(period.get("words") or ""), start, end)
    try:
        found = await values_held(
            archiver,
            [channel],
            datetime.fromtimestamp(start, UTC),
            datetime.fromtimestamp(end, UTC),
        )
    except (ArchiverError, ConnectorError, OSError) as exc:
        return f"the archive cannot be asked again for {channel} ({exc})"
    held = found[channel]
    single = held.single
    if single is None:
        return f"the archive no longer shows one value of {channel} {during}: {describe_held(held)}"
    if not moved_beyond_precision(origin.get("value"), single.value, origin.get("precision")):
        return ""
    units = str(origin.get("units") or "")
    return (
        f"the archive now gives {show_reading(single.value, units, origin.get('precision'))} "
        f"as the value {channel} held {during}, not "
        f"{show_reading(origin.get('value'), units, origin.get('precision'))}"
    )


def _listed_changed(origin: Mapping[str, Any]) -> str:
    from osprey_desktop.connectors import get_configured_channel_database

    channel = str(origin.get("channel") or "")
    record = get_configured_channel_database().get(channel)
    nominal = to_float(getattr(record, "nominal", None))
    if nominal is not None and not moved_beyond_precision(origin.get("value"), nominal, None):
        return ""
    return f"the channel list no longer gives {origin.get('value')} as the value of {channel}"


async def _configured_archiver() -> Any:
    from osprey_desktop.connectors import get_archiver_connector

    return await get_archiver_connector()


__all__ = ["COMPARISONS", "changed_facts"]
