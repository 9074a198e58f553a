"""How a derived write's value is described where the operator reads it: the approval, the
answer and the audit note ("copied from `VCM07` (read 0.000 A at 10:14:03)").

Kept apart from the derivation (``derived_values``) and the operations (``write_operations``),
which both show an origin and neither of which needs the other for it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from osprey_desktop.connectors.base import to_float


def describe_origin(origin: Mapping[str, Any]) -> str:
    """Where a derived value came from, for the approval and the answer."""
    value = f"{origin.get('value'):g} {origin.get('units') or ''}".strip()
    when = _clock(origin.get("timestamp"))
    kind = origin.get("kind")
    if kind == "copy":
        offset = to_float(origin.get("offset"))
        plus = ""
        if offset:
            plus = (
                f" {'plus' if offset > 0 else 'minus'} {abs(offset):g} {origin.get('units') or ''}"
            )
        factor = to_float(origin.get("factor"))
        times = f" times {factor:g}" if factor not in (None, 1.0) else ""
        return (
            f"copied from `{origin.get('channel')}` (read {value} at {when}){times}{plus.rstrip()}"
        )
    if kind == "mean":
        read = " and ".join(
            f"`{part.get('channel')}` ({part.get('value'):g} {part.get('units') or ''})".replace(
                " )", ")"
            )
            for part in origin.get("sources") or []
        )
        return f"the mean of {read}, read at {when}"
    if kind == "listed":
        channel = origin.get("channel")
        return f"the {origin.get('word')} value of `{channel}` in the channel list ({value})"
    if kind == "archive" and isinstance(origin.get("period"), Mapping):
        period = origin["period"]
        during = held_during(
            str(period.get("words") or ""), float(period["start"]), float(period["end"])
        )
        sample = _clock(origin.get("timestamp"), dated=True)
        return (
            f"restored from the archive: the value `{origin.get('channel')}` held {during}: "
            f"{value} (since {sample})"
        )
    if kind == "archive":
        moment = _clock(origin.get("moment"), dated=True)
        sample = _clock(origin.get("timestamp"), dated=True)
        return (
            f"restored from the archive: `{origin.get('channel')}` was {value} at {moment} "
            f"(sample of {sample})"
        )
    return (
        f"condition checked: `{origin.get('channel')}` reads {value} ({when}), "
        f"{origin.get('condition')}"
    )


def _clock(stamp: Any, dated: bool = False) -> str:
    number = to_float(stamp)
    if number is None:
        return "an unknown time"
    if dated:
        return clock_with_date(datetime.fromtimestamp(number, UTC))
    return time.strftime("%H:%M:%S", time.localtime(number))


def period_span(start: float, end: float) -> str:
    """ "2026-11-26 06:00–12:00 UTC", "2026-11-25 00:00–24:00 UTC", or both dates when the
    period spans midnight ("2026-11-25 18:00 – 2026-11-26 06:00 UTC"), in facility time."""
    a, b = facility_time(start), facility_time(end)
    zone = f" {a:%Z}" if a.tzname() else ""
    if a.date() == b.date():
        return f"{a:%Y-%m-%d %H:%M}–{b:%H:%M}{zone}"
    if (b.date() - a.date()).days == 1 and (b.hour, b.minute, b.second) == (0, 0, 0):
        return f"{a:%Y-%m-%d %H:%M}–24:00{zone}"
    return f"{a:%Y-%m-%d %H:%M} – {b:%Y-%m-%d %H:%M}{zone}"


def held_during(words: str, start: float, end: float) -> str:
    """ "all of this morning, 2026-11-26 06:00–12:00 UTC"; words that are clock times already
    ("09:00 to 10:00") are said once: "throughout 2026-11-26 09:00–10:00 UTC"."""
    span = period_span(start, end)
    if not words or any(ch.isdigit() for ch in words):
        return f"throughout {span}"
    return f"all of {words}, {span}"


def facility_time(stamp: float) -> datetime:
    """Epoch seconds as a datetime in facility time (``machine.timezone``, else this computer's)."""
    from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone

    zone = configured_timezone()
    moment = datetime.fromtimestamp(stamp, UTC)
    return moment.astimezone(ZoneInfo(zone)) if zone else moment.astimezone()


def clock_with_date(moment: datetime) -> str:
    """A moment as the approval shows it: date and time in facility time (``machine.timezone``,
    else this computer's zone), with the zone's abbreviation."""
    from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone

    zone = configured_timezone()
    local = moment.astimezone(ZoneInfo(zone)) if zone else moment.astimezone()
    return f"{local:%Y-%m-%d %H:%M:%S %Z}".strip()


__all__ = ["clock_with_date", "describe_origin", "facility_time", "held_during", "period_span"]
