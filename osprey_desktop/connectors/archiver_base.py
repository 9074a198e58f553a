"""The archiver contract: ``ArchiverConnector``, the history it returns and the samples at a moment.

Split from ``base`` (the control-system contract) because history has its own types (numpy
series) and its own request checks; both archivers (simulated, Archiver Appliance) subclass
``ArchiverConnector`` and call ``checked_time_range`` so they refuse the same requests in the
same words. Failures raise ``base.ArchiverError``.

A series says what it holds (``kind``): numbers, enum indices with their ``labels``, strings or
waveforms (one array per sample). Every sample keeps its EPICS alarm ``severity`` and ``status``
when the archive has them. A **gap** (no valid value: a NaN sample, a disconnected period, an
archive that was off) is a sample whose value is NaN in a float series or ``None`` in an object
series; its JSON form is ``null``, so a plot breaks the line there instead of joining across it.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import numpy as np

from osprey_desktop.connectors.base import ArchiverError, format_value, jsonable

SeriesKind = Literal["number", "enum", "string", "waveform"]

#: EPICS alarm severities (menuAlarmSevr) by code.
SEVERITY_NAMES: tuple[str, ...] = ("NO_ALARM", "MINOR", "MAJOR", "INVALID")
#: EPICS alarm status codes (menuAlarmStat of EPICS base 3.15+).
STATUS_NAMES: tuple[str, ...] = (
    "NO_ALARM", "READ", "WRITE", "HIHI", "HIGH", "LOLO", "LOW", "STATE", "COS", "COMM",
    "TIMEOUT", "HWLIMIT", "CALC", "SCAN", "LINK", "SOFT", "BAD_SUB", "UDF", "DISABLE", "SIMM",
    "READ_ACCESS", "WRITE_ACCESS",
)  # fmt: skip
INVALID = 3
#: The severity and status given to the gap sample that marks a disconnected period.
GAP_SEVERITY, GAP_STATUS = INVALID, STATUS_NAMES.index("COMM")


class ArchiverNotConfiguredError(ArchiverError):
    """History was asked for, but no archiver serves this control system (a config matter)."""


def severity_name(code: int) -> str:
    """``MAJOR`` for 2; an archive's own codes (e.g. Channel Archiver 3904) as ``SEVERITY_3904``."""
    return SEVERITY_NAMES[code] if 0 <= code < len(SEVERITY_NAMES) else f"SEVERITY_{code}"


def status_name(code: int) -> str:
    return STATUS_NAMES[code] if 0 <= code < len(STATUS_NAMES) else f"STATUS_{code}"


def _int_list(codes: np.ndarray | None) -> list[int] | None:
    if codes is None:
        return None
    if codes.dtype.kind in "iu":  # tolist() gives plain ints already, without a call per code
        return codes.tolist()
    return [int(c) for c in codes.tolist()]


@dataclass
class ArchiverSeries:
    """One channel's history: epoch-second timestamps and values as numpy arrays.

    ``values`` is float for ``number`` and ``enum`` (enum values are state indices; NaN is a
    gap) and object for ``string`` (str or None) and ``waveform`` (a float array or None).
    ``severity``/``status`` are int arrays aligned with ``timestamps`` (None when the archive
    does not say). ``minimum``/``maximum``/``counts`` are set when the archive binned the
    series (``processing`` then names the operator, e.g. ``optimized_2000``): ``values`` are the
    bin means, the envelope is min..max, ``counts`` the raw samples per bin.
    """

    channel: str
    timestamps: np.ndarray
    values: np.ndarray
    units: str = ""
    precision: int | None = None
    processing: str = "raw"  # or the binning operator, e.g. "mean_73" / "optimized_2000"
    kind: SeriesKind = "number"
    labels: tuple[str, ...] = ()
    severity: np.ndarray | None = None
    status: np.ndarray | None = None
    minimum: np.ndarray | None = None
    maximum: np.ndarray | None = None
    counts: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = int(self.timestamps.size)
        for name in ("values", "severity", "status", "minimum", "maximum", "counts"):
            array = getattr(self, name)
            if array is not None and len(array) != n:
                raise ValueError(
                    f"ArchiverSeries {self.channel}: {name} has {len(array)} entries for "
                    f"{n} timestamps"
                )

    def __len__(self) -> int:
        return int(self.timestamps.size)

    @property
    def gaps(self) -> np.ndarray:
        """Boolean mask of the samples that carry no value (NaN or None)."""
        if self.values.dtype == object:
            return np.array([v is None for v in self.values.tolist()], dtype=bool)
        return ~np.isfinite(self.values.astype(float))

    def label(self, value: Any) -> str | None:
        """The enum label of a state index (None when unknown or not an enum)."""
        if self.kind != "enum" or value is None:
            return None
        try:
            index = int(value)
        except (TypeError, ValueError):
            return None
        if not math.isfinite(float(value)) or not 0 <= index < len(self.labels):
            return None
        return self.labels[index]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "timestamps": self.timestamps.astype(float).tolist(),
            "values": jsonable(self.values),
            "units": self.units,
            "precision": self.precision,
            "processing": self.processing,
            "kind": self.kind,
            "labels": list(self.labels),
            "severity": _int_list(self.severity),
            "status": _int_list(self.status),
        }
        for name in ("minimum", "maximum", "counts"):
            array = getattr(self, name)
            if array is not None:
                out[name] = jsonable(array)
        return out


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
        return {n: jsonable(s.values) for n, s in self.series.items()}

    @property
    def units(self) -> dict[str, str]:
        return {n: s.units for n, s in self.series.items()}

    def context_fields(self) -> dict[str, Any]:
        """The per-channel fields of an ARCHIVER_DATA context: plain JSON, gaps as ``None``.

        ``kinds`` and ``enum_labels`` list only channels that are not plain numbers or that
        have labels; ``severity``/``status`` only channels whose archive reports them.
        """
        return {
            "timestamps": self.timestamps,
            "time_series_data": self.time_series_data,
            "units": self.units,
            "kinds": {n: s.kind for n, s in self.series.items() if s.kind != "number"},
            "enum_labels": {n: list(s.labels) for n, s in self.series.items() if s.labels},
            "severity": {
                n: _int_list(s.severity) for n, s in self.series.items() if s.severity is not None
            },
            "status": {
                n: _int_list(s.status) for n, s in self.series.items() if s.status is not None
            },
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "channels": {n: s.to_dict() for n, s in self.series.items()},
        }


