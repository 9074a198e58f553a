"""A live strip chart dock opened by ``osprey-desktop://stripchart?channels=A,B``.

Subscribes through the control-system connector on the GUI loop (``LiveFeed``). Updates only
fill ring buffers; a 5 Hz timer redraws, so a fast channel cannot flood the event loop. The
time axis is wall-clock time over the last ``window_seconds``, chosen above the plot (10 min,
1 h, 8 h, 24 h); the span is filled from the archive when an archiver is connected, so the
chart never starts empty. The legend beside the plot lists each channel with its last value
(at the channel's precision, as tables show it), units and alarm colour (disconnected shows
too), so six channels take six legend rows, not a row of labels wider than the screen.

Each channel is drawn by what it holds: numbers as lines, enums as steps on an axis that names
their states (from the channel's metadata), texts as a state track, samples in alarm marked in
their colours; a waveform channel is drawn as the live waveform against element index in a
plot under the time plot (one curve per waveform channel, in its legend colour).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.connectors.values import value_kind, waveform_points, waveform_summary
from osprey_desktop.ui.live_feed import LiveFeed
from osprey_desktop.ui.plot_frames import number_or_nan
from osprey_desktop.ui.plot_items import units_axis
from osprey_desktop.ui.plot_options import lazy_plot_widget
from osprey_desktop.ui.plot_range import SPANS
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot, severity_code
from osprey_desktop.ui.values import format_scalar

ConnectorFactory = Callable[[], Awaitable[Any]]
MAX_POINTS = 20_000
ARCHIVE_POINTS = 2000  # per channel when the span is filled from the archive
PLAUSIBLE_EPOCH = 946_684_800.0  # 2000-01-01: an older stamp is a clock problem, not a time


def stripchart_key(channels: Sequence[str]) -> tuple[str, ...]:
    """The same channels in any order are the same strip chart."""
    return tuple(sorted(dict.fromkeys(channels)))


class StripChartDock(QDockWidget):
    """Live history of a few channels over the last ``window_seconds``."""

    def __init__(
        self,
        channels: Sequence[str],
        connector_factory: ConnectorFactory,
        window_seconds: float = 600.0,
        parent: QWidget | None = None,
        archiver_factory: ConnectorFactory | None = None,
    ) -> None:
        channels = list(dict.fromkeys(channels))
        shown = ", ".join(channels[:3]) + (f" +{len(channels) - 3}" if len(channels) > 3 else "")
        super().__init__("Strip chart: " + shown, parent)
        self.setObjectName("stripchart_" + "_".join(stripchart_key(channels)))
        self.setToolTip("Live: " + ", ".join(channels))
        self.channels = channels
        self.key = stripchart_key(channels)
        self.window_seconds = window_seconds
        # (stamp, value, severity code) per reading; an enum's value is its state index
        self._buffers: dict[str, deque[tuple[float, Any, int]]] = {
            c: deque(maxlen=MAX_POINTS) for c in self.channels
        }
        self._units: dict[str, str] = {c: "" for c in self.channels}
        self._kinds: dict[str, str] = {}
        self._labels: dict[str, tuple[str, ...]] = {}
        self._waveforms: dict[str, np.ndarray] = {}  # the latest array of each waveform channel
        self._waveform_updates: dict[str, int] = {}
        self._dirty = False

        self._archiver_factory = archiver_factory
        self._filled_from = time.time()  # the archive filled the buffers back to here
        self.archive_task: asyncio.Task[None] | None = None
        self.plot = TimeSeriesPlot(_title(window_seconds))
        self.plot.max_visible = len(self.channels)
        self.plot.set_series({c: ([], []) for c in self.channels})
        for channel in self.channels:
            self.plot.set_channel_status(channel, "connecting…")
        self.waveform_widget: pg.PlotWidget | None = None  # made when a waveform arrives
        self.waveform_curves: dict[str, pg.PlotDataItem] = {}
        self.span = QComboBox()
        self.span.setObjectName("stripchart_span")
        self.span.setToolTip("How much time the chart shows (filled from the archive)")
        for label, seconds in SPANS:
            self.span.addItem(label, seconds)
        chosen = min(range(len(SPANS)), key=lambda i: abs(SPANS[i][1] - window_seconds))
        self.span.setCurrentIndex(chosen)
        self.span.currentIndexChanged.connect(
            lambda _i: self.set_span(float(self.span.currentData()))
        )
        self.archive_note = QLabel()
        self.archive_note.setStyleSheet("color: #546e7a;")
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 0, 4, 0)
        bar.addWidget(QLabel("Span"))
        bar.addWidget(self.span)
        bar.addWidget(self.archive_note, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.plot)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)
        self.setWidget(body)
        self.feed = LiveFeed(self.channels, connector_factory, self.add_reading, self._problem)

        self._redraw_timer = QTimer(self)
        self._redraw_timer.setInterval(200)
        self._redraw_timer.timeout.connect(self._redraw)
        self.started: asyncio.Task[None] | None = None

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(640, 280)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - never widen the window past the screen
        return QSize(240, 160)

    def start(self) -> asyncio.Task[None]:
        self.started = self.feed.start()
        self._redraw_timer.start()
        self._fill_from_archive(time.time() - self.window_seconds)
        return self.started

    def set_span(self, seconds: float) -> None:
        """Show the last ``seconds``; what the buffers lack comes from the archive."""
        self.window_seconds = seconds
        self.plot.title = _title(seconds)
        self.plot._fit_title()
        self._dirty = True
        self._redraw()
        self._fill_from_archive(time.time() - seconds)

    def _fill_from_archive(self, since: float) -> None:
        if self._archiver_factory is None or since >= self._filled_from:
            return
        if self.archive_task is not None and not self.archive_task.done():
            self.archive_task.cancel()
        self.archive_task = asyncio.ensure_future(self._load_archive(since, self._filled_from))

    async def _load_archive(self, start: float, end: float) -> None:
        """Put the archive's samples of ``start``..``end`` before the live ones."""
        from datetime import datetime

        self.archive_note.setText("filling from the archive…")
        try:
            archiver = await self._archiver_factory()  # type: ignore[misc]
            data = await archiver.get_data(
                self.channels,
                datetime.fromtimestamp(start).astimezone(),
                datetime.fromtimestamp(end).astimezone(),
                max_points=ARCHIVE_POINTS,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # live data still flows; say why the past is missing
            self.archive_note.setText(f"no archive history: {exc}")
            return
        for channel in self.channels:
            found = data.series.get(channel)
            if found is None or found.kind == "waveform" or len(found) == 0:
                continue
            self._units[channel] = self._units.get(channel) or found.units
            if found.kind != "number":
                self._kinds.setdefault(channel, found.kind)
            if found.labels:
                self._labels.setdefault(channel, tuple(found.labels))
            codes = found.severity if found.severity is not None else np.zeros(len(found))
            older = [
                (float(t), v if found.kind == "string" else number_or_nan(v), int(c))
                for t, v, c in zip(
                    found.timestamps.tolist(), found.values.tolist(), codes.tolist(), strict=True
                )
                if t < end
            ]
            buffer = self._buffers[channel]
            self._buffers[channel] = deque([*older, *buffer], maxlen=MAX_POINTS)
        self._filled_from = start
        self.archive_note.setText("")
        self._dirty = True

    def add_reading(self, channel: str, reading: Any) -> None:
        """One update from the connector: buffer it and refresh the channel's legend row."""
        stamp = float(getattr(reading, "timestamp", 0.0) or 0.0)
        if stamp < PLAUSIBLE_EPOCH:
            stamp = time.time()  # the axis is wall-clock time, whatever the source stamped
        value = getattr(reading, "value", None)
        units = str(getattr(reading, "units", "") or "")
        severity = str(getattr(reading, "alarm_severity", "NO_ALARM") or "NO_ALARM").upper()
        self._units[channel] = units
        kind = value_kind(value)
        kind = "number" if kind in ("integer", "other") else kind
        self._kinds[channel] = kind
        if kind == "enum":
            states = getattr(getattr(reading, "metadata", None), "enum_strings", None)
            if states:
                self._labels[channel] = tuple(str(x) for x in states)
        if kind == "waveform":
            self._waveforms[channel] = np.asarray(waveform_points(value)[1], dtype=float)
            self._waveform_updates[channel] = self._waveform_updates.get(channel, 0) + 1
            text = _waveform_text(value, units)
        else:
            stored = (
                value if kind == "string" else number_or_nan(value)
            )  # an EnumState is its index
            self._buffers[channel].append((stamp, stored, severity_code(severity)))
            precision = getattr(getattr(reading, "metadata", None), "precision", None)
            text = f"{_shown(value, precision)} {units}".rstrip()
        self._dirty = True
        if severity not in ("NO_ALARM", ""):
            text += f"  [{severity}]"
        self.plot.set_channel_status(channel, text, "" if severity == "NO_ALARM" else severity)

    def _problem(self, channel: str | None, message: str) -> None:
        for name in [channel] if channel else self.channels:
            self.plot.set_channel_status(name, f"DISCONNECTED — {message}", "DISCONNECTED")

    def _redraw(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        now = time.time()
        cutoff = now - self.window_seconds
        series: dict[str, tuple[list[float], Any]] = {}
        severity: dict[str, list[int]] = {}
        for channel, buffer in self._buffers.items():
            points = [p for p in buffer if p[0] >= cutoff] or list(buffer)[-1:]
            values = [p[1] for p in points]
            kind = self._kinds.get(channel)
            numeric = kind != "string" and kind != "waveform"
            series[channel] = ([p[0] for p in points], np.array(values) if numeric else values)
            severity[channel] = [p[2] for p in points]
        self.plot.set_series(
            series,
            self._units,
            kinds=self._kinds,
            labels=self._labels,
            severity=severity,
            end=now,
        )
        self.plot.plot_item.setXRange(cutoff, now, padding=0)
        self.plot.plot_item.enableAutoRange(axis="y")
        self._draw_waveforms()

    def _draw_waveforms(self) -> None:
        """The newest array of each waveform channel against its element index."""
        if not self._waveforms:
            return
        if self.waveform_widget is None:
            widget = lazy_plot_widget()
            widget.setObjectName("stripchart_waveforms")
            widget.setMinimumSize(200, 100)
            item = widget.getPlotItem()
            item.setTitle("Live waveforms")
            item.showGrid(x=True, y=True, alpha=0.25)
            item.getAxis("bottom").setLabel("element index")
            units = {self._units.get(c, "") for c in self._waveforms}
            units_axis(item.getAxis("left"), units.pop() if len(units) == 1 else "")
            self.splitter.addWidget(widget)
            self.waveform_widget = widget
        for channel, values in self._waveforms.items():
            curve = self.waveform_curves.get(channel)
            if curve is None:
                colour = self.plot.colour(channel)
                curve = pg.PlotDataItem(pen=pg.mkPen(colour, width=1.5), connect="finite")
                self.waveform_widget.getPlotItem().addItem(curve)
                self.waveform_curves[channel] = curve
            curve.setData(np.arange(values.size, dtype=float), values)

    async def stop(self) -> None:
        """Unsubscribe everything (also called when the window closes)."""
        self._redraw_timer.stop()
        if self.archive_task is not None and not self.archive_task.done():
            self.archive_task.cancel()
            await asyncio.gather(self.archive_task, return_exceptions=True)
        await self.feed.stop()

    def closeEvent(self, event: QCloseEvent) -> None:
        asyncio.ensure_future(self.stop())
        super().closeEvent(event)

    def point_counts(self) -> dict[str, int]:
        """Readings kept per channel (for a waveform channel: arrays received)."""
        return {c: len(b) or self._waveform_updates.get(c, 0) for c, b in self._buffers.items()}


def _title(seconds: float) -> str:
    label = next((name for name, span in SPANS if span == seconds), f"{round(seconds / 60)} min")
    return f"Live, last {label}"


def _shown(value: Any, precision: Any) -> str:
    """A live number at the channel's precision (as tables show it), else 4 significant
    digits; anything else as it is."""
    if isinstance(value, float) and not isinstance(value, bool):
        if isinstance(precision, int) and 0 <= precision <= 9:
            return f"{value:.{precision}f}"
        return f"{value:.4g}"
    return format_scalar(value)


def _waveform_text(value: Any, units: str) -> str:
    """``128 elements, -0.12…0.10 mm`` for the legend's value column."""
    summary = waveform_summary(value)
    text = f"{summary['count']} elements"
    if "min" in summary:
        text += f", {format_scalar(summary['min'])}…{format_scalar(summary['max'])}"
    return f"{text} {units}".rstrip()
