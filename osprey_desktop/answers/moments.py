"""The archived value at a moment ("the lifetime at 06:30"), said honestly.

The value in force at a moment is the archive's last sample at or before it. When that sample
has no value (a gap: disconnected, NaN, the Channel Archiver's special codes) or is INVALID, the
archive does not know the value at that moment, and the answer says so, naming when the gap
began and the last valid sample before it, instead of quietly giving an older value. A sample
in MINOR or MAJOR alarm is given with its alarm. Enum samples are given as their state names,
texts as text, waveforms as their summary.

``moment_line(context, channel)`` is one answer line for an ARCHIVER_DATA context (its
``timestamps``, ``time_series_data``, ``severity``, ``kinds``, ``enum_labels``, ``units``,
``moment`` and ``compared_with``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from osprey_desktop.answers.history_kinds import is_gap, state_name
from osprey_desktop.connectors.base import ALARM_SEVERITIES, format_value

INVALID = 3


@dataclass(frozen=True)
class MomentSample:
    """What the archive says about one channel at one moment."""

    #: The last valid sample at or before the moment: (epoch seconds, value, severity), or None.
    valid: tuple[float, Any, int] | None
    #: When the archive stopped knowing the value, if the sample in force at the moment is a
    #: gap or INVALID (epoch seconds of that sample); None when it knows it.
    unknown_since: float | None = None

    @property
    def known(self) -> bool:
        return self.valid is not None and self.unknown_since is None


def sample_at(
    timestamps: list[float], values: list[Any], severity: list[int] | None, moment: float
) -> MomentSample:
    """The sample in force at ``moment`` and, when it is no value, the last one that was."""
    cutoff = moment + 1e-6
    valid: tuple[float, Any, int] | None = None
    unknown_since: float | None = None
    codes = severity or []
    for index, (stamp, value) in enumerate(zip(timestamps, values, strict=False)):
        if stamp > cutoff:
            break
        code = int(codes[index]) if index < len(codes) else 0
        if is_gap(value) or code >= INVALID:
            if unknown_since is None:
                unknown_since = float(stamp)
            continue
        valid, unknown_since = (float(stamp), value, code), None
    return MomentSample(valid, unknown_since)


def _number_text(number: float, unit: str) -> str:
    return format_value(float(number), 4 if abs(number) >= 1e-3 or number == 0 else 3, unit)


def value_text(value: Any, unit: str, kind: str | None, labels: list[str]) -> str:
    """A sample as the operator reads it: a number with its unit, a state name, a text, or
    a waveform's summary."""
    if kind == "enum":
        return state_name(value, labels)
    if isinstance(value, list | tuple):
        return format_value(list(value), None, unit)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return _number_text(float(value), unit)


def comparison(now: float, then: float, unit: str) -> str:
    """ "**higher** by 4.2 mA (+0.85 %)": how a present reading compares with an archived one."""
    difference = now - then
    scale = max(abs(now), abs(then))
    if scale == 0 or abs(difference) <= 1e-9 * scale:
        return "**the same**"
    word = "higher" if difference > 0 else "lower"
    percent = f" ({difference / abs(then) * 100:+.2g} %)" if then else ""
    return f"**{word}** by {_number_text(abs(difference), unit)}{percent}"


def moment_line(context: Any, channel: str) -> str:
    """One answer line: the archived value at the moment (or why there is none), and how the
    present reading compares."""
    moment: datetime = context.moment
    unit = context.units.get(channel, "")
    kind = (context.kinds or {}).get(channel)
    labels = list((context.enum_labels or {}).get(channel, []))
    zone = moment.tzinfo
    # a moment of another day than today says its date ("at 2026-11-23 08:00")
    same_day = moment.date() == datetime.now(zone).date()
    when = f"{moment:%H:%M}" if same_day else f"{moment:%Y-%m-%d %H:%M}"
    found = sample_at(
        context.timestamps.get(channel, []),
        context.time_series_data.get(channel, []),
        (context.severity or {}).get(channel),
        moment.timestamp(),
    )

    def clock(stamp: float) -> str:
        return f"{datetime.fromtimestamp(stamp, zone):%H:%M:%S}"

    if found.valid is None and found.unknown_since is None:
        return (
            f"- `{channel}` at {when}: no archived value in the hour before "
            f"({context.start_date:%H:%M} to {moment:%H:%M})"
        )
    if found.unknown_since is not None:
        line = (
            f"- `{channel}` at {when}: **no valid value**: the archive has a gap or an INVALID "
            f"sample from {clock(found.unknown_since)} on"
        )
        if found.valid is not None:
            stamp, then, _ = found.valid
            line += (
                f"; the last valid sample before it was {value_text(then, unit, kind, labels)} "
                f"at {clock(stamp)}"
            )
        return line
    assert found.valid is not None
    stamp, then, code = found.valid
    line = (
        f"- `{channel}` at {when}: **{value_text(then, unit, kind, labels)}** "
        f"(archived sample of {clock(stamp)}"
    )
    if 0 < code < len(ALARM_SEVERITIES):
        line += f", in {ALARM_SEVERITIES[code]} alarm"
    line += ")"
    now = (context.compared_with or {}).get(channel)
    number = now.get("value") if now else None
    numeric_then = isinstance(then, int | float) and not isinstance(then, bool) and kind is None
    if (
        numeric_then
        and isinstance(number, int | float)
        and not isinstance(number, bool)
        and math.isfinite(number)
    ):
        line += "; now " + _number_text(float(number), str(now.get("units") or unit))
        line += ": " + comparison(float(number), float(then), unit)
    elif now is not None and now.get("value") is not None:
        line += f"; now {now.get('value')}"
    return line


__all__ = ["MomentSample", "comparison", "moment_line", "sample_at", "value_text"]
