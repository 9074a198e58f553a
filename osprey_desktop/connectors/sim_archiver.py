"""``SimulatedArchiverConnector``: history of the simulated ring, computed from the same model.

Because ``SimMachine`` is a pure function of time and the setpoint log, "the last 2 hours of
beam current" is the model evaluated at 1 s steps over those 2 hours: the lifetime decay and
every top-up injection show up, and a corrector written 10 minutes ago shows its step in the
orbit history. Setpoints are archived on change (like a monitor-mode PV); everything else at
1 Hz. Nothing exists after "now". Each sample carries the alarm severity and status the live
connector would have shown (from the channel's alarm limits). This archive only describes the
simulated ring: the factory never pairs it with a real control system.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from osprey_desktop.channels.database import ChannelRecord
from osprey_desktop.connectors.archiver_base import (
    STATUS_NAMES,
    ArchiverConnector,
    ArchiverData,
    ArchiverSample,
    ArchiverSeries,
    bin_means,
    bin_reduce,
    checked_channels,
    checked_time_range,
    epoch_seconds,
)
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.connectors.sim_machine import SimMachine

SAMPLE_PERIOD_S = 1.0
#: Beyond this many raw samples a series is binned (a year at 1 Hz would be 250 MB).
MAX_RAW_POINTS = 1_000_000

_STATUS = {name: code for code, name in enumerate(STATUS_NAMES)}


def alarm_codes(record: ChannelRecord, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """EPICS (severity, status) codes of many values at once, as ``sim_machine.alarm_state``."""
    values = values.astype(float)
    severity = np.zeros(values.size, dtype=np.int16)
    status = np.zeros(values.size, dtype=np.int16)
    limits = record.limits.alarm
    if limits is None:
        return severity, status
    # lowest precedence first, so the later (stronger) condition wins where several hold
    for limit, compare, sev, stat in (
        (limits.low, np.less_equal, 1, "LOW"),
        (limits.high, np.greater_equal, 1, "HIGH"),
        (limits.lolo, np.less_equal, 2, "LOLO"),
        (limits.hihi, np.greater_equal, 2, "HIHI"),
    ):
        if limit is not None:
            hit = compare(values, limit)
            severity[hit], status[hit] = sev, _STATUS[stat]
    invalid = ~np.isfinite(values)
    severity[invalid], status[invalid] = 3, _STATUS["UDF"]
    return severity, status


class SimulatedArchiverConnector(ArchiverConnector):
    """Archiver over a ``SimMachine``; share the machine with the simulated connector."""

    kind = "sim"

    def __init__(self, machine: SimMachine, sample_period: float = SAMPLE_PERIOD_S) -> None:
        self.machine = machine
        self.sample_period = sample_period

    async def get_data(
        self,
        channels: Sequence[str],
        start: datetime,
        end: datetime,
        max_points: int | None = None,
    ) -> ArchiverData:
        t0, t1 = checked_time_range(start, end, max_points)
        records = [self._record(name) for name in checked_channels(channels)]
        t1 = min(t1, self.machine.clock())
        # a day of 72 BPMs is seconds of numpy work: off the (window's) event loop
        return await asyncio.to_thread(self._data, records, start, end, t0, t1, max_points)

    def _data(
        self,
        records: Sequence[ChannelRecord],
        start: datetime,
        end: datetime,
        t0: float,
        t1: float,
        max_points: int | None,
    ) -> ArchiverData:
        data = ArchiverData(start=start, end=end)
        for record in records:
            data.series[record.name] = self._series(record, t0, t1, max_points)
        return data

    async def values_at(
        self, channels: Sequence[str], moment: datetime
    ) -> dict[str, ArchiverSample]:
        records = [self._record(name) for name in checked_channels(channels)]
        asked = epoch_seconds(moment)
        t = min(asked, self.machine.clock())  # the newest sample is "now"'s
        found: dict[str, ArchiverSample] = {}
        for record in records:
            if record.role == "setpoint":
                changes = [tc for tc, _ in self.machine.setpoint_changes(record.name) if tc <= t]
                stamp = changes[-1] if changes else t
            else:
                stamp = math.floor(t / self.sample_period) * self.sample_period
            value = float(self.machine.history(record.name, [stamp])[0])
            severity, status = alarm_codes(record, np.array([value]))
            found[record.name] = ArchiverSample(
                channel=record.name,
                moment=asked,
                timestamp=stamp,
                value=value,
                severity=int(severity[0]),
                status=int(status[0]),
                units=record.units,
                precision=record.precision,
            )
        return found

    def _record(self, name: str) -> ChannelRecord:
        record = self.machine.database.get(name) if isinstance(name, str) else None
        if record is None:
            near = self.machine.database.suggest(str(name), limit=3)
            hint = f" Nearest names: {', '.join(near)}." if near else ""
            raise ArchiverError(f"Channel '{name}' is not archived (unknown channel).{hint}")
        return record

    def _series(
        self, record: ChannelRecord, t0: float, t1: float, max_points: int | None
    ) -> ArchiverSeries:
        def series(
            t: np.ndarray, v: np.ndarray, processing: str = "raw", **extra: np.ndarray
        ) -> ArchiverSeries:
            severity, status = alarm_codes(record, v) if "severity" not in extra else (None, None)
            extra.setdefault("severity", severity)
            extra.setdefault("status", status)
            return ArchiverSeries(
                record.name, t, v, record.units, record.precision, processing, **extra
            )

        if t1 < t0:
            return series(np.empty(0), np.empty(0))
        if record.role == "setpoint":
            times = self._setpoint_change_times(record.name, t0, t1)
            return series(times, self.machine.history(record.name, times))
        step = self.sample_period
        first = math.ceil(t0 / step) * step
        count = math.floor((t1 - first) / step + 1e-6) + 1 if t1 >= first else 0
        times = first + step * np.arange(count, dtype=float)
        limit = max_points if max_points is not None else MAX_RAW_POINTS
        if times.size > limit and max_points is None:
            # too long to sample raw: sample evenly, then bin like the Appliance's mean_N
            stride = math.ceil(times.size / MAX_RAW_POINTS)
            times = times[::stride]
        values = self.machine.history(record.name, times)
        t, v, per_bin = bin_means(times, values, limit)
        if per_bin == 1:
            return series(t, v)
        # a bin shows its worst alarm, as the Appliance's binning operators do
        severity, status = alarm_codes(record, values)
        worst = bin_reduce(severity.astype(np.int32) * 100 + status, per_bin, "max")
        starts = np.arange(0, values.size, per_bin)
        return series(
            t,
            v,
            f"mean_{per_bin * step:g}",
            severity=(worst // 100).astype(np.int16),
            status=(worst % 100).astype(np.int16),
            minimum=bin_reduce(values, per_bin, "min"),
            maximum=bin_reduce(values, per_bin, "max"),
            counts=np.diff(np.append(starts, values.size)).astype(float),
        )

    def _setpoint_change_times(self, name: str, t0: float, t1: float) -> np.ndarray:
        changes = [tc for tc, _ in self.machine.setpoint_changes(name) if t0 < tc <= t1]
        return np.array([t0, *changes], dtype=float)
