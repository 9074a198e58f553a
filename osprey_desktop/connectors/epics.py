"""``EpicsControlSystemConnector``: EPICS Channel Access through caproto's asyncio client.

Pure Python (no libca). The network comes from the usual environment, passed through untouched:
``EPICS_CA_ADDR_LIST``, ``EPICS_CA_AUTO_ADDR_LIST``, ``EPICS_CA_SERVER_PORT``,
``EPICS_CA_REPEATER_PORT``... Reads use DBR_TIME (value, timestamp, alarm) and a cached
DBR_CTRL read (units, precision, display/control/alarm limits, enum strings); writes use
put-with-callback (``WriteNotify``) unless ``verification="none"``; subscriptions are monitors.

Every native type: numbers, integers, enums (read as ``EnumState`` names, written by name or
index: the wire gets the index), strings (a CHAR array is read as text, the EPICS long-string
convention) and arrays (kept as lists). What the channel database does not say comes from the
IOC: units, precision and limits from DBR_CTRL, the description from the record's ``.DESC``
field (asked once, briefly, and only when the channel database has no description). A name may
carry the ``ca://`` prefix of PyDM's convention.

Write outcomes (``base.WRITE_OUTCOMES``): a write refused before the put (no write access, out of
the control range, a payload caproto cannot encode) or refused by the server in its completion
is ``not_sent``. Once the put has left this process it is never ``not_sent``: a completion that
does not come in time, or a circuit that drops during the put, gets one short read of the
channel, ``verified`` when it shows the value (the completion was only late), ``in_doubt``
otherwise. After a completed put, the channel is read once: a record that applied another value
(it clamps puts to its drive limits) gives ``verification_failed`` with ``clamped=True``; then an
unreadable readback is ``readback_failed`` (see ``write_support``).

Traps handled here: caproto keeps subscription callbacks as weak references, so each monitor
holds its callback in a ``_Monitor`` object stored on the connector; caproto runs plain-function
callbacks in a thread pool, so the monitor callback is a coroutine (run on the loop). caproto's
client ignores a server's put error (``ErrorResponse``), which then looks like a late
completion, so control limits are checked here before the put. When the circuit dies during a
put, caproto's ``PV.write`` raises ``KeyError('response')``, or returns None after its
reconnection attempts: both mean "sent, not confirmed", never "not sent".
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
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
    ValueCallback,
    Verification,
    call_value_callback,
    check_verification,
    format_value,
)
from osprey_desktop.connectors.values import enum_state
from osprey_desktop.connectors.write_support import (
    NetworkConnector,
    WriteRefused,
    completed_put_result,
    prepare_write,
    unconfirmed_put_result,
)

#: PyDM's protocol prefix for Channel Access names; stripped before the search.
CA_PREFIX = "ca://"
_ENUM_TYPES = (ChannelType.ENUM,)
_TEXT_TYPES = (ChannelType.STRING, ChannelType.CHAR)
_INTEGER_TYPES = (ChannelType.INT, ChannelType.LONG)

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


def _char_text(data: Any) -> str:
    """A CHAR array as the string it holds (up to the first NUL)."""
    raw = bytes(int(b) & 0xFF for b in data)
    return raw.split(b"\0", 1)[0].decode("latin-1")


def _kind_of(native: ChannelType, count: int) -> str:
    """The value kind (``values.ValueKind``) of a channel's native type and element count."""
    if native in _ENUM_TYPES:
        return "enum"
    if native in _TEXT_TYPES:
        return "string" if native == ChannelType.CHAR or count <= 1 else "waveform"
    if count > 1:
        return "waveform"
    return "integer" if native in _INTEGER_TYPES else "number"


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
    kind: str
    count: int
    description: str = ""


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


