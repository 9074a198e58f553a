"""The y axes of a time plot: one per unit, or per set of enum states (a mixin).

The first axis key (a unit such as ``mA``, or ``states:Off|On`` for an enum) gets the left
axis, a second one a right axis with its own view box; further keys share the left axis and
the legend says so. Every state track (an enum, a text of few values) shares one "state" axis:
the tracks are stacked, each over rows of its own, and the ticks name each row
(``State: Fault``, ``ModeText: parked``; the bare state names when there is one track).
A live channel learns its units (or that it is an enum) from its first value, so the axes are
laid out again when a channel's key changes.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg

from osprey_desktop.ui.plot_data import STATES, PreparedSeries
from osprey_desktop.ui.plot_items import LazyMenuViewBox, states_axis, units_axis


class PlotAxes:
    """Axis placement for ``TimeSeriesPlot`` (which owns the attributes used here)."""

    plot_item: pg.PlotItem
    prepared: dict[str, PreparedSeries]
    axis_keys: list[str]
    units: dict[str, str]
    curves: dict[str, Any]
    bands: dict[str, Any]
    markers: dict[str, Any]
    _targets: dict[str, Any]
    _names: dict[str, str]
    _keys: dict[str, str | None]
    _right_box: pg.ViewBox | None
    _state_offsets: dict[str, float]

    @staticmethod
    def _settled_key(item: PreparedSeries) -> str | None:
        """The axis key, or None while a live channel has neither units nor a value yet
        (it then waits on the left axis without naming it)."""
        if not item.drawn:
            return None
        if item.steps or item.unit or item.points:
            return item.axis_key
        return None

    def _right_view(self) -> pg.ViewBox:
        if self._right_box is None:
            box = LazyMenuViewBox()
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

    def _name_axis(self, side: str, key: str) -> None:
        axis = self.plot_item.getAxis(side)
        if key == STATES:
            states_axis(axis, self._state_ticks())
        else:
            units_axis(axis, key)

    def state_offset(self, channel: str) -> float:
        """Where a state track's row 0 sits on the state axis."""
        return self._state_offsets.get(channel, 0.0)

    def _state_ticks(self) -> list[tuple[float, str]]:
        tracks = [p for p in self.prepared.values() if p.steps]
        ticks = []
        for item in tracks:
            base = self._state_offsets.get(item.channel, 0.0)
            short = item.channel.rsplit(":", 1)[-1]
            for i, label in enumerate(item.labels):
                ticks.append((base + i, label if len(tracks) == 1 else f"{short}: {label}"))
        return ticks

    def _restack_states(self) -> list[str]:
        """Give each state track its rows (in legend order, a blank row between tracks) and
        name them on the state axis; returns the tracks whose rows moved (to be redrawn)."""
        offsets: dict[str, float] = {}
        row = 0.0
        for channel, item in self.prepared.items():
            if item.steps and self._keys.get(channel) == STATES:
                offsets[channel] = row
                row += len(item.labels) + 1
        moved = [c for c in offsets if offsets[c] != self._state_offsets.get(c)]
        self._state_offsets = offsets
        for side, key in zip(("left", "right"), self.axis_keys, strict=False):
            if key == STATES:
                states_axis(self.plot_item.getAxis(side), self._state_ticks())
        return moved

    def _place(self, channel: str, key: str | None, item: PreparedSeries) -> tuple[Any, str]:
        """The view box for an axis key, and the legend name (which names foreign axes)."""
        what = _what(item)
        if key is None:
            return self.plot_item, f"{channel} ({what})" if what else channel
        if not self.axis_keys:
            self.axis_keys.append(key)
            self._name_axis("left", key)
        if key == self.axis_keys[0]:
            return self.plot_item, f"{channel} ({what})" if what else channel
        if len(self.axis_keys) == 1:
            self.axis_keys.append(key)
            self._name_axis("right", key)
        if key == self.axis_keys[1]:
            return self._right_view(), f"{channel} ({what}, right axis)"
        if item.steps:  # both axes carry units: the track's rows are numbers there
            return self.plot_item, f"{channel} (states 0–{len(item.labels) - 1}, on left axis)"
        return self.plot_item, f"{channel} ({item.unit or 'no units'}, on left axis)"

    def _layout_axes(self) -> None:
        """Place every channel again (a live channel's units or states came late)."""
        self.axis_keys = []
        for channel, item in self.prepared.items():
            key = self._settled_key(item)
            target, name = self._place(channel, key, item)
            self.units[channel] = item.unit
            self._keys[channel] = key
            self._names[channel] = name
            row = self._row(channel)
            if row is not None:
                row.setText(0, name)
            if target is not self._targets.get(channel):
                old = self._targets.get(channel)
                for graphic in (self.curves, self.bands, self.markers):
                    thing = graphic.get(channel)
                    if thing is not None and old is not None:
                        old.removeItem(thing)
                        target.addItem(thing)
                self._targets[channel] = target
            if channel in self.curves and self.curves[channel].isVisible():
                self._draw(channel)  # type: ignore[attr-defined]


def _what(item: PreparedSeries) -> str:
    """What the legend says after a channel's name: its unit, states, or how it is shown."""
    if item.kind == "waveform":
        return f"{item.unit}, waveform" if item.unit else "waveform"
    if item.kind == "string":
        return "text" if item.steps else "text, not drawn"
    if item.steps:
        return "states"
    return item.unit
