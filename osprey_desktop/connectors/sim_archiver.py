"""``SimulatedArchiverConnector``: history of the simulated ring, computed from the same model.

Because ``SimMachine`` is a pure function of time and the setpoint log, "the last 2 hours of
beam current" is the model evaluated at 1 s steps over those 2 hours: the lifetime decay and
every top-up injection show up, and a corrector written 10 minutes ago shows its step in the
orbit history. Setpoints are archived on change (like a monitor-mode PV); everything else at
1 Hz. Nothing exists after "now".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from osprey_desktop.connectors.archiver_base import (
    ArchiverConnector,
    ArchiverData,
    ArchiverSeries,
    bin_means,
    checked_time_range,
)
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.connectors.channel_database import ChannelRecord
from osprey_desktop.connectors.sim_machine import SimMachine

SAMPLE_PERIOD_S = 1.0
#: Beyond this many raw samples a series is binned (a year at 1 Hz would be 250 MB).
MAX_RAW_POINTS = 1_000_000


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
        records = [self._record(name) for name in channels]
        t1 = min(t1, self.machine.clock())
        data = ArchiverData(start=start, end=end)
        for record in records:
            data.series[record.name] = self._series(record, t0, t1, max_points)
        return data

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
        def series(t: np.ndarray, v: np.ndarray, processing: str = "raw") -> ArchiverSeries:
            return ArchiverSeries(record.name, t, v, record.units, record.precision, processing)

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
        processing = "raw" if per_bin == 1 else f"mean_{per_bin * step:g}"
        return series(t, v, processing)

    def _setpoint_change_times(self, name: str, t0: float, t1: float) -> np.ndarray:
        changes = [tc for tc, _ in self.machine.setpoint_changes(name) if t0 < tc <= t1]
        return np.array([t0, *changes], dtype=float)
