"""The connector contract every control system implements, and the errors of every connector.

Capabilities talk to the machine only through ``ControlSystemConnector`` (here) and
``ArchiverConnector`` (``archiver_base``), so the simulated machine, EPICS Channel Access and the
Archiver Appliance are interchangeable. The write-result helpers (``sent_result``,
``readback_result``, ``ChannelWriteResult.refused``) live on the base class so a write reads
the same on every backend. Every result type
is a small dataclass with ``to_dict()`` returning plain JSON-able values, because results end
up in the agent state (which is checkpointed as JSON).

Errors
    ``ConnectorError`` is the root. ``ChannelNotFoundError`` (unknown or unreachable channel),
    ``ChannelAccessError`` (the channel exists but the operation failed: read-only, timeout,
    refused put) and ``ArchiverError`` (retrieval failed) all name the channel and say what to
    do next.

Usage::

    connector = await get_control_system_connector(config)
    value = await connector.read_channel("SR:DCCT:Current")
    value.value, value.metadata.units, value.metadata.alarm_severity
    result = await connector.write_channel("SR01C:HCM01:Current:SP", 1.5)
    result.success, result.readback, result.verified
"""

from __future__ import annotations

import asyncio
import inspect
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np

from osprey_desktop.channels.errors import ChannelNotFoundError as ChannelNotFoundError
from osprey_desktop.channels.errors import ConnectorError
from osprey_desktop.connectors.values import (
    EnumState,
    EnumValueError,
    resolve_enum,
    to_float,
    value_kind,
    waveform_summary,
)

Verification = Literal["none", "callback", "readback"]
VERIFICATION_LEVELS: tuple[str, ...] = ("none", "callback", "readback")


def check_verification(verification: str) -> None:
    """Refuse an unknown verification level before anything is written."""
    if verification not in VERIFICATION_LEVELS:
        raise ValueError(f"verification must be none, callback or readback, not {verification}")


#: What became of one write, in words an operator and an auditor share (the answer, the audit
#: log and ``--json`` all use these). The first three mean the machine was not touched:
#: ``blocked`` (the write policy said no), ``rejected`` (the operator said no), ``not_sent``
#: (nothing was sent: refused by the device or the connector before the put, a value that moved
#: since the operator saw it, an expired approval, an audit log that could not record the
#: intent). The others mean a put was sent: ``sent_unverified`` (sent, nothing checked, as
#: configured), ``verified`` (the server confirmed it and the readback, when asked for, matched),
#: ``verified_with_alarm`` (verified, but the channel is in alarm), ``readback_failed`` (sent and
#: confirmed, but the readback could not be read), ``verification_failed`` (the readback was read
#: and does not match) and ``in_doubt`` (sent, and neither a confirmation nor a readback tells
#: whether the machine took it).
WriteOutcome = Literal[
    "blocked",
    "rejected",
    "not_sent",
    "sent_unverified",
    "verified",
    "verified_with_alarm",
    "readback_failed",
    "verification_failed",
    "in_doubt",
]
WRITE_OUTCOMES: tuple[str, ...] = get_args(WriteOutcome)
#: Outcomes after which the machine may have changed (a put left this process).
SENT_OUTCOMES: frozenset[str] = frozenset(WRITE_OUTCOMES[3:])
#: Outcomes where the value is known to be on the machine.
CONFIRMED_OUTCOMES: frozenset[str] = frozenset({"verified", "verified_with_alarm"})

#: EPICS alarm severities, in rising order, as every connector reports them.
ALARM_SEVERITIES: tuple[str, ...] = ("NO_ALARM", "MINOR", "MAJOR", "INVALID")


class ChannelAccessError(ConnectorError):
    """The channel exists but the read, write or subscription failed."""

    def __init__(self, channel: str, message: str) -> None:
        self.channel = channel
        super().__init__(message)


class ArchiverError(ConnectorError):
    """Archived data could not be retrieved."""


