"""Correlation of two channels over a window, aligned on one time base, with the best lag.

Both signals are put on a common grid (the coarser of their median sample periods, over the
time both cover) by holding each sample until the next, as an archive is read. Pearson r is
``numpy.corrcoef`` on that grid; the best lag shifts the second signal by whole grid steps
within ``max_lag`` and keeps the shift with the largest |r| (positive: the second follows);
the shift is found with one FFT cross-correlation, and its r computed exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import Signal
from osprey_desktop.investigate.statistics import InvestigationError

#: Fewer aligned samples than this give no correlation (r of a handful of points is noise).
MIN_SAMPLES = 10


@dataclass(frozen=True)
class Correlation:
    a: str
    b: str
    r: float
    best_lag_s: float
    r_at_best_lag: float
    samples: int
    step_s: float
    provenance: Provenance

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "r": self.r,
            "best_lag_s": self.best_lag_s,
            "r_at_best_lag": self.r_at_best_lag,
            "samples": self.samples,
            "step_s": self.step_s,
            "provenance": self.provenance.to_dict(),
        }


def _period(signal: Signal) -> float:
    if signal.times.size < 2:
        return math.inf
    return float(np.median(np.diff(signal.times)))


def common_time_base(
    signals: list[Signal], start: float, end: float, step: float | None = None
) -> tuple[np.ndarray, list[np.ndarray]]:
    """A grid over the part of [start, end] every signal covers, and each signal held on it."""
    finite = [s.finite() for s in signals]
    if any(len(s) == 0 for s in finite):
        empty = [s.channel for s in finite if len(s) == 0]
        raise InvestigationError(f"no archived numbers for {', '.join(empty)} in the window")
    lo = max([start, *(float(s.times[0]) for s in finite)])
    hi = min([end, *(float(s.times[-1]) for s in finite if not s.stepped)])
    periods = [_period(s) for s in finite if not s.stepped]
    grid_step = step or max([p for p in periods if math.isfinite(p)] or [1.0])
    if not hi > lo or grid_step <= 0:
        raise InvestigationError("the channels have no time in common in the window")
    grid = lo + grid_step * np.arange(int(math.floor((hi - lo) / grid_step + 1e-9)) + 1)
    held = []
    for s in finite:
        index = np.searchsorted(s.times, grid + 1e-9, side="right") - 1
        held.append(s.values[np.clip(index, 0, None)])
    return grid, held


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    """``numpy.corrcoef(x, y)[0, 1]`` from elementwise sums (BLAS threads contend on a busy
    two-core machine, and the lag search calls this hundreds of times)."""
    if x.size < 2:
        return float("nan")
    dx, dy = x - x.mean(), y - y.mean()
    sxx, syy = float(np.sum(dx * dx)), float(np.sum(dy * dy))
    if sxx == 0.0 or syy == 0.0:
        return float("nan")
    return float(np.sum(dx * dy) / math.sqrt(sxx * syy))


def _shifted(x: np.ndarray, y: np.ndarray, shift: int) -> tuple[np.ndarray, np.ndarray]:
    """``x[i]`` paired with ``y[i + shift]`` (the second signal lags by ``shift`` steps)."""
    if shift > 0:
        return x[:-shift], y[shift:]
    if shift < 0:
        return x[-shift:], y[:shift]
    return x, y


def _best_shift(x: np.ndarray, y: np.ndarray, max_shift: int) -> int:
    """The shift within ±max_shift where the overlap-normalised cross-correlation of the
    standardised signals peaks (one FFT, not one correlation per shift); its r is then
    computed exactly."""
    if max_shift < 1 or float(np.std(x)) == 0.0 or float(np.std(y)) == 0.0:
        return 0
    n = x.size
    xs = (x - x.mean()) / np.std(x)
    ys = (y - y.mean()) / np.std(y)
    size = 1 << int(math.ceil(math.log2(2 * n)))
    cc = np.fft.irfft(np.conj(np.fft.rfft(xs, size)) * np.fft.rfft(ys, size), size)
    shifts = np.arange(-max_shift, max_shift + 1)
    values = cc[shifts % size] / (n - np.abs(shifts))
    return int(shifts[int(np.argmax(np.abs(values)))])


def correlate(
    a: Signal, b: Signal, start: float, end: float, max_lag_s: float = 300.0
) -> Correlation:
    """Pearson r of ``a`` and ``b`` in [start, end], and the lag of ``b`` that fits best."""
    grid, (x, y) = common_time_base([a, b], start, end)
    if grid.size < MIN_SAMPLES:
        raise InvestigationError(
            f"only {grid.size} aligned samples of {a.channel} and {b.channel}; "
            f"at least {MIN_SAMPLES} are needed"
        )
    step = float(grid[1] - grid[0]) if grid.size > 1 else 1.0
    r = _pearson(x, y)
    max_shift = min(int(max_lag_s // step), grid.size // 2)
    best_lag, best_r = 0.0, r
    shift = _best_shift(x, y, max_shift)
    if shift:
        value = _pearson(*_shifted(x, y, shift))
        if math.isfinite(value) and (not math.isfinite(best_r) or abs(value) > abs(best_r)):
            best_lag, best_r = shift * step, value
    method = (
        f"Pearson r (numpy.corrcoef) on a common {step:g} s grid, samples held until the "
        f"next; best lag searched within ±{max_shift * step:g} s (FFT cross-correlation, "
        "r at that lag exact)"
    )
    provenance = Provenance(
        (a.channel, b.channel), float(grid[0]), float(grid[-1]), int(grid.size), method
    )
    return Correlation(a.channel, b.channel, r, best_lag, best_r, int(grid.size), step, provenance)
