"""A live strip chart dock opened by ``osprey-desktop://stripchart?channels=A,B``.

Subscribes through the control-system connector on the GUI loop (``LiveFeed``). Updates only
fill ring buffers; a 5 Hz timer redraws, so a fast channel cannot flood the event loop. The
time axis is wall-clock time over the last ``window_seconds``; the legend beside the plot
lists each channel with its last value, units and alarm colour (disconnected shows too), so
six channels take six legend rows, not a row of labels wider than the screen.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QWidget

from osprey_desktop.ui.live_feed import LiveFeed
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot
from osprey_desktop.ui.values import format_scalar

ConnectorFactory = Callable[[], Awaitable[Any]]
MAX_POINTS = 20_000
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
    ) -> None:
        channels = list(dict.fromkeys(channels))
        shown = ", ".join(channels[:3]) + (f" +{len(channels) - 3}" if len(channels) > 3 else "")
        super().__init__("Strip chart: " + shown, parent)
        self.setObjectName("stripchart_" + "_".join(stripchart_key(channels)))
        self.setToolTip("Live: " + ", ".join(channels))
        self.channels = channels
        self.key = stripchart_key(channels)
        self.window_seconds = window_seconds
        self._buffers = {c: deque(maxlen=MAX_POINTS) for c in self.channels}
        self._units: dict[str, str] = {c: "" for c in self.channels}
        self._dirty = False

        self.plot = TimeSeriesPlot(f"Live, last {round(window_seconds / 60)} min")
        self.plot.max_visible = len(self.channels)
        self.plot.set_series({c: ([], []) for c in self.channels})
        for channel in self.channels:
            self.plot.set_channel_status(channel, "connecting…")
        self.setWidget(self.plot)
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
        return self.started

    def add_reading(self, channel: str, reading: Any) -> None:
        """One update from the connector: buffer it and refresh the channel's legend row."""
        stamp = float(getattr(reading, "timestamp", 0.0) or 0.0)
        if stamp < PLAUSIBLE_EPOCH:
            stamp = time.time()  # the axis is wall-clock time, whatever the source stamped
        value = getattr(reading, "value", None)
        units = str(getattr(reading, "units", "") or "")
        severity = str(getattr(reading, "alarm_severity", "NO_ALARM") or "NO_ALARM").upper()
        self._units[channel] = units
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = float("nan")
        self._buffers[channel].append((stamp, number))
        self._dirty = True
        text = f"{format_scalar(value)} {units}".rstrip()
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
        series = {}
        for channel, buffer in self._buffers.items():
            points = [(t, v) for t, v in buffer if t >= cutoff] or list(buffer)[-1:]
            series[channel] = ([p[0] for p in points], [p[1] for p in points])
        self.plot.set_series(series, self._units)
        self.plot.plot_item.setXRange(cutoff, now, padding=0)
        self.plot.plot_item.enableAutoRange(axis="y")

    async def stop(self) -> None:
        """Unsubscribe everything (also called when the window closes)."""
        self._redraw_timer.stop()
        await self.feed.stop()

    def closeEvent(self, event: QCloseEvent) -> None:
        asyncio.ensure_future(self.stop())
        super().closeEvent(event)

    def point_counts(self) -> dict[str, int]:
        return {c: len(b) for c, b in self._buffers.items()}
