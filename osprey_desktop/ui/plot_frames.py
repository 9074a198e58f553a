"""Profiles over time, computed with numpy away from the event loop (no Qt here).

A *profile* is a row of values against a position, one row per moment: the orbit of a BPM
family (value against BPM, ring order) or a waveform channel (value against element index).
Both are drawn the same way (``orbit_plot.OrbitPlot``): the profile at a chosen moment and a
waterfall of every moment. ``orbit_frame`` builds one from a family of scalar channels,
``waveform_frame`` from the history of one waveform channel.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

ORBIT_TIMES = 400
"""Rows of the waterfall (moments on the common time grid)."""
MAX_ELEMENTS = 4096
"""A longer waveform is reduced to this many columns (means of neighbouring elements)."""


@dataclass
class OrbitFrame:
    """Values on one time grid: ``values[time, position]``.

    ``channels`` names the positions of an orbit (one channel per BPM); a waveform frame has
    its one channel there and ``tick_names`` None (the positions are element indices).
    ``diverging`` colours the waterfall around zero (an orbit); else from min to max.
    """

    channels: list[str]
    unit: str
    times: np.ndarray
    values: np.ndarray
    x_label: str = "BPM (ring order)"
    positions: np.ndarray | None = None
    diverging: bool = True
    note: str = ""

    def __post_init__(self) -> None:
        if self.positions is None:
            columns = self.values.shape[1] if self.values.ndim == 2 else len(self.channels)
            self.positions = np.arange(columns, dtype=float)

    def at(self, index: int) -> np.ndarray:
        return self.values[max(0, min(index, self.times.size - 1))]


def as_arrays(timestamps: Any, values: Any) -> tuple[np.ndarray, np.ndarray]:
    """Float arrays with None -> NaN (a gap in the curve, not a crash), equal lengths."""
    t = np.asarray(timestamps, dtype=float).reshape(-1)
    try:
        v = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):  # strings or mixed junk: what is not a number is a gap
        v = np.array([number_or_nan(x) for x in values], dtype=float)
    n = min(t.size, v.size)
    return t[:n], v[:n]


def number_or_nan(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def orbit_frame(
    channels: Sequence[str],
    series: Mapping[str, tuple[Any, Any]],
    unit: str = "",
    rows: int = ORBIT_TIMES,
) -> OrbitFrame:
    """Every channel interpolated onto ``rows`` moments spanning their common history; a
    moment outside a channel's data (or in one of its gaps) is NaN."""
    arrays = {c: as_arrays(*series[c]) for c in channels if c in series}
    spans = [(t[0], t[-1]) for t, _ in arrays.values() if t.size]
    if not spans:
        return OrbitFrame(list(arrays), unit, np.array([]), np.zeros((0, len(arrays))))
    start = min(s for s, _ in spans)
    end = max(e for _, e in spans)
    times = np.linspace(start, end, rows) if end > start else np.array([start])
    columns = []
    for t, v in arrays.values():
        if t.size == 0:
            columns.append(np.full(times.size, np.nan))
            continue
        order = np.argsort(t, kind="stable")
        t, v = t[order], v[order]
        column = np.interp(times, t, v, left=np.nan, right=np.nan)
        # a gap stays a gap: the nearest sample at or before each moment must be finite
        nearest = np.clip(np.searchsorted(t, times, side="right") - 1, 0, t.size - 1)
        column[~np.isfinite(v[nearest])] = np.nan
        columns.append(column)
    return OrbitFrame(list(arrays), unit, times, np.column_stack(columns))


def waveform_frame(
    channel: str,
    timestamps: Any,
    values: Sequence[Any],
    unit: str = "",
    rows: int = ORBIT_TIMES,
    max_elements: int = MAX_ELEMENTS,
) -> OrbitFrame:
    """The history of a waveform channel as rows of elements (one row per moment shown).

    With more samples than ``rows`` the waveform in force at each of ``rows`` even moments is
    taken (the last one stamped at or before it), the newest sample always last. A gap
    (``None``) is a row of NaN; shorter waveforms are padded with NaN.
    """
    t = np.asarray(timestamps, dtype=float).reshape(-1)
    n = min(t.size, len(values))
    t = t[:n]
    order = np.argsort(t, kind="stable")
    t = t[order]
    if n > rows:
        grid = np.linspace(t[0], t[-1], rows)
        picks = np.clip(np.searchsorted(t, grid, side="right") - 1, 0, n - 1)
        picks[-1] = n - 1
    else:
        picks = np.arange(n)
    chosen = [values[int(order[i])] for i in picks]
    width = max((_length(w) for w in chosen), default=0)
    matrix = np.full((len(chosen), width), np.nan)
    for row, wave in enumerate(chosen):
        if wave is None or _length(wave) == 0:
            continue
        numbers = _numbers(wave)
        matrix[row, : numbers.size] = numbers
    note = ""
    if width > max_elements:
        group = int(np.ceil(width / max_elements))
        padded = np.full((matrix.shape[0], group * int(np.ceil(width / group))), np.nan)
        padded[:, :width] = matrix
        with warnings.catch_warnings():  # an all-NaN group is a gap, not a warning
            warnings.simplefilter("ignore", RuntimeWarning)
            matrix = np.nanmean(padded.reshape(matrix.shape[0], -1, group), axis=2)
        note = f"{width} elements, shown as means of {group}"
    positions = np.arange(matrix.shape[1], dtype=float) * (width / max(matrix.shape[1], 1))
    return OrbitFrame(
        [channel],
        unit,
        t[picks] if n else np.array([]),
        matrix,
        x_label="element index",
        positions=positions,
        diverging=False,
        note=note,
    )


def _length(wave: Any) -> int:
    try:
        return len(wave)
    except TypeError:
        return 0


def _numbers(wave: Any) -> np.ndarray:
    try:
        return np.asarray(wave, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        out = []
        for item in wave:
            try:
                out.append(float(item))
            except (TypeError, ValueError):
                out.append(np.nan)
        return np.array(out, dtype=float)


__all__ = [
    "as_arrays",
    "number_or_nan",
    "MAX_ELEMENTS",
    "ORBIT_TIMES",
    "OrbitFrame",
    "orbit_frame",
    "waveform_frame",
]