@dataclass(frozen=True)
class ChannelMetadata:
    """Static description of a channel plus its current alarm state."""

    name: str
    units: str = ""
    precision: int | None = None
    description: str = ""
    alarm_status: str = "NO_ALARM"
    alarm_severity: str = "NO_ALARM"
    display_limits: tuple[float, float] | None = None
    control_limits: tuple[float, float] | None = None
    alarm_limits: dict[str, float] | None = None
    writable: bool | None = None
    enum_strings: tuple[str, ...] | None = None
    #: What the server holds: "number", "integer", "enum", "string" or "waveform" (None:
    #: not told, e.g. the simulated ring's numbers); ``element_count`` for arrays.
    native_type: str | None = None
    element_count: int | None = None

    def enum_value(self, value: Any) -> EnumState:
        """The state a write of ``value`` means on this enum channel (name or index).

        Raises ``EnumValueError`` (a ``ValueError``) naming the states when it is none of
        them, or when the channel is not an enum.
        """
        if not self.enum_strings:
            raise EnumValueError(f"'{self.name}' is not an enum channel; it has no states.")
        return resolve_enum(self.name, value, self.enum_strings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "units": self.units,
            "precision": self.precision,
            "description": self.description,
            "alarm_status": self.alarm_status,
            "alarm_severity": self.alarm_severity,
            "display_limits": list(self.display_limits) if self.display_limits else None,
            "control_limits": list(self.control_limits) if self.control_limits else None,
            "alarm_limits": dict(self.alarm_limits) if self.alarm_limits else None,
            "writable": self.writable,
            "enum_strings": list(self.enum_strings) if self.enum_strings else None,
            "native_type": self.native_type,
            "element_count": self.element_count,
        }


@dataclass(frozen=True)
class ChannelValue:
    """One reading: the value, when the source stamped it, and the channel's metadata."""

    name: str
    value: Any
    timestamp: float
    metadata: ChannelMetadata

    @property
    def units(self) -> str:
        return self.metadata.units

    @property
    def alarm_severity(self) -> str:
        return self.metadata.alarm_severity

    @property
    def alarm_status(self) -> str:
        return self.metadata.alarm_status

    @property
    def kind(self) -> str:
        """ "number", "integer", "enum", "string", "waveform" or "other" (see ``values``)."""
        return value_kind(self.value)

    @property
    def enum_index(self) -> int | None:
        """The index of an enum reading (its ``value`` is the state name); None otherwise."""
        return self.value.enum_index if isinstance(self.value, EnumState) else None

    def summary(self) -> dict[str, Any] | None:
        """Count, min, max, mean and first values of an array reading; None for scalars."""
        return waveform_summary(self.value) if self.kind == "waveform" else None

    def formatted(self) -> str:
        """The value as an operator reads it: precision applied, units appended."""
        return format_value(self.value, self.metadata.precision, self.metadata.units)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "value": jsonable(self.value),
            "timestamp": self.timestamp,
            "units": self.metadata.units,
            "alarm_status": self.metadata.alarm_status,
            "alarm_severity": self.metadata.alarm_severity,
            "metadata": self.metadata.to_dict(),
            "kind": self.kind,
        }
        if self.enum_index is not None:
            out["enum_index"] = self.enum_index
        summary = self.summary()
        if summary is not None:
            out["summary"] = jsonable(summary)
        return out


@dataclass(frozen=True)
class ChannelWriteResult:
    """What a write did (``outcome``, one of ``WRITE_OUTCOMES``) and what the readback showed.

    ``success`` is True when a put was sent and nothing says it went wrong (``sent_unverified``,
    ``verified``, ``verified_with_alarm``); ``sent`` is True whenever the machine may have
    changed, which is what an auditor and the exactly-once bookkeeping need.
    """

    channel: str
    outcome: str
    value_written: Any
    readback: Any = None
    readback_channel: str | None = None
    verified: bool = False
    verification: str = "none"
    tolerance: float | None = None
    message: str = ""
    timestamp: float = 0.0
    #: What went on the wire when it differs from ``value_written`` (an enum's index).
    value_sent: Any = None
    #: The server applied a different value than asked (a record clamps a put to its drive
    #: limits, DRVL/DRVH): ``readback`` holds what it applied.
    clamped: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in WRITE_OUTCOMES:
            raise ValueError(
                f"write outcome must be one of {', '.join(WRITE_OUTCOMES)}, not {self.outcome!r}"
            )

    @property
    def sent(self) -> bool:
        return self.outcome in SENT_OUTCOMES

    @property
    def success(self) -> bool:
        return self.outcome in ("sent_unverified", "verified", "verified_with_alarm")

    @classmethod
    def refused(
        cls, channel: str, value: Any, verification: str, message: str, timestamp: float
    ) -> ChannelWriteResult:
        """A write that was not sent (read-only, out of range, refused before the put)."""
        return cls(
            channel=channel,
            outcome="not_sent",
            value_written=value,
            verification=verification,
            message=message,
            timestamp=timestamp,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "channel": self.channel,
            "outcome": self.outcome,
            "sent": self.sent,
            "success": self.success,
            "value_written": jsonable(self.value_written),
            "readback": jsonable(self.readback),
            "readback_channel": self.readback_channel,
            "verified": self.verified,
            "verification": self.verification,
            "tolerance": self.tolerance,
            "message": self.message,
            "timestamp": self.timestamp,
            "value_sent": jsonable(self.value_sent),
            "clamped": self.clamped,
        }


