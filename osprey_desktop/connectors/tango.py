"""``TangoControlSystemConnector``: Tango attributes through PyTango.

A channel is one attribute, named ``tango://host:port/domain/family/member/attribute`` (PyDM's
and Taurus's convention; ``host:port`` is the Tango database, else ``TANGO_HOST``), or
``domain/family/member/attribute``. A device server without a database is reached with
``#dbase=no`` after the name, as Tango writes it.

What an operator sees is the same as over EPICS:

- **quality → alarm severity**: ``ATTR_VALID`` is NO_ALARM, ``ATTR_WARNING`` MINOR,
  ``ATTR_ALARM`` MAJOR, ``ATTR_INVALID`` INVALID (the value is then not to be trusted);
  ``ATTR_CHANGING`` is NO_ALARM with the status CHANGING;
- **units, precision, description, limits** from the attribute configuration (``unit``,
  ``format`` such as ``%.3f``, ``description``, ``min_value``/``max_value`` as the control
  range, ``min_alarm``/``min_warning``/``max_warning``/``max_alarm``), read once per attribute;
- **every type**: numbers, integers, booleans, strings, ``DevEnum`` (read as its label,
  written by label or index), spectra (arrays, summarised).

A write is checked like an EPICS write (``write_support.prepare_write``: states, the control
range), then sent with ``write_attribute``. Tango keeps the set value of a writable attribute
(``w_value``) apart from what it reads: a set value that differs from the one sent is reported
as ``clamped`` (``verification_failed``), and readback verification waits for the read value
(or the readback the channel list pairs it with) to reach the target. A write the device
refuses (``DevFailed``, e.g. above ``max_value``) is ``not_sent``; one that times out is
decided by one more read (``verified`` or ``in_doubt``), never reported as not written.

PyTango's client calls block, so each runs in a worker thread; the event loop stays free.
Subscriptions poll the attribute (``poll_interval``) and call back on every new reading:
Tango's change events need polling or pushing configured in the device server, which a
facility's servers may not have.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import math
import re
import time
from dataclasses import dataclass
from typing import Any

from osprey_desktop.channels.addresses import parse_address
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
from osprey_desktop.connectors.values import enum_state, same_value
from osprey_desktop.connectors.write_support import (
    NetworkConnector,
    PreparedWrite,
    WriteRefused,
    prepare_write,
    unconfirmed_put_result,
)

_QUALITY_SEVERITY = {
    "ATTR_VALID": ("NO_ALARM", "NO_ALARM"),
    "ATTR_WARNING": ("MINOR", "WARNING"),
    "ATTR_ALARM": ("MAJOR", "ALARM"),
    "ATTR_INVALID": ("INVALID", "INVALID"),
    "ATTR_CHANGING": ("NO_ALARM", "CHANGING"),
}
#: What Tango puts in an attribute property nobody set.
_UNSET = {"", "not specified", "no description", "no unit", "no display unit", "no standard unit"}
_PRECISION_IN_FORMAT = re.compile(r"%[-+ #0]*\d*\.(\d+)")
#: DevFailed reasons that mean "there is no such device or attribute" rather than a failure.
_NOT_FOUND_REASONS = (
    "API_AttrNotFound",
    "API_DeviceNotExported",
    "API_DeviceNotDefined",
    "API_CantConnectToDevice",
    "API_CantConnectToDatabase",
    "API_WrongDeviceNameSyntax",
    "DB_DeviceNotDefined",
)
_TIMEOUT_REASONS = ("API_DeviceTimedOut", "API_CorbaException")


@dataclass(frozen=True)
class TangoName:
    """A Tango attribute split for PyTango: the device to connect to and the attribute."""

    device: str  # "tango://host:port/d/f/m#dbase=no" or "d/f/m"
    attribute: str

    @classmethod
    def parse(cls, name: str) -> TangoName:
        address = parse_address(name)
        if address.protocol not in (None, "tango"):
            raise ChannelNotFoundError(name, f"'{name}' is not a Tango attribute name.")
        path, _, options = address.name.partition("#")
        parts = [p for p in path.split("/") if p]
        host = parts.pop(0) if len(parts) == 5 and ":" in parts[0] else None
        if len(parts) != 4:
            raise ChannelNotFoundError(
                name,
                f"'{name}' is not a Tango attribute name: write "
                "tango://host:port/domain/family/member/attribute (or "
                "domain/family/member/attribute with TANGO_HOST set).",
            )
        device = "/".join(parts[:3])
        if host is not None:
            device = f"tango://{host}/{device}"
        if options:
            device = f"{device}#{options}"
        return cls(device=device, attribute=parts[3])


@dataclass(frozen=True)
class _Config:
    units: str
    precision: int | None
    description: str
    control: tuple[float, float] | None
    alarm: dict[str, float] | None
    writable: bool
    kind: str
    enum_labels: tuple[str, ...] | None


class TangoControlSystemConnector(NetworkConnector):
    """Tango client over PyTango's blocking ``DeviceProxy``, each call in a worker thread."""

    kind = "tango"

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._proxies: dict[str, Any] = {}
        self._configs: dict[str, _Config] = {}
        self._open = False
        self._pollers: dict[str, asyncio.Task[None]] = {}
        self._ids = itertools.count(1)

    async def connect(self) -> None:
        self._open = True  # proxies are made on first use of each device

    @property
    def connected(self) -> bool:
        return self._open

    async def disconnect(self) -> None:
        for sub_id in list(self._pollers):
            await self.unsubscribe(sub_id)
        self._open = False
        self._proxies.clear()
        self._configs.clear()

    # ----- PyTango calls -------------------------------------------------------------------
    def _split(self, name: str) -> TangoName:
        if not isinstance(name, str) or not name.strip():
            raise ChannelNotFoundError(str(name), "A channel name is needed; got an empty one.")
        if not self._open:
            raise ChannelAccessError(
                name, f"The Tango connector is disconnected; cannot access '{name}'."
            )
        return TangoName.parse(name)

    async def _call(self, name: str, action: str, timeout: float | None, fn: Any) -> Any:
        """Run ``fn`` in a thread; PyTango's errors become connector errors naming ``name``."""
        import tango

        wait = self.timeout if timeout is None else timeout
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn), wait + 1.0)
        except TimeoutError as exc:
            raise ChannelAccessError(
                name, f"'{name}' did not answer the {action} within {wait:g} s; try again."
            ) from exc
        except tango.DevFailed as exc:
            raise _tango_error(name, action, exc) from exc

    async def _proxy(self, name: str, parsed: TangoName, timeout: float | None) -> Any:
        proxy = self._proxies.get(parsed.device)
        if proxy is None:
            import tango

            wait_ms = int(1000 * (self.timeout if timeout is None else timeout))

            def build() -> Any:
                device = tango.DeviceProxy(parsed.device)
                device.set_timeout_millis(max(wait_ms, 1))
                return device

            proxy = await self._call(name, "connection", timeout, build)
            self._proxies[parsed.device] = proxy
        return proxy

    async def _config(
        self, name: str, proxy: Any, attribute: str, timeout: float | None
    ) -> _Config:
        key = f"{proxy.dev_name()}/{attribute}".casefold()
        cached = self._configs.get(key)
        if cached is None:
            info = await self._call(
                name,
                "configuration read",
                timeout,
                lambda: proxy.get_attribute_config_ex(attribute)[0],
            )
            cached = _config_of(info)
            self._configs[key] = cached
        return cached

    # ----- reads ---------------------------------------------------------------------------
    async def _read(self, name: str, timeout: float | None) -> tuple[ChannelValue, Any, _Config]:
        parsed = self._split(name)
        proxy = await self._proxy(name, parsed, timeout)
        config = await self._config(name, proxy, parsed.attribute, timeout)
        raw = await self._call(
            name, "read", timeout, lambda: proxy.read_attribute(parsed.attribute)
        )
        return self._to_value(name.strip(), raw, config), raw, config

    async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
        return (await self._read(name, timeout))[0]

    def _to_value(self, name: str, raw: Any, config: _Config) -> ChannelValue:
        value = _decode(raw.value, config)
        quality = getattr(raw.quality, "name", str(raw.quality))
        severity, status = _QUALITY_SEVERITY.get(quality, ("INVALID", quality))
        stamp = raw.time.totime() if getattr(raw, "time", None) is not None else time.time()
        record = self.database.get(name) if self.database is not None else None
        metadata = ChannelMetadata(
            name=name,
            units=config.units or (record.units if record else ""),
            precision=config.precision
            if config.precision is not None
            else (record.precision if record else None),
            description=config.description or (record.description if record else ""),
            alarm_status=status,
            alarm_severity=severity,
            control_limits=config.control,
            display_limits=config.control,
            alarm_limits=config.alarm,
            writable=config.writable and (record.writable if record else True),
            enum_strings=config.enum_labels,
            native_type=config.kind,
            element_count=len(value) if isinstance(value, list) else 1,
        )
        return ChannelValue(name=name, value=value, timestamp=float(stamp), metadata=metadata)

    # ----- writes --------------------------------------------------------------------------
    async def write_channel(
        self,
        name: str,
        value: Any,
        verification: Verification = "readback",
        tolerance: float | None = None,
        timeout: float | None = None,
    ) -> ChannelWriteResult:
        import tango

        check_verification(verification)
        current = await self.read_channel(name, timeout)
        channel, md = current.name, current.metadata
        parsed = TangoName.parse(channel)
        proxy = await self._proxy(channel, parsed, timeout)
        tol = self.default_tolerance if tolerance is None else float(tolerance)

        def not_sent(message: str) -> ChannelWriteResult:
            return ChannelWriteResult.refused(channel, value, verification, message, self.clock())

        def show(shown: Any) -> str:
            return format_value(shown, md.precision, md.units)

        if not md.writable:
            return not_sent(f"'{channel}' is a read-only Tango attribute; nothing was sent.")
        try:
            prepared = prepare_write(
                channel, value, md.native_type, md.enum_strings, md.control_limits, md.units
            )
        except WriteRefused as exc:
            return not_sent(str(exc))
        payload = prepared.payload
        if md.native_type == "boolean":
            payload = bool(prepared.number)
        wait = self.timeout if timeout is None else timeout
        trouble = ""
        try:
            await asyncio.wait_for(
                asyncio.to_thread(proxy.write_attribute, parsed.attribute, payload), wait + 1.0
            )
        except TimeoutError:
            trouble = f"the device did not confirm the write within {wait:g} s"
        except tango.DevFailed as exc:
            reason = _reason(exc)
            if reason in _TIMEOUT_REASONS:
                trouble = f"the device did not confirm the write ({reason})"
            else:
                return not_sent(f"The device refused the write to '{channel}': {_desc(exc)}")
        except (TypeError, ValueError) as exc:
            return not_sent(
                f"{value!r} cannot be written to '{channel}' ({exc}); nothing was sent."
            )
        readback = self._readback_name(channel)
        if trouble:
            return await unconfirmed_put_result(
                self,
                channel,
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
        return await self._written(channel, prepared, verification, tol, show, readback, md)

    async def _written(
        self,
        channel: str,
        prepared: PreparedWrite,
        verification: str,
        tolerance: float,
        show: Any,
        readback: str,
        md: ChannelMetadata,
    ) -> ChannelWriteResult:
        """Judge a write the device accepted: its set value first, then the readback."""
        value = prepared.value
        if verification == "none":
            return _sent(self.sent_result(channel, value, verification, show(value)), prepared)
        try:
            _, raw, config = await self._read(channel, self.confirm_timeout)
            applied = _decode(raw.w_value, config)
        except (ChannelAccessError, ChannelNotFoundError):
            applied = None
        if applied is not None and not same_value(
            applied, prepared.value, prepared.number, tolerance
        ):
            limits = md.control_limits
            span = f" ({limits[0]:g} to {limits[1]:g})" if limits else ""
            return ChannelWriteResult(
                channel=channel,
                outcome="verification_failed",
                value_written=value,
                readback=applied,
                readback_channel=channel,
                verification=verification,
                tolerance=tolerance if prepared.number is not None else None,
                message=f"Wrote {show(value)} to {channel}, but the device set {show(applied)} "
                f"instead{span}; check the device before writing again.",
                timestamp=self.clock(),
                value_sent=prepared.sent,
                clamped=True,
            )
        if verification == "callback":
            return _sent(self.sent_result(channel, value, verification, show(value)), prepared)
        if prepared.number is None:
            reading = await self.read_channel(readback)
            ok = same_value(reading.value, value, None, tolerance)
            result = ChannelWriteResult(
                channel=channel,
                outcome="verified" if ok else "verification_failed",
                value_written=value,
                readback=reading.value,
                readback_channel=readback,
                verified=ok,
                verification="readback",
                message=f"Wrote {show(value)} to {channel}; {readback} reads "
                f"{show(reading.value)}.",
                timestamp=self.clock(),
            )
            return _sent(result, prepared)
        result = await self.readback_result(
            channel,
            value,
            prepared.number,
            readback,
            tolerance,
            self.settle_timeout,
            show,
            self.poll_interval,
        )
        return _sent(result, prepared)

    # ----- subscriptions (polled) ----------------------------------------------------------
    async def subscribe(self, name: str, callback: ValueCallback) -> str:
        first = await self.read_channel(name)  # fail now for an attribute nobody serves
        sub_id = f"tango-{next(self._ids)}"

        async def poll() -> None:
            last = (first.timestamp, repr(first.value), first.alarm_severity)
            await call_value_callback(callback, first)
            while True:
                await asyncio.sleep(max(self.poll_interval, 0.05))
                try:
                    reading = await self.read_channel(name)
                except (ChannelAccessError, ChannelNotFoundError):
                    continue
                seen = (reading.timestamp, repr(reading.value), reading.alarm_severity)
                if seen != last:
                    last = seen
                    await call_value_callback(callback, reading)

        self._pollers[sub_id] = asyncio.get_running_loop().create_task(poll())
        return sub_id

    async def unsubscribe(self, subscription_id: str) -> None:
        task = self._pollers.pop(subscription_id, None)
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def _sent(result: ChannelWriteResult, prepared: PreparedWrite) -> ChannelWriteResult:
    if prepared.sent is None:
        return result
    return dataclasses.replace(result, value_sent=prepared.sent)


def _config_of(info: Any) -> _Config:
    import tango

    fmt = str(getattr(info, "data_format", ""))
    dtype = info.data_type
    labels = tuple(str(x) for x in (getattr(info, "enum_labels", None) or ()))
    if fmt.endswith("SPECTRUM") or fmt.endswith("IMAGE"):
        kind = "waveform"
    elif dtype == tango.CmdArgType.DevEnum or labels:
        kind = "enum"
    elif dtype == tango.CmdArgType.DevString:
        kind = "string"
    elif dtype == tango.CmdArgType.DevBoolean:
        kind = "boolean"
    elif dtype in (tango.CmdArgType.DevFloat, tango.CmdArgType.DevDouble):
        kind = "number"
    elif dtype == tango.CmdArgType.DevState:
        kind = "string"
    else:
        kind = "integer"
    writable = str(info.writable).split(".")[-1] != "READ"
    alarms = getattr(info, "alarms", None)
    alarm = {
        key: number
        for key, field in (
            ("lolo", "min_alarm"),
            ("low", "min_warning"),
            ("high", "max_warning"),
            ("hihi", "max_alarm"),
        )
        if (number := _number(getattr(alarms, field, None))) is not None
    }
    low, high = _number(info.min_value), _number(info.max_value)
    found = _PRECISION_IN_FORMAT.search(str(info.format or ""))
    return _Config(
        units=_text(info.unit),
        precision=int(found.group(1)) if found else None,
        description=_text(info.description),
        control=(low, high) if low is not None and high is not None else None,
        alarm=alarm or None,
        writable=writable,
        kind=kind,
        enum_labels=labels or None,
    )


def _decode(value: Any, config: _Config | None) -> Any:
    if config is not None and config.kind == "enum" and value is not None:
        with contextlib.suppress(TypeError, ValueError):
            return enum_state(config.enum_labels or (), int(value))
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, tuple):
        return list(value)
    if config is not None and config.kind == "string" and not isinstance(value, str):
        return str(value)
    return value


def _text(value: Any) -> str:
    text = str(value or "").strip()
    return "" if text.casefold() in _UNSET else text


def _number(value: Any) -> float | None:
    try:
        number = float(str(value))
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _reason(exc: Any) -> str:
    try:
        return str(exc.args[0].reason)
    except (AttributeError, IndexError):
        return ""


def _desc(exc: Any) -> str:
    try:
        return " ".join(str(exc.args[0].desc).split())
    except (AttributeError, IndexError):
        return str(exc)


def _tango_error(name: str, action: str, exc: Any) -> Exception:
    reason = _reason(exc)
    if any(reason.startswith(r) for r in _NOT_FOUND_REASONS):
        return ChannelNotFoundError(
            name,
            f"No Tango device server answered for '{name}' ({reason}: {_desc(exc)}). Check the "
            "name, that the device server runs, and TANGO_HOST or the host:port in the name.",
        )
    return ChannelAccessError(name, f"The Tango {action} of '{name}' failed: {_desc(exc)}")


__all__ = ["TangoControlSystemConnector", "TangoName"]