@dataclass(frozen=True)
class ArchiverSample:
    """The archived sample in force at a moment: the last one stamped at or before it."""

    channel: str
    moment: float  # the epoch seconds asked for
    timestamp: float  # when the sample was stamped (<= moment)
    value: Any  # float, str, a list of floats (waveform), or None for "no valid value"
    severity: int = 0
    status: int = 0
    units: str = ""
    precision: int | None = None
    kind: SeriesKind = "number"
    labels: tuple[str, ...] = ()

    @property
    def label(self) -> str | None:
        """The enum label of the value, when this is an enum and the label is known."""
        if self.kind != "enum" or not isinstance(self.value, int | float):
            return None
        index = int(self.value)
        return self.labels[index] if 0 <= index < len(self.labels) else None

    @property
    def age_seconds(self) -> float:
        """How long before the moment the sample was stamped (the value held since then)."""
        return self.moment - self.timestamp

    def formatted(self) -> str:
        if self.value is None:
            return "no valid value"
        if self.kind == "enum":
            label = self.label
            shown = f"{label} ({int(self.value)})" if label else f"state {int(self.value)}"
        elif self.kind == "waveform":
            shown = f"waveform of {len(self.value)} elements"
        else:
            shown = format_value(self.value, self.precision, self.units)
        alarm = "" if self.severity == 0 else f" [{severity_name(self.severity)}]"
        return shown + alarm

    def to_dict(self) -> dict[str, Any]:
        return {
            "channel": self.channel,
            "moment": self.moment,
            "timestamp": self.timestamp,
            "value": jsonable(self.value),
            "label": self.label,
            "severity": self.severity,
            "severity_name": severity_name(self.severity),
            "status": self.status,
            "status_name": status_name(self.status),
            "units": self.units,
            "precision": self.precision,
            "kind": self.kind,
            "formatted": self.formatted(),
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


def checked_channels(channels: Sequence[str]) -> list[str]:
    """The channel names of a request, refusing an empty list or a non-string name."""
    names = list(channels) if not isinstance(channels, str) else [channels]
    if not names:
        raise ArchiverError("No channel named: ask for the history of at least one channel.")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ArchiverError(f"{name!r} is not a channel name.")
    return names


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


def bin_reduce(values: np.ndarray, per_bin: int, how: Literal["min", "max"]) -> np.ndarray:
    """Minimum or maximum of consecutive groups of ``per_bin`` values (as ``bin_means`` groups)."""
    starts = np.arange(0, int(values.size), per_bin)
    ufunc = np.minimum if how == "min" else np.maximum
    return ufunc.reduceat(values, starts) if values.size else values


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
        (for a plot: about two per pixel of its width). An empty range gives empty series;
        failures raise ``ArchiverError``.
        """

    @abstractmethod
    async def values_at(
        self, channels: Sequence[str], moment: datetime
    ) -> dict[str, ArchiverSample]:
        """The sample in force at ``moment`` for each channel that has one.

        A channel with no sample at or before ``moment`` is left out; an unknown channel or
        an unreachable archive raises ``ArchiverError``.
        """

    async def value_at(self, channel: str, moment: datetime) -> ArchiverSample:
        """The sample of ``channel`` in force at ``moment`` ("the lifetime at 06:30").

        Raises ``ArchiverError`` when the archive holds no sample at or before it.
        """
        found = await self.values_at([channel], moment)
        sample = found.get(channel)
        if sample is None:
            raise ArchiverError(
                f"'{channel}' has no archived sample at or before {moment.isoformat()}: it was "
                "not archived yet then (or not within the archive's search period)."
            )
        return sample
