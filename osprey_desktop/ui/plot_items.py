"""Graphics items the plots share: the min/max band, alarm markers, legend swatches, axes,
and a view box whose pyqtgraph menu is made only when it is opened.

Alarm colours are the control room's (``values.ALARM_CELL``): MINOR yellow, MAJOR red,
INVALID magenta, each marker outlined in a darker shade so yellow still reads on white.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.ViewBox.ViewBoxMenu import ViewBoxMenu
from PySide6.QtGui import QBrush, QColor, QIcon, QPainterPath, QPixmap
from PySide6.QtWidgets import QGraphicsPathItem

from osprey_desktop.ui.values import ALARM_CELL, ALARM_COLOURS

SEVERITY_NAME = {1: "MINOR", 2: "MAJOR", 3: "INVALID"}
MARKER_SIZE = 8


def units_axis(axis: pg.AxisItem, unit: str) -> None:
    """Label an axis with the engineering unit as it is: no SI-prefix rescaling."""
    axis.enableAutoSIPrefix(False)
    axis.setTicks(None)
    axis.setLabel(unit or "value")


def states_axis(axis: pg.AxisItem, ticks: Sequence[tuple[float, str]]) -> None:
    """An axis that names states (``Closed``, ``Open``) where they are drawn, not numbers."""
    axis.enableAutoSIPrefix(False)
    axis.setTicks([list(ticks), []])
    axis.setLabel("state")


class LazyMenuViewBox(pg.ViewBox):
    """A view box whose right-click menu is made at the first right click, not with the plot.

    pyqtgraph builds its generic menu (two axis forms of a dozen widgets each) in every
    ``ViewBox``: 4-6 ms of each plot's construction on the window's loop, for a menu most
    plots never open (the time plot shows its own). The menu still works as before."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["enableMenu"] = False  # not made now ...
        super().__init__(*args, **kwargs)
        self.state["enableMenu"] = True  # ... but offered: made on the first right click

    def _applyMenuEnabled(self) -> None:  # noqa: N802 - pyqtgraph's name
        if not self.menuEnabled() and self.menu is not None:
            self.menu.setParent(None)
            self.menu = None

    def getMenu(self, ev: Any) -> ViewBoxMenu | None:  # noqa: N802 - pyqtgraph's name
        if self.menu is None and self.menuEnabled():
            self.menu = ViewBoxMenu(self)
            self.updateViewLists()
        return self.menu

    def getContextMenus(self, event: Any) -> list[Any]:  # noqa: N802 - pyqtgraph's name
        menu = self.getMenu(event)
        return menu.actions() if menu is not None else []


class BandItem(QGraphicsPathItem):
    """The min/max band of binned data as filled polygons, built with numpy.

    pyqtgraph's FillBetweenItem rebuilds its path point by point in Python (20 ms per
    channel for 800 bins); this builds the outline with ``arrayToQPath`` in one call. A gap
    (NaN) ends one polygon and the next finite bin starts another: never filled across.
    """

    def __init__(self, fill: QColor) -> None:
        super().__init__()
        self.setBrush(QBrush(fill))
        self.setPen(pg.mkPen(None))
        self.low = np.array([])
        self.high = np.array([])

    def set_band(self, t: np.ndarray, low: np.ndarray, high: np.ndarray) -> None:
        keep = np.isfinite(t) & np.isfinite(low) & np.isfinite(high)
        self.low, self.high = low[keep], high[keep]
        edges = np.flatnonzero(np.diff(np.concatenate([[0], keep.astype(np.int8), [0]])))
        xs, ys, links = [], [], []
        for start, stop in zip(edges[0::2], edges[1::2], strict=True):
            if stop - start < 2:
                continue
            span = slice(start, stop)
            xs.append(np.concatenate([t[span], t[span][::-1]]))
            ys.append(np.concatenate([high[span], low[span][::-1]]))
            link = np.ones(2 * (stop - start), dtype=np.int32)
            link[-1] = 0  # the next polygon starts afresh
            links.append(link)
        if not xs:
            self.setPath(QPainterPath())
            return
        path = pg.arrayToQPath(np.concatenate(xs), np.concatenate(ys), np.concatenate(links))
        self.setPath(path)

    def polygons(self) -> int:
        """How many separate filled areas the band has (one per run between gaps)."""
        return sum(
            1 for i in range(self.path().elementCount()) if self.path().elementAt(i).isMoveTo()
        )

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802 - pyqtgraph's name
        """(low, high) as drawn."""
        return self.low, self.high


def alarm_brushes(severity: np.ndarray) -> tuple[list[QBrush], list[object]]:
    """Fill and outline per marker, by EPICS severity code."""
    fills = {code: QBrush(QColor(ALARM_CELL[name][0])) for code, name in SEVERITY_NAME.items()}
    pens = {code: pg.mkPen(ALARM_COLOURS[name], width=1) for code, name in SEVERITY_NAME.items()}
    codes = [int(c) if int(c) in fills else 3 for c in severity.tolist()]
    return [fills[c] for c in codes], [pens[c] for c in codes]


def alarm_markers_item() -> pg.ScatterPlotItem:
    item = pg.ScatterPlotItem(size=MARKER_SIZE, symbol="o")
    item.setZValue(10)  # over the line
    return item


def severity_legend_html() -> str:
    """The key of the alarm markers, for the line above the plot."""
    dots = " ".join(
        f'<span style="color:{ALARM_CELL[name][0]}; font-size:14px">●</span>'
        f'<span style="color:{ALARM_COLOURS[name].name()}"> {name}</span>'
        for name in SEVERITY_NAME.values()
    )
    return f"markers: samples in alarm — {dots}"


def swatch(colour: str) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


__all__ = [
    "BandItem",
    "LazyMenuViewBox",
    "alarm_brushes",
    "alarm_markers_item",
    "severity_legend_html",
    "states_axis",
    "swatch",
    "units_axis",
]
