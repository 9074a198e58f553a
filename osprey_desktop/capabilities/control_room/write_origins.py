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
        return f"copied from `{origin.get('channel')}` (read {value} at {when})"
    if kind == "listed":
        channel = origin.get("channel")
        return f"the {origin.get('word')} value of `{channel}` in the channel list ({value})"
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


def clock_with_date(moment: datetime) -> str:
    """A moment as the approval shows it: date and time in facility time (``machine.timezone``,
    else this computer's zone), with the zone's abbreviation."""
    from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone

    zone = configured_timezone()
    local = moment.astimezone(ZoneInfo(zone)) if zone else moment.astimezone()
    return f"{local:%Y-%m-%d %H:%M:%S %Z}".strip()


__all__ = ["clock_with_date", "describe_origin"]
