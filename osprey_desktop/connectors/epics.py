"""``EpicsControlSystemConnector``: EPICS Channel Access through caproto's asyncio client.

Pure Python (no libca). The network comes from the usual environment, passed through untouched:
``EPICS_CA_ADDR_LIST``, ``EPICS_CA_AUTO_ADDR_LIST``, ``EPICS_CA_SERVER_PORT``,
``EPICS_CA_REPEATER_PORT``... Reads use DBR_TIME (value, timestamp, alarm) and a cached
DBR_CTRL read (units, precision, display/control/alarm limits, enum strings); writes use
put-with-callback (``WriteNotify``) unless ``verification="none"``; subscriptions are monitors.

Write outcomes (``base.WRITE_OUTCOMES``): a write refused before the put (no write access, out of
the control range, a payload caproto cannot encode) or refused by the server in its completion
is ``not_sent``. Once the put has left this process it is never ``not_sent``: a completion that
does not come in time, or a circuit that drops during the put, gets one short read of the
channel, ``verified`` when it shows the value (the completion was only late), ``in_doubt``
otherwise. After a completed put, an unreadable readback is ``readback_failed``.

Traps handled here: caproto keeps subscription callbacks as weak references, so each monitor
holds its callback in a ``_Monitor`` object stored on the connector; caproto runs plain-function
callbacks in a thread pool, so the monitor callback is a coroutine (run on the loop). caproto's
client ignores a server's put error (``ErrorResponse``), which then looks like a late
completion, so control limits are checked here before the put. When the circuit dies during a
put, caproto's ``PV.write`` raises ``KeyError('response')``, or returns None after its
reconnection attempts: both mean "sent, not confirmed", never "not sent".
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from caproto import (
    AccessRights,
    AlarmSeverity,
    AlarmStatus,
    CaprotoError,
    CaprotoTimeoutError,
    ChannelType,
)
from caproto.asyncio.client import PV, Context

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
        confirm_timeout: float = 1.0,
    ) -> None:
        self.timeout = timeout
        self.database = database
        self.default_tolerance = default_tolerance
        self.settle_timeout = settle_timeout
        self.poll_interval = poll_interval
        # the one read that decides between verified and in_doubt after an unconfirmed put
        self.confirm_timeout = confirm_timeout
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
        except (CaprotoError, OSError) as exc:
            raise _connection_lost(pv.name, "metadata read") from exc
        if response is None:  # caproto gave up after the circuit died during the read
            raise _connection_lost(pv.name, "metadata read")
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
        except (CaprotoError, OSError) as exc:
            raise _connection_lost(pv.name, "read") from exc
        if response is None:  # caproto gave up after the circuit died during the read
            raise _connection_lost(pv.name, "read")
        return self._to_value(pv, response)

    def _readback_name(self, name: str) -> str:
        return (self.database.readback_for(name) if self.database else None) or name

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

        def not_sent(message: str) -> ChannelWriteResult:
            return ChannelWriteResult.refused(pv.name, value, verification, message, self.clock())

        def show(shown: Any) -> str:
            return format_value(shown, static.precision, static.units)

        rights = pv.access_rights
        if rights is None or AccessRights.WRITE not in rights:
            return not_sent(f"'{pv.name}' does not grant write access to this client.")
        number = to_float(value)
        if static.control and number is not None:
            low, high = static.control
            if low != high and not low <= number <= high:
                return not_sent(
                    f"{number:g} is outside the control range of '{pv.name}' "
                    f"({low:g} to {high:g} {static.units}); nothing was written."
                )
        payload = value if isinstance(value, list | tuple) else [value]
        wait = verification != "none"
        put_timeout = timeout or self.timeout
        channel = pv.channel
        if channel is None:
            return not_sent(f"'{pv.name}' disconnected before the put; nothing was sent.")
        try:
            # Encode the request the put will send, so a payload caproto cannot encode is
            # refused here, where it is certain that nothing left this process.
            channel.write(payload, ioid=0, notify=wait)
        except Exception as exc:  # caproto raises plain ValueError/TypeError for bad payloads
            return not_sent(
                f"{value!r} cannot be written to '{pv.name}' ({exc}); nothing was sent."
            )
        trouble = ""
        try:
            response = await pv.write(payload, wait=wait, timeout=put_timeout)
        except (CaprotoTimeoutError, TimeoutError):
            trouble = f"the IOC did not confirm the put within {put_timeout:g} s"
        except Exception:  # KeyError('response'), network errors: the circuit died mid-put
            trouble = "the connection to the IOC dropped during the put"
        else:
            if wait and response is None:  # caproto gave up reconnecting during the put
                trouble = "the connection to the IOC kept dropping during the put"
        if trouble:
            return await self._check_unconfirmed_put(
                pv, value, number, verification, tol, show, trouble
            )
        if response is not None and not getattr(response.status, "success", 1):
            # an explicit refusal in the put completion: the server did not apply the value
            return not_sent(
                f"The server refused the write to '{pv.name}': {response.status.description}"
            )
        if verification != "readback" or number is None:
            return self.sent_result(pv.name, value, verification, show(value))
        return await self.readback_result(
            pv.name,
            value,
            number,
            self._readback_name(pv.name),
            tol,
            self.settle_timeout,
            show,
            self.poll_interval,
        )

    async def _check_unconfirmed_put(
        self,
        pv: PV,
        value: Any,
        number: float | None,
        verification: str,
        tolerance: float,
        show: Callable[[Any], str],
        trouble: str,
    ) -> ChannelWriteResult:
        """Decide between ``verified`` and ``in_doubt`` with one short read of the channel.

        The put may have reached the IOC, so this never answers ``not_sent``: reporting a
        write the IOC applied as "nothing written" invites the operator to write it again.
        """
        try:
            reading: ChannelValue | None = await self.read_channel(
                pv.name, timeout=self.confirm_timeout
            )
        except (ConnectorError, CaprotoError, TimeoutError, OSError) as exc:
            reading, seen = None, f"'{pv.name}' could not be read back ({exc})"
        else:
            seen = f"'{pv.name}' reads {show(reading.value)}"
        if reading is None or not _same_value(reading.value, value, number, tolerance):
            return ChannelWriteResult(
                channel=pv.name,
                outcome="in_doubt",
                value_written=value,
                readback=reading.value if reading is not None else None,
                readback_channel=pv.name,
                verification=verification,
                tolerance=tolerance if number is not None else None,
                message=f"Sent {show(value)} to {pv.name}, but {trouble}, and {seen}: the value "
                f"may or may not have been applied. Read {pv.name} before writing it again.",
                timestamp=self.clock(),
            )
        late = f"the put was applied although {trouble} (its completion was late)"
        if verification == "readback" and number is not None:
            result = await self.readback_result(
                pv.name,
                value,
                number,
                self._readback_name(pv.name),
                tolerance,
                self.settle_timeout,
                show,
                self.poll_interval,
            )
            return dataclasses.replace(result, message=f"{result.message} Note: {seen}, so {late}.")
        severity = reading.metadata.alarm_severity
        in_alarm = severity not in ("NO_ALARM", "", None)
        alarm = f", in {severity} alarm ({reading.metadata.alarm_status})" if in_alarm else ""
        return ChannelWriteResult(
            channel=pv.name,
            outcome="verified_with_alarm" if in_alarm else "verified",
            value_written=value,
            readback=reading.value,
            readback_channel=pv.name,
            verified=True,
            verification=verification,
            tolerance=tolerance if number is not None else None,
            message=f"Wrote {show(value)} to {pv.name}; {seen}{alarm}, so {late}.",
            timestamp=self.clock(),
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


def _connection_lost(name: str, action: str) -> ChannelAccessError:
    return ChannelAccessError(
        name,
        f"The connection to the IOC serving '{name}' dropped during the {action}; check that "
        "the IOC is running and try again.",
    )


def _same_value(read: Any, written: Any, number: float | None, tolerance: float) -> bool:
    """Whether a reading shows the written value (within ``tolerance`` for numbers)."""
    if number is not None:
        got = to_float(read)
        return got is not None and abs(got - number) <= tolerance
    if isinstance(written, list | tuple):
        return isinstance(read, list | tuple) and list(read) == list(written)
    return read == written


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
