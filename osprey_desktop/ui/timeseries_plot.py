"""A pyqtgraph time-series plot as the Phoebus Data Browser draws one.

- The legend is a list beside the data, never over it: colour, channel, units, and (live
  plots) the last value in its alarm colour. Ticking a channel shows or hides its curve; with
  many channels only the first ``max_visible`` are drawn at first (the rest one tick away).
- Engineering units on the axes as they are ("mm", never "mm (x0.001)"). The first unit gets
  the left axis, a second unit a right axis with its own view box; further units share the
  left axis and the legend says so. An enum (or a text channel with few texts) is a step
  plot on an axis that names its states; it takes an axis the way a unit does.
- Archived samples are drawn as steps (a value holds until the next sample); a gap (no
  value) breaks the line. A series with more points than the plot has pixels is drawn as
  display bins: the mean line and a min/max band (``plot_data.prepare_series``).
- Samples in alarm are marked in the control-room colours (MINOR yellow, MAJOR red, INVALID
  magenta); the legend counts them per channel.
- A waveform channel is listed but drawn against its index elsewhere (``orbit_plot``).
- Export CSV (every point) and Save PNG sit above the plot.
Raster only: ``QOpenGLWidget`` does not work offscreen (shared NOTES).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.plot_axes import PlotAxes
from osprey_desktop.ui.plot_cursor import CursorReadout, TimeViewBox, reading_text, value_at
from osprey_desktop.ui.plot_data import PreparedSeries, as_arrays, prepare_series
from osprey_desktop.ui.plot_export import PlotExport
from osprey_desktop.ui.plot_frames import number_or_nan
from osprey_desktop.ui.plot_items import (
    MARKER_SIZE,
    SEVERITY_NAME,
    BandItem,
    alarm_brushes,
    alarm_markers_item,
    severity_legend_html,
    swatch,
    units_axis,
)
from osprey_desktop.ui.plot_options import lazy_plot_widget
from osprey_desktop.ui.values import ALARM_CELL

pg.setConfigOptions(useOpenGL=False, antialias=False, background="w", foreground="k")

# Colour-blind-safe palette (Okabe-Ito), readable on white.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
MAX_VISIBLE = 8
DENSE_MARKERS = 150  # more samples in alarm than this: half-size markers
Series = Mapping[str, tuple[Sequence[float] | np.ndarray, Sequence[Any] | np.ndarray]]
__all__ = ["PALETTE", "TimeSeriesPlot", "as_arrays", "time_plot_widget", "units_axis"]
_SEVERITY_CODE = {name: code for code, name in SEVERITY_NAME.items()}


def severity_code(severity: Any) -> int:
    """An EPICS severity as its code (0-3), from a code or a name such as ``"MAJOR"``."""
    if isinstance(severity, int) and not isinstance(severity, bool):
        return severity
    return _SEVERITY_CODE.get(str(severity or "").upper(), 0)


def time_plot_widget() -> pg.PlotWidget:
    """The pyqtgraph plot of a ``TimeSeriesPlot``: our view box, a date axis below, and
    pyqtgraph's options form made only if asked for (``plot_options``: our menu replaces
    theirs)."""
    widget = lazy_plot_widget(viewBox=TimeViewBox(), axisItems={"bottom": pg.DateAxisItem()})
    widget.setMinimumSize(200, 120)
    return widget


class TimeSeriesPlot(PlotAxes, PlotExport, QWidget):
    """Shows ``{channel: (epoch seconds, values)}`` with ``{channel: units}``."""

    live_toggled = Signal(bool)  # the operator wants the plot to keep growing live
    stripchart_requested = Signal(object)  # [channel]: "Add to strip chart" in the menu
    exported = Signal(str)  # a file was written (path)
    export_failed = Signal(str)

    def __init__(
        self,
        title: str = "",
        parent: QWidget | None = None,
        max_visible: int = MAX_VISIBLE,
        live_button: bool = False,
        plot_widget: pg.PlotWidget | None = None,
    ) -> None:
        """``plot_widget``: one made by ``time_plot_widget()`` a loop turn earlier (the
        pyqtgraph plot is half of this widget's making)."""
        super().__init__(parent)
        self.max_visible = max_visible
        self.title = title
        self.plot_widget = plot_widget if plot_widget is not None else time_plot_widget()
        self.view_box: TimeViewBox = self.plot_widget.getPlotItem().vb
        self.plot_item: pg.PlotItem = self.plot_widget.getPlotItem()
        self.plot_item.setTitle(title)
        self.plot_widget.installEventFilter(self)  # the title follows the plot's width
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        self.plot_item.setMenuEnabled(False, enableViewBoxMenu=True)  # our menu, not theirs
        self.view_box.menu_requested.connect(self.show_menu)
        self.cursor = CursorReadout(self.plot_item)
        self.plot_widget.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._statuses: dict[str, tuple[str, str]] = {}  # the Value column without a cursor
        self.plot_item.getAxis("bottom").setLabel("time (local)")
        units_axis(self.plot_item.getAxis("left"), "")
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.bands: dict[str, BandItem] = {}
        self.markers: dict[str, pg.ScatterPlotItem] = {}
        self.prepared: dict[str, PreparedSeries] = {}
        self.units: dict[str, str] = {}
        self.axis_keys: list[str] = []  # [left, right]: a unit or "states:<labels>"
        self._colours: dict[str, str] = {}
        self._targets: dict[str, Any] = {}
        self._names: dict[str, str] = {}
        self._keys: dict[str, str | None] = {}  # the axis key each channel was placed with
        self._right_box: pg.ViewBox | None = None
        self._state_offsets: dict[str, float] = {}
        self._pending: dict[str, list[tuple[float, Any, int]]] = {}

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
        self.info.setTextFormat(Qt.TextFormat.RichText)
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
        **fields: Any,
    ) -> None:
        """Draw every channel (replacing the data of channels drawn before).

        ``fields`` are ``prepare_series``'s keywords: ``kinds``, ``labels``, ``severity``,
        ``end``.
        """
        self.apply(prepare_series(series, units, envelopes, **fields))

    def apply(self, prepared: Sequence[PreparedSeries]) -> None:
        """Show prepared series (``plot_data.prepare_series``, possibly from a worker)."""
        self.legend.blockSignals(True)
        try:
            relayout = False
            for item in prepared:
                known = item.channel in self.prepared
                self.prepared[item.channel] = item
                if not known:
                    self._add_channel(item)
                    continue
                if self._settled_key(item) != self._keys.get(item.channel):
                    relayout = True  # units or states arrived with the first live value
                elif item.channel in self.curves and self.curves[item.channel].isVisible():
                    self._draw(item.channel)
            if relayout:
                self._layout_axes()
            for channel in self._restack_states():
                if channel in self.curves and self.curves[channel].isVisible():
                    self._draw(channel)
        finally:
            self.legend.blockSignals(False)
        self._update_note()
        self._fit_legend()
        self.plot_item.enableAutoRange()
        if self._right_box is not None:
            self._right_box.enableAutoRange(axis="y")

    def _fit_legend(self) -> None:
        """Wide enough for the names and the value column (at most a third of the plot, so
        at 1280 px the data stays wider than its legend): never truncated to "SR01C:BPM0",
        never pushing the window wider."""
        metrics = self.legend.fontMetrics()
        names = [self._names.get(c, c) for c in self.prepared]
        name_width = max((metrics.horizontalAdvance(n) for n in names), default=80) + 48
        values = [
            self.legend.topLevelItem(i).text(1) for i in range(self.legend.topLevelItemCount())
        ]
        value_width = max((metrics.horizontalAdvance(v) for v in values), default=0) + 24
        wanted = min(name_width + max(120, value_width), 520)
        if self.legend.minimumWidth() < wanted:
            self.legend.setMinimumWidth(min(wanted, max(160, int(self.width() * 0.33))))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        """A plot filled while hidden (a restored thread's figure, a tab behind another) gets
        its ranges from its data when it shows, never pyqtgraph's empty 0…1 (a time axis of
        seconds since 1970)."""
        super().showEvent(event)
        (x0, x1), _ = self.plot_item.vb.viewRange()
        if self.prepared and (x0, x1) == (0, 1):
            self.autoscale()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_legend()  # the one-third cap was taken before the plot had its real width

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.plot_widget and event.type() == QEvent.Type.Resize:
            self._fit_title()
        if watched is self.plot_widget and event.type() == QEvent.Type.Leave:
            self.show_cursor(None)
        return super().eventFilter(watched, event)

    # ------------------------------------------------------------------ cursor
    def _on_mouse_moved(self, pos: QPointF) -> None:
        self.show_cursor(self.cursor.x_of_scene(pos))

    def show_cursor(self, t: float | None) -> dict[str, str]:
        """Put the cursor at time ``t`` (None: take it away); the legend's Value column reads
        every channel there. Returns what it shows, by channel."""
        self.cursor.place(t)
        self.legend.headerItem().setText(1, CursorReadout.header(t))
        shown: dict[str, str] = {}
        for channel, item in self.prepared.items():
            row = self._row(channel)
            if row is None or not item.drawn:  # a waveform keeps saying where it is drawn
                continue
            if t is None:
                text, severity = self._statuses.get(channel, ("", ""))
                self._paint_status(channel, text, severity)
                continue
            shown[channel] = reading_text(item, value_at(item, t))
            row.setText(1, shown[channel])
            row.setBackground(1, QBrush())
            row.setForeground(1, QBrush())
        return shown

    # -------------------------------------------------------------------- menu
    def menu_actions(self) -> QMenu:
        """The plot's own context menu (pyqtgraph's generic one is off)."""
        menu = QMenu(self)
        menu.addAction("Export CSV…", self.choose_csv_file)
        menu.addAction("Save PNG…", self.choose_png_file)
        menu.addAction("Show data table", self.show_data_table)
        channels = [c for c, item in self.prepared.items() if item.drawn]
        strip = menu.addAction(
            "Add to strip chart", lambda: self.stripchart_requested.emit(channels)
        )
        strip.setEnabled(bool(channels))
        strip.setToolTip("A live strip chart of these channels, filled from the archive")
        menu.addSeparator()
        menu.addAction("Autoscale", self.autoscale)
        return menu

    def show_menu(self, where: QPoint) -> None:
        menu = self.menu_actions()
        menu.aboutToHide.connect(menu.deleteLater)
        menu.popup(where)

    def autoscale(self) -> None:
        self.plot_item.enableAutoRange()
        if self._right_box is not None:
            self._right_box.enableAutoRange()

    def show_data_table(self) -> QWidget:
        from osprey_desktop.ui.plot_table import SampleTableDialog

        dialog = SampleTableDialog(self.title, list(self.prepared.values()), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def _fit_title(self) -> None:
        """The title shortened in its middle to the plot's width: pyqtgraph keeps a title's
        full width as the plot's minimum, which pushed a right axis out of sight."""
        label = self.plot_item.titleLabel
        room = self.plot_widget.width() - 160  # the axes beside it
        label.setText(self.title)
        full = label.item.boundingRect().width()
        if not self.title or full <= room or room <= 0:
            return
        keep = max(8, int(len(self.title) * room / full) - 1)
        head = (keep + 1) // 2
        label.setText(f"{self.title[:head]}…{self.title[len(self.title) - keep // 2 :]}")

    def _add_channel(self, item: PreparedSeries) -> None:
        channel = item.channel
        colour = PALETTE[len(self._colours) % len(PALETTE)]
        self._colours[channel] = colour
        self.units[channel] = item.unit
        key = self._settled_key(item)
        target, name = self._place(channel, key, item)
        self._keys[channel] = key
        self._targets[channel] = target
        self._names[channel] = name
        row = QTreeWidgetItem([name, ""])
        row.setIcon(0, swatch(colour))
        row.setData(0, Qt.ItemDataRole.UserRole, channel)
        row.setToolTip(0, self._row_tooltip(item))
        visible = len(self._colours) <= self.max_visible
        if item.drawn:  # a waveform or a text of many values has nothing to tick
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            row.setCheckState(0, Qt.CheckState.Checked if visible else Qt.CheckState.Unchecked)
        self.legend.addTopLevelItem(row)
        self._show_archive_summary(row, item)
        if visible:
            self._draw(channel)

    def _row_tooltip(self, item: PreparedSeries) -> str:
        text = f"{self._names.get(item.channel, item.channel)}: {item.points} points"
        counts = item.alarm_counts()
        if counts:
            text += "; in alarm: " + ", ".join(f"{n} {name}" for name, n in counts.items())
        return text + (f"\n{item.note}" if item.note else "")

    def _show_archive_summary(self, row: QTreeWidgetItem, item: PreparedSeries) -> None:
        """What the value column says of an archived channel: its alarms, or how it is shown."""
        counts = item.alarm_counts()
        if counts:
            worst = max(counts, key=lambda name: _SEVERITY_CODE.get(name, 4))
            self.set_channel_status(item.channel, f"⚠ {sum(counts.values())} in alarm", worst)
            row.setToolTip(
                1, "Samples in alarm: " + ", ".join(f"{n} {s}" for s, n in counts.items())
            )
        elif not item.drawn:
            text = "waveform: see its tab" if item.kind == "waveform" else "not drawn"
            self._statuses[item.channel] = (text, "")
            row.setText(1, text)
            row.setForeground(1, QBrush(QColor("#546e7a")))
            row.setToolTip(1, item.note)

    def _draw(self, channel: str) -> None:
        """Create or update the curve, band and alarm markers of a channel."""
        item = self.prepared[channel]
        if not item.drawn:  # a live channel turned out to be a waveform: nothing over time
            self._hide(channel)
            return
        colour = self._colours[channel]
        target = self._targets[channel]
        lift = self.state_offset(channel) if item.steps else 0.0  # a state track's rows
        curve = self.curves.get(channel)
        if curve is None:
            curve = pg.PlotDataItem(
                item.t, item.v + lift, pen=pg.mkPen(colour, width=1.5), connect="finite"
            )
            target.addItem(curve)
            # After addItem: pyqtgraph 0.14 fails on clip-to-view for an item with no view box.
            curve.setClipToView(True)
            self.curves[channel] = curve
        else:
            curve.setData(item.t, item.v + lift)
            curve.show()
        # a step outline is already reduced to its changes; peak downsampling would bend it
        curve.setDownsampling(auto=not (item.steps or item.held), method="peak")
        band_t = item.band_t if item.band_t is not None else item.t
        band = self.bands.get(channel)
        if item.band_low is not None and item.band_high is not None:
            if band is None:
                fill = QColor(colour)
                fill.setAlpha(60)
                band = BandItem(fill)
                band.setZValue(curve.zValue() - 1)
                target.addItem(band)
                self.bands[channel] = band
            band.set_band(band_t, item.band_low + lift, item.band_high + lift)
            band.show()
        elif band is not None:
            band.hide()
        markers = self.markers.get(channel)
        if item.alarm_t.size:
            if markers is None:
                markers = alarm_markers_item()
                markers.setZValue(curve.zValue() - 0.5)  # under the trace: alarm never hides it
                target.addItem(markers)
                self.markers[channel] = markers
            brushes, pens = alarm_brushes(item.alarm_severity)
            # many samples in alarm (a BPM sitting in MINOR) would make a band of full-size
            # markers: smaller ones then, under the trace, so the value stays readable
            size = MARKER_SIZE if item.alarm_t.size <= DENSE_MARKERS else MARKER_SIZE // 2
            markers.setData(
                x=item.alarm_t, y=item.alarm_v + lift, brush=brushes, pen=pens, size=size
            )
            markers.show()
        elif markers is not None:
            markers.setData(x=[], y=[])

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
            self._hide(channel)
        row = self._row(channel)
        if row is not None and (row.checkState(0) == Qt.CheckState.Checked) != shown:
            self.legend.blockSignals(True)
            row.setCheckState(0, Qt.CheckState.Checked if shown else Qt.CheckState.Unchecked)
            self.legend.blockSignals(False)
        self._update_note()

    def _hide(self, channel: str) -> None:
        for graphic in (self.curves, self.bands, self.markers):
            thing = graphic.get(channel)
            if thing is not None:
                thing.hide()

    def colour(self, channel: str) -> str:
        """The channel's colour in the legend (other views of it use the same)."""
        return self._colours.get(channel, PALETTE[0])

    def visible_channels(self) -> list[str]:
        return [c for c, curve in self.curves.items() if curve.isVisible()]

    def _update_note(self) -> None:
        drawable = [c for c, p in self.prepared.items() if p.drawn]
        hidden = len([c for c in drawable if c not in self.visible_channels()])
        self.legend_note.setVisible(hidden > 0)
        self.legend_note.setText(f"{hidden} more channel{'s' if hidden != 1 else ''}: tick to show")
        items = self.prepared.values()
        parts = [f"{len(self.prepared)} channel{'s' if len(self.prepared) != 1 else ''}"]
        if any(p.band_low is not None and not p.steps for p in items):
            parts.append("binned data: line = mean, band = min…max")
        if any(p.steps for p in items):
            parts.append("states drawn as steps")
        if any(p.alarm_t.size for p in items):
            parts.append(severity_legend_html())
        self.info.setText("; ".join(parts))

    def _row(self, channel: str) -> QTreeWidgetItem | None:
        for i in range(self.legend.topLevelItemCount()):
            row = self.legend.topLevelItem(i)
            if row.data(0, Qt.ItemDataRole.UserRole) == channel:
                return row
        return None

    # -------------------------------------------------------------- live
    def append_point(
        self, channel: str, timestamp: float, value: Any, unit: str = "", severity: Any = 0
    ) -> None:
        """Queue one live sample (a number, an enum state, a text); drawn at the next flush
        (2 Hz). ``severity`` is an EPICS code or name."""
        code = severity_code(severity)
        if channel not in self.prepared:
            self.apply(
                prepare_series(
                    {channel: ([timestamp], [value])}, {channel: unit}, severity={channel: [code]}
                )
            )
            return
        self._pending.setdefault(channel, []).append((timestamp, value, code))
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
            t = np.append(raw_t, [p[0] for p in points])
            if item.raw_objects is not None:
                values: Any = [*item.raw_objects, *(p[1] for p in points)]
            else:
                raw_v = item.raw_v if item.raw_v is not None else item.v
                values = np.append(raw_v, [number_or_nan(p[1]) for p in points])
            old = item.raw_severity if item.raw_severity is not None else np.zeros(raw_t.size)
            codes = np.append(old, [p[2] for p in points]).astype(int)
            updated.extend(
                prepare_series(
                    {channel: (t, values)},
                    {channel: item.unit},
                    kinds={channel: item.kind},
                    labels={channel: item.labels},
                    severity={channel: codes} if codes.any() else None,
                )
            )
        self.apply(updated)

    def set_channel_status(self, channel: str, text: str, severity: str = "") -> None:
        """The legend's value column: last value, in its alarm colour (kept while the cursor
        reads the plot, shown again when it leaves)."""
        self._statuses[channel] = (text, severity)
        if self.cursor.at is None:
            self._paint_status(channel, text, severity)

    def _paint_status(self, channel: str, text: str, severity: str) -> None:
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
        return self._statuses.get(channel, ("", ""))[0]

    # ------------------------------------------------------------- queries
    def point_counts(self) -> dict[str, int]:
        counts = {c: p.points for c, p in self.prepared.items()}
        for channel, points in self._pending.items():
            counts[channel] = counts.get(channel, 0) + len(points)
        return counts

    def legend_names(self) -> list[str]:
        return [self.legend.topLevelItem(i).text(0) for i in range(self.legend.topLevelItemCount())]
