"""The archiver contract: ``ArchiverConnector`` and the history it returns.

Split from ``base`` (the control-system contract) because history has its own types (numpy
series) and its own request checks; both archivers (simulated, Archiver Appliance) subclass
``ArchiverConnector`` and call ``checked_time_range`` so they refuse the same requests in the
same words. Failures raise ``base.ArchiverError``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from osprey_desktop.connectors.base import ArchiverError, jsonable


@dataclass
class ArchiverSeries:
    """One channel's history: epoch-second timestamps and values as numpy arrays."""

    channel: str
    timestamps: np.ndarray
    values: np.ndarray
    units: str = ""
    precision: int | None = None
    processing: str = "raw"  # or "mean_<seconds>" when points were binned

    def __len__(self) -> int:
        return int(self.timestamps.size)

    def to_dict(self) -> dict[str, Any]:
        return {
            "timestamps": self.timestamps.astype(float).tolist(),
            "values": [jsonable(v) for v in self.values.tolist()],
            "units": self.units,
            "precision": self.precision,
            "processing": self.processing,
        }


@dataclass
class ArchiverData:
    """History for several channels over one time range."""

    start: datetime
    end: datetime
    series: dict[str, ArchiverSeries] = field(default_factory=dict)

    @property
    def timestamps(self) -> dict[str, list[float]]:
        return {n: s.timestamps.astype(float).tolist() for n, s in self.series.items()}

    @property
    def time_series_data(self) -> dict[str, list[Any]]:
        return {n: [jsonable(v) for v in s.values.tolist()] for n, s in self.series.items()}

    @property
    def units(self) -> dict[str, str]:
        return {n: s.units for n, s in self.series.items()}

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "channels": {n: s.to_dict() for n, s in self.series.items()},
        }


def epoch_seconds(moment: datetime) -> float:
    """Epoch seconds of a datetime; a naive datetime is read as local time."""
    return moment.timestamp()


def checked_time_range(
    start: datetime, end: datetime, max_points: int | None
) -> tuple[float, float]:
    """Epoch seconds of a ``get_data`` range; raises ``ArchiverError`` for a reversed range
    or a ``max_points`` below 1, so every archiver refuses the same requests the same way."""
    t0, t1 = epoch_seconds(start), epoch_seconds(end)
    if t1 < t0:
        raise ArchiverError(
            f"The time range ends ({end.isoformat()}) before it starts ({start.isoformat()}); "
            "swap start and end."
        )
    if max_points is not None and max_points < 1:
        raise ArchiverError(f"max_points must be at least 1, got {max_points}.")
    return t0, t1


def bin_means(
    timestamps: np.ndarray, values: np.ndarray, max_points: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """Reduce a series to at most ``max_points`` bin means; returns (t, v, points per bin)."""
    n = int(timestamps.size)
    if max_points <= 0 or n <= max_points:
        return timestamps, values, 1
    per_bin = math.ceil(n / max_points)
    starts = np.arange(0, n, per_bin)
    counts = np.diff(np.append(starts, n))
    t = np.add.reduceat(timestamps, starts) / counts
    v = np.add.reduceat(values.astype(float), starts) / counts
    return t, v, per_bin


class ArchiverConnector(ABC):
    """Async access to channel history."""

    kind: str = "abstract"

    async def connect(self) -> None:  # noqa: B027 - optional hook, most archivers need nothing
        """Open resources (HTTP client); idempotent."""

    async def disconnect(self) -> None:  # noqa: B027 - optional hook
        """Release resources; idempotent."""

    @abstractmethod
    async def get_data(
        self,
        channels: Sequence[str],
        start: datetime,
        end: datetime,
        max_points: int | None = None,
    ) -> ArchiverData:
        """History of every channel between ``start`` and ``end`` (aware or local datetimes).

        ``max_points`` asks the backend to reduce each series to about that many points
        (bin means). An empty range gives empty series; failures raise ``ArchiverError``.
        """
