"""What a plot draws, computed with numpy away from the event loop (no Qt here).

``prepare_series`` turns ``{channel: (timestamps, values)}`` into float arrays and, for a
series with more points than a plot has pixels, display bins: the mean line and the min/max
band of each bin (Phoebus Data Browser's "optimized" look). ``orbit_frame`` puts a family of
BPMs on one time grid for the orbit view and its waterfall. ``csv_text`` is the export.
Everything here is plain numpy so the plot dock can run it with ``asyncio.to_thread``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

DISPLAY_BINS = 800
"""A series with more points than ``2 * DISPLAY_BINS`` is drawn as bins: mean and min/max."""
ORBIT_TIMES = 400
"""Rows of the waterfall (moments on the common time grid)."""


@dataclass
class PreparedSeries:
    """One channel ready to draw: the line, and the band when the data was binned."""

    channel: str
    unit: str
    t: np.ndarray
    v: np.ndarray
    band_low: np.ndarray | None = None
    band_high: np.ndarray | None = None
    raw_t: np.ndarray | None = None  # what CSV export writes (all points, not the bins)
    raw_v: np.ndarray | None = None

    @property
    def points(self) -> int:
        return int(self.raw_t.size if self.raw_t is not None else self.t.size)


def as_arrays(timestamps: Any, values: Any) -> tuple[np.ndarray, np.ndarray]:
    """Float arrays with None -> NaN (a gap in the curve, not a crash), equal lengths."""
    t = np.asarray(timestamps, dtype=float).reshape(-1)
    try:
        v = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):  # strings or mixed junk: what is not a number is a gap
        v = np.array([_number(x) for x in values], dtype=float)
    n = min(t.size, v.size)
    return t[:n], v[:n]


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def display_bins(
    t: np.ndarray, v: np.ndarray, bins: int = DISPLAY_BINS
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(t, mean, min, max) per bin of equal point count; empty bins (all NaN) stay NaN."""
    n = t.size
    edges = np.linspace(0, n, bins + 1).astype(int)
    starts = edges[:-1][np.diff(edges) > 0]
    counts = np.diff(np.append(starts, n))
    finite = np.isfinite(v)
    filled = np.where(finite, v, 0.0)
    sums = np.add.reduceat(filled, starts)
    good = np.add.reduceat(finite.astype(float), starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(good > 0, sums / np.maximum(good, 1), np.nan)
    low = np.minimum.reduceat(np.where(finite, v, np.inf), starts)
    high = np.maximum.reduceat(np.where(finite, v, -np.inf), starts)
    low[good == 0] = np.nan
    high[good == 0] = np.nan
    bin_t = np.add.reduceat(t, starts) / counts
    return bin_t, mean, low, high


def prepare_series(
    series: Mapping[str, tuple[Any, Any]],
    units: Mapping[str, str] | None = None,
    envelopes: Mapping[str, tuple[Any, Any]] | None = None,
    bins: int = DISPLAY_BINS,
) -> list[PreparedSeries]:
    """Arrays (and bins with their band) for every channel, in the given order.

    ``envelopes`` are min/max arrays the archive sent with binned data; they become the band
    as they are, instead of the band of the display bins.
    """
    units = units or {}
    out = []
    for channel, (timestamps, values) in series.items():
        t, v = as_arrays(timestamps, values)
        item = PreparedSeries(channel, str(units.get(channel) or ""), t, v, raw_t=t, raw_v=v)
        envelope = (envelopes or {}).get(channel)
        if envelope is not None:
            _, low = as_arrays(timestamps, envelope[0])
            _, high = as_arrays(timestamps, envelope[1])
            if low.size == t.size and high.size == t.size:
                item.band_low, item.band_high = low, high
        if item.band_low is None and t.size > 2 * bins:
            item.t, item.v, item.band_low, item.band_high = display_bins(t, v, bins)
        out.append(item)
    return out


@dataclass
class OrbitFrame:
    """A family of channels on one time grid: ``values[time, channel]``."""

    channels: list[str]
    unit: str
    times: np.ndarray
    values: np.ndarray

    def at(self, index: int) -> np.ndarray:
        return self.values[max(0, min(index, self.times.size - 1))]


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


def csv_text(prepared: Sequence[PreparedSeries]) -> str:
    """Every point of every channel: local time, epoch seconds, channel, value, units."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["time_local", "epoch_seconds", "channel", "value", "units"])
    for item in prepared:
        t = item.raw_t if item.raw_t is not None else item.t
        v = item.raw_v if item.raw_v is not None else item.v
        for stamp, value in zip(t.tolist(), v.tolist(), strict=False):
            when = datetime.fromtimestamp(stamp).isoformat(sep=" ", timespec="milliseconds")
            shown = "" if value != value else repr(value)  # NaN: an empty cell (a gap)
            writer.writerow([when, f"{stamp:.3f}", item.channel, shown, item.unit])
    return buffer.getvalue()


__all__ = [
    "OrbitFrame",
    "PreparedSeries",
    "as_arrays",
    "csv_text",
    "display_bins",
    "orbit_frame",
    "prepare_series",
]
