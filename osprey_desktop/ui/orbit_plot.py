"""A profile over time: value against position at a chosen moment, and a waterfall of the
whole history (position across, time down, colour = value).

Two things are read this way: the orbit of a family of BPMs (an operator reads an orbit so,
not as 72 overlapping time lines; positions are the BPMs' order in the ring, the numbers in
their names) and a waveform channel (value against element index; the newest waveform first).
The moment is chosen with the slider or by clicking a row of the waterfall; the newest moment
is shown first. A live waveform can be laid over the archived one (``show_live``).
"""

from __future__ import annotations

import re
from datetime import datetime

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QSplitter, QVBoxLayout, QWidget

from osprey_desktop.ui.plot_frames import OrbitFrame
from osprey_desktop.ui.plot_items import units_axis
from osprey_desktop.ui.plot_options import LazyFormPlotItem, lazy_plot_widget

_DEVICE = re.compile(r"([A-Za-z]+\d+)")


def short_name(channel: str) -> str:
    """``BPM13`` for ``SR03C:BPM13:X``: the part that names the device."""
    parts = channel.split(":")
    for part in parts:
        if part.upper().startswith("BPM"):
            return part
    found = _DEVICE.findall(channel)
    return found[-1] if found else channel


def name_ticks(names: list[str], most: int) -> list[tuple[float, str]]:
    """Every n-th name so that at most ``most`` are shown (the first always)."""
    step = max(1, -(-len(names) // max(1, most)))
    return [(float(i), names[i]) for i in range(0, len(names), step)]


class ClockAxis(pg.AxisItem):
    """Epoch seconds as local clock time (pyqtgraph's DateAxisItem draws no vertical ticks
    here): HH:MM, with the date at midnight."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values, scale, spacing):  # noqa: N802, ANN001, ANN201 - pyqtgraph
        out = []
        for value in values:
            try:
                moment = datetime.fromtimestamp(float(value))
            except (OverflowError, OSError, ValueError):
                out.append("")
                continue
            midnight = moment.hour == 0 and moment.minute == 0
            out.append(f"{moment:%m-%d}" if midnight else f"{moment:%H:%M}")
        return out


def profile_plot_widget() -> pg.PlotWidget:
    """A pyqtgraph plot for a profile (the orbit, a waveform) or its waterfall; its options
    form and view-box menu are made at the first right click (``plot_options``)."""
    widget = lazy_plot_widget()
    widget.setMinimumSize(200, 120)
    return widget


def waterfall_plot_widget() -> pg.PlotWidget:
    """The pyqtgraph plot of a waterfall: time (local clock) down the left axis."""
    widget = lazy_plot_widget(axisItems={"left": ClockAxis("left")})
    widget.setMinimumSize(200, 120)
    return widget


class OrbitPlot(QWidget):
    """Shows an ``OrbitFrame`` (``plot_frames.orbit_frame`` or ``waveform_frame``)."""

    def __init__(
        self,
        frame: OrbitFrame,
        title: str = "",
        parent: QWidget | None = None,
        *,
        deferred: bool = False,
        orbit_widget: pg.PlotWidget | None = None,
    ):
        """``deferred``: the waterfall is left for ``add_waterfall()`` and its colour scale for
        ``add_colour_bar()``, so a caller can let the event loop run between the parts (each
        is a pyqtgraph plot of its own: 10-20 ms on the window's loop); ``orbit_widget``, made by
        ``profile_plot_widget()`` a loop turn earlier, is the upper plot."""
        super().__init__(parent)
        self.frame = frame
        positions = np.asarray(frame.positions, dtype=float)
        self.positions = positions
        ticks = None
        self._names: list[str] = []
        if len(frame.channels) == positions.size:  # one channel per position: name them
            self._names = [short_name(c) for c in frame.channels]
            ticks = name_ticks(self._names, 12)

        self.orbit_widget = orbit_widget if orbit_widget is not None else profile_plot_widget()
        orbit = self.orbit_widget.getPlotItem()
        orbit.setTitle(title)
        orbit.showGrid(x=True, y=True, alpha=0.25)
        units_axis(orbit.getAxis("left"), frame.unit)
        if ticks is not None:
            orbit.getAxis("bottom").setTicks([ticks, []])
        orbit.getAxis("bottom").setLabel(frame.x_label)
        if frame.diverging:
            orbit.addItem(pg.InfiniteLine(0.0, angle=0, pen=pg.mkPen("#9e9e9e", width=1)))
        dense = positions.size > 200  # symbols on 4,000 elements would hide the line
        self.curve = pg.PlotDataItem(
            positions,
            np.zeros(len(positions)),
            pen=pg.mkPen("#0072B2", width=1.5),
            symbol=None if dense else "o",
            symbolSize=5,
            symbolBrush="#0072B2",
            symbolPen=None,
            connect="finite",
        )
        orbit.addItem(self.curve)
        self.live_curve: pg.PlotDataItem | None = None
        self.orbit_item = orbit

        self._ticks = ticks
        self.orbit_widget.installEventFilter(self)  # the BPM names thin out as it narrows
        self.waterfall_widget: pg.PlotWidget | None = None
        self.marker: pg.InfiniteLine | None = None
        self.colour_bar: pg.ColorBarItem | None = None

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, max(0, frame.times.size - 1))
        self.slider.valueChanged.connect(self.show_moment)
        self.moment_label = QLabel()
        row = QHBoxLayout()
        row.addWidget(QLabel("Moment:"))
        row.addWidget(self.slider, 1)
        row.addWidget(self.moment_label)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.orbit_widget)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.splitter, 1)
        if not deferred:
            self.add_waterfall()
            self.add_colour_bar()
        self.slider.setValue(self.slider.maximum())
        self.show_moment(self.slider.value())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Resize and self._names and isinstance(watched, QWidget):
            self.fit_name_ticks(watched)
        return super().eventFilter(watched, event)

    def fit_name_ticks(self, widget: QWidget) -> list[tuple[float, str]]:
        """As many BPM names under a plot as fit its width without touching each other."""
        metrics = widget.fontMetrics()
        room = max(1, widget.width() - 120)  # the value axis and the colour bar beside
        label = max(metrics.horizontalAdvance(n) for n in self._names) + 14
        ticks = name_ticks(self._names, max(2, room // label))
        item = widget.getPlotItem() if isinstance(widget, pg.PlotWidget) else None
        if item is not None:
            item.getAxis("bottom").setTicks([ticks, []])
        return ticks

    def add_waterfall(self, widget: pg.PlotWidget | None = None) -> None:
        """The values against time below the orbit, with a marker at the chosen moment;
        ``widget``: made by ``waterfall_plot_widget()`` a loop turn earlier."""
        if self.waterfall_widget is not None:
            return
        frame, positions, ticks = self.frame, self.positions, self._ticks
        self.waterfall_widget = widget if widget is not None else waterfall_plot_widget()
        fall = self.waterfall_widget.getPlotItem()
        if ticks is not None:
            fall.getAxis("bottom").setTicks([ticks, []])
        fall.getAxis("bottom").setLabel(frame.x_label)
        fall.getAxis("left").setLabel("time (local)")
        fall.getAxis("left").setWidth(70)
        fall.invertY(True)  # newest at the bottom, like a scrolling record
        self.image = pg.ImageItem(axisOrder="row-major")
        fall.addItem(self.image)
        self.marker = pg.InfiniteLine(angle=0, pen=pg.mkPen("#000000", width=1))
        fall.addItem(self.marker)
        levels, colours = _colour_scale(frame)
        # NaN (a gap, a BPM without data) stays NaN: pyqtgraph paints it transparent
        self.image.setImage(frame.values, levels=levels)
        self.image.setColorMap(colours)
        self._scale = (levels, colours)
        if frame.times.size > 1 and positions.size:
            span = float(frame.times[-1] - frame.times[0])
            step = float(positions[1] - positions[0]) if positions.size > 1 else 1.0
            width = float(positions[-1] - positions[0]) + step
            self.image.setRect(float(positions[0]) - step / 2, float(frame.times[0]), width, span)
        fall.scene().sigMouseClicked.connect(self._on_click)
        self.waterfall_item = fall
        self.waterfall_widget.installEventFilter(self)

        self.splitter.addWidget(self.waterfall_widget)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)  # the waterfall needs height for its time ticks
        if frame.times.size:
            self.marker.setValue(float(frame.times[max(0, self.slider.value())]))

    def add_colour_bar(self) -> None:
        """The colour scale beside the waterfall (its values can be dragged); after
        ``add_waterfall``."""
        if self.waterfall_widget is None or self.colour_bar is not None:
            return
        levels, colours = self._scale
        bar = ColourBar(values=levels, colorMap=colours)
        bar.setImageItem(self.image, insert_in=self.waterfall_item)
        bar.getAxis("right").enableAutoSIPrefix(False)
        bar.getAxis("right").setLabel(self.frame.unit)
        self.colour_bar = bar

    def show_moment(self, index: int) -> None:
        frame = self.frame
        if frame.times.size == 0:
            self.moment_label.setText("no data")
            return
        index = max(0, min(index, frame.times.size - 1))
        self.curve.setData(self.positions, frame.at(index))
        moment = float(frame.times[index])
        if self.marker is not None:
            self.marker.setValue(moment)
        self.moment_label.setText(f"{datetime.fromtimestamp(moment):%Y-%m-%d %H:%M:%S}")

    def show_live(self, values: np.ndarray) -> None:
        """Lay the live waveform (dashed) over the archived one at the chosen moment."""
        if self.live_curve is None:
            self.live_curve = pg.PlotDataItem(
                pen=pg.mkPen("#D55E00", width=1.5, style=Qt.PenStyle.DashLine), connect="finite"
            )
            self.orbit_item.addItem(self.live_curve)
        x = np.arange(values.size, dtype=float)
        self.live_curve.setData(x, values)

    def current_values(self) -> np.ndarray:
        _, y = self.curve.getData()
        return np.asarray(y if y is not None else [])

    def _on_click(self, event) -> None:  # noqa: ANN001 - pyqtgraph's mouse event
        box = self.waterfall_item.vb
        if not box.sceneBoundingRect().contains(event.scenePos()):
            return
        moment = box.mapSceneToView(event.scenePos()).y()
        index = int(np.argmin(np.abs(self.frame.times - moment))) if self.frame.times.size else 0
        self.slider.setValue(index)


class ColourBar(pg.ColorBarItem, LazyFormPlotItem):
    """pyqtgraph's colour bar (its levels can be dragged) without the options form and the
    view-box menu it makes and disables at once: ``ColorBarItem`` calls ``PlotItem.__init__``
    without arguments, and this class puts ``LazyFormPlotItem`` between the two."""


def _colour_scale(frame: OrbitFrame) -> tuple[tuple[float, float], pg.ColorMap]:
    """Around zero for an orbit (a diverging map), min..max for a waveform."""
    values = frame.values
    finite = values[np.isfinite(values)] if values.size else np.array([])
    if frame.diverging:
        limit = float(np.max(np.abs(finite))) if finite.size else 1.0
        limit = limit or 1.0
        return (-limit, limit), pg.colormap.get("CET-D1")
    low = float(finite.min()) if finite.size else 0.0
    high = float(finite.max()) if finite.size else 1.0
    if high <= low:
        high = low + 1.0
    return (low, high), pg.colormap.get("viridis")


__all__ = [
    "ColourBar",
    "OrbitPlot",
    "profile_plot_widget",
    "short_name",
    "waterfall_plot_widget",
]
