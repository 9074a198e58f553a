"""A live strip chart dock opened by ``osprey-desktop://stripchart?channels=A,B``.

Subscribes through the control-system connector on the GUI loop. Updates only fill ring
buffers; a 5 Hz timer redraws, so a fast channel cannot flood the event loop. Each channel
has a status label with its last value, units and alarm state (disconnected shows too).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot
from osprey_desktop.ui.values import ALARM_COLOURS, format_scalar

ConnectorFactory = Callable[[], Awaitable[Any]]
MAX_POINTS = 20_000


class StripChartDock(QDockWidget):
    """Live history of a few channels over the last ``window_seconds``."""

    def __init__(
        self,
        channels: Sequence[str],
        connector_factory: ConnectorFactory,
        window_seconds: float = 600.0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("Strip chart: " + ", ".join(channels), parent)
        self.setObjectName("stripchart_" + "_".join(channels))
        self.channels = list(channels)
        self.window_seconds = window_seconds
        self._factory = connector_factory
        self._connector: Any = None
        self._subscriptions: list[str] = []
        self._buffers = {c: deque(maxlen=MAX_POINTS) for c in self.channels}
        self._units: dict[str, str] = {c: "" for c in self.channels}
        self._dirty = False
        self._callbacks: dict[str, Callable[[Any], None]] = {}  # strong refs (weakref trap)

        self.plot = TimeSeriesPlot("Live")
        self.labels = {c: QLabel(f"{c}: connecting…") for c in self.channels}
        row = QHBoxLayout()
        for label in self.labels.values():
            row.addWidget(label)
        row.addStretch(1)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(row)
        layout.addWidget(self.plot, 1)
        self.setWidget(body)

        self._redraw_timer = QTimer(self)
        self._redraw_timer.setInterval(200)
        self._redraw_timer.timeout.connect(self._redraw)
        self.started: asyncio.Task[None] | None = None

    def start(self) -> asyncio.Task[None]:
        self.started = asyncio.ensure_future(self._subscribe())
        self._redraw_timer.start()
        return self.started

    async def _subscribe(self) -> None:
        try:
            self._connector = await self._factory()
        except Exception as exc:
            for label in self.labels.values():
                self._show_problem(label, f"no control system: {exc}")
            return
        for channel in self.channels:
            callback = self._make_callback(channel)
            self._callbacks[channel] = callback
            try:
                sub_id = await self._connector.subscribe(channel, callback)
            except Exception as exc:
                self._show_problem(self.labels[channel], f"{channel}: {exc}")
                continue
            self._subscriptions.append(sub_id)

    def _make_callback(self, channel: str) -> Callable[[Any], None]:
        def on_value(reading: Any) -> None:
            self.add_reading(channel, reading)

        return on_value

    def add_reading(self, channel: str, reading: Any) -> None:
        """One update from the connector: buffer it and refresh the channel's label."""
        stamp = float(getattr(reading, "timestamp", 0.0) or time.time())
        value = getattr(reading, "value", None)
        units = str(getattr(reading, "units", "") or "")
        severity = str(getattr(reading, "alarm_severity", "NO_ALARM") or "NO_ALARM")
        self._units[channel] = units
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = float("nan")
        self._buffers[channel].append((stamp, number))
        self._dirty = True
        label = self.labels[channel]
        text = f"{channel}: {format_scalar(value)} {units}".rstrip()
        colour = ALARM_COLOURS.get(severity.upper())
        if colour is not None:
            text += f"  [{severity}]"
            label.setStyleSheet(f"color: {colour.name()}; font-weight: bold;")
        else:
            label.setStyleSheet("")
        label.setText(text)

    @staticmethod
    def _show_problem(label: QLabel, message: str) -> None:
        label.setText(f"DISCONNECTED — {message}")
        label.setStyleSheet(f"color: {ALARM_COLOURS['DISCONNECTED'].name()};")
        label.setToolTip(message)

    def _redraw(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        cutoff = time.time() - self.window_seconds
        series = {}
        for channel, buffer in self._buffers.items():
            points = [(t, v) for t, v in buffer if t >= cutoff] or list(buffer)[-1:]
            if points:
                series[channel] = ([p[0] for p in points], [p[1] for p in points])
        if series:
            self.plot.set_series(series, self._units)

    async def stop(self) -> None:
        """Unsubscribe everything (also called when the window closes)."""
        self._redraw_timer.stop()
        if self.started is not None and not self.started.done():
            self.started.cancel()
        connector, subs = self._connector, self._subscriptions
        self._subscriptions = []
        for sub_id in subs:
            # The connection may already be gone at shutdown.
            with contextlib.suppress(Exception):
                await connector.unsubscribe(sub_id)

    def closeEvent(self, event: QCloseEvent) -> None:
        asyncio.ensure_future(self.stop())
        super().closeEvent(event)

    def point_counts(self) -> dict[str, int]:
        return {c: len(b) for c, b in self._buffers.items()}
