"""``channel_read``: CHANNEL_ADDRESSES -> CHANNEL_VALUES, read concurrently.

A channel that cannot be read is reported next to the ones that could (an operator still
wants the other five BPMs); only when nothing at all can be read does the step fail, and a
timeout or lost connection is retried by the framework.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from osprey_desktop.base.errors import ErrorClassification, ErrorSeverity
from osprey_desktop.capabilities.control_room.common import (
    ControlRoomCapability,
    command_updates,
    display_tool_command,
    stripchart_command,
)
from osprey_desktop.capabilities.control_room.contexts import (
    ChannelAddressesContext,
    ChannelReading,
    ChannelValuesContext,
)
from osprey_desktop.connectors.base import (
    ChannelAccessError,
    ChannelNotFoundError,
    ChannelValue,
    ConnectorError,
    jsonable,
)


class ChannelReadError(ConnectorError):
    """None of the requested channels could be read."""


def channels_of(addresses: Any) -> list[str]:
    """Channel names from one CHANNEL_ADDRESSES context or a list of them, without repeats."""
    contexts = addresses if isinstance(addresses, list) else [addresses]
    names: dict[str, None] = {}
    for context in contexts:
        if isinstance(context, ChannelAddressesContext):
            for name in context.channels:
                names.setdefault(name, None)
    return list(names)


def unlisted_note(names: list[str]) -> str:
    """What the answer says first about exact names the channel list lacks (read as typed)."""
    shown = ", ".join(names)
    verb = "is" if len(names) == 1 else "are"
    return (
        f"{shown} {verb} not in the channel list: read by the exact name typed (only a "
        "listed channel can be written)."
    )


def reading_of(value: ChannelValue) -> ChannelReading:
    return ChannelReading(
        value=jsonable(value.value),
        timestamp=datetime.fromtimestamp(value.timestamp, tz=UTC),
        units=value.metadata.units,
        alarm_severity=value.metadata.alarm_severity,
        alarm_status=value.metadata.alarm_status,
        precision=value.metadata.precision,
    )


class ChannelReadCapability(ControlRoomCapability):
    """Read the current value, units and alarm state of the channels found."""

    name = "channel_read"
    description = (
        "Read the current (live) value of control-system channels, with units, timestamp "
        "and alarm severity"
    )
    provides = ["CHANNEL_VALUES"]
    requires = ["CHANNEL_ADDRESSES"]
    keywords = [
        "read",
        "reading",
        "readback",
        "current value",
        "right now",
        "at the moment",
        "check",
        "status",
        "display",
        "list",
        "monitor",
        "live",
    ]
    examples = [
        "read the current value of a channel",
        "what is the value of a channel right now",
        "check the status of a device",
        "list the readbacks in a sector",
    ]
    default_for = ["CHANNEL_ADDRESSES"]
    """A request that only names channels ("the beam current?") means: read them."""

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.connectors import get_control_system_connector

        (addresses,) = self.get_required_contexts()
        names = channels_of(addresses)
        if not names:
            raise ChannelReadError("channel_read got no channel names to read")
        connector = await get_control_system_connector()
        results = await connector.read_multiple_channels(names)
        readings: dict[str, ChannelReading] = {}
        errors: dict[str, str] = {}
        for name in names:
            result = results.get(name)
            if isinstance(result, ChannelValue):
                readings[name] = reading_of(result)
            else:
                errors[name] = str(result) if result is not None else "no answer"
        if not readings:
            failures = list(results.values())
            if failures and all(isinstance(f, ChannelAccessError) for f in failures):
                raise ChannelAccessError(names[0], _join_errors(errors))
            raise ChannelReadError(_join_errors(errors))
        update = self.store_output_context(
            ChannelValuesContext(channel_values=readings, errors=errors)
        )
        commands = [stripchart_command(list(readings))]
        if len(readings) == 1:
            display = display_tool_command(next(iter(readings)))
            if display is not None:
                commands.append(display)
        return {**update, **command_updates(self._state, self.name, commands)}

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        if isinstance(exc, ChannelNotFoundError | ChannelReadError):
            return ErrorClassification(
                severity=ErrorSeverity.CRITICAL,
                user_message=f"Could not read the channels: {exc}",
                technical_details=f"{type(exc).__name__}: {exc}",
            )
        if isinstance(exc, ChannelAccessError) and "timed out" in str(exc).lower():
            return ErrorClassification(
                severity=ErrorSeverity.RETRIABLE,
                user_message=f"Reading timed out: {exc}",
                technical_details=f"{type(exc).__name__}: {exc}",
            )
        return ControlRoomCapability.classify_error(exc, context)


def _join_errors(errors: dict[str, str]) -> str:
    return "; ".join(f"{name}: {message}" for name, message in errors.items())


__all__ = [
    "ChannelReadCapability",
    "ChannelReadError",
    "channels_of",
    "reading_of",
    "unlisted_note",
]
