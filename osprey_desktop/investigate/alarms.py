"""What is in alarm now: every channel of a list in MINOR, MAJOR, INVALID or disconnected.

Rows are ordered as the Phoebus alarm table orders them: worst severity first (disconnected,
INVALID, MAJOR, MINOR), then by name. Channels are read in batches of ``BATCH`` concurrent
reads (one request per channel per refresh, never one per channel per second); a channel
that cannot be read (asked once more after the batches) is a *disconnected* row, never
silently dropped. ``since`` is when the archive shows the channel entering its present
severity, when an archive is at hand; otherwise the time the control system stamped the
reading.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from osprey_desktop.connectors.archiver_base import severity_name

#: Concurrent reads per batch.
BATCH = 200
DISCONNECTED = "DISCONNECTED"
_RANK = {"MINOR": 1, "MAJOR": 2, "INVALID": 3, DISCONNECTED: 4}
_CODE = {"NO_ALARM": 0, "MINOR": 1, "MAJOR": 2, "INVALID": 3}


def severity_rank(severity: str) -> int:
    """0 for no alarm, up to 4 for a disconnected channel."""
    return _RANK.get((severity or "").upper(), 0)


@dataclass(frozen=True)
class AlarmRow:
    channel: str
    severity: str
    status: str
    value: Any
    units: str
    timestamp: float | None
    since: float | None = None
    since_source: str = "reading"
    description: str = ""
    sector: int | None = None

    @property
    def rank(self) -> int:
        return severity_rank(self.severity)

    def to_dict(self) -> dict[str, Any]:
        value = self.value
        if isinstance(value, float) and not math.isfinite(value):
            value = None
        elif not isinstance(value, int | float | str | type(None)):
            value = str(value)
        return {
            "channel": self.channel,
            "severity": self.severity,
            "status": self.status,
            "value": value,
            "units": self.units,
            "timestamp": self.timestamp,
            "since": self.since,
            "since_source": self.since_source,
            "description": self.description,
            "sector": self.sector,
        }


def alarm_rows(readings: dict[str, Any], records: dict[str, Any] | None = None) -> list[AlarmRow]:
    """Rows for the readings in alarm (a ``ChannelValue``) or failed (an exception), worst first."""
    rows = []
    for name, reading in readings.items():
        record = (records or {}).get(name)
        extra = {
            "description": getattr(record, "description", "") or "",
            "sector": getattr(record, "sector", None),
        }
        if isinstance(reading, BaseException):
            rows.append(
                AlarmRow(
                    name,
                    DISCONNECTED,
                    _first_line(reading),
                    None,
                    getattr(record, "units", "") or "",
                    None,
                    **extra,
                )
            )
            continue
        severity = str(getattr(reading, "alarm_severity", "") or "NO_ALARM").upper()
        if severity_rank(severity) == 0:
            continue
        rows.append(
            AlarmRow(
                name,
                severity,
                str(reading.alarm_status or ""),
                reading.value,
                reading.units,
                float(reading.timestamp),
                float(reading.timestamp),
                **extra,
            )
        )
    rows.sort(key=lambda r: (-r.rank, r.channel))
    return rows


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


async def read_alarms(
    connector: Any,
    names: Sequence[str],
    records: dict[str, Any] | None = None,
    batch: int = BATCH,
    timeout: float | None = None,
) -> tuple[list[AlarmRow], int]:
    """Read ``names`` in batches; the rows in alarm (worst first) and how many were read."""
    readings: dict[str, Any] = {}
    for i in range(0, len(names), max(1, batch)):
        chunk = list(names[i : i + batch])
        readings.update(await connector.read_multiple_channels(chunk, timeout=timeout))
    failed = [n for n, r in readings.items() if isinstance(r, BaseException)]
    if failed and len(failed) < len(readings):
        # a first connection can miss its time on a busy network: ask those once more
        readings.update(await connector.read_multiple_channels(failed, timeout=timeout))
    return alarm_rows(readings, records), len(readings)


async def add_since(
    archiver: Any, rows: list[AlarmRow], lookback_hours: float = 24.0, now: float | None = None
) -> list[AlarmRow]:
    """``since`` from the archive: when each channel entered its present severity."""
    wanted = [r for r in rows if r.severity in _CODE]
    if archiver is None or not wanted:
        return rows
    end = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    start = end - timedelta(hours=lookback_hours)
    try:
        data = await archiver.get_data([r.channel for r in wanted], start, end, max_points=2000)
    except Exception:  # noqa: BLE001 - no archive: keep the readings' own times
        return rows
    out = []
    for row in rows:
        series = data.series.get(row.channel)
        if series is None or series.severity is None or len(series) == 0:
            out.append(row)
            continue
        since = entered(series.timestamps, series.severity, _CODE.get(row.severity, -1))
        if since is None:
            out.append(row)
        else:
            out.append(replace(row, since=since, since_source="archive"))
    return out


def entered(times: np.ndarray, severity: np.ndarray, code: int) -> float | None:
    """The first time of the last run of ``code`` at the end of the series (None: not there)."""
    sev = np.asarray(severity, dtype=int)
    if sev.size == 0 or int(sev[-1]) != code:
        return None
    other = np.nonzero(sev != code)[0]
    first = int(other[-1]) + 1 if other.size else 0
    return float(np.asarray(times, dtype=float)[first])


def worst(rows: Iterable[AlarmRow]) -> str:
    ranked = sorted(rows, key=lambda r: -r.rank)
    return ranked[0].severity if ranked else "NO_ALARM"


__all__ = [
    "BATCH",
    "DISCONNECTED",
    "AlarmRow",
    "add_since",
    "alarm_rows",
    "entered",
    "read_alarms",
    "severity_name",
    "severity_rank",
    "worst",
]
