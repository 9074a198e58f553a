"""The plot dock: one tab per figure — archived data drawn with pyqtgraph, images as images.

An archived figure opens as a tab at once; its arrays (display bins, the orbit grid) are
computed in a worker thread and its widgets are made one plot per loop turn, so no figure, a
one-channel history or a 24-hour orbit of 72 BPMs, stalls the window. A family of BPMs opens on
its orbit view (value against position at a moment, and a waterfall), the time series one tab
away; a waveform channel opens on its own view of the same kind (the newest waveform against
element index, and its waterfall). Enums are steps named by their states; samples in alarm are
marked. A tab can keep growing live (Live button). Figures already shown are not redrawn when
the state comes back unchanged after a later step."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.answers.history import families
from osprey_desktop.connectors.values import waveform_points
from osprey_desktop.ui.live_feed import LiveFeed
from osprey_desktop.ui.orbit_plot import OrbitPlot, profile_plot_widget, waterfall_plot_widget
from osprey_desktop.ui.plot_artifacts import PlotArtifact, artifacts_from_state
from osprey_desktop.ui.plot_data import PreparedSeries, prepare_series, series_end
from osprey_desktop.ui.plot_frames import OrbitFrame, number_or_nan, orbit_frame
from osprey_desktop.ui.plot_range import RangeBar, series_of_archive
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot, time_plot_widget

MAX_TABS = 16
MAX_POINTS = 2000
"""Points per channel asked of the archive for a new range (about two per pixel)."""
PREPARE_PER_STEP = 2
"""Channels prepared in the worker between two chances for the window to take the GIL."""
CURVES_PER_STEP = 3
ROWS_PER_STEP = 24
"""A figure's time series takes its channels a few at a time between loop turns: at most
this many drawn curves, or legend rows (channels not drawn at first), per turn."""
ConnectorFactory = Callable[[], Awaitable[Any]]


def orbit_families(channels: list[str], units: Mapping[str, str]) -> list[list[str]]:
    """Families of at least 4 BPMs (one name pattern, one unit): they get an orbit view."""
    return [f for f in families(channels, units, minimum=4) if "BPM" in f[0].upper()]


def prepare_figure(
    artifact: PlotArtifact,
) -> tuple[list[PreparedSeries], list[OrbitFrame]]:
    """Everything a figure draws, as numpy arrays (no Qt: runs in a worker thread).

    A few channels at a time, with ``time.sleep(0)`` in between: that lets the window's
    thread take the GIL back at once. Without it the worker kept the GIL for the whole switch
    interval (5 ms) each time it got it, and a graph step running on the loop meanwhile (the
    answer of a 72-BPM history) took twice as long."""
    series = artifact.series
    channels = list(series)
    fields = artifact.prepare_fields()
    if fields.get("end") is None:  # states hold until the newest stamp of all channels
        ends = []
        for start in range(0, len(channels), PREPARE_PER_STEP):
            part = {c: series[c] for c in channels[start : start + PREPARE_PER_STEP]}
            ends.append(series_end(part))
            time.sleep(0)
        fields["end"] = max((e for e in ends if e is not None), default=0.0)
    prepared: list[PreparedSeries] = []
    for start in range(0, len(channels), PREPARE_PER_STEP):
        part = {c: series[c] for c in channels[start : start + PREPARE_PER_STEP]}
        prepared.extend(prepare_series(part, artifact.units, artifact.envelopes or None, **fields))
        time.sleep(0)
    numbers = {p.channel: p for p in prepared if p.kind == "number"}
    frames = []
    for members in orbit_families(list(numbers), artifact.units):
        arrays = {c: (numbers[c].raw_t, numbers[c].raw_v) for c in members}  # converted once
        frames.append(orbit_frame(members, arrays, artifact.units.get(members[0], "")))
        time.sleep(0)
    return prepared, frames


class ArchivePlotView(QWidget):
    """One archived figure: orbit views of its BPM families and its time series.

    The tab is there at once, saying "Preparing the plot…"; ``draw()`` computes the arrays in
    a worker thread, then makes the widgets one pyqtgraph plot (or a few channels) per loop
    turn: a figure of one channel held the window 80-110 ms when it was built in one go."""

    drawn = Signal()  # every view is in place (``ready``)

    def __init__(self, artifact: PlotArtifact, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.artifact = artifact
        self.timeseries: TimeSeriesPlot | None = None  # made by ``draw``
        self.orbits: list[OrbitPlot] = []
        self.waveforms: dict[str, OrbitPlot] = {}  # waveform channel -> its view
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.setTabPosition(QTabWidget.TabPosition.South)
        self.status = QLabel("Preparing the plot…")
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status.setWordWrap(True)
        self.views.addTab(self.status, "Time series")
        start, end = _span_of(artifact)
        self.range_bar = RangeBar(start, end)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.range_bar)
        layout.addWidget(self.views)
        self.ready = False
        self.closed = False  # its tab was closed (a build in steps stops)
        self.feed: LiveFeed | None = None

    async def draw(self) -> bool:
        """Prepare the arrays off the loop and build the views in steps; False when the tab
        was closed meanwhile or the data cannot be drawn (the tab then says why)."""
        try:
            prepared, frames = await asyncio.to_thread(prepare_figure, self.artifact)
            if self.closed:
                return False
            for _ in self.build_steps(prepared, frames):
                await asyncio.sleep(0)
                if self.closed:
                    return False
        except Exception as exc:  # bad data must not take the window down
            if not self.closed:
                self.status.setText(
                    f"Cannot draw '{self.artifact.title}': {exc}. "
                    "Ask for the history again, or for fewer channels."
                )
            return False
        return True

    def build_steps(
        self, prepared: list[PreparedSeries], frames: list[OrbitFrame]
    ) -> Iterator[None]:
        """Make the views, one pyqtgraph plot (10-20 ms on the loop) or a few channels per
        step; the views are shown together after the last step, the first one's waterfall
        painted a loop turn after its upper plot."""
        plot_widget = time_plot_widget()  # the pyqtgraph plot, then the widget around it
        yield
        self.timeseries = TimeSeriesPlot(
            self.artifact.title, live_button=True, plot_widget=plot_widget
        )
        yield
        tabs: list[tuple[QWidget, str, str]] = []
        for frame in frames:
            orbit_widget = profile_plot_widget()
            yield
            plot = OrbitPlot(
                frame,
                f"Orbit: {len(frame.channels)} BPMs ({frame.unit})",
                deferred=True,
                orbit_widget=orbit_widget,
            )
            self.orbits.append(plot)
            tabs.append((plot, f"Orbit ({len(frame.channels)} BPMs)", ""))
            yield from _rest_of(plot)
        for item in prepared:
            if item.frame is None:
                continue
            title = f"{item.channel}: newest waveform" + (
                f" ({item.frame.note})" if item.frame.note else ""
            )
            orbit_widget = profile_plot_widget()
            yield
            plot = OrbitPlot(item.frame, title, deferred=True, orbit_widget=orbit_widget)
            self.waveforms[item.channel] = plot
            tabs.append((plot, f"Waveform {item.channel}", item.note))
            yield from _rest_of(plot)
        timeseries = self.timeseries
        if frames:
            # the time series of a family: the first few drawn, the rest one tick away
            timeseries.max_visible = min(timeseries.max_visible, 6)
        for part in series_steps(prepared, timeseries.max_visible):
            timeseries.apply(part)
            yield
        tabs.append((timeseries, f"Time series ({len(prepared)})", ""))
        # The first view's plots paint in two loop turns, the upper one first: the axes of
        # an orbit and its waterfall painted together held the loop 40-75 ms.
        first = tabs[0][0]
        held = first.waterfall_widget if isinstance(first, OrbitPlot) else None
        if held is not None:
            held.setUpdatesEnabled(False)
        self.views.removeTab(0)
        self.status.deleteLater()
        for widget, label, tip in tabs:
            self.views.addTab(widget, label)
            if tip:
                self.views.setTabToolTip(self.views.indexOf(widget), tip)
        self.views.setCurrentIndex(0)
        if held is not None:
            yield
            held.setUpdatesEnabled(True)
        self.ready = True
        self.drawn.emit()


def _rest_of(plot: OrbitPlot) -> Iterator[None]:
    """The parts of a deferred orbit or waveform view, one per step."""
    yield
    widget = waterfall_plot_widget()  # the pyqtgraph plot, then the image and marker in it
    yield
    plot.add_waterfall(widget)
    yield
    plot.add_colour_bar()
    yield


def series_steps(
    prepared: list[PreparedSeries], max_visible: int
) -> Iterator[list[PreparedSeries]]:
    """The channels of a time series in parts of at most ``CURVES_PER_STEP`` drawn curves
    (a curve with its band and alarm markers is a few ms) or ``ROWS_PER_STEP`` legend rows."""
    part: list[PreparedSeries] = []
    curves = 0
    for index, item in enumerate(prepared):
        drawn = item.drawn and index < max_visible
        if part and (curves + drawn > CURVES_PER_STEP or len(part) >= ROWS_PER_STEP):
            yield part
            part, curves = [], 0
        part.append(item)
        curves += drawn
    if part:
        yield part


def _span_of(artifact: PlotArtifact) -> tuple[float, float]:
    """The time range a figure covers (its samples' first and last, or its stored end); a
    stamp that is not a number is left out (the tab then says what cannot be drawn)."""
    ends = [number_or_nan(t) for t, _ in artifact.series.values() for t in (t[:1] + t[-1:]) if t]
    stamps = [t for t in ends if math.isfinite(t)]
    end = artifact.end or (max(stamps) if stamps else 0.0)
    start = min(stamps) if stamps else end - 3600.0
    return start, end


class PlotDock(QDockWidget):
    """Tabs of plots and figure images."""

    tab_opened = Signal(QWidget)  # a new tab (the window watches its buttons)
    message = Signal(str)  # exports and live problems, for the transcript
    stripchart_requested = Signal(object)  # [channel] from a plot's menu

    def __init__(
        self,
        connector_factory: ConnectorFactory | None = None,
        parent: QWidget | None = None,
        archiver_factory: ConnectorFactory | None = None,
    ) -> None:
        super().__init__("Plots", parent)
        self.setObjectName("plot_dock")
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self._close_tab)
        self.setWidget(self.tabs)
        self._connector_factory = connector_factory
        self._archiver_factory = archiver_factory
        # identity -> tab widget; None once closed, so a closed figure does not reopen
        self._shown: dict[str, QWidget | None] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def show_state(self, values: Mapping[str, Any]) -> list[str]:
        """Open a tab for every figure not shown yet; returns the new tab titles."""
        return self.show_artifacts(artifacts_from_state(values, self.shown_identities()))

    def shown_identities(self) -> set[str]:
        """Figures shown (or shown and closed): they are not drawn again."""
        return set(self._shown)

    def show_artifacts(self, artifacts: Iterable[PlotArtifact]) -> list[str]:
        opened = []
        for artifact in artifacts:
            if artifact.identity in self._shown:
                continue
            widget = self._build(artifact)
            self._shown[artifact.identity] = widget
            self.tabs.addTab(widget, artifact.title)
            self.tabs.setTabToolTip(self.tabs.indexOf(widget), artifact.path or artifact.title)
            self.tabs.setCurrentWidget(widget)
            opened.append(artifact.title)
            self.tab_opened.emit(widget)
        while self.tabs.count() > MAX_TABS:
            self._close_tab(0)
        return opened

    def show_series(
        self,
        title: str,
        series: Mapping[str, tuple[Any, Any]],
        units: Mapping[str, str] | None = None,
    ) -> ArchivePlotView:
        """Open a time-series tab directly from ``{channel: (timestamps, values)}``."""
        artifact = PlotArtifact(f"direct|{title}|{len(self._shown)}", title, "timeseries")
        artifact.series = {c: (list(t), list(v)) for c, (t, v) in series.items()}
        artifact.units = dict(units or {})
        self.show_artifacts([artifact])
        return self._shown[artifact.identity]  # type: ignore[return-value]

    def _build(self, artifact: PlotArtifact) -> QWidget:
        if artifact.kind == "timeseries":
            if artifact.problem:
                return self._message(artifact.problem)
            view = ArchivePlotView(artifact)
            view.range_bar.range_requested.connect(
                lambda start, end, v=view: self._track(
                    asyncio.ensure_future(self.requery(v, start, end))
                )
            )
            view.range_bar.set_busy(True, self._no_range_reason())  # until the plot is drawn
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # a dock used without the window's qasync loop
                view.status.setText("Cannot draw the plot: no event loop runs its steps.")
                return view
            self._track(asyncio.ensure_future(self._draw(view)))
            return view
        pixmap = QPixmap(artifact.path) if artifact.path else QPixmap()
        if pixmap.isNull():
            return self._message(
                f"Cannot show figure '{artifact.title}': {artifact.path or 'no file'} is missing "
                "or not an image. Run the request again to recreate it."
            )
        label = QLabel()
        label.setPixmap(pixmap)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        area = QScrollArea()
        area.setWidget(label)
        area.setWidgetResizable(True)
        area.setProperty("figure_path", str(Path(artifact.path)))
        return area

    def _no_range_reason(self) -> str:
        return "" if self._archiver_factory else "no archive connection: the range cannot change"

    async def _draw(self, view: ArchivePlotView) -> None:
        """Draw a figure in steps, then connect what its time series offers."""
        if not await view.draw():
            return
        plot = view.timeseries
        assert plot is not None
        plot.live_toggled.connect(lambda on, v=view: self._set_live(v, on))
        plot.exported.connect(lambda path: self.message.emit(f"Saved {path}"))
        plot.export_failed.connect(self.message.emit)
        plot.stripchart_requested.connect(self.stripchart_requested)
        if self._archiver_factory is not None:
            view.range_bar.set_busy(False)
        self.tab_opened.emit(view)  # its buttons are there now

    async def requery(self, view: ArchivePlotView, start: float, end: float) -> bool:
        """Ask the archive for ``start``..``end`` and redraw the time series with it."""
        from datetime import datetime

        if self._archiver_factory is None or view.timeseries is None:
            return False
        channels = list(view.timeseries.prepared) or list(view.artifact.series)
        view.range_bar.set_busy(True, "asking the archive…")
        try:
            archiver = await self._archiver_factory()
            data = await archiver.get_data(
                channels,
                datetime.fromtimestamp(start).astimezone(),
                datetime.fromtimestamp(end).astimezone(),
                max_points=MAX_POINTS,
            )
            fields = series_of_archive(data, channels)
            series, units, envelopes = (fields.pop(k) for k in ("series", "units", "envelopes"))
            prepared = await asyncio.to_thread(prepare_series, series, units, envelopes, **fields)
        except Exception as exc:  # an archive error is said in the bar, the plot stays
            if not view.closed:
                view.range_bar.set_busy(False, f"The archive did not answer: {exc}")
            return False
        if view.closed:
            return False
        view.timeseries.apply(prepared)
        view.timeseries.plot_item.setXRange(start, end, padding=0)
        view.range_bar.set_busy(False)
        return True

    def _track(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------- live
    def _set_live(self, view: ArchivePlotView, on: bool) -> None:
        if not on:
            if view.feed is not None:
                self._track(asyncio.ensure_future(view.feed.stop()))
                view.feed = None
            return
        if self._connector_factory is None:
            view.timeseries.live_button.setChecked(False)
            self.message.emit("Live updates need a control-system connection; none is set up.")
            return
        plot = view.timeseries
        assert plot is not None  # the Live button is the plot's

        def on_reading(channel: str, reading: Any) -> None:
            value = getattr(reading, "value", None)
            if isinstance(value, list | tuple | np.ndarray):  # a waveform: over its own view
                waveform = view.waveforms.get(channel)
                if waveform is not None:
                    waveform.show_live(np.asarray(waveform_points(value)[1], dtype=float))
                return
            stamp = float(getattr(reading, "timestamp", 0.0) or 0.0)
            units = str(getattr(reading, "units", "") or "")
            severity = getattr(reading, "alarm_severity", "") or ""
            plot.append_point(channel, stamp, value, units, severity)

        def on_problem(channel: str | None, text: str) -> None:
            self.message.emit(f"Live plot '{view.artifact.title}': {text}")

        view.feed = LiveFeed(
            list(view.artifact.series), self._connector_factory, on_reading, on_problem
        )
        view.feed.start()

    async def stop(self) -> None:
        """Stop live feeds and workers (window closing)."""
        for i in range(self.tabs.count()):
            widget = self.tabs.widget(i)
            if isinstance(widget, ArchivePlotView) and widget.feed is not None:
                await widget.feed.stop()
                widget.feed = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------- tabs
    @staticmethod
    def _message(text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setStyleSheet("color: #b71c1c;")
        return label

    def _close_tab(self, index: int) -> None:
        widget = self.tabs.widget(index)
        self.tabs.removeTab(index)
        for identity, shown in self._shown.items():
            if shown is widget:
                self._shown[identity] = None
        if isinstance(widget, ArchivePlotView):
            widget.closed = True
            if widget.feed is not None:
                self._track(asyncio.ensure_future(widget.feed.stop()))
                widget.feed = None
        if widget is not None:
            widget.deleteLater()

    def current_view(self) -> QWidget | None:
        return self.tabs.currentWidget()

    def current_plot(self) -> QWidget | None:
        """The time-series plot of the current tab (None while it is being drawn), or the tab
        itself for images and messages."""
        widget = self.tabs.currentWidget()
        if isinstance(widget, ArchivePlotView):
            return widget.timeseries if widget.ready else None
        return widget
