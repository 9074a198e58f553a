"""What Channel Access and PV Access share: their settings, checking a value, judging a put.

``prepare_write`` turns what a write asks for into what goes on the wire, or refuses it before
anything is sent: an enum takes a state name or index (the wire gets the index, the result
keeps the name), a number must be finite and inside the control range, an integer whole, a
string is text, an array a sequence. ``completed_put_result`` judges a put the server
confirmed: it reads the written channel once, so a server that applied another value (a
record clamps a put to its drive limits) is reported as ``clamped``, never as verified, and
then verifies the readback as asked. ``unconfirmed_put_result`` decides between ``verified``
and ``in_doubt`` when no confirmation came.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.connectors.base import (
    ChannelValue,
    ChannelWriteResult,
    ConnectorError,
    ControlSystemConnector,
    to_float,
)
from osprey_desktop.connectors.values import EnumValueError, resolve_enum, same_value

Show = Callable[[Any], str]


class NetworkConnector(ControlSystemConnector):
    """The settings every network protocol's connector takes, and where a write's readback is.

    ``timeout`` bounds one read or put; ``default_tolerance`` is the readback tolerance when a
    write names none; ``settle_timeout`` and ``poll_interval`` pace the wait for a readback;
    ``confirm_timeout`` bounds the one read that decides between verified and in doubt after
    an unconfirmed put.
    """

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
        self.confirm_timeout = confirm_timeout

    def _readback_name(self, name: str) -> str:
        """The channel that shows whether a write to ``name`` took effect (itself if none)."""
        return (self.database.readback_for(name) if self.database else None) or name


class WriteRefused(Exception):
    """The value cannot be written to this channel; nothing was sent. The message says why."""


@dataclass(frozen=True)
class PreparedWrite:
    """One write, checked: what the result reports, what goes on the wire, what to compare."""

    value: Any  # as reported (an enum's EnumState, a float...)
    payload: Any  # as sent (an enum's index)
    number: float | None  # what a readback is compared with; None for text and arrays
    sent: Any = None  # ChannelWriteResult.value_sent: the payload when it differs from value


def prepare_write(
    channel: str,
    value: Any,
    kind: str | None,
    enum_strings: Sequence[str] | None = None,
    control: tuple[float, float] | None = None,
    units: str = "",
) -> PreparedWrite:
    """Check ``value`` against what the channel holds; raises ``WriteRefused``."""
    if kind == "enum":
        try:
            state = resolve_enum(channel, value, enum_strings or ())
        except EnumValueError as exc:
            raise WriteRefused(f"{str(exc).rstrip('.')}; nothing was sent.") from exc
        return PreparedWrite(state, state.enum_index, float(state.enum_index), state.enum_index)
    if kind == "string":
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise WriteRefused(f"'{channel}' holds text; {value!r} is not text; nothing was sent.")
        return PreparedWrite(str(value), str(value), None)
    if kind == "waveform":
        items = list(value) if isinstance(value, list | tuple | np.ndarray) else [value]
        numbers = [to_float(v) for v in items]
        if any(n is None for n in numbers):
            raise WriteRefused(
                f"'{channel}' holds an array of numbers; {value!r} is not one; nothing was sent."
            )
        return PreparedWrite(items, numbers, None)
    number = to_float(value)
    if number is None or isinstance(value, list | tuple | np.ndarray):
        raise WriteRefused(
            f"'{channel}' holds a number; {value!r} is not a finite number; nothing was sent."
        )
    if kind == "integer" and not number.is_integer():
        raise WriteRefused(
            f"'{channel}' holds whole numbers; {number:g} is not one; nothing was sent."
        )
    if control is not None:
        low, high = control
        if low != high and not low <= number <= high:
            raise WriteRefused(
                f"{number:g} is outside the control range of '{channel}' "
                f"({low:g} to {high:g} {units}); nothing was sent."
            )
    payload: Any = int(number) if kind == "integer" else value
    return PreparedWrite(value, payload, number)


async def completed_put_result(
    connector: ControlSystemConnector,
    channel: str,
    prepared: PreparedWrite,
    verification: str,
    tolerance: float,
    show: Show,
    readback_channel: str,
    settle: float,
    poll_interval: float,
    read_timeout: float,
    control: tuple[float, float] | None = None,
) -> ChannelWriteResult:
    """The outcome of a put the server confirmed (or that was sent unconfirmed, ``none``)."""
    value = prepared.value
    if verification == "none":
        return _with_sent(
            connector.sent_result(channel, value, verification, show(value)), prepared
        )
    try:
        applied: ChannelValue | None = await connector.read_channel(channel, timeout=read_timeout)
    except (ConnectorError, TimeoutError, OSError):
        applied = None  # the readback check below reports what it can
    if applied is not None and not same_value(
        applied.value, prepared.value, prepared.number, tolerance
    ):
        return _clamped(
            connector, channel, prepared, applied, verification, tolerance, show, control
        )
    if verification == "callback":
        return _with_sent(
            connector.sent_result(channel, value, verification, show(value)), prepared
        )
    if prepared.number is None:
        if applied is None:
            return _with_sent(
                connector.sent_result(channel, value, "callback", show(value)), prepared
            )
        result = ChannelWriteResult(
            channel=channel,
            outcome="verified",
            value_written=value,
            readback=applied.value,
            readback_channel=channel,
            verified=True,
            verification="readback",
            message=f"Wrote {show(value)} to {channel}; {channel} reads {show(applied.value)}.",
            timestamp=connector.clock(),
        )
        return _with_sent(result, prepared)
    result = await connector.readback_result(
        channel, value, prepared.number, readback_channel, tolerance, settle, show, poll_interval
    )
    return _with_sent(result, prepared)


def _clamped(
    connector: ControlSystemConnector,
    channel: str,
    prepared: PreparedWrite,
    applied: ChannelValue,
    verification: str,
    tolerance: float,
    show: Show,
    control: tuple[float, float] | None,
) -> ChannelWriteResult:
    limits = f" ({control[0]:g} to {control[1]:g})" if control and control[0] != control[1] else ""
    return ChannelWriteResult(
        channel=channel,
        outcome="verification_failed",
        value_written=prepared.value,
        readback=applied.value,
        readback_channel=channel,
        verification=verification,
        tolerance=tolerance if prepared.number is not None else None,
        message=f"Wrote {show(prepared.value)} to {channel}, but the IOC applied "
        f"{show(applied.value)} instead: it clamps puts to its drive limits{limits}. "
        f"{channel} now reads {show(applied.value)}; check its limits before writing again.",
        timestamp=connector.clock(),
        value_sent=prepared.sent,
        clamped=True,
    )


def _with_sent(result: ChannelWriteResult, prepared: PreparedWrite) -> ChannelWriteResult:
    if prepared.sent is None:
        return result
    return dataclasses.replace(result, value_sent=prepared.sent)


async def unconfirmed_put_result(
    connector: ControlSystemConnector,
    channel: str,
    prepared: PreparedWrite,
    verification: str,
    tolerance: float,
    show: Show,
    trouble: str,
    readback_channel: str,
    settle: float,
    poll_interval: float,
    confirm_timeout: float,
) -> ChannelWriteResult:
    """Decide between ``verified`` and ``in_doubt`` with one short read of the channel.

    The put may have reached the server, so this never answers ``not_sent``: reporting a
    write the server applied as "nothing written" invites the operator to write it again.
    """
    value, number = prepared.value, prepared.number
    try:
        reading: ChannelValue | None = await connector.read_channel(
            channel, timeout=confirm_timeout
        )
    except (ConnectorError, TimeoutError, OSError) as exc:
        reading, seen = None, f"'{channel}' could not be read back ({exc})"
    else:
        seen = f"'{channel}' reads {show(reading.value)}"
    if reading is None or not same_value(reading.value, value, number, tolerance):
        return ChannelWriteResult(
            channel=channel,
            outcome="in_doubt",
            value_written=value,
            readback=reading.value if reading is not None else None,
            readback_channel=channel,
            verification=verification,
            tolerance=tolerance if number is not None else None,
            message=f"Sent {show(value)} to {channel}, but {trouble}, and {seen}: the value "
            f"may or may not have been applied. Read {channel} before writing it again.",
            timestamp=connector.clock(),
            value_sent=prepared.sent,
        )
    late = f"the put was applied although {trouble} (its completion was late)"
    if verification == "readback" and number is not None:
        result = await connector.readback_result(
            channel, value, number, readback_channel, tolerance, settle, show, poll_interval
        )
        result = dataclasses.replace(result, message=f"{result.message} Note: {seen}, so {late}.")
        return _with_sent(result, prepared)
    severity = reading.metadata.alarm_severity
    in_alarm = severity not in ("NO_ALARM", "", None)
    alarm = f", in {severity} alarm ({reading.metadata.alarm_status})" if in_alarm else ""
    return ChannelWriteResult(
        channel=channel,
        outcome="verified_with_alarm" if in_alarm else "verified",
        value_written=value,
        readback=reading.value,
        readback_channel=channel,
        verified=True,
        verification=verification,
        tolerance=tolerance if number is not None else None,
        message=f"Wrote {show(value)} to {channel}; {seen}{alarm}, so {late}.",
        timestamp=connector.clock(),
        value_sent=prepared.sent,
    )


__all__ = [
    "PreparedWrite",
    "WriteRefused",
    "completed_put_result",
    "prepare_write",
    "unconfirmed_put_result",
]