ValueCallback = Callable[[ChannelValue], Any]


class ControlSystemConnector(ABC):
    """Async access to live channels; one instance per event loop (see ``factory``)."""

    #: A short name for messages and the audit log ("sim", "epics").
    kind: str = "abstract"

    @abstractmethod
    async def connect(self) -> None:
        """Open the connection; idempotent."""

    @abstractmethod
    async def disconnect(self) -> None:
        """Close the connection and cancel every subscription; idempotent."""

    @property
    @abstractmethod
    def connected(self) -> bool:
        """True between ``connect()`` and ``disconnect()``."""

    @abstractmethod
    async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
        """Read one channel; raises ``ChannelNotFoundError`` or ``ChannelAccessError``."""

    async def read_multiple_channels(
        self, names: Sequence[str], timeout: float | None = None
    ) -> dict[str, ChannelValue | ConnectorError]:
        """Read channels concurrently; a failed channel maps to its error, the rest still read."""
        results = await asyncio.gather(
            *(self.read_channel(n, timeout=timeout) for n in names), return_exceptions=True
        )
        out: dict[str, ChannelValue | ConnectorError] = {}
        for name, result in zip(names, results, strict=True):
            if isinstance(result, ConnectorError | ChannelValue):
                out[name] = result
            elif isinstance(result, BaseException):
                if isinstance(result, asyncio.CancelledError):
                    raise result
                out[name] = ChannelAccessError(name, f"Reading '{name}' failed: {result}")
        return out

    @abstractmethod
    async def write_channel(
        self,
        name: str,
        value: Any,
        verification: Verification = "readback",
        tolerance: float | None = None,
        timeout: float | None = None,
    ) -> ChannelWriteResult:
        """Write a value and verify it as asked.

        ``none``: send and return. ``callback``: wait for the server's put completion.
        ``readback``: after completion, read the channel's readback (its paired ``:RB`` channel
        when the channel database names one) until it is within ``tolerance`` of the value.
        Unknown channels raise; a write the device refuses returns ``success=False``.
        """

    @abstractmethod
    async def subscribe(self, name: str, callback: ValueCallback) -> str:
        """Call ``callback(ChannelValue)`` (plain or async) on every update; returns an id."""

    @abstractmethod
    async def unsubscribe(self, subscription_id: str) -> None:
        """Stop a subscription; unknown ids are ignored."""

    async def get_metadata(self, name: str) -> ChannelMetadata:
        """Units, precision, limits and the current alarm state of a channel.

        A reading carries its metadata (the alarm state is only current with a fresh read), so
        the default reads the channel; a backend with a cheaper metadata call overrides this.
        """
        return (await self.read_channel(name)).metadata

    async def validate_channel(self, name: str) -> bool:
        """True when the channel exists and answers; never raises for a missing channel."""
        try:
            await self.get_metadata(name)
        except ConnectorError:
            return False
        return True

    async def wait_for_readback(
        self,
        readback_channel: str,
        target: float,
        tolerance: float,
        timeout: float,
        poll_interval: float = 0.05,
    ) -> tuple[Any, bool]:
        """Poll a readback until it is within ``tolerance`` of ``target`` or time runs out.

        Returns the last readback value and whether it matched. Shared by every connector so
        "verified" means the same thing on the simulated machine and on EPICS.
        """
        reading, ok = await self._poll_readback(
            readback_channel, target, tolerance, timeout, poll_interval
        )
        return reading.value, ok

    async def _poll_readback(
        self,
        readback_channel: str,
        target: float,
        tolerance: float,
        timeout: float,
        poll_interval: float,
    ) -> tuple[ChannelValue, bool]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout)
        while True:
            reading = await self.read_channel(readback_channel)
            number = to_float(reading.value)
            if number is not None and abs(number - target) <= tolerance:
                return reading, True
            if loop.time() >= deadline:
                return reading, False
            await asyncio.sleep(poll_interval)

    def clock(self) -> float:
        """Epoch seconds stamped on write results; the simulated machine has its own clock."""
        return time.time()

    def sent_result(
        self, channel: str, value: Any, verification: str, shown: str
    ) -> ChannelWriteResult:
        """A write not verified by readback: sent, or completed when the server confirmed it."""
        done = "not confirmed" if verification == "none" else "put completed"
        return ChannelWriteResult(
            channel=channel,
            outcome="verified" if verification == "callback" else "sent_unverified",
            value_written=value,
            verified=verification == "callback",
            verification=verification,
            message=f"Wrote {shown} to {channel} ({done}).",
            timestamp=self.clock(),
        )

    async def readback_result(
        self,
        channel: str,
        value: Any,
        target: float,
        readback_channel: str,
        tolerance: float,
        settle: float,
        show: Callable[[Any], str],
        poll_interval: float = 0.05,
    ) -> ChannelWriteResult:
        """Wait for the readback to reach ``target`` and report it in the same words everywhere.

        Called after the put was sent, so it never raises for the readback: an unreadable
        readback is ``readback_failed``, a wrong one ``verification_failed``, a right one in
        alarm ``verified_with_alarm``.
        """
        written = f"Wrote {show(value)} to {channel}"
        try:
            reading, ok = await self._poll_readback(
                readback_channel, target, tolerance, settle, poll_interval
            )
        except (ConnectorError, TimeoutError, ConnectionError, OSError) as exc:
            return ChannelWriteResult(
                channel=channel,
                outcome="readback_failed",
                value_written=value,
                readback_channel=readback_channel,
                verification="readback",
                tolerance=tolerance,
                message=f"{written}, but its readback {readback_channel} could not be read "
                f"({exc}); read the channel to check.",
                timestamp=self.clock(),
            )
        readback = reading.value
        reads = f"{readback_channel} reads {show(readback)}"
        severity = reading.metadata.alarm_severity
        if not ok:
            outcome = "verification_failed"
            message = (
                f"{written}, but {reads} after {settle:g} s (tolerance {tolerance:g}); "
                "check the device."
            )
        elif severity not in ("NO_ALARM", "", None):
            outcome = "verified_with_alarm"
            message = f"{written}; {reads}, in {severity} alarm ({reading.metadata.alarm_status})."
        else:
            outcome, message = "verified", f"{written}; {reads}."
        return ChannelWriteResult(
            channel=channel,
            outcome=outcome,
            value_written=value,
            readback=readback,
            readback_channel=readback_channel,
            verified=ok,
            verification="readback",
            tolerance=tolerance,
            message=message,
            timestamp=self.clock(),
        )

    async def __aenter__(self) -> ControlSystemConnector:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.disconnect()


