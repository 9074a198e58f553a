"""A pyqtgraph time-series plot: date axis, one curve per channel, units on the axes.

Channels with the first unit go on the left axis, channels with a second unit on a right
axis with its own view box; any further units share the left axis and say so in the legend.
Auto-downsampling (peak mode) and clip-to-view keep 10^6-point series fluid. Raster only:
``QOpenGLWidget`` does not work offscreen (shared NOTES).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

pg.setConfigOptions(useOpenGL=False, antialias=False, background="w", foreground="k")

# Colour-blind-safe palette (Okabe-Ito), readable on white.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")

Series = Mapping[str, tuple[Sequence[float] | np.ndarray, Sequence[Any] | np.ndarray]]


def as_arrays(timestamps: Any, values: Any) -> tuple[np.ndarray, np.ndarray]:
    """Float arrays with None -> NaN (a gap in the curve, not a crash)."""
    t = np.asarray(timestamps, dtype=float)
    v = np.asarray([np.nan if x is None else x for x in values], dtype=float)
    n = min(t.size, v.size)
    return t[:n], v[:n]


class TimeSeriesPlot(QWidget):
    """Shows ``{channel: (epoch seconds, values)}`` with ``{channel: units}``."""

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot_widget = pg.PlotWidget(axisItems={"bottom": pg.DateAxisItem()})
        self.plot_item: pg.PlotItem = self.plot_widget.getPlotItem()
        self.plot_item.setTitle(title)
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        self.plot_item.setDownsampling(auto=True, mode="peak")
        self.plot_item.setClipToView(True)
        self.plot_item.getAxis("bottom").setLabel("time (local)")
        self.legend = self.plot_item.addLegend(
            offset=(10, 10), brush=pg.mkBrush(255, 255, 255, 210), pen=pg.mkPen("#9e9e9e")
        )
        self.legend.setColumnCount(2)  # one short row for two channels: less data hidden
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.units: dict[str, str] = {}
        self.axis_units: list[str] = []  # [left unit, right unit]
        self._right_box: pg.ViewBox | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot_widget)

    def _right_view(self) -> pg.ViewBox:
        if self._right_box is None:
            box = pg.ViewBox()
            # Below the main view box, so the left curves and the legend stay on top.
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
            self.plot_item.getAxis("left").setLabel(unit or "value")
        if unit == self.axis_units[0]:
            return self.plot_item, f"{channel} ({unit})" if unit else channel
        if len(self.axis_units) == 1:
            self.axis_units.append(unit)
            self.plot_item.getAxis("right").setLabel(unit or "value")
        if unit == self.axis_units[1]:
            return self._right_view(), f"{channel} ({unit}, right axis)"
        return self.plot_item, f"{channel} ({unit or 'no units'}, on left axis)"

    def set_series(self, series: Series, units: Mapping[str, str] | None = None) -> None:
        """Draw every channel (replacing the curves of channels drawn before)."""
        units = units or {}
        for channel, (timestamps, values) in series.items():
            t, v = as_arrays(timestamps, values)
            curve = self.curves.get(channel)
            if curve is None:
                self._add_curve(channel, str(units.get(channel) or ""), t, v)
            else:
                curve.setData(t, v)
        self.plot_item.enableAutoRange()

    def _add_curve(self, channel: str, unit: str, t: np.ndarray, v: np.ndarray) -> None:
        target, name = self._place(channel, unit)
        colour = PALETTE[len(self.curves) % len(PALETTE)]
        curve = pg.PlotDataItem(t, v, pen=pg.mkPen(colour, width=1.5), name=name)
        target.addItem(curve)
        # After addItem: pyqtgraph 0.14 fails on clip-to-view for an item with no view box yet.
        curve.setDownsampling(auto=True, method="peak")
        curve.setClipToView(True)
        if target is not self.plot_item:
            self.legend.addItem(curve, name)
        self.curves[channel] = curve
        self.units[channel] = unit

    def append_point(self, channel: str, timestamp: float, value: float, unit: str = "") -> None:
        """Add one sample (live strip chart); creates the curve on first use."""
        curve = self.curves.get(channel)
        if curve is None:
            self._add_curve(channel, unit, np.array([timestamp]), np.array([value], dtype=float))
            return
        t, v = curve.getOriginalDataset()
        curve.setData(np.append(t, timestamp), np.append(v, value))

    def point_counts(self) -> dict[str, int]:
        out = {}
        for channel, curve in self.curves.items():
            t, _ = curve.getOriginalDataset()
            out[channel] = 0 if t is None else int(len(t))
        return out

    def legend_names(self) -> list[str]:
        return [label.text for _sample, label in self.legend.items]
