"""A pyqtgraph time-series plot as the Phoebus Data Browser draws one.

- The legend is a list beside the data, never over it: colour, channel, units, and (live
  plots) the last value in its alarm colour. Ticking a channel shows or hides its curve; with
  many channels only the first ``max_visible`` are drawn at first (the rest one tick away).
- Engineering units on the axes as they are ("mm", never "mm (x0.001)"). The first unit gets
  the left axis, a second unit a right axis with its own view box; further units share the
  left axis and the legend says so.
- A series with more points than the plot has pixels is drawn as display bins: the mean line
  and a min/max band (``plot_data.prepare_series``).
- Export CSV (every point) and Save PNG sit above the plot.
Raster only: ``QOpenGLWidget`` does not work offscreen (shared NOTES).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QIcon, QPainterPath, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QGraphicsPathItem,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.plot_data import PreparedSeries, as_arrays, csv_text, prepare_series
from osprey_desktop.ui.values import ALARM_CELL

pg.setConfigOptions(useOpenGL=False, antialias=False, background="w", foreground="k")

# Colour-blind-safe palette (Okabe-Ito), readable on white.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
MAX_VISIBLE = 8
Series = Mapping[str, tuple[Sequence[float] | np.ndarray, Sequence[Any] | np.ndarray]]
__all__ = ["PALETTE", "TimeSeriesPlot", "as_arrays", "units_axis"]


def units_axis(axis: pg.AxisItem, unit: str) -> None:
    """Label an axis with the engineering unit as it is: no SI-prefix rescaling."""
    axis.enableAutoSIPrefix(False)
    axis.setLabel(unit or "value")


class BandItem(QGraphicsPathItem):
    """The min/max band of binned data as one filled polygon, built with numpy.

    pyqtgraph's FillBetweenItem rebuilds its path point by point in Python (20 ms per
    channel for 800 bins); this builds the outline with ``arrayToQPath`` in one call.
    """

    def __init__(self, fill: QColor) -> None:
        super().__init__()
        self.setBrush(QBrush(fill))
        self.setPen(pg.mkPen(None))
        self.low = np.array([])
        self.high = np.array([])

    def set_band(self, t: np.ndarray, low: np.ndarray, high: np.ndarray) -> None:
        keep = np.isfinite(t) & np.isfinite(low) & np.isfinite(high)
        t, self.low, self.high = t[keep], low[keep], high[keep]
        if t.size < 2:
            self.setPath(QPainterPath())
            return
        x = np.concatenate([t, t[::-1]])
        y = np.concatenate([self.high, self.low[::-1]])
        path = pg.arrayToQPath(x, y, connect="all")
        path.closeSubpath()
        self.setPath(path)

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802 - pyqtgraph's name
        """(low, high) as drawn."""
        return self.low, self.high


def swatch(colour: str) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


class TimeSeriesPlot(QWidget):
    """Shows ``{channel: (epoch seconds, values)}`` with ``{channel: units}``."""

    live_toggled = Signal(bool)  # the operator wants the plot to keep growing live
    exported = Signal(str)  # a file was written (path)
    export_failed = Signal(str)

    def __init__(
        self,
        title: str = "",
        parent: QWidget | None = None,
        max_visible: int = MAX_VISIBLE,
        live_button: bool = False,
    ) -> None:
        super().__init__(parent)
        self.max_visible = max_visible
        self.title = title
        self.plot_widget = pg.PlotWidget(axisItems={"bottom": pg.DateAxisItem()})
        self.plot_widget.setMinimumSize(200, 120)
        self.plot_item: pg.PlotItem = self.plot_widget.getPlotItem()
        self.plot_item.setTitle(title)
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        self.plot_item.getAxis("bottom").setLabel("time (local)")
        units_axis(self.plot_item.getAxis("left"), "")
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.bands: dict[str, BandItem] = {}
        self.prepared: dict[str, PreparedSeries] = {}
        self.units: dict[str, str] = {}
        self.axis_units: list[str] = []  # [left unit, right unit]
        self._colours: dict[str, str] = {}
        self._targets: dict[str, Any] = {}
        self._names: dict[str, str] = {}
        self._right_box: pg.ViewBox | None = None
        self._pending: dict[str, list[tuple[float, float]]] = {}

        self.legend = QTreeWidget()
        self.legend.setObjectName("plot_legend")
        self.legend.setHeaderLabels(["Channel", "Value"])
        self.legend.setRootIsDecorated(False)
        self.legend.setUniformRowHeights(True)
        self.legend.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.legend.header().setStretchLastSection(True)
        self.legend.setMinimumWidth(120)
        self.legend.itemChanged.connect(self._on_legend_item)
        self.legend_note = QLabel()
        self.legend_note.setWordWrap(True)
        self.legend_note.setStyleSheet("color: #546e7a;")
        self.legend_note.hide()
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.legend, 1)
        side_layout.addWidget(self.legend_note)

        self.live_button = QPushButton("Live")
        self.live_button.setCheckable(True)
        self.live_button.setToolTip("Keep adding the channels' live values to this plot")
        self.live_button.toggled.connect(self.live_toggled)
        self.live_button.setVisible(live_button)
        self.csv_button = QPushButton("Export CSV…")
        self.csv_button.setToolTip("Write every point of every channel to a CSV file")
        self.csv_button.clicked.connect(self.choose_csv_file)
        self.png_button = QPushButton("Save PNG…")
        self.png_button.setToolTip("Save the plot as a PNG image")
        self.png_button.clicked.connect(self.choose_png_file)
        self.info = QLabel()
        self.info.setStyleSheet("color: #546e7a;")
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.info, 1)
        for button in (self.live_button, self.csv_button, self.png_button):
            bar.addWidget(button)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.plot_widget)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 4)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)

        self._flush_timer = QTimer(self)  # live points are drawn at 2 Hz, not per update
        self._flush_timer.setInterval(500)
        self._flush_timer.timeout.connect(self.flush_points)
        self._export_task: asyncio.Task[Any] | None = None

    # ------------------------------------------------------------------ data
    def set_series(
        self,
        series: Series,
        units: Mapping[str, str] | None = None,
        envelopes: Mapping[str, tuple[Any, Any]] | None = None,
    ) -> None:
        """Draw every channel (replacing the data of channels drawn before)."""
        self.apply(prepare_series(series, units, envelopes))

    def apply(self, prepared: Sequence[PreparedSeries]) -> None:
        """Show prepared series (``plot_data.prepare_series``, possibly from a worker)."""
        self.legend.blockSignals(True)
        try:
            for item in prepared:
                known = item.channel in self.prepared
                self.prepared[item.channel] = item
                if not known:
                    self._add_channel(item)
                    continue
                if item.unit and not self.units.get(item.channel):
                    self._units_arrived(item.channel, item.unit)
                if item.channel in self.curves and self.curves[item.channel].isVisible():
                    self._draw(item.channel)
        finally:
            self.legend.blockSignals(False)
        self._update_note()
        self._fit_legend()
        self.plot_item.enableAutoRange()

    def _fit_legend(self) -> None:
        """Wide enough for the names and a value (at most 40% of the plot): never truncated
        to "SR01C:BPM0", never pushing the window wider."""
        metrics = self.legend.fontMetrics()
        names = [self._names.get(c, c) for c in self.prepared]
        name_width = max((metrics.horizontalAdvance(n) for n in names), default=80) + 48
        wanted = min(name_width + 120, 420)
        if self.legend.minimumWidth() < wanted:
            self.legend.setMinimumWidth(min(wanted, max(160, int(self.width() * 0.4))))

    def _add_channel(self, item: PreparedSeries) -> None:
        channel = item.channel
        colour = PALETTE[len(self._colours) % len(PALETTE)]
        self._colours[channel] = colour
        self.units[channel] = item.unit
        target, name = self._place(channel, item.unit)
        self._targets[channel] = target
        self._names[channel] = name
        row = QTreeWidgetItem([name, ""])
        row.setIcon(0, swatch(colour))
        row.setData(0, Qt.ItemDataRole.UserRole, channel)
        row.setToolTip(0, f"{name}: {item.points} points")
        visible = len(self._colours) <= self.max_visible
        row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        row.setCheckState(0, Qt.CheckState.Checked if visible else Qt.CheckState.Unchecked)
        self.legend.addTopLevelItem(row)
        if visible:
            self._draw(channel)

    def _draw(self, channel: str) -> None:
        """Create or update the curve (and band) of a channel."""
        item = self.prepared[channel]
        colour = self._colours[channel]
        target = self._targets[channel]
        curve = self.curves.get(channel)
        if curve is None:
            curve = pg.PlotDataItem(item.t, item.v, pen=pg.mkPen(colour, width=1.5))
            target.addItem(curve)
            # After addItem: pyqtgraph 0.14 fails on clip-to-view for an item with no view box.
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
            self.curves[channel] = curve
        else:
            curve.setData(item.t, item.v)
            curve.show()
        if item.band_low is not None and item.band_high is not None:
            band = self.bands.get(channel)
            if band is None:
                fill = QColor(colour)
                fill.setAlpha(60)
                band = BandItem(fill)
                band.setZValue(curve.zValue() - 1)
                target.addItem(band)
                self.bands[channel] = band
            band.set_band(item.t, item.band_low, item.band_high)
            band.show()

    def _on_legend_item(self, row: QTreeWidgetItem, column: int) -> None:
        if column != 0:
            return
        channel = row.data(0, Qt.ItemDataRole.UserRole)
        shown = row.checkState(0) == Qt.CheckState.Checked
        self.set_channel_visible(channel, shown)

    def set_channel_visible(self, channel: str, shown: bool) -> None:
        if channel not in self.prepared:
            return
        if shown:
            self._draw(channel)
        else:
            for item in (self.curves.get(channel), self.bands.get(channel)):
                if item is not None:
                    item.hide()
        row = self._row(channel)
        if row is not None and (row.checkState(0) == Qt.CheckState.Checked) != shown:
            self.legend.blockSignals(True)
            row.setCheckState(0, Qt.CheckState.Checked if shown else Qt.CheckState.Unchecked)
            self.legend.blockSignals(False)
        self._update_note()

    def visible_channels(self) -> list[str]:
        return [c for c, curve in self.curves.items() if curve.isVisible()]

    def _update_note(self) -> None:
        hidden = len(self.prepared) - len(self.visible_channels())
        self.legend_note.setVisible(hidden > 0)
        self.legend_note.setText(f"{hidden} more channel{'s' if hidden != 1 else ''}: tick to show")
        binned = sum(p.band_low is not None for p in self.prepared.values())
        self.info.setText(
            f"{len(self.prepared)} channel{'s' if len(self.prepared) != 1 else ''}"
            + ("; binned data: line = mean, band = min…max" if binned else "")
        )

    def _row(self, channel: str) -> QTreeWidgetItem | None:
        for i in range(self.legend.topLevelItemCount()):
            row = self.legend.topLevelItem(i)
            if row.data(0, Qt.ItemDataRole.UserRole) == channel:
                return row
        return None

    def _units_arrived(self, channel: str, unit: str) -> None:
        """A live channel's units come with its first value: name them on axis and legend."""
        self.units[channel] = unit
        if self.axis_units and self.axis_units[0] == "":
            self.axis_units[0] = unit
            units_axis(self.plot_item.getAxis("left"), unit)
        if self.axis_units and unit == self.axis_units[0]:
            name = f"{channel} ({unit})"
        else:
            name = f"{channel} ({unit}, on left axis)"
        self._names[channel] = name
        row = self._row(channel)
        if row is not None:
            row.setText(0, name)

    # -------------------------------------------------------------- axes
    def _right_view(self) -> pg.ViewBox:
        if self._right_box is None:
            box = pg.ViewBox()
            box.setZValue(self.plot_item.vb.zValue() - 1)
            self.plot_item.showAxis("right")
            self.plot_item.scene().addItem(box)
            self.plot_item.getAxis("right").linkToView(box)
            box.setXLink(self.plot_item)
            self.plot_item.vb.sigResized.connect(
                lambda: box.setGeometry(self.plot_item.vb.sceneBoundingRect())
            )
            box.setGeometry(self.plot_item.vb.sceneBoundingRect())
            self._right_box = box
        return self._right_box

    def _place(self, channel: str, unit: str) -> tuple[Any, str]:
        """The view box for a unit, and the legend name (which names foreign units)."""
        if not self.axis_units:
            self.axis_units.append(unit)
            units_axis(self.plot_item.getAxis("left"), unit)
        if unit == self.axis_units[0]:
            return self.plot_item, f"{channel} ({unit})" if unit else channel
        if len(self.axis_units) == 1:
            self.axis_units.append(unit)
            units_axis(self.plot_item.getAxis("right"), unit)
        if unit == self.axis_units[1]:
            return self._right_view(), f"{channel} ({unit}, right axis)"
        return self.plot_item, f"{channel} ({unit or 'no units'}, on left axis)"

    # -------------------------------------------------------------- live
    def append_point(self, channel: str, timestamp: float, value: float, unit: str = "") -> None:
        """Queue one live sample; drawn at the next flush (2 Hz)."""
        if channel not in self.prepared:
            self.apply(prepare_series({channel: ([timestamp], [value])}, {channel: unit}))
            return
        self._pending.setdefault(channel, []).append((timestamp, value))
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def flush_points(self) -> None:
        pending, self._pending = self._pending, {}
        if not pending:
            self._flush_timer.stop()
            return
        updated = []
        for channel, points in pending.items():
            item = self.prepared[channel]
            raw_t = item.raw_t if item.raw_t is not None else item.t
            raw_v = item.raw_v if item.raw_v is not None else item.v
            t = np.append(raw_t, [p[0] for p in points])
            v = np.append(raw_v, np.array([p[1] for p in points], dtype=float))
            updated.extend(prepare_series({channel: (t, v)}, {channel: item.unit}))
        self.apply(updated)

    def set_channel_status(self, channel: str, text: str, severity: str = "") -> None:
        """The legend's value column: last value, in its alarm colour."""
        row = self._row(channel)
        if row is None:
            return
        row.setText(1, text)
        colours = ALARM_CELL.get(severity.upper()) if severity else None
        if colours is None:
            row.setBackground(1, QBrush())
            row.setForeground(1, QBrush())
        else:
            row.setBackground(1, QBrush(QColor(colours[0])))
            row.setForeground(1, QBrush(QColor(colours[1])))
        row.setToolTip(1, f"{channel}: {text}" + (f" ({severity})" if severity else ""))

    def channel_status(self, channel: str) -> str:
        row = self._row(channel)
        return row.text(1) if row is not None else ""

    # ------------------------------------------------------------- export
    def choose_csv_file(self) -> None:
        self._choose_file("Export CSV", "CSV files (*.csv)", ".csv", self.export_csv)

    def choose_png_file(self) -> None:
        self._choose_file("Save plot as PNG", "PNG images (*.png)", ".png", self.save_png)

    def _choose_file(self, caption: str, pattern: str, suffix: str, then: Any) -> None:
        dialog = QFileDialog(self, caption)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(pattern)
        dialog.setDefaultSuffix(suffix.lstrip("."))
        dialog.selectFile(_file_stem(self.title) + suffix)
        dialog.fileSelected.connect(lambda path: then(Path(path)))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()  # never exec(): the loop keeps running

    def export_csv(self, path: Path) -> asyncio.Task[Any]:
        """Write every point to ``path`` in a worker thread; report by signal."""
        prepared = list(self.prepared.values())

        async def run() -> None:
            try:
                text = await asyncio.to_thread(csv_text, prepared)
                await asyncio.to_thread(Path(path).write_text, text, encoding="utf-8")
            except Exception as exc:
                self.export_failed.emit(
                    f"Could not write {path}: {exc}. Choose a folder you can write to."
                )
            else:
                self.exported.emit(str(path))

        self._export_task = asyncio.ensure_future(run())
        return self._export_task

    def save_png(self, path: Path) -> bool:
        ok = self.plot_widget.grab().save(str(path), "PNG")
        if ok:
            self.exported.emit(str(path))
        else:
            self.export_failed.emit(f"Could not write {path}. Choose a folder you can write to.")
        return ok

    # ------------------------------------------------------------- queries
    def point_counts(self) -> dict[str, int]:
        counts = {c: p.points for c, p in self.prepared.items()}
        for channel, points in self._pending.items():
            counts[channel] = counts.get(channel, 0) + len(points)
        return counts

    def legend_names(self) -> list[str]:
        return [self.legend.topLevelItem(i).text(0) for i in range(self.legend.topLevelItemCount())]


def _file_stem(title: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in title)
    return (keep.strip("_") or "plot")[:60]
