"""``SimulatedControlSystemConnector``: the control-system connector over the in-process ring.

The default connector: no setup, no network. Reads evaluate ``SimMachine`` at the current time;
writes change a setpoint, whose readback then follows with a lag (so ``verification="readback"``
genuinely waits for the device, like on a real machine); subscriptions poll at
``poll_interval`` and fire at once after a write to the subscribed channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.channels.database import ChannelRecord
from osprey_desktop.connectors.base import (
    ChannelAccessError,
    ChannelMetadata,
    ChannelNotFoundError,
    ChannelValue,
    ChannelWriteResult,
    ConnectorError,
    ControlSystemConnector,
    ValueCallback,
    Verification,
    call_value_callback,
    check_verification,
    format_value,
    to_float,
)
from osprey_desktop.connectors.sim_machine import SimMachine, SimWriteError

log = logging.getLogger(__name__)


def record_metadata(
    record: ChannelRecord, alarm_status: str = "NO_ALARM", alarm_severity: str = "NO_ALARM"
) -> ChannelMetadata:
    """A list's record as connector metadata, with the given alarm state."""
    alarm = record.limits.alarm.as_dict() if record.limits.alarm else None
    return ChannelMetadata(
        name=record.name,
        units=record.units,
        precision=record.precision,
        description=record.description,
        alarm_status=alarm_status,
        alarm_severity=alarm_severity,
        display_limits=record.limits.display,
        control_limits=record.limits.control,
        alarm_limits=alarm or None,
        writable=record.writable,
    )


@dataclass
class _Subscription:
    channel: str
    callback: ValueCallback
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event | None = None


class SimulatedControlSystemConnector(ControlSystemConnector):
    """Control-system connector over a ``SimMachine`` (shared with the simulated archiver)."""

    kind = "sim"

    def __init__(
        self,
        machine: SimMachine,
        default_tolerance: float = 0.05,
        settle_timeout: float = 5.0,
        poll_interval: float = 0.25,
    ) -> None:
        self.machine = machine
        self.database = machine.database
        self.default_tolerance = default_tolerance
        self.settle_timeout = settle_timeout
        self.poll_interval = poll_interval
        self._connected = False
        self._subscriptions: dict[str, _Subscription] = {}
        self._ids = itertools.count(1)

    async def connect(self) -> None:
        self._connected = True

    async def disconnect(self) -> None:
        for sub_id in list(self._subscriptions):
            await self.unsubscribe(sub_id)
        self._connected = False

    @property
    def connected(self) -> bool:
        return self._connected

    def _record(self, name: str) -> ChannelRecord:
        if not isinstance(name, str) or not name.strip():
            raise ChannelNotFoundError(str(name), "A channel name is needed; got an empty one.")
        return self.database.require(name.strip())

    def _check_connected(self, name: str) -> None:
        if not self._connected:
            raise ChannelAccessError(
                name, f"The simulated connector is disconnected; cannot access '{name}'."
            )

    def _read(self, name: str, at: float | None = None) -> ChannelValue:
        """The machine's value of a known channel at ``at`` (now when None)."""
        record = self._record(name)
        self._check_connected(record.name)
        reading = self.machine.read(record.name, at)
        return ChannelValue(
            name=record.name,
            value=reading.value,
            timestamp=reading.timestamp,
            metadata=record_metadata(record, reading.alarm_status, reading.alarm_severity),
        )

    async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
        return self._read(name)

    async def read_multiple_channels(
        self, names: Sequence[str], timeout: float | None = None
    ) -> dict[str, ChannelValue | ConnectorError]:
        """One consistent snapshot: every channel evaluated at the same instant."""
        now = self.machine.clock()
        out: dict[str, ChannelValue | ConnectorError] = {}
        for name in names:
            try:
                out[name] = self._read(name, now)
            except ConnectorError as exc:
                out[name] = exc
        return out

    def clock(self) -> float:
        return self.machine.clock()

    async def write_channel(
        self,
        name: str,
        value: Any,
        verification: Verification = "readback",
        tolerance: float | None = None,
        timeout: float | None = None,
    ) -> ChannelWriteResult:
        record = self._record(name)
        self._check_connected(record.name)
        check_verification(verification)
        tol = self.default_tolerance if tolerance is None else float(tolerance)
        if not record.writable:
            return ChannelWriteResult.refused(
                record.name,
                value,
                verification,
                f"'{record.name}' is read-only; nothing was written.",
                self.clock(),
            )
        number = to_float(value)
        try:
            written = self.machine.set_setpoint(record.name, value if number is None else number)
        except SimWriteError as exc:
            return ChannelWriteResult.refused(
                record.name,
                value,
                verification,
                f"Write refused by the simulated device: {exc}",
                self.clock(),
            )
        self._wake_subscribers(record.name)

        def show(shown: Any) -> str:
            return format_value(shown, record.precision, record.units)

        if verification != "readback":
            return self.sent_result(record.name, written, verification, show(written))
        rb_name = record.readback or record.name
        settle = self.settle_timeout if timeout is None else timeout
        result = await self.readback_result(
            record.name, written, written, rb_name, tol, settle, show
        )
        self._wake_subscribers(rb_name)
        return result

    # ----- subscriptions -------------------------------------------------------------------
    async def subscribe(self, name: str, callback: ValueCallback) -> str:
        record = self._record(name)
        self._check_connected(record.name)
        sub_id = f"sim-{next(self._ids)}"
        sub = _Subscription(record.name, callback, wake=asyncio.Event())
        self._subscriptions[sub_id] = sub
        sub.task = asyncio.get_running_loop().create_task(
            self._run_subscription(sub), name=f"sim subscription {sub_id} {record.name}"
        )
        return sub_id

    async def unsubscribe(self, subscription_id: str) -> None:
        sub = self._subscriptions.pop(subscription_id, None)
        if sub is None or sub.task is None:
            return
        sub.task.cancel()
        try:
            await sub.task
        except asyncio.CancelledError:
            pass
        except RuntimeError:
            log.debug("subscription task of another loop ended", exc_info=True)

    def _wake_subscribers(self, channel: str) -> None:
        for sub in self._subscriptions.values():
            if sub.channel == channel and sub.wake is not None:
                sub.wake.set()

    async def _run_subscription(self, sub: _Subscription) -> None:
        """Deliver the current value now, then on every poll tick whose value changed."""
        last: float | None = None
        assert sub.wake is not None
        while True:
            try:
                value = await self.read_channel(sub.channel)
                number = to_float(value.value)
                if last is None or number is None or not math.isclose(number, last):
                    await call_value_callback(sub.callback, value)
                last = number
            except asyncio.CancelledError:
                raise
            except Exception:  # a subscriber's bug must not kill the subscription
                log.exception("subscriber callback for %s failed", sub.channel)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(sub.wake.wait(), timeout=self.poll_interval)
            sub.wake.clear()
