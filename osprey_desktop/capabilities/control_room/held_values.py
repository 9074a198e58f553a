"""What a channel held during a period, from the archive: each value in force and when it began.

"restore QD8 to its value from this morning" names a period, not an instant: the value meant is
the one the channel held during it. Only a channel that held one value throughout has one; a
channel that changed is asked about, never guessed (``derived_values``). The approval and the
check right before sending (``write_rederivation``) both read the period here, the same way:
the sample in force at its start plus every sample stamped inside it, raw from the archive.
Nothing here writes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from osprey_desktop.capabilities.control_room.write_operations import (
    moved_beyond_precision,
    show_reading,
)
from osprey_desktop.capabilities.control_room.write_origins import facility_time
from osprey_desktop.connectors.base import to_float

#: At most this many values are listed in a question; the rest are counted.
LISTED = 5


@dataclass(frozen=True)
class HeldValue:
    """One value in force during the period, since its sample's stamp (which may lie before
    the period: the sample in force at its start). ``value`` None: no valid value (a gap)."""

    value: float | None
    since: float


@dataclass(frozen=True)
class PeriodValues:
    """The values ``channel`` held from ``start`` to ``end`` (epoch seconds), oldest first."""

    channel: str
    start: float
    end: float
    held: tuple[HeldValue, ...]
    units: str = ""
    precision: int | None = None
    #: The archive gave bin summaries, not samples: when the value changed is not known.
    summarised: bool = False

    @property
    def single(self) -> HeldValue | None:
        """The one valid value held all period, or None (several, a gap, or none at all)."""
        if len(self.held) == 1 and self.held[0].value is not None:
            return self.held[0]
        return None


async def values_held(
    archiver: Any, channels: Sequence[str], start: datetime, end: datetime
) -> dict[str, PeriodValues]:
    """What each channel held from ``start`` to ``end``. Raises what the archiver raises."""
    at_start = await archiver.values_at(list(channels), start)
    data = await archiver.get_data(list(channels), start, end)
    t0, t1 = start.timestamp(), end.timestamp()
    out: dict[str, PeriodValues] = {}
    for channel in channels:
        first = at_start.get(channel)
        series = data.series.get(channel)
        samples: list[tuple[float, float | None]] = []
        if first is not None:
            samples.append((float(first.timestamp), _number(first.value)))
        summarised = False
        if series is not None:
            summarised = series.processing != "raw" or series.minimum is not None
            for stamp, value in _sampled(series):
                # the sample in force at the start stands for everything stamped up to it
                inside = t0 < stamp <= t1 if first is not None else t0 <= stamp <= t1
                if inside:
                    samples.append((stamp, value))
        units = str(getattr(series, "units", "") or getattr(first, "units", "") or "")
        precision = getattr(series, "precision", None)
        if precision is None:
            precision = getattr(first, "precision", None)
        out[channel] = PeriodValues(
            channel, t0, t1, _runs(samples, precision), units, precision, summarised
        )
    return out


def _number(value: Any) -> float | None:
    number = to_float(value)
    return number if number is not None and math.isfinite(number) else None


def _sampled(series: Any) -> list[tuple[float, float | None]]:
    """(stamp, value) of each sample; a bin of a binned series gives its minimum and its
    maximum (a bin whose envelope is not flat holds a change, even one that came back)."""
    stamps = series.timestamps.astype(float).tolist()
    values = [_number(v) for v in series.values.tolist()]
    if series.minimum is None or series.maximum is None:
        return list(zip(stamps, values, strict=True))
    out: list[tuple[float, float | None]] = []
    for stamp, low, high in zip(
        stamps, series.minimum.tolist(), series.maximum.tolist(), strict=True
    ):
        out += [(stamp, _number(low)), (stamp, _number(high))]
    return out


def _runs(
    samples: Sequence[tuple[float, float | None]], precision: int | None
) -> tuple[HeldValue, ...]:
    """Consecutive samples equal within the channel's precision, as one held value each."""
    runs: list[HeldValue] = []
    for stamp, value in sorted(samples, key=lambda s: s[0]):
        if runs and _same(runs[-1].value, value, precision):
            continue
        runs.append(HeldValue(value, stamp))
    return tuple(runs)


def _same(a: float | None, b: float | None, precision: int | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return not moved_beyond_precision(a, b, precision)


# -- how a period and its values are said ------------------------------------------------------


def describe_held(period: PeriodValues) -> str:
    """ "95.00 A until 09:12, 96.00 A from 09:12": each value and when it began."""
    if period.summarised:
        numbers = [h.value for h in period.held if h.value is not None]
        if not numbers:
            return "no valid value"
        low, high = min(numbers), max(numbers)
        shown = [show_reading(v, period.units, period.precision) for v in (low, high)]
        return f"values from {shown[0]} to {shown[1]} (the archive gave only summaries)"
    parts = []
    for index, held in enumerate(period.held[:LISTED]):
        shown = (
            "no valid value"
            if held.value is None
            else show_reading(held.value, period.units, period.precision)
        )
        if index == 0 and len(period.held) > 1:
            parts.append(f"{shown} until {_clock(period.held[1].since, period)}")
        elif index == 0:
            parts.append(shown)
        else:
            parts.append(f"{shown} from {_clock(held.since, period)}")
    more = len(period.held) - LISTED
    if more > 0:
        parts.append(f"and {more} more change{'s' if more != 1 else ''}")
    return ", ".join(parts)


def moments_inside(period: PeriodValues) -> list[str]:
    """A moment inside each listed value's time, said so that ``parse_moment`` reads it back
    as that value ("09:13" for a value set at 09:12:31: 09:12 would still be the one before)."""
    if period.summarised:
        return []
    out = []
    listed = period.held[:LISTED]
    for index, held in enumerate(listed):
        if held.value is None:
            continue
        begins = max(held.since, period.start)
        ends = period.held[index + 1].since if index + 1 < len(period.held) else period.end
        minute = math.ceil(begins / 60.0) * 60.0
        second = math.ceil(begins)
        if minute < ends or minute == begins:
            out.append(_said(minute, with_seconds=False))
        elif second < ends or second == begins:
            out.append(_said(second, with_seconds=True))
    return out


def _said(stamp: float, *, with_seconds: bool) -> str:
    """A moment as an operator types it: the clock today, else the date and the clock."""
    local = facility_time(stamp)
    clock = f"{local:%H:%M:%S}" if with_seconds else f"{local:%H:%M}"
    if local.date() == datetime.now(local.tzinfo).date():
        return clock
    return f"{local:%Y-%m-%d} {clock}"


def _clock(stamp: float, period: PeriodValues) -> str:
    """A change's time: the clock when the period lies in one day, else with the date."""
    local = facility_time(stamp)
    one_day = facility_time(period.start).date() == facility_time(period.end).date()
    clock = f"{local:%H:%M}" if local.second == 0 else f"{local:%H:%M:%S}"
    return clock if one_day else f"{local:%Y-%m-%d} {clock}"


__all__ = [
    "HeldValue",
    "PeriodValues",
    "describe_held",
    "moments_inside",
    "values_held",
]
