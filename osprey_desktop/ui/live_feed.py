"""Live values of a few channels through the control-system connector, on the GUI loop.

Shared by the strip chart and an archived plot that keeps growing live. Subscriptions are
made in a task (``start``) and undone by ``stop``; each reading goes to ``on_reading``.
caproto keeps callbacks as weak references (shared NOTES), so the callbacks live here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

ConnectorFactory = Callable[[], Awaitable[Any]]
ReadingCallback = Callable[[str, Any], None]
ProblemCallback = Callable[[str | None, str], None]  # channel (None: all), message


class LiveFeed:
    def __init__(
        self,
        channels: Sequence[str],
        connector_factory: ConnectorFactory,
        on_reading: ReadingCallback,
        on_problem: ProblemCallback | None = None,
    ) -> None:
        self.channels = list(channels)
        self._factory = connector_factory
        self._on_reading = on_reading
        self._on_problem = on_problem or (lambda _channel, _message: None)
        self._connector: Any = None
        self._subscriptions: list[str] = []
        self._callbacks: dict[str, Callable[[Any], None]] = {}  # strong refs (weakref trap)
        self.task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.task is not None

    def start(self) -> asyncio.Task[None]:
        if self.task is None:
            self.task = asyncio.ensure_future(self._subscribe())
        return self.task

    async def _subscribe(self) -> None:
        try:
            self._connector = await self._factory()
        except Exception as exc:
            self._on_problem(None, f"no control system: {exc}")
            return
        for channel in self.channels:
            callback = self._callback(channel)
            self._callbacks[channel] = callback
            try:
                sub_id = await self._connector.subscribe(channel, callback)
            except Exception as exc:
                self._on_problem(channel, f"{channel}: {exc}")
                continue
            self._subscriptions.append(sub_id)

    def _callback(self, channel: str) -> Callable[[Any], None]:
        def on_value(reading: Any) -> None:
            self._on_reading(channel, reading)

        return on_value

    async def stop(self) -> None:
        """Unsubscribe everything (also at shutdown, when the connection may be gone)."""
        task, self.task = self.task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        connector, subs = self._connector, self._subscriptions
        self._subscriptions = []
        for sub_id in subs:
            with contextlib.suppress(Exception):
                await connector.unsubscribe(sub_id)
