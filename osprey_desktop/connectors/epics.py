"""``EpicsControlSystemConnector``: EPICS Channel Access through caproto's asyncio client.

Pure Python (no libca). The network comes from the usual environment, passed through untouched:
``EPICS_CA_ADDR_LIST``, ``EPICS_CA_AUTO_ADDR_LIST``, ``EPICS_CA_SERVER_PORT``,
``EPICS_CA_REPEATER_PORT``... Reads use DBR_TIME (value, timestamp, alarm) and a cached
DBR_CTRL read (units, precision, display/control/alarm limits, enum strings); writes use
put-with-callback (``WriteNotify``) unless ``verification="none"``; subscriptions are monitors.

Traps handled here: caproto keeps subscription callbacks as weak references, so each monitor
holds its callback in a ``_Monitor`` object stored on the connector; caproto runs plain-function
callbacks in a thread pool, so the monitor callback is a coroutine (run on the loop). caproto's
client ignores a server's put error, which then looks like a timeout, so control limits are
checked here before the put and a timeout says the server may have refused the value.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from dataclasses import dataclass
from typing import Any

from caproto import AccessRights, AlarmSeverity, AlarmStatus, CaprotoTimeoutError, ChannelType
from caproto.asyncio.client import PV, Context

from osprey_desktop.connectors.base import (
    ChannelAccessError,
    ChannelMetadata,
    ChannelNotFoundError,
    ChannelValue,
    ChannelWriteResult,
    ControlSystemConnector,
    ValueCallback,
    Verification,
    call_value_callback,
    check_verification,
    format_value,
    to_float,
)
from osprey_desktop.connectors.channel_database import ChannelDatabase

_SEVERITY_NAMES = {
    AlarmSeverity.NO_ALARM: "NO_ALARM",
    AlarmSeverity.MINOR_ALARM: "MINOR",
    AlarmSeverity.MAJOR_ALARM: "MAJOR",
    AlarmSeverity.INVALID_ALARM: "INVALID",
}


def _severity(code: int) -> str:
    try:
        return _SEVERITY_NAMES.get(AlarmSeverity(code), "INVALID")
    except ValueError:
        return "INVALID"


def _status(code: int) -> str:
    try:
        return AlarmStatus(code).name
    except ValueError:
        return f"STATUS_{code}"


def _text(raw: Any) -> str:
    return raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)


@dataclass
class _Static:
    """The DBR_CTRL part of a channel, read once per connection."""

    units: str
    precision: int | None
    display: tuple[float, float] | None
    control: tuple[float, float] | None
    alarm: dict[str, float] | None
    enum_strings: tuple[str, ...] | None
    native_type: ChannelType


class _Monitor:
    """Holds a subscriber callback strongly (caproto only keeps a weak reference to it)."""

    def __init__(self, connector: EpicsControlSystemConnector, pv: PV, callback: ValueCallback):
        self.connector = connector
        self.pv = pv
        self.callback = callback
        self.subscription: Any = None
        self.token: int | None = None

    async def on_update(self, sub: Any, response: Any) -> None:
        value = self.connector._to_value(self.pv, response)
        await call_value_callback(self.callback, value)


class EpicsControlSystemConnector(ControlSystemConnector):
    """Channel Access client; one per event loop (caproto contexts are loop-bound)."""

    kind = "epics"

    def __init__(
        self,
        timeout: float = 2.0,
        database: ChannelDatabase | None = None,
        default_tolerance: float = 0.05,
        settle_timeout: float = 5.0,
        poll_interval: float = 0.1,
    ) -> None:
        self.timeout = timeout
        self.database = database
        self.default_tolerance = default_tolerance
        self.settle_timeout = settle_timeout
        self.poll_interval = poll_interval
        self._context: Context | None = None
        self._open = False
        self._static: dict[str, _Static] = {}
        self._monitors: dict[str, _Monitor] = {}
        self._ids = itertools.count(1)

    async def connect(self) -> None:
        # The caproto context is made on first use: disconnecting one that never searched
        # trips over caproto 1.3 (its broadcaster has no socket yet).
        self._open = True

    @property
    def connected(self) -> bool:
        return self._open

    def _get_context(self) -> Context:
        if self._context is None:
            self._context = Context(timeout=self.timeout)
        return self._context

    async def disconnect(self) -> None:
        for sub_id in list(self._monitors):
            await self.unsubscribe(sub_id)
        context, self._context = self._context, None
        self._open = False
        self._static.clear()
        if context is not None:
            await context.disconnect()

    # ----- channels ------------------------------------------------------------------------
    async def _pv(self, name: str, timeout: float | None) -> PV:
        if not isinstance(name, str) or not name.strip():
            raise ChannelNotFoundError(str(name), "A channel name is needed; got an empty one.")
        if not self._open:
            raise ChannelAccessError(
                name, f"The EPICS connector is disconnected; cannot access '{name}'."
            )
        wait = self.timeout if timeout is None else timeout
        (pv,) = await self._get_context().get_pvs(name.strip(), timeout=wait)
        try:
            await pv.wait_for_connection(timeout=wait)
        except (CaprotoTimeoutError, TimeoutError) as exc:
            addr = os.environ.get("EPICS_CA_ADDR_LIST", "<unset: broadcast>")
            raise ChannelNotFoundError(
                name,
                f"No Channel Access server answered for '{name}' within {wait:g} s. Check the "
                f"name, that the IOC is running, and EPICS_CA_ADDR_LIST (now {addr}).",
            ) from exc
        return pv

    async def _static_of(self, pv: PV, timeout: float | None) -> _Static:
        cached = self._static.get(pv.name)
        if cached is not None:
            return cached
        try:
            response = await pv.read(data_type="control", timeout=timeout or self.timeout)
        except (CaprotoTimeoutError, TimeoutError) as exc:
            raise ChannelAccessError(
                pv.name, f"'{pv.name}' did not answer a metadata read in time; try again."
            ) from exc
        md = response.metadata
        static = _Static(
            units=_text(getattr(md, "units", b"")),
            precision=getattr(md, "precision", None),
            display=_pair(md, "lower_disp_limit", "upper_disp_limit"),
            control=_pair(md, "lower_ctrl_limit", "upper_ctrl_limit"),
            alarm=_alarm_limits(md),
            enum_strings=(
                tuple(_text(s) for s in md.enum_strings) if hasattr(md, "enum_strings") else None
            ),
            native_type=pv.channel.native_data_type,
        )
        self._static[pv.name] = static
        return static

    def _metadata(self, pv: PV, status: str, severity: str) -> ChannelMetadata:
        static = self._static.get(pv.name)
        record = self.database.get(pv.name) if self.database is not None else None
        rights = pv.access_rights
        writable = bool(rights is not None and AccessRights.WRITE in rights)
        return ChannelMetadata(
            name=pv.name,
            units=static.units if static else (record.units if record else ""),
            precision=static.precision if static else (record.precision if record else None),
            description=record.description if record else "",
            alarm_status=status,
            alarm_severity=severity,
            display_limits=static.display if static else None,
            control_limits=static.control if static else None,
            alarm_limits=static.alarm if static else None,
            writable=writable and (record.writable if record else True),
            enum_strings=static.enum_strings if static else None,
        )

    def _to_value(self, pv: PV, response: Any) -> ChannelValue:
        md = response.metadata
        data = response.data
        if pv.channel is not None and pv.channel.native_data_type in (
            ChannelType.STRING,
            ChannelType.CHAR,
        ):
            value: Any = [_text(v) for v in data] if len(data) != 1 else _text(data[0])
        elif len(data) == 1:
            value = data[0].item() if hasattr(data[0], "item") else data[0]
        else:
            value = data.tolist() if hasattr(data, "tolist") else list(data)
        timestamp = float(getattr(md, "timestamp", 0.0) or 0.0)
        metadata = self._metadata(pv, _status(md.status), _severity(md.severity))
        return ChannelValue(name=pv.name, value=value, timestamp=timestamp, metadata=metadata)

    async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
        pv = await self._pv(name, timeout)
        await self._static_of(pv, timeout)
        try:
            response = await pv.read(data_type="time", timeout=timeout or self.timeout)
        except (CaprotoTimeoutError, TimeoutError) as exc:
            raise ChannelAccessError(
                name, f"'{name}' did not answer a read within {timeout or self.timeout:g} s."
            ) from exc
        return self._to_value(pv, response)

    # ----- writes --------------------------------------------------------------------------
    async def write_channel(
        self,
        name: str,
        value: Any,
        verification: Verification = "readback",
        tolerance: float | None = None,
        timeout: float | None = None,
    ) -> ChannelWriteResult:
        check_verification(verification)
        pv = await self._pv(name, timeout)
        static = await self._static_of(pv, timeout)
        tol = self.default_tolerance if tolerance is None else float(tolerance)

        def failed(message: str) -> ChannelWriteResult:
            return ChannelWriteResult.refused(pv.name, value, verification, message, self.clock())

        def show(shown: Any) -> str:
            return format_value(shown, static.precision, static.units)

        rights = pv.access_rights
        if rights is None or AccessRights.WRITE not in rights:
            return failed(f"'{pv.name}' does not grant write access to this client.")
        number = to_float(value)
        if static.control and number is not None:
            low, high = static.control
            if low != high and not low <= number <= high:
                return failed(
                    f"{number:g} is outside the control range of '{pv.name}' "
                    f"({low:g} to {high:g} {static.units}); nothing was written."
                )
        payload = value if isinstance(value, list | tuple) else [value]
        wait = verification != "none"
        put_timeout = timeout or self.timeout
        try:
            response = await pv.write(payload, wait=wait, timeout=put_timeout)
        except (CaprotoTimeoutError, TimeoutError):
            return failed(
                f"The server did not confirm the write of {value!r} to '{pv.name}' within "
                f"{put_timeout:g} s; it may have refused the value. Read the channel to check."
            )
        except Exception as exc:  # caproto raises plain ValueError/TypeError for bad payloads
            return failed(f"Writing {value!r} to '{pv.name}' failed: {exc}")
        if response is not None and not getattr(response.status, "success", 1):
            return failed(
                f"The server refused the write to '{pv.name}': {response.status.description}"
            )
        if verification != "readback" or number is None:
            return self.sent_result(pv.name, value, verification, show(value))
        rb_name = (self.database.readback_for(pv.name) if self.database else None) or pv.name
        return await self.readback_result(
            pv.name, value, number, rb_name, tol, self.settle_timeout, show, self.poll_interval
        )

    # ----- monitors ------------------------------------------------------------------------
    async def subscribe(self, name: str, callback: ValueCallback) -> str:
        pv = await self._pv(name, None)
        await self._static_of(pv, None)
        monitor = _Monitor(self, pv, callback)
        monitor.subscription = pv.subscribe(data_type="time")
        monitor.token = monitor.subscription.add_callback(monitor.on_update)
        sub_id = f"ca-{next(self._ids)}"
        self._monitors[sub_id] = monitor
        return sub_id

    async def unsubscribe(self, subscription_id: str) -> None:
        monitor = self._monitors.pop(subscription_id, None)
        if monitor is None or monitor.subscription is None or monitor.token is None:
            return
        # the circuit may already be gone, leaving nothing to cancel
        with contextlib.suppress(Exception):
            await monitor.subscription.remove_callback(monitor.token)


def _pair(md: Any, low: str, high: str) -> tuple[float, float] | None:
    if not hasattr(md, low):
        return None
    lo, hi = float(getattr(md, low)), float(getattr(md, high))
    return None if lo == hi == 0.0 else (lo, hi)


def _alarm_limits(md: Any) -> dict[str, float] | None:
    fields = {
        "lolo": "lower_alarm_limit",
        "low": "lower_warning_limit",
        "high": "upper_warning_limit",
        "hihi": "upper_alarm_limit",
    }
    if not hasattr(md, "upper_alarm_limit"):
        return None
    out = {k: float(getattr(md, f)) for k, f in fields.items()}
    return None if not any(out.values()) else out


__all__ = ["EpicsControlSystemConnector"]
