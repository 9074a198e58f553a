"""What a time plot draws, computed with numpy away from the event loop (no Qt here).

``prepare_series`` turns ``{channel: (timestamps, values)}`` into arrays to draw, by kind:

- **numbers**: archived samples as steps — a sample holds until the next one, as the archive
  stores a change and not a ramp (Phoebus Data Browser's "staircase"): a setpoint that stepped
  from 1.2 A to 0.5 A is drawn as a step, never as a slope over hours. Broken at gaps
  (``None``/NaN: no value there, never a line joining across). Linear only where the values
  are averages: bins the archive sent (with their min/max envelope) and, with more points than
  a plot has pixels, display bins — the mean line and the min/max band of each bin (the
  Data Browser's "optimized" look), a bin holding a gap still breaking the line;
- **enums**: a step outline of the state indices (a state holds until the next sample), with
  the state labels for the axis — never a mean of indices;
- **strings**: the same step track over the distinct texts when there are few of them, else
  not drawn, with a note saying why;
- **waveforms**: not a time line at all: a profile frame (``plot_frames.waveform_frame``),
  drawn against element index in its own view.

Samples in alarm (EPICS severity 1 MINOR, 2 MAJOR, 3 INVALID) become markers. ``csv_text`` is
the export. Everything here is plain numpy so the plot dock can run it with
``asyncio.to_thread``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from osprey_desktop.ui.plot_frames import OrbitFrame, as_arrays, number_or_nan, waveform_frame

DISPLAY_BINS = 800
"""A series with more points than ``2 * DISPLAY_BINS`` is drawn as bins: mean and min/max."""
MAX_STATES = 16
"""A text channel with more distinct texts than this is not drawn as a state track."""
LABEL_CHARS = 28
"""State labels on an axis are cut to this many characters."""
SEVERITY_NAMES = {1: "MINOR", 2: "MAJOR", 3: "INVALID"}
KINDS = ("number", "enum", "string", "waveform")
STATES = "\x1fstates"
"""The axis key of state tracks (never a unit's name)."""


def _empty() -> np.ndarray:
    return np.array([], dtype=float)


@dataclass
class PreparedSeries:
    """One channel ready to draw: the line (or step outline), its band, its alarm markers."""

    channel: str
    unit: str
    t: np.ndarray
    v: np.ndarray
    band_low: np.ndarray | None = None
    band_high: np.ndarray | None = None
    raw_t: np.ndarray | None = None  # what CSV export writes (all points, not the bins)
    raw_v: np.ndarray | None = None
    kind: str = "number"  # number | enum | string | waveform
    labels: tuple[str, ...] = ()  # state index -> label (enums, texts drawn as a track)
    steps: bool = False  # t/v are a step outline: a state holds until the next sample
    held: bool = False  # numbers drawn as a step outline (raw samples hold until the next)
    band_t: np.ndarray | None = None  # x of the band when it differs from t (steps)
    raw_severity: np.ndarray | None = None  # EPICS severity code per raw sample
    alarm_t: np.ndarray = field(default_factory=_empty)
    alarm_v: np.ndarray = field(default_factory=_empty)
    alarm_severity: np.ndarray = field(default_factory=lambda: np.array([], dtype=int))
    raw_objects: list[Any] | None = None  # texts / waveforms as they came (CSV, live)
    frame: OrbitFrame | None = None  # a waveform's profile over time
    note: str = ""  # how it is drawn, or why it is not
    alarms: dict[str, int] | None = None  # samples per alarm severity name

    @property
    def points(self) -> int:
        return int(self.raw_t.size if self.raw_t is not None else self.t.size)

    @property
    def drawn(self) -> bool:
        """Whether the time plot draws this channel (waveforms and many texts: not)."""
        return self.kind in ("number", "enum") or bool(self.labels)

    @property
    def axis_key(self) -> str:
        """Channels with the same key share a y axis: a unit, or ``STATES`` for every state
        track (they are stacked on that one axis, each over its own rows)."""
        return STATES if self.steps else self.unit

    def alarm_counts(self) -> dict[str, int]:
        """How many samples were in each alarm severity (``{"MAJOR": 12}``)."""
        if self.alarms is None:  # counted once, in the worker that prepared the series
            self.alarms = _count_alarms(self.raw_severity)
        return self.alarms

    def label_of(self, value: float) -> str | None:
        if not math.isfinite(value) or not self.labels:
            return None
        index = int(value)
        return self.labels[index] if 0 <= index < len(self.labels) else None


def _count_alarms(codes: np.ndarray | None) -> dict[str, int]:
    if codes is None or codes.size == 0:
        return {}
    found, counts = np.unique(codes[codes > 0], return_counts=True)
    return {_severity_name(int(c)): int(n) for c, n in zip(found, counts, strict=True)}


def _severity_name(code: int) -> str:
    return SEVERITY_NAMES.get(code, f"SEVERITY_{code}")


def display_bins(
    t: np.ndarray, v: np.ndarray, bins: int = DISPLAY_BINS
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(t, mean, min, max) per bin of equal point count; empty bins (all NaN) stay NaN.

    A bin that holds a gap next to values gets an extra NaN point at the gap's time, so the
    line still breaks there instead of joining across the disconnected period.
    """
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
    mixed = (good > 0) & (good < counts)
    if not mixed.any():
        return bin_t, mean, low, high
    first_gap = np.minimum.reduceat(np.where(finite, n, np.arange(n)), starts)[mixed]
    gap_t = t[first_gap]
    nan = np.full(gap_t.size, np.nan)
    order = np.argsort(np.concatenate([bin_t, gap_t]), kind="stable")
    return tuple(  # type: ignore[return-value]
        np.concatenate([a, b])[order]
        for a, b in ((bin_t, gap_t), (mean, nan), (low, nan), (high, nan))
    )


def alarm_markers(
    t: np.ndarray, v: np.ndarray, severity: np.ndarray | None, bins: int = DISPLAY_BINS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(t, y, severity) of the samples in alarm, at most ``2 * bins`` of them.

    A sample in alarm without a value (INVALID, disconnected) is marked at the last value
    before it, so "it went invalid here" shows on the line. With more alarm samples than
    ``2 * bins``, each group of neighbours keeps one marker of its worst severity.
    """
    if severity is None or severity.size != t.size or t.size == 0:
        return _empty(), _empty(), np.array([], dtype=int)
    picked = np.flatnonzero(severity > 0)
    if picked.size == 0:
        return _empty(), _empty(), np.array([], dtype=int)
    finite = np.isfinite(v)
    index = np.arange(v.size)
    before = np.maximum.accumulate(np.where(finite, index, -1))
    after = np.minimum.accumulate(np.where(finite, index, v.size)[::-1])[::-1]
    source = np.where(before >= 0, before, np.where(after < v.size, after, -1))
    y = np.where(source >= 0, v[np.clip(source, 0, v.size - 1)], np.nan)
    mt, my, ms = t[picked], y[picked], severity[picked].astype(int)
    keep = np.isfinite(my)
    mt, my, ms = mt[keep], my[keep], ms[keep]
    limit = 2 * bins
    if mt.size > limit:
        starts = np.linspace(0, mt.size, limit + 1).astype(int)[:-1]
        starts = np.unique(starts)
        worst = np.maximum.reduceat(ms, starts)
        return mt[starts], my[starts], worst
    return mt, my, ms


def step_outline(t: np.ndarray, v: np.ndarray, end: float) -> tuple[np.ndarray, np.ndarray]:
    """The outline of a state held from each sample to the next (the last one to ``end``)."""
    if t.size == 0:
        return t, v
    x = np.empty(2 * t.size)
    x[0::2] = t
    x[1::2] = np.append(t[1:], max(end, float(t[-1])))
    return x, np.repeat(v, 2)


def _states(
    values: Sequence[Any], kind: str, labels: Sequence[str]
) -> tuple[np.ndarray, tuple[str, ...], str]:
    """State indices (NaN for a gap), their labels, and a note when not drawable."""
    names = [str(x) for x in labels]
    if kind == "enum" and isinstance(values, np.ndarray) and values.dtype != object:
        v = values.astype(float)  # indices already (a strip chart's buffer): no Python loop
        return v, _state_labels(names, v), ""
    for value in values:  # live enum values carry their own name and index
        index = getattr(value, "enum_index", None)
        if isinstance(index, int) and index >= 0:
            names.extend([""] * (index + 1 - len(names)))
            names[index] = names[index] or str(value)
    if kind == "string":
        distinct = list(dict.fromkeys(str(x) for x in values if x is not None))
        if len(distinct) > MAX_STATES:
            return (
                np.array([]),
                (),
                (
                    f"text channel with {len(distinct)} different texts: not drawn "
                    "(Export CSV lists every one)"
                ),
            )
        where = {text: i for i, text in enumerate(distinct)}
        v = np.array([np.nan if x is None else where[str(x)] for x in values], dtype=float)
        return v, tuple(_short(x) for x in distinct), ""
    by_name = {n: i for i, n in enumerate(names) if n}
    v = np.array(
        [
            float(by_name[x])
            if isinstance(x, str) and getattr(x, "enum_index", None) is None and x in by_name
            else number_or_nan(x)
            for x in values
        ],
        dtype=float,
    )
    return v, _state_labels(names, v), ""


def _state_labels(names: list[str], v: np.ndarray) -> tuple[str, ...]:
    """Labels for every index up to the highest one seen; an unnamed state is "state N"."""
    top = int(np.nanmax(v)) if np.isfinite(v).any() else -1
    names = names + [""] * (top + 1 - len(names))
    return tuple(_short(n) if n else f"state {i}" for i, n in enumerate(names))


def _short(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def series_kind(declared: str | None, values: Sequence[Any]) -> str:
    """The declared kind, else what the first value looks like."""
    if declared in KINDS:
        return declared  # type: ignore[return-value]
    first = next((x for x in values if x is not None), None)
    if isinstance(first, list | tuple | np.ndarray):
        return "waveform"
    if getattr(first, "enum_index", None) is not None:
        return "enum"
    if isinstance(first, str) and math.isnan(number_or_nan(first)):
        return "string"
    return "number"


def _prepare_states(
    item: PreparedSeries, values: Sequence[Any], labels: Sequence[str], end: float, bins: int
) -> None:
    t = item.t
    v, item.labels, item.note = _states(values, item.kind, labels)
    if item.kind == "string":
        item.raw_objects = list(values)
    if not item.labels:  # too many texts
        item.raw_v = np.full(t.size, np.nan)
        item.t, item.v = _empty(), _empty()
        return
    item.raw_v = v
    item.steps = True
    change = np.ones(v.size, dtype=bool)
    change[1:] = ~((v[1:] == v[:-1]) | (np.isnan(v[1:]) & np.isnan(v[:-1])))
    tc, vc = t[change], v[change]
    if tc.size > 2 * bins:  # chattering: per bin the last state, band = the states visited
        bin_t, _, low, high = display_bins(t, v, bins)
        edges = np.linspace(0, t.size, bins + 1).astype(int)
        ends = np.unique(edges[1:][np.diff(edges) > 0]) - 1
        tc, vc = t[ends], v[ends]
        item.band_t, item.band_low, item.band_high = bin_t, low, high
        item.note = "state changes faster than the plot has pixels: band = states visited"
    item.t, item.v = step_outline(tc, vc, end)


def prepare_series(
    series: Mapping[str, tuple[Any, Any]],
    units: Mapping[str, str] | None = None,
    envelopes: Mapping[str, tuple[Any, Any]] | None = None,
    bins: int = DISPLAY_BINS,
    *,
    kinds: Mapping[str, str] | None = None,
    labels: Mapping[str, Sequence[str]] | None = None,
    severity: Mapping[str, Any] | None = None,
    end: float | None = None,
) -> list[PreparedSeries]:
    """Arrays to draw for every channel, in the given order (see the module).

    ``envelopes`` are min/max arrays the archive sent with binned data; they become the band
    as they are. ``kinds``/``labels``/``severity`` are the ARCHIVER_DATA fields of the same
    names; a channel without a kind is guessed from its values. A state holds until ``end``
    (default: the newest timestamp of all channels).
    """
    units, kinds, labels, severity = units or {}, kinds or {}, labels or {}, severity or {}
    if end is None:
        end = series_end(series) or 0.0
    out = []
    for channel, (timestamps, values) in series.items():
        values = (
            values.tolist() if isinstance(values, np.ndarray) and values.dtype == object else values
        )
        kind = series_kind(kinds.get(channel), values)
        unit = str(units.get(channel) or "")
        codes = severity.get(channel)
        if kind == "waveform":
            out.append(_prepare_waveform(channel, unit, timestamps, list(values)))
            continue
        if kind in ("enum", "string"):
            t = np.asarray(timestamps, dtype=float).reshape(-1)
            values = values[: t.size] if isinstance(values, np.ndarray) else list(values)[: t.size]
            t = t[: len(values)]
            item = PreparedSeries(channel, unit, t, _empty(), raw_t=t, kind=kind)
            _prepare_states(item, values, labels.get(channel) or (), end, bins)
        else:
            t, v = as_arrays(timestamps, values)
            item = PreparedSeries(channel, unit, t, v, raw_t=t, raw_v=v)
            envelope = envelopes.get(channel) if envelopes else None
            if envelope is not None:
                _, low = as_arrays(timestamps, envelope[0])
                _, high = as_arrays(timestamps, envelope[1])
                if low.size == t.size and high.size == t.size:
                    item.band_low, item.band_high = low, high
            if item.band_low is None and t.size > 2 * bins:
                item.t, item.v, item.band_low, item.band_high = display_bins(t, v, bins)
                item.note = "more samples than pixels: mean of each bin, band = min … max"
            elif item.band_low is None:
                item.t, item.v = step_outline(t, v, end)
                item.held = True
                item.note = "archived samples as steps: each value holds until the next"
            else:
                item.note = "archive bins: mean line, band = min … max (interpolated)"
        if codes is not None:
            sev = np.asarray([0 if c is None else c for c in codes], dtype=int).reshape(-1)
            if sev.size == item.raw_t.size:  # type: ignore[union-attr]
                item.raw_severity = sev
                item.alarms = _count_alarms(sev)
                y = item.raw_v if item.raw_v is not None else item.v
                item.alarm_t, item.alarm_v, item.alarm_severity = alarm_markers(
                    item.raw_t,
                    y,
                    sev,
                    bins,  # type: ignore[arg-type]
                )
        out.append(item)
    return out


def series_end(series: Mapping[str, tuple[Any, Any]]) -> float | None:
    """The newest finite timestamp of all channels (None: none has one)."""
    ends = [_last_stamp(stamps) for stamps, _ in series.values()]
    return max((e for e in ends if e is not None), default=None)


def _last_stamp(stamps: Any) -> float | None:
    array = np.asarray(stamps, dtype=float).reshape(-1)
    finite = array[np.isfinite(array)]
    return float(finite.max()) if finite.size else None


def _prepare_waveform(
    channel: str, unit: str, timestamps: Any, values: list[Any]
) -> PreparedSeries:
    t = np.asarray(timestamps, dtype=float).reshape(-1)[: len(values)]
    values = values[: t.size]
    frame = waveform_frame(channel, t, values, unit)
    elements = frame.values.shape[1] if frame.values.ndim == 2 else 0
    return PreparedSeries(
        channel,
        unit,
        _empty(),
        _empty(),
        raw_t=t,
        raw_v=np.full(t.size, np.nan),
        kind="waveform",
        raw_objects=values,
        frame=frame,
        note=f"waveform of {elements} elements: drawn against element index in its own tab",
    )


def csv_text(prepared: Sequence[PreparedSeries]) -> str:
    """Every point of every channel: local time, epoch seconds, channel, value, units and
    alarm severity (an enum's value is its state name, a waveform's its elements)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["time_local", "epoch_seconds", "channel", "value", "units", "severity"])
    for item in prepared:
        t = item.raw_t if item.raw_t is not None else item.t
        v = item.raw_v if item.raw_v is not None else item.v
        objects = item.raw_objects
        codes = item.raw_severity.tolist() if item.raw_severity is not None else None
        for i, (stamp, value) in enumerate(zip(t.tolist(), v.tolist(), strict=False)):
            when = datetime.fromtimestamp(stamp).isoformat(sep=" ", timespec="milliseconds")
            if objects is not None:
                shown = _object_text(objects[i])
            elif value != value:  # NaN: an empty cell (a gap)
                shown = ""
            else:
                shown = (item.label_of(value) if item.kind == "enum" else None) or repr(value)
            alarm = _severity_name(codes[i]) if codes and codes[i] else ""
            writer.writerow([when, f"{stamp:.3f}", item.channel, shown, item.unit, alarm])
    return buffer.getvalue()


def _object_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple | np.ndarray):
        items = value.tolist() if isinstance(value, np.ndarray) else list(value)
        return json.dumps(items)
    return str(value)


__all__ = [
    "PreparedSeries",
    "alarm_markers",
    "as_arrays",
    "csv_text",
    "display_bins",
    "prepare_series",
    "series_end",
    "series_kind",
    "step_outline",
]