class EpicsControlSystemConnector(NetworkConnector):
    """Channel Access client; one per event loop (caproto contexts are loop-bound)."""

    kind = "epics"

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._context: Context | None = None
        self._open = False
        self._static: dict[str, _Static] = {}
        self._descriptions: dict[str, str] = {}
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
        self._descriptions.clear()
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
        bare = name.strip()
        if bare.lower().startswith(CA_PREFIX):
            bare = bare[len(CA_PREFIX) :]
        (pv,) = await self._get_context().get_pvs(bare, timeout=wait)
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
        native = pv.channel.native_data_type
        count = int(pv.channel.native_data_count or 1)
        static = _Static(
            units=_text(getattr(md, "units", b"")),
            precision=getattr(md, "precision", None),
            display=_pair(md, "lower_disp_limit", "upper_disp_limit"),
            control=_pair(md, "lower_ctrl_limit", "upper_ctrl_limit"),
            alarm=_alarm_limits(md),
            enum_strings=(
                tuple(_text(s) for s in md.enum_strings) if hasattr(md, "enum_strings") else None
            ),
            native_type=native,
            kind=_kind_of(native, count),
            count=count,
            description=await self._description_of(pv.name),
        )
        self._static[pv.name] = static
        return static

    async def _description_of(self, name: str) -> str:
        """The channel database's description, else the record's ``.DESC`` (asked once).

        An IOC that serves no fields (a bare caproto or PVA-gateway name) simply does not
        answer: after a short wait the channel has no description, without an error.
        """
        record = self.database.get(name) if self.database is not None else None
        if record is not None and record.description:
            return record.description
        if "." in name.rsplit(":", 1)[-1]:
            return ""  # a field has no description of its own
        if name in self._descriptions:
            return self._descriptions[name]
        wait = min(self.timeout, 0.5)
        text = ""
        with contextlib.suppress(CaprotoError, TimeoutError, OSError, asyncio.TimeoutError):
            (desc,) = await self._get_context().get_pvs(f"{name}.DESC", timeout=wait)
            await desc.wait_for_connection(timeout=wait)
            response = await desc.read(timeout=wait)
            if response is not None and len(response.data):
                text = _text(response.data[0]).strip()
        self._descriptions[name] = text
        return text

    def _metadata(self, pv: PV, status: str, severity: str) -> ChannelMetadata:
        static = self._static.get(pv.name)
        record = self.database.get(pv.name) if self.database is not None else None
        rights = pv.access_rights
        writable = bool(rights is not None and AccessRights.WRITE in rights)
        return ChannelMetadata(
            name=pv.name,
            units=static.units if static else (record.units if record else ""),
            precision=static.precision if static else (record.precision if record else None),
            description=static.description if static else (record.description if record else ""),
            alarm_status=status,
            alarm_severity=severity,
            display_limits=static.display if static else None,
            control_limits=static.control if static else None,
            alarm_limits=static.alarm if static else None,
            writable=writable and (record.writable if record else True),
            enum_strings=static.enum_strings if static else None,
            native_type=static.kind if static else None,
            element_count=static.count if static else None,
        )

    def _to_value(self, pv: PV, response: Any) -> ChannelValue:
        md = response.metadata
        data = response.data
        static = self._static.get(pv.name)
        kind = static.kind if static is not None else _kind_of(pv.channel.native_data_type, 1)
        value: Any
        if kind == "enum":
            index = int(data[0]) if len(data) else 0
            value = enum_state(static.enum_strings or () if static else (), index)
        elif kind == "string":
            native = static.native_type if static is not None else None
            value = _char_text(data) if native == ChannelType.CHAR else _text(data[0])
        elif kind == "waveform":
            items = data.tolist() if hasattr(data, "tolist") else list(data)
            value = [_text(v) if isinstance(v, bytes) else v for v in items]
        elif len(data) == 1:
            value = data[0].item() if hasattr(data[0], "item") else data[0]
        else:  # an array channel that has one element today
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
        try:
            prepared = prepare_write(
                pv.name, value, static.kind, static.enum_strings, static.control, static.units
            )
        except WriteRefused as exc:
            return not_sent(str(exc))
        payload = prepared.payload
        if not isinstance(payload, list | tuple):
            payload = [payload]
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
        readback = self._readback_name(pv.name)
        if trouble:
            return await unconfirmed_put_result(
                self,
                pv.name,
                prepared,
                verification,
                tol,
                show,
                trouble,
                readback,
                self.settle_timeout,
                self.poll_interval,
                self.confirm_timeout,
            )
        if response is not None and not getattr(response.status, "success", 1):
            # an explicit refusal in the put completion: the server did not apply the value
            return not_sent(
                f"The server refused the write to '{pv.name}': {response.status.description}"
            )
        return await completed_put_result(
            self,
            pv.name,
            prepared,
            verification,
            tol,
            show,
            readback,
            self.settle_timeout,
            self.poll_interval,
            self.confirm_timeout,
            static.control,
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
