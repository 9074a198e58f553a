"""One channel's archived samples as numpy arrays, with how its value holds between samples.

A *stepped* signal (a setpoint, anything archived on change) holds each value until the next
sample, so its statistics are weighted by how long each value held; a *sampled* signal
(a monitor archived at a fixed rate) weighs every sample equally.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Signal:
    channel: str
    times: np.ndarray
    values: np.ndarray
    units: str = ""
    precision: int | None = None
    stepped: bool = False

    def __post_init__(self) -> None:
        if self.times.shape != self.values.shape:
            raise ValueError(
                f"{self.channel}: {self.times.size} times for {self.values.size} values"
            )

    def __len__(self) -> int:
        return int(self.times.size)

    def finite(self) -> Signal:
        """The samples that carry a number (gaps and disconnections dropped)."""
        keep = np.isfinite(self.values)
        if keep.all():
            return self
        return Signal(
            self.channel,
            self.times[keep],
            self.values[keep],
            self.units,
            self.precision,
            self.stepped,
        )

    def window(self, start: float, end: float) -> Signal:
        """The samples in [start, end]; a stepped signal keeps the value holding at ``start``."""
        lo = int(np.searchsorted(self.times, start, side="left"))
        hi = int(np.searchsorted(self.times, end, side="right"))
        if self.stepped and lo > 0 and (lo >= self.times.size or self.times[lo] > start):
            times = np.concatenate(([start], self.times[lo:hi]))
            values = np.concatenate(([self.values[lo - 1]], self.values[lo:hi]))
        else:
            times, values = self.times[lo:hi], self.values[lo:hi]
        return Signal(self.channel, times, values, self.units, self.precision, self.stepped)

    def value_at(self, t: float) -> float:
        """The last value at or before ``t`` (NaN before the first sample)."""
        i = int(np.searchsorted(self.times, t, side="right")) - 1
        return float(self.values[i]) if i >= 0 else float("nan")


def signals_of(data: Any, stepped: Mapping[str, bool] | None = None) -> dict[str, Signal]:
    """``Signal`` per channel of an ``ArchiverData`` (numeric series only).

    ``stepped`` says which channels hold their value between samples (setpoints); a series
    with very uneven sample spacing counts as stepped when not told.
    """
    out: dict[str, Signal] = {}
    for name, series in data.series.items():
        if getattr(series, "kind", "number") not in ("number", "enum"):
            continue
        times = np.asarray(series.timestamps, dtype=float)
        values = np.asarray(series.values, dtype=float)
        if times.size > 1 and not bool(np.all(times[1:] >= times[:-1])):
            order = np.argsort(times, kind="stable")
            times, values = times[order], values[order]
        held = (stepped or {}).get(name)
        if held is None:
            held = _looks_stepped(times)
        out[name] = Signal(name, times, values, series.units, series.precision, bool(held))
    return out


def _looks_stepped(times: np.ndarray) -> bool:
    """Archived on change: the spacing varies widely (a fixed rate gives equal gaps)."""
    if times.size < 3:
        return True
    gaps = np.diff(times)
    shortest = float(gaps.min())
    return shortest <= 0 or float(gaps.max()) > 20 * shortest
