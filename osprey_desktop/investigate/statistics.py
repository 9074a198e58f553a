"""Statistics over a window, and comparisons of two windows or two channels.

Sampled signals: every sample weighs the same (``numpy.mean``/``std`` with ``ddof=0``, drift
from a least-squares line). Stepped signals (setpoints, archived on change): each value
weighs by how long it held inside the window, and the drift is the change over the window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import Signal


class InvestigationError(ValueError):
    """A computation cannot be done on these samples (says what is missing)."""


@dataclass(frozen=True)
class Statistics:
    channel: str
    units: str
    mean: float
    minimum: float
    maximum: float
    std: float
    peak_to_peak: float
    drift_per_hour: float
    first: float
    last: float
    time_of_min: float
    time_of_max: float
    provenance: Provenance

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in _NUMBERS}
        out.update(channel=self.channel, units=self.units, provenance=self.provenance.to_dict())
        return out


_NUMBERS = (
    "mean",
    "minimum",
    "maximum",
    "std",
    "peak_to_peak",
    "drift_per_hour",
    "first",
    "last",
    "time_of_min",
    "time_of_max",
)


def least_squares_slope(t: np.ndarray, v: np.ndarray) -> float:
    """Slope of the least-squares line through (t, v) (``numpy.polyfit(t, v, 1)[0]``, in
    closed form: 20 times faster on a day of 1 Hz samples)."""
    if v.size < 2:
        return 0.0
    # elementwise sums, not np.dot: BLAS threads contend on a busy two-core machine
    dt = t - t.mean()
    spread = float(np.sum(dt * dt))
    return float(np.sum(dt * (v - v.mean())) / spread) if spread > 0 else 0.0


def statistics(signal: Signal, start: float, end: float) -> Statistics:
    """Mean, min, max, standard deviation, peak-to-peak and drift per hour in [start, end]."""
    if not end > start:
        raise InvestigationError(f"{signal.channel}: the window must end after it starts")
    part = signal.window(start, end).finite()
    if len(part) == 0:
        raise InvestigationError(
            f"{signal.channel} has no archived number between the window's ends"
        )
    t, v = part.times, part.values
    hours = (end - start) / 3600.0
    if signal.stepped:
        weights = np.diff(np.append(t, end))
        weights = np.clip(weights, 0.0, None)
        total = float(weights.sum())
        if total <= 0:
            mean, std = float(v[-1]), 0.0
        else:
            mean = float(np.sum(v * weights) / total)
            std = math.sqrt(float(np.sum(weights * (v - mean) ** 2) / total))
        drift = (float(v[-1]) - float(v[0])) / hours if hours > 0 else 0.0
        method = "time-weighted (each value held until the next sample); drift = change/hours"
    else:
        mean, std = float(np.mean(v)), float(np.std(v))
        drift = least_squares_slope(t, v) * 3600.0
        method = "every sample weighted equally; drift = least-squares slope"
    i_min, i_max = int(np.argmin(v)), int(np.argmax(v))
    return Statistics(
        channel=signal.channel,
        units=signal.units,
        mean=mean,
        minimum=float(v[i_min]),
        maximum=float(v[i_max]),
        std=std,
        peak_to_peak=float(v[i_max] - v[i_min]),
        drift_per_hour=drift,
        first=float(v[0]),
        last=float(v[-1]),
        time_of_min=float(t[i_min]),
        time_of_max=float(t[i_max]),
        provenance=Provenance((signal.channel,), start, end, int(v.size), method),
    )


@dataclass(frozen=True)
class Comparison:
    """Two windows (or two channels) side by side: B minus A."""

    a: Statistics
    b: Statistics
    label_a: str
    label_b: str

    @property
    def mean_change(self) -> float:
        return self.b.mean - self.a.mean

    @property
    def relative_change(self) -> float:
        return self.mean_change / abs(self.a.mean) if self.a.mean else float("nan")

    @property
    def significance(self) -> float:
        """The change of the means in units of the pooled spread (0 when both are flat)."""
        spread = math.sqrt((self.a.std**2 + self.b.std**2) / 2.0)
        return abs(self.mean_change) / spread if spread > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "label_a": self.label_a,
            "label_b": self.label_b,
            "mean_change": self.mean_change,
        }


def compare(
    a: Signal,
    window_a: tuple[float, float],
    b: Signal,
    window_b: tuple[float, float],
    label_a: str = "then",
    label_b: str = "now",
) -> Comparison:
    """Statistics of ``a`` over ``window_a`` against ``b`` over ``window_b`` (now vs then: the
    same signal twice; sector vs sector: two signals over one window)."""
    return Comparison(statistics(a, *window_a), statistics(b, *window_b), label_a, label_b)
