"""``PvaControlSystemConnector``: EPICS PV Access through p4p's asyncio client.

p4p brings its own pvxs build (no EPICS installation). The network comes from the usual
environment, passed through untouched: ``EPICS_PVA_ADDR_LIST``, ``EPICS_PVA_AUTO_ADDR_LIST``,
``EPICS_PVA_BROADCAST_PORT``... A name may carry the ``pva://`` prefix of PyDM's convention.

Normative types are read as the same ``ChannelValue`` as Channel Access: NTScalar numbers,
integers and strings, NTScalarArray arrays (as lists), NTEnum states (``EnumState`` names).
Every read brings its metadata (units, precision, description, display and control limits,
``valueAlarm`` limits), so there is no metadata cache. Writes check the value the same way as
over CA (``write_support``: an enum by name or index, the control range), put with
``wait=True`` (the server's processing completes first), then read the channel once to catch a
clamp, then verify the readback as asked. Subscriptions are monitors.

PV Access has no search failure: a name nobody serves just never answers, so a read that
times out is reported as "not found", naming ``EPICS_PVA_ADDR_LIST``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import os
import re
import time
from typing import Any

from osprey_desktop.connectors.base import (
    ALARM_SEVERITIES,
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

#: PyDM's protocol prefix for PV Access names; stripped before the request.
PVA_PREFIX = "pva://"
#: PV Access alarm status codes (``alarm.status``); the record's own words are in ``message``.
_PVA_STATUS = ("NO_ALARM", "DEVICE", "DRIVER", "RECORD", "DB", "CONF", "UNDEFINED", "CLIENT")
_PRECISION_IN_FORMAT = re.compile(r"%\.?(\d+)")


def bare_pva_name(name: str) -> str:
    text = name.strip()
    return text[len(PVA_PREFIX) :] if text.lower().startswith(PVA_PREFIX) else text


class PvaControlSystemConnector(NetworkConnector):
    """PV Access client; one per event loop (p4p answers through the loop it was used on)."""

    kind = "pva"

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._context: Any = None
        self._open = False
        self._monitors: dict[str, Any] = {}
        self._ids = itertools.count(1)

    async def connect(self) -> None:
        self._open = True  # the p4p context is made on first use

    @property
    def connected(self) -> bool:
        return self._open

    def _get_context(self) -> Any:
        if self._context is None:
            from p4p.client.asyncio import Context

            self._context = Context("pva", nt=False)  # raw Values: every field, decoded here
        return self._context

    async def disconnect(self) -> None:
        for sub_id in list(self._monitors):
            await self.unsubscribe(sub_id)
        context, self._context = self._context, None
        self._open = False
        if context is not None:
            context.close()

    # ----- reads ---------------------------------------------------------------------------
    def _name(self, name: str) -> str:
        if not isinstance(name, str) or not name.strip():
            raise ChannelNotFoundError(str(name), "A channel name is needed; got an empty one.")
        bare = bare_pva_name(name)
        if not self._open:
            raise ChannelAccessError(
                bare, f"The PV Access connector is disconnected; cannot access '{bare}'."
            )
        return bare

    async def _get(self, name: str, timeout: float | None) -> Any:
        from p4p.client.raw import Disconnected, RemoteError

        wait = self.timeout if timeout is None else timeout
        try:
            return await asyncio.wait_for(self._get_context().get(name), wait)
        except TimeoutError as exc:
            addr = os.environ.get("EPICS_PVA_ADDR_LIST", "<unset: broadcast>")
            raise ChannelNotFoundError(
                name,
                f"No PV Access server answered for '{name}' within {wait:g} s. Check the name, "
                f"that the server is running, and EPICS_PVA_ADDR_LIST (now {addr}).",
            ) from exc
        except RemoteError as exc:
            raise ChannelAccessError(name, f"The server refused to read '{name}': {exc}") from exc
        except Disconnected as exc:
            raise ChannelAccessError(
                name, f"The server of '{name}' disconnected during the read; try again."
            ) from exc

    async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
        bare = self._name(name)
        return self._to_value(bare, await self._get(bare, timeout))

    def _to_value(self, name: str, raw: Any) -> ChannelValue:
        if "value" not in raw:
            raise ChannelAccessError(
                name, f"'{name}' serves a {raw.getID()} without a 'value' field; not supported."
            )
        value = _decode_value(raw)
        seconds = _field(raw, "timeStamp.secondsPastEpoch", 0) or 0
        nanos = _field(raw, "timeStamp.nanoseconds", 0) or 0
        stamp = float(seconds) + float(nanos) * 1e-9 if seconds else time.time()
        return ChannelValue(
            name=name, value=value, timestamp=stamp, metadata=self._metadata(name, raw, value)
        )

    def _metadata(self, name: str, raw: Any, value: Any) -> ChannelMetadata:
        record = self.database.get(name) if self.database is not None else None
        severity_code = int(_field(raw, "alarm.severity", 0) or 0)
        severity = ALARM_SEVERITIES[severity_code] if 0 <= severity_code < 4 else "INVALID"
        message = str(_field(raw, "alarm.message", "") or "")
        status_code = int(_field(raw, "alarm.status", 0) or 0)
        status = message or (_PVA_STATUS[status_code] if status_code < len(_PVA_STATUS) else "")
        if severity == "NO_ALARM" and not message:
            status = "NO_ALARM"
        units = str(_field(raw, "display.units", "") or "") or (record.units if record else "")
        description = str(_field(raw, "display.description", "") or "")
        precision = _precision(raw)
        if precision is None and record is not None:
            precision = record.precision
        enum = _field(raw, "value.choices", None)
        kind = "enum" if enum is not None else _kind_of(raw)
        return ChannelMetadata(
            name=name,
            units=units,
            precision=precision,
            description=description or (record.description if record else ""),
            alarm_status=status,
            alarm_severity=severity,
            display_limits=_limits(raw, "display"),
            control_limits=_limits(raw, "control"),
            alarm_limits=_alarm_limits(raw),
            writable=None if record is None else record.writable,
            enum_strings=tuple(str(c) for c in enum) if enum is not None else None,
            native_type=kind,
            element_count=len(value) if isinstance(value, list) else 1,
        )

    # ----- writes --------------------------------------------------------------------------
    async def write_channel(
        self,
        name: str,
        value: Any,
        verification: Verification = "readback",
        tolerance: float | None = None,
        timeout: float | None = None,
    ) -> ChannelWriteResult:
        from p4p.client.raw import Disconnected, RemoteError

        check_verification(verification)
        bare = self._name(name)
        current = await self.read_channel(bare, timeout)  # the type, states and limits now
        md = current.metadata
        tol = self.default_tolerance if tolerance is None else float(tolerance)

        def not_sent(message: str) -> ChannelWriteResult:
            return ChannelWriteResult.refused(bare, value, verification, message, self.clock())

        def show(shown: Any) -> str:
            return format_value(shown, md.precision, md.units)

        if md.writable is False:
            return not_sent(f"'{bare}' is read-only in the channel database; nothing was sent.")
        try:
            prepared = prepare_write(
                bare, value, md.native_type, md.enum_strings, md.control_limits, md.units
            )
        except WriteRefused as exc:
            return not_sent(str(exc))
        payload: Any = prepared.payload
        if md.native_type == "enum":
            payload = {"value.index": int(prepared.payload)}
        put_timeout = timeout or self.timeout
        put = self._get_context().put(bare, payload, wait=verification != "none")
        trouble = ""
        try:
            await asyncio.wait_for(put, put_timeout)
        except TimeoutError:
            trouble = f"the server did not confirm the put within {put_timeout:g} s"
        except RemoteError as exc:
            return not_sent(f"The server refused the write to '{bare}': {exc}")
        except Disconnected:
            trouble = "the connection to the server dropped during the put"
        except (ValueError, TypeError, KeyError) as exc:  # p4p could not build the request
            return not_sent(f"{value!r} cannot be written to '{bare}' ({exc}); nothing was sent.")
        readback = self._readback_name(bare)
        if trouble:
            return await unconfirmed_put_result(
                self,
                bare,
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
        return await completed_put_result(
            self,
            bare,
            prepared,
            verification,
            tol,
            show,
            readback,
            self.settle_timeout,
            self.poll_interval,
            self.confirm_timeout,
            md.control_limits,
        )

    # ----- monitors ------------------------------------------------------------------------
    async def subscribe(self, name: str, callback: ValueCallback) -> str:
        bare = self._name(name)
        await self._get(bare, None)  # fail now for a name nobody serves, as CA does

        async def on_update(raw: Any) -> None:
            if isinstance(raw, Exception):
                return
            await call_value_callback(callback, self._to_value(bare, raw))

        subscription = self._get_context().monitor(bare, on_update)
        sub_id = f"pva-{next(self._ids)}"
        self._monitors[sub_id] = subscription
        return sub_id

    async def unsubscribe(self, subscription_id: str) -> None:
        subscription = self._monitors.pop(subscription_id, None)
        if subscription is None:
            return
        subscription.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(subscription.wait_closed(), 1.0)


def _field(raw: Any, path: str, default: Any) -> Any:
    """A sub-field of a p4p Value, or ``default`` when the structure lacks it."""
    node = raw
    for part in path.split("."):
        try:
            if part not in node:
                return default
            node = node[part]
        except (KeyError, TypeError, AttributeError):
            return default
    return node


def _decode_value(raw: Any) -> Any:
    choices = _field(raw, "value.choices", None)
    if choices is not None:
        return enum_state([str(c) for c in choices], int(_field(raw, "value.index", 0)))
    value = raw["value"]
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, list | tuple):
        return list(value)
    return value


def _kind_of(raw: Any) -> str:
    value = raw["value"]
    if isinstance(value, str):
        return "string"
    if hasattr(value, "tolist") or isinstance(value, list | tuple):
        return "waveform"
    if isinstance(value, bool | int):
        return "integer"
    return "number"


def _precision(raw: Any) -> int | None:
    precision = _field(raw, "display.precision", None)
    if precision is not None:
        return int(precision)
    form = str(_field(raw, "display.format", "") or "")
    found = _PRECISION_IN_FORMAT.search(form)
    return int(found.group(1)) if found else None


def _limits(raw: Any, section: str) -> tuple[float, float] | None:
    low = _field(raw, f"{section}.limitLow", None)
    high = _field(raw, f"{section}.limitHigh", None)
    if low is None or high is None:
        return None
    low, high = float(low), float(high)
    if low == high == 0.0 or not (math.isfinite(low) and math.isfinite(high)):
        return None
    return low, high


def _alarm_limits(raw: Any) -> dict[str, float] | None:
    if "valueAlarm" not in raw:
        return None
    fields = {
        "lolo": "lowAlarmLimit",
        "low": "lowWarningLimit",
        "high": "highWarningLimit",
        "hihi": "highAlarmLimit",
    }
    out: dict[str, float] = {}
    for key, name in fields.items():
        number = _field(raw, f"valueAlarm.{name}", None)
        if number is not None and math.isfinite(float(number)):
            out[key] = float(number)
    return out if any(out.values()) else None


__all__ = ["PVA_PREFIX", "PvaControlSystemConnector", "bare_pva_name"]