def jsonable(value: Any) -> Any:
    """Turn numpy scalars/arrays and non-finite floats into plain JSON-able values.

    An enum state becomes its plain name (the index is in ``ChannelValue.to_dict``).
    """
    if isinstance(value, EnumState):
        return str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return _jsonable_array(value)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def _jsonable_array(array: np.ndarray) -> list[Any]:
    """``[jsonable(v) for v in array.tolist()]``, done whole for a plain 1-D array of numbers.

    A day of orbit history is some 150,000 samples: one Python call per sample held the
    window's event loop for tens of milliseconds.
    """
    if type(array) is np.ndarray and array.ndim == 1:
        kind = array.dtype.kind
        if kind in "biu":  # tolist() gives plain bool/int, which jsonable keeps as they are
            return array.tolist()
        if kind == "f":
            out = array.tolist()
            for index in np.flatnonzero(~np.isfinite(array)).tolist():
                out[index] = None
            return out
    return [jsonable(v) for v in array.tolist()]


def format_value(value: Any, precision: int | None, units: str = "") -> str:
    """Format a reading the way an operator display would (1.23e-09 for tiny values).

    An enum shows its state name, an array a summary: "16 values, min 0.100, max 3.200,
    mean 1.500 mm; first 0.100, 0.200, 0.300, 0.400, 0.500".
    """
    if isinstance(value, list | tuple | np.ndarray):
        return _format_array(value, precision, units)
    if isinstance(value, float | np.floating):
        number = float(value)
        prec = 3 if precision is None else max(0, int(precision))
        if number != 0.0 and (abs(number) < 10 ** (-prec) or abs(number) >= 1e7):
            text = f"{number:.{max(prec, 2)}e}"
        else:
            text = f"{number:.{prec}f}"
    else:
        text = str(value)
    return f"{text} {units}".strip()


def _format_array(values: Any, precision: int | None, units: str) -> str:
    summary = waveform_summary(values)
    count = summary["count"]
    if count == 0:
        return f"empty array {units}".strip()
    first = ", ".join(format_value(v, precision) for v in summary["first"])
    more = ", …" if count > len(summary["first"]) else ""
    if "min" not in summary:
        return f"{count} values: {first}{more}"
    stats = ", ".join(
        f"{key} {format_value(float(summary[key]), precision)}" for key in ("min", "max", "mean")
    )
    unit = f" {units}" if units else ""
    return f"{count} value{'s' if count != 1 else ''}, {stats}{unit}; first {first}{more}"


async def call_value_callback(callback: ValueCallback, value: ChannelValue) -> None:
    """Run a subscriber callback that may be a plain function or a coroutine function."""
    result = callback(value)
    if inspect.isawaitable(result):
        await result  # type: ignore[misc]
