"""Data-Browser handling of a time plot: the cursor readout, the wheel, the context menu.

- **Cursor**: a vertical line follows the mouse over the plot; the legend's Value column
  then shows every channel's value at that time (the archived sample in force there: a value
  holds until the next sample) with 4 significant digits and its units, and the column's
  header says the time. Leaving the plot gives the column back to the live or archive status.
- **Wheel**: over the plot it zooms the time axis only (the values keep their autoscale);
  over a value axis it zooms that axis (pyqtgraph's axis behaviour).
- **Right click**: ``TimeViewBox.menu_requested`` instead of pyqtgraph's generic menu; the
  plot offers its own actions there.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Signal

from osprey_desktop.ui.plot_data import PreparedSeries
from osprey_desktop.ui.plot_items import LazyMenuViewBox

SIGNIFICANT = 4


class TimeViewBox(LazyMenuViewBox):
    """The plot area: wheel zooms time; right click asks for our own menu (pyqtgraph's is
    never made)."""

    menu_requested = Signal(QPoint)  # screen position

    def wheelEvent(self, ev: Any, axis: int | None = None) -> None:  # noqa: N802 - pyqtgraph
        super().wheelEvent(ev, axis=0 if axis is None else axis)

    def raiseContextMenu(self, ev: Any) -> None:  # noqa: N802 - pyqtgraph's name
        self.menu_requested.emit(ev.screenPos().toPoint())


def value_at(item: PreparedSeries, t: float) -> float | None:
    """The sample in force at ``t``: the last one stamped at or before it (None: none yet,
    or a gap)."""
    stamps = item.raw_t if item.raw_t is not None else item.t
    values = item.raw_v if item.raw_v is not None else item.v
    if stamps is None or stamps.size == 0 or values is None:
        return None
    index = int(np.searchsorted(stamps, t, side="right")) - 1
    if index < 0 or index >= values.size:
        return None
    value = float(values[index])
    return value if math.isfinite(value) else None


def reading_text(item: PreparedSeries, value: float | None) -> str:
    """A value as the cursor shows it: a state's name, or 4 significant digits and units."""
    if value is None:
        return "—"
    label = item.label_of(value) if item.labels else None
    if label is not None:
        return label
    text = f"{value:.{SIGNIFICANT}g}"
    return f"{text} {item.unit}" if item.unit else text


class CursorReadout:
    """The cursor line of one plot and the values it reads (``TimeSeriesPlot`` owns it)."""

    def __init__(self, plot_item: pg.PlotItem) -> None:
        self.plot_item = plot_item
        self.line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen("#455a64", width=1))
        self.line.setZValue(20)
        self.line.hide()
        plot_item.addItem(self.line, ignoreBounds=True)
        self.at: float | None = None

    def x_of_scene(self, pos: QPointF) -> float | None:
        """The time under a scene position, or None outside the plot area."""
        box = self.plot_item.vb
        if not box.sceneBoundingRect().contains(pos):
            return None
        return float(box.mapSceneToView(pos).x())

    def place(self, t: float | None) -> None:
        self.at = t
        if t is None:
            self.line.hide()
            return
        self.line.setPos(t)
        self.line.show()

    @staticmethod
    def header(t: float | None) -> str:
        if t is None:
            return "Value"
        return f"Value at {datetime.fromtimestamp(t):%H:%M:%S}"


__all__ = ["CursorReadout", "TimeViewBox", "reading_text", "value_at"]
