"""Turn parsed values into checked write operations, and describe them for approval.

An operation is a plain dict (it travels in the approval interrupt, the approval ledger and
the checkpoint): ``{channel, current_value, new_value, units, precision, limits, violation,
requested, value_source}``. ``value_source`` is ``request`` when the value was read from the
operator's words and ``planner`` when a planner (a chat model, say) supplied it; the approval
shows the difference, and quotes the operator's own words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from osprey_desktop.capabilities.control_room.write_blocked import WILL_NOT_BE_SENT
from osprey_desktop.capabilities.control_room.write_origins import describe_origin
from osprey_desktop.connectors.base import ConnectorError, format_value, jsonable, to_float
from osprey_desktop.language.write_parsing import (
    UnitMismatch,
    ValueSpec,
    WriteRequestError,
    convert_units,
)

#: ``ValueSpec.text`` of a value a planner supplied as a step parameter (not the operator's).
PLANNER_VALUE = "<planner parameter>"


class OperationError(ValueError):
    """An operation could not be prepared for a reason that is not a limit."""


def specs_from_parameters(parameters: Mapping[str, Any]) -> list[ValueSpec]:
    """A value given by the planner as step parameters (``value`` or ``delta``, ``unit``)."""
    unit = parameters.get("unit")
    unit = str(unit) if unit else None
    for key, mode in (("value", "absolute"), ("delta", "delta")):
        if parameters.get(key) is None:
            continue
        amount = to_float(parameters[key])
        if amount is None:
            raise WriteRequestError(f"the step parameter {key}={parameters[key]!r} is not a number")
        return [ValueSpec("", mode, amount, unit, PLANNER_VALUE)]  # type: ignore[arg-type]
    return []


def assign_values(
    channels: Sequence[str], specs: Sequence[ValueSpec]
) -> list[tuple[str, ValueSpec]]:
    """Which value goes to which channel.

    One value applies to every channel found. Several values ("HCM01 to 1.5 A and HCM02 to
    -0.3 A") are matched to channels by the words before each; every channel must get
    exactly one value, or the request is sent back to the operator.
    """
    if not channels:
        raise WriteRequestError("no channel to write to was found")
    from osprey_desktop.connectors import get_configured_channel_database

    database = get_configured_channel_database()
    if len(specs) == 1:
        # "read HCM01, then set HCM02 to 0.3 A": the value goes to the channels its own words
        # name, not to every channel the request found
        named = named_by(database, specs[0].target, channels)
        return [(channel, specs[0]) for channel in (named or channels)]
    assigned: dict[str, ValueSpec] = {}
    for spec in specs:
        if not spec.target:
            raise WriteRequestError(
                f"the value {spec.describe()} does not say which channel it is for"
            )
        hits = {m.name for m in database.top_matches(spec.target, writable=True)}
        targets = [c for c in channels if c in hits]
        if not targets:
            raise WriteRequestError(
                f"'{spec.target}' ({spec.describe()}) matches none of {', '.join(channels)}"
            )
        for channel in targets:
            if channel in assigned:
                raise WriteRequestError(
                    f"{channel} is given two values; give one value per channel"
                )
            assigned[channel] = spec
    missing = [c for c in channels if c not in assigned]
    if missing:
        raise WriteRequestError(f"no value is given for {', '.join(missing)}")
    return [(channel, assigned[channel]) for channel in channels]


def named_by(database: Any, words: str, channels: Sequence[str]) -> list[str]:
    """The channels among ``channels`` that ``words`` name by a device or PV name."""
    if not words:
        return []
    from osprey_desktop.channels.query import expand_name_ranges

    named: set[str] = set()
    known = lambda name: bool(database.channels_named(name))  # noqa: E731
    for word in expand_name_ranges(words, known).replace(",", " ").split():
        named.update(database.channels_named(word))
    return [c for c in channels if c in named]


async def plan_operation(
    connector: Any, policy: Any, channel: str, spec: ValueSpec
) -> dict[str, Any]:
    """Read the channel, compute the value to write, and check it against the write policy."""
    operation: dict[str, Any] = {
        "channel": channel,
        "current_value": None,
        "new_value": None,
        "units": "",
        "precision": None,
        "limits": {},
        "violation": None,
        "requested": spec.describe(),
        "value_source": "planner" if spec.text == PLANNER_VALUE else "request",
    }
    try:
        reading = await connector.read_channel(channel)
    except ConnectorError as exc:
        operation["violation"] = (
            f"Cannot read the current value of '{channel}' ({exc}); the write is refused."
        )
        return operation
    units = reading.metadata.units
    current = to_float(reading.value)
    operation.update(
        current_value=jsonable(reading.value), units=units, precision=reading.metadata.precision
    )
    try:
        states = tuple(getattr(reading.metadata, "enum_strings", None) or ())
        new_value: Any = (
            _new_state(spec, reading.metadata, channel)
            if spec.mode == "state"
            else _state_for_number(spec, states)
            if states and spec.mode == "absolute"
            else _new_value(spec, current, units)
        )
    except (UnitMismatch, OperationError) as exc:
        operation["violation"] = f"{exc} (for '{channel}')"
        return operation
    operation["new_value"] = new_value
    check = await policy.evaluate(connector, channel, new_value)
    operation["limits"] = jsonable(dict(check.limits))
    operation["violation"] = check.violation
    if check.current_value is not None:
        operation["current_value"] = jsonable(check.current_value)
    return operation


def _new_state(spec: ValueSpec, metadata: Any, channel: str) -> str | int:
    """The channel's own state a state write means ("open" -> "Open"), or why none does.

    A channel without states whose own name ends in the command ("VALVE:CONTROL:OPEN" for
    "open the valve") is a command channel: writing 1 carries the command out."""
    from osprey_desktop.language.write_states import (
        is_command_channel,
        resolve_state,
    )

    states = tuple(getattr(metadata, "enum_strings", None) or ())
    if not states and getattr(metadata, "native_type", None) == "string":
        return str(spec.state)  # a text channel takes the words as they are
    if not states and is_command_channel(channel, str(spec.state)):
        return 1
    if not states:
        raise OperationError(
            f"'{spec.state}' is a state, but this channel takes numbers"
            + (f" ({metadata.units})" if getattr(metadata, "units", "") else "")
            + "; say the value to write"
        )
    state = resolve_state(str(spec.state), states)
    if state is None:
        raise OperationError(
            f"this channel has no state '{spec.state}'; its states are {', '.join(states)}"
        )
    return state


def _state_for_number(spec: ValueSpec, states: tuple[str, ...]) -> str | int:
    """An enum channel given a number: a word of the request that names a state ("Half", read
    as 0.5) is that state, a whole number is the state's index; anything else is asked."""
    from osprey_desktop.language.write_states import resolve_state

    words = "" if spec.text == PLANNER_VALUE else spec.text
    for word in reversed(re.findall(r"[A-Za-z][\w-]*", words)):
        state = resolve_state(word, states)
        if state is not None:
            return state
    if float(spec.amount).is_integer() and 0 <= spec.amount < len(states):
        return int(spec.amount)
    raise OperationError(
        f"{spec.amount:g} is no state of this channel; its states are "
        + ", ".join(f"{i} {s}" for i, s in enumerate(states) if s)
        + ": say which one"
    )


def _new_value(spec: ValueSpec, current: float | None, units: str) -> float:
    if spec.mode == "absolute":
        value = convert_units(spec.amount, spec.unit, units)
    elif current is None:
        raise OperationError(
            f"the current value is not a number, so '{spec.describe()}' cannot be applied"
        )
    elif spec.mode == "percent":
        value = current * (1.0 + spec.amount / 100.0)
    else:
        value = current + convert_units(spec.amount, spec.unit, units, delta=True)
    return round(value, 9)


def show_value(value: Any, units: str) -> str:
    """A number as typed by an operator: its own decimals (at most 9), then the units."""
    return _show(value, units)


def _show(value: Any, units: str) -> str:
    number = to_float(value)
    if number is None:
        return f"{value} {units}".strip()
    return format_value(number, _decimals(number), units)


def _decimals(value: float) -> int:
    text = f"{abs(value):.9f}".rstrip("0")
    return max(1, len(text.split(".")[1])) if "." in text else 1


def describe_limits(limits: Mapping[str, Any], units: str) -> str:
    parts = []
    low, high = limits.get("min"), limits.get("max")
    if low is not None and high is not None:
        parts.append(f"{_show(low, '')} to {_show(high, units)}")
    elif low is not None:
        parts.append(f"min {_show(low, units)}")
    elif high is not None:
        parts.append(f"max {_show(high, units)}")
    if limits.get("max_step") is not None:
        parts.append(f"max step {_show(limits['max_step'], units)}")
    return ", ".join(parts) or "no numeric limits"


def show_reading(value: Any, units: str, precision: int | None) -> str:
    """A channel's value at the channel's own display precision (as its panel shows it)."""
    number = to_float(value)
    if number is None or precision is None:
        return _show(value, units)
    return format_value(number, precision, units)


def moved_beyond_precision(shown: Any, now: Any, precision: int | None) -> bool:
    """Whether a channel now reads differently from what the operator was shown.

    Numbers count as moved when they differ by more than half a unit of the last digit the
    channel displays (3 decimals when it states none); anything else when it is not equal.
    """
    a, b = to_float(shown), to_float(now)
    if a is None or b is None:
        return jsonable(shown) != jsonable(now)
    digits = 3 if precision is None else max(0, int(precision))
    return abs(a - b) > 0.5 * 10.0 ** (-digits) + 1e-12 * max(abs(a), abs(b))


def approval_message(
    operations: Sequence[Mapping[str, Any]],
    *,
    request: str | None = None,
    asked_again: str | None = None,
    blocked: Sequence[Mapping[str, Any]] = (),
) -> str:
    """What the operator approves: every write, what it replaces and the limits applied;
    ``blocked``: writes of the same request the policy blocks, shown first as not sent."""
    count = len(operations)
    title = f"**Approve {count} write{'s' if count != 1 else ''} to the machine?**"
    if blocked:
        title += f" ({len(blocked)} more blocked: {WILL_NOT_BE_SENT})"
    lines = [title, ""]
    if asked_again:
        lines += [f"Asked again: {asked_again}", ""]
    if request:
        lines += [f"You asked: \u201c{request.strip()}\u201d", ""]
    lines += _blocked_section(blocked)
    for op in operations:
        units = str(op.get("units") or "")
        now = show_reading(op["current_value"], units, op.get("precision"))
        if op.get("derived_from"):
            source = describe_origin(op["derived_from"])
        elif op.get("value_source") == "planner":
            source = "value proposed by the planner, not in your words"
        else:
            source = f"from your request: {op.get('requested', '')}"
        lines.append(
            f"- write **{_show(op['new_value'], units)}** to `{op['channel']}` "
            f"(now {now}; {source}; "
            f"limits: {describe_limits(op.get('limits') or {}, units)})"
        )
    lines += [
        "",
        "Answer **yes** to write exactly these values (each channel is read again first: if "
        "one moved, or the approval expired, nothing is sent and you are asked again) or "
        "**no** to leave the machine unchanged.",
    ]
    if blocked:
        lines[-1] += " The blocked writes above are not sent either way."
    return "\n".join(lines)


def _blocked_section(blocked: Sequence[Mapping[str, Any]]) -> list[str]:
    """The blocked writes, before the ones asked (the order an operator checks them in)."""
    if not blocked:
        return []
    count = len(blocked)
    lines = [
        f"**{count} write{'s' if count != 1 else ''} blocked by the write policy "
        f"({WILL_NOT_BE_SENT}, whatever you answer):**"
    ]
    for op in blocked:
        units = str(op.get("units") or "")
        now = show_reading(op.get("current_value"), units, op.get("precision"))
        lines.append(
            f"- ⊘ `{op.get('channel')}`: {_show(op.get('new_value'), units)} (now {now}) — "
            f"{op.get('violation')}"
        )
    return [*lines, "", "**Asked:**"]


__all__ = [
    "PLANNER_VALUE",
    "OperationError",
    "approval_message",
    "assign_values",
    "describe_limits",
    "moved_beyond_precision",
    "named_by",
    "show_reading",
    "show_value",
    "plan_operation",
    "specs_from_parameters",
]
