"""Read the time range an operator typed ("last 2 hours", "since 8:00", "yesterday").

Pure and deterministic: the built-in planner has no language model, and a wrong range
silently shows the wrong history, so anything that could be read two ways raises
``AmbiguousTimeRange`` with the readings instead of guessing. Points in time are found by
``time_points``; this module decides what range they (or a duration) describe.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from osprey_desktop.language.time_points import (
    NUMBER_PATTERN,
    NUMBER_UNIT_GAP,
    UNIT_PATTERN,
    AmbiguousTimeRange,
    InvalidTimeRange,
    NoTimeRange,
    Point,
    TimeRangeError,
    earlier,
    find_points,
    parse_number,
    unit_delta,
)

__all__ = [
    "AmbiguousTimeRange",
    "InvalidTimeRange",
    "NoTimeRange",
    "ParsedTimeRange",
    "TimeRangeError",
    "LAST_CHANGE",
    "local_timezone",
    "names_last_change",
    "parse_moment",
    "parse_time_range",
    "shift_starts",
    "strip_time_expressions",
]


@dataclass(frozen=True)
class ParsedTimeRange:
    """A resolved range: timezone-aware ``start`` < ``end`` and the words it came from."""

    start: datetime
    end: datetime
    timezone_name: str
    expression: str
    #: A moment asked about ("at 06:30", "3 hours ago"): the range is the lookback before it,
    #: so the archived value at the moment (the last sample at or before it) is inside.
    moment: datetime | None = None

    def with_expression(self, expression: str) -> ParsedTimeRange:
        """The same range, said in other words (a default window says it is one)."""
        return replace(self, expression=expression)

    @property
    def duration(self) -> timedelta:
        """Elapsed time (in UTC: same-zone subtraction would ignore a DST change)."""
        return self.end.astimezone(UTC) - self.start.astimezone(UTC)


def local_timezone() -> tuple[tzinfo, str]:
    """This computer's time zone and its IANA name (``TZ``, then ``/etc/localtime``)."""
    candidates = []
    env = os.environ.get("TZ", "").lstrip(":")
    if env:
        candidates.append(env)
    link = os.path.realpath("/etc/localtime")
    if "zoneinfo/" in link:
        candidates.append(link.split("zoneinfo/", 1)[1])
    for name in candidates:
        try:
            return ZoneInfo(name), name
        except (ZoneInfoNotFoundError, ValueError):
            continue
    fallback = datetime.now().astimezone().tzinfo or UTC
    return fallback, fallback.tzname(None) or "UTC"


def _resolve_tz(tz: tzinfo | str | None) -> tuple[tzinfo, str]:
    if tz is None:
        return local_timezone()
    if isinstance(tz, str):
        try:
            return ZoneInfo(tz), tz
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise InvalidTimeRange(
                f"unknown time zone {tz!r}: use an IANA name such as 'UTC' or 'Europe/Berlin'"
            ) from exc
    return tz, getattr(tz, "key", None) or tz.tzname(None) or "UTC"


_VAGUE = re.compile(
    r"\b(recently|lately|a while( ago)?|the other day|some time ago|"
    r"(last|past|previous)\s+(few|several|some|many)\b|(few|several)\s+(hours|days|minutes))"
)
_RELATIVE = re.compile(
    rf"\b(?:last|past|previous|preceding|recent)\s+(?:(?P<n>{NUMBER_PATTERN}){NUMBER_UNIT_GAP})?"
    rf"(?P<unit>{UNIT_PATTERN})\b"
)
_WORTH = re.compile(
    rf"\b(?P<n>{NUMBER_PATTERN}){NUMBER_UNIT_GAP}(?P<unit>{UNIT_PATTERN})\s+(?:of|worth|history)\b"
)
_PERIODS = {
    "this morning": ("today", time(6), time(12)),
    "this afternoon": ("today", time(12), time(18)),
    "this evening": ("today", time(18), None),
    "tonight": ("today", time(18), None),
    "last night": ("yesterday", time(18), time(6)),
    # "overnight" is the night that ended this morning, as "last night"
    "overnight": ("yesterday", time(18), time(6)),
    "during the night": ("yesterday", time(18), time(6)),
    "in the night": ("yesterday", time(18), time(6)),
    "yesterday morning": ("yesterday", time(6), time(12)),
    "yesterday afternoon": ("yesterday", time(12), time(18)),
    "yesterday evening": ("yesterday", time(18), None),
}
_CALENDAR = re.compile(r"\bthis\s+(week|month|year)\b")
_WEEKEND = re.compile(r"\b(?:the|this|last|past)\s+weekend\b")
# Words that place a time after now: there is no history there (nor anything to restore).
_FUTURE = re.compile(
    rf"\b(?:tomorrow|the\s+day\s+after\s+tomorrow|next\s+(?:{UNIT_PATTERN}|morning|"
    rf"afternoon|evening|night|shift)|(?:in\s+)?(?:{NUMBER_PATTERN}){NUMBER_UNIT_GAP}"
    rf"(?:{UNIT_PATTERN})\s+from\s+now)\b"
)
_RANGE_JOIN = re.compile(r"^\s*(?:to|and|until|till|through|thru|-|–)\s*$")
_SINCE = re.compile(r"\b(?:since|after|starting(?:\s+(?:at|from))?|from)\s*$")
_BEFORE = re.compile(r"\b(?:before|until|till|up to)\s*$")
_BARE_HOUR = re.compile(
    r"\b(?:since|after|from|between)\s+(\d{1,2})(?:\s*o'?clock)?\b(?!\s*[:.h]?\d)"
    rf"(?![\s-]*(?:am|pm|a\.m|p\.m|{UNIT_PATTERN})\b)"
)
#: "between 9 and 11", "from 1 to 2": both ends, offered in the morning and in the evening
_BARE_RANGE = re.compile(
    r"\b(?P<lead>between|from)\s+(?P<a>\d{1,2})(?:\s*o'?clock)?\s+(?:and|to|until|till|-)\s+"
    r"(?P<b>\d{1,2})(?:\s*o'?clock)?\b(?!\s*[:.h]?\d)"
)


def _both_readings(lowered: str, hour: int) -> list[str]:
    """What to say instead of a bare hour: the range with both ends in the morning and in
    the afternoon ("between 09:00 and 11:00", "between 21:00 and 23:00"), or the hour."""
    both = _BARE_RANGE.search(lowered)
    if both and int(both["a"]) == hour and 1 <= int(both["b"]) <= 12 and int(both["b"]) > hour:
        end = int(both["b"])
        return [
            f"between {hour:02d}:00 and {end:02d}:00",
            f"between {hour + 12:02d}:00 and {(end + 12) % 24:02d}:00",
        ]
    return [f"since {hour:02d}:00", f"since {hour + 12:02d}:00"]


#: "the lifetime at 2 o'clock" (an hour that has passed twice today): which of the two
_AT_BARE_HOUR = re.compile(r"\bat\s+(\d{1,2})\s*o'?clock\b")
_SHIFT = re.compile(r"\b(this|last|the|previous|current|night|day|owl|swing)\s+shift\b")
#: Which shift the words name, counted back from the one running now (0) to the one before (1).
_SHIFT_WHICH = {"this": 0, "current": 0, "the": 0, "last": 1, "previous": 1}


def _shift_range(
    words: str, back: int, shifts: Sequence[time], current: datetime, zone_name: str
) -> ParsedTimeRange:
    """The shift running now (``back`` 0, to now) or the one before it (1), from the
    facility's shift starts."""
    zone = current.tzinfo
    assert zone is not None
    starts = sorted(
        _at(current.date() - timedelta(days=d), clock, zone) for d in (0, 1, 2) for clock in shifts
    )
    begun = [s for s in starts if s <= current]
    start = begun[-1 - back]
    end = current if back == 0 else begun[-back]
    return _finish(start, end, current, zone_name, words)


def shift_starts(clocks: Sequence[str] | None) -> tuple[time, ...] | None:
    """ "07:00"-style shift starts as clock times (a facility's ``machine.shifts``)."""
    if not clocks:
        return None
    return tuple(time(int(c.split(":")[0]), int(c.split(":")[1])) for c in clocks)


def parse_time_range(
    text: str,
    now: datetime | None = None,
    tz: tzinfo | str | None = None,
    shifts: Sequence[time] | None = None,
) -> ParsedTimeRange:
    """The range ``text`` asks for, in ``tz`` (default: the local zone), as of ``now``.
    ``shifts``: when the facility's shifts start; without them a shift is asked about.

    Raises ``NoTimeRange`` when the text names no time, ``AmbiguousTimeRange`` when it
    could mean two things, ``InvalidTimeRange`` for an empty or future range.
    """
    zone, zone_name = _resolve_tz(tz)
    current = (now or datetime.now(UTC)).astimezone(zone)
    lowered = " ".join(text.lower().split())
    future = _FUTURE.search(lowered)
    if future:
        raise InvalidTimeRange(
            f"'{future.group(0)}' is in the future: there is no history there yet"
        )
    vague = _VAGUE.search(lowered)
    if vague:
        raise AmbiguousTimeRange(
            f"'{vague.group(0)}' does not say how far back to look",
            ["the last 2 hours", "since 08:00", "yesterday"],
        )
    shift = _SHIFT.search(lowered)
    if shift and shifts and shift.group(1) in _SHIFT_WHICH:
        which = _SHIFT_WHICH[shift.group(1)]
        return _shift_range(shift.group(0), which, shifts, current, zone_name)
    if shift:
        raise AmbiguousTimeRange(
            f"'{shift.group(0)}' depends on the shift schedule, which I do not know",
            ["since 07:00", "from 07:00 to 15:00", "the last 8 hours"],
        )
    bare = _BARE_HOUR.search(lowered)
    if bare and 1 <= int(bare.group(1)) <= 12:
        hour = int(bare.group(1))
        raise AmbiguousTimeRange(
            f"'{bare.group(0)}' could mean {hour:02d}:00 or {hour + 12:02d}:00",
            _both_readings(lowered, hour),
        )
    bare = _AT_BARE_HOUR.search(lowered)
    if bare and 1 <= int(bare.group(1)) <= 12:
        hour = int(bare.group(1)) % 12
        day = "yesterday " if re.search(r"\byesterday\b", lowered) else ""
        raise AmbiguousTimeRange(
            f"'{bare.group(0)}' could mean {hour:02d}:00 or {hour + 12:02d}:00",
            [f"{day}at {hour:02d}:00", f"{day}at {hour + 12:02d}:00"],
        )

    points = find_points(lowered, current)
    # "the lifetime now compared with 3 hours ago": "now" is the present side of a comparison
    points = [p for p in points if p.label != "now"] or points
    relative = _relative_duration(lowered)
    if relative is not None:
        others = [p for p in points if p.label not in ("today", "now")]
        if others:
            raise AmbiguousTimeRange(
                f"'{relative[1]}' and '{others[0].text}' describe different ranges",
                [relative[1], others[0].text],
            )
        start = earlier(current, relative[0])
        return _finish(start, current, current, zone_name, relative[1])

    if _WEEKEND.search(lowered):
        # the last Saturday and Sunday: to now while it lasts, to Monday 00:00 after it
        today = current.date()
        saturday = today - timedelta(days=(today.weekday() - 5) % 7)
        start = _at(saturday, time(0), zone)
        end = min(current, _at(saturday + timedelta(days=2), time(0), zone))
        return _finish(start, end, current, zone_name, _WEEKEND.search(lowered).group(0))

    calendar = _CALENDAR.search(lowered)
    if calendar:
        today = current.date()
        first = today.replace(day=1) if calendar.group(1) == "month" else today
        if calendar.group(1) == "week":
            first = today - timedelta(days=today.weekday())
        elif calendar.group(1) == "year":
            first = today.replace(month=1, day=1)
        return _finish(_at(first, time(0), zone), current, current, zone_name, calendar.group(0))

    for phrase, (day_word, start_t, end_t) in _PERIODS.items():
        if phrase in lowered:
            day = current.date() - timedelta(days=1 if day_word == "yesterday" else 0)
            clocks = [p for p in points if p.clock is not None and p.day is None]
            if clocks and all(c.exact is None for c in clocks):
                # "this morning at 08:00", "from 8:00 to 10:00 this morning": the clock
                # times on the period's day
                dated = [
                    Point(
                        c.start,
                        c.end,
                        f"{phrase} at {c.text}" if len(clocks) == 1 else c.text,
                        c.label,
                        day=day,
                        clock=c.clock,
                        zone=c.zone,
                    )
                    for c in clocks
                ]
                return _from_points(lowered, dated, current, zone, zone_name)
            start = _at(day, start_t, zone)
            end_day = day + timedelta(days=1) if end_t is None or end_t < start_t else day
            end = _at(end_day, end_t or time(0), zone)
            return _finish(start, end, current, zone_name, phrase)

    if not points:
        raise NoTimeRange(f"no time range found in {text.strip()!r}")
    return _from_points(lowered, points, current, zone, zone_name)


#: "before my change", "before the last write": the moment right before the operator's own
#: latest write, which only the audit log knows (``derived_values.last_change_moment``).
LAST_CHANGE = re.compile(
    r"\bbefore\s+(?:my|our|your|the|that)\s+(?:last\s+|latest\s+|previous\s+|recent\s+)?"
    r"(?:change|write|edit|adjustment|setting|put)s?\b",
    re.I,
)


def names_last_change(text: str) -> bool:
    """Whether ``text`` names the moment before the operator's own latest write."""
    return LAST_CHANGE.search(text) is not None


_MOMENT_LEAD = re.compile(r"^\s*(?:(?:from|at|as\s+of|on|of)\s+)+")


def parse_moment(
    text: str, now: datetime | None = None, tz: tzinfo | str | None = None
) -> datetime:
    """The instant ``text`` names ("09:30", "from 09:30", "a minute ago", "yesterday at
    14:00"), with its date, in ``tz``.

    Unlike ``parse_time_range``, "from 09:30" is the moment 09:30, not the range since then.
    Raises ``InvalidTimeRange`` for a future instant or a period that is not one moment
    ("yesterday"), and what ``parse_time_range`` raises for anything else it cannot read.
    """
    words = _MOMENT_LEAD.sub("", " ".join(text.split()))
    parsed = parse_time_range(words, now=now, tz=tz)
    if parsed.moment is None:
        raise InvalidTimeRange(
            f"'{parsed.expression}' is a period ({parsed.start:%Y-%m-%d %H:%M} to "
            f"{parsed.end:%Y-%m-%d %H:%M}), not one moment: say the time too, e.g. "
            f"'{parsed.expression} at 14:00'"
        )
    return parsed.moment


#: The longest lead into a time expression ("starting from the ") fits in this many characters.
_LINK_WINDOW = 40
_TIME_LINKS = re.compile(
    r"\b(?:since|from|between|until|till|before|after|over|during|for|in|of|on|at)"
    r"(?:\s+the)?\s*$"
)


def strip_time_expressions(text: str, now: datetime | None = None) -> str:
    """``text`` with every time expression (and the word leading into it) blanked out.

    Channel finding uses it so "the last 2 hours" or "since 8:00" never look like part of a
    channel's description. Lower-cases the text; never raises.
    """
    lowered = " ".join(text.lower().split())
    current = now or datetime.now(UTC)
    spans = [m.span() for m in _RELATIVE.finditer(lowered)]
    spans += [m.span() for m in _WORTH.finditer(lowered)]
    spans += [m.span() for m in _CALENDAR.finditer(lowered)]
    spans += [m.span() for m in _WEEKEND.finditer(lowered)]
    spans += [m.span() for m in _SHIFT.finditer(lowered)]
    spans += [m.span() for m in _VAGUE.finditer(lowered)]
    spans += [m.span() for m in _FUTURE.finditer(lowered)]
    spans += [m.span() for m in LAST_CHANGE.finditer(lowered)]
    spans += [m.span() for p in _PERIODS for m in re.finditer(rf"\b{p}\b", lowered)]
    # An ambiguous date raises: its words then simply stay in the text.
    with contextlib.suppress(TimeRangeError):
        spans += [(p.start, p.end) for p in find_points(lowered, current)]
    chars = list(lowered)
    for start, end in sorted(spans):
        # only the words just before the span (a search of the whole prefix per span would
        # be quadratic in a long text); the window starts at a space, so no word is cut
        window = max(0, start - _LINK_WINDOW)
        if window:
            window = lowered.find(" ", window - 1, start) + 1 or start
        link = _TIME_LINKS.search(lowered, window, start)
        begin = link.start() if link else start
        for i in range(begin, end):
            chars[i] = " "
    return " ".join("".join(chars).split())


def _relative_duration(lowered: str) -> tuple[timedelta, str] | None:
    match = _RELATIVE.search(lowered) or _WORTH.search(lowered)
    if match is None or re.search(r"\bthis\s+time\s+$", lowered[: match.start()]):
        return None  # "this time last week": a moment, not the week
    count = parse_number(match.group("n")) if match.group("n") else 1.0
    if count <= 0:
        raise InvalidTimeRange(f"'{match.group(0)}' is an empty range: use a positive amount")
    return unit_delta(match.group("unit"), count), match.group(0)


def _from_points(
    lowered: str, points: list[Point], current: datetime, zone: tzinfo, zone_name: str
) -> ParsedTimeRange:
    if len(points) >= 2:
        first, second = points[0], points[1]
        if _RANGE_JOIN.match(lowered[first.end : second.start]):
            return _between(lowered, first, second, points[2:], current, zone, zone_name)
    point = points[0]
    before = lowered[: point.start]
    if _BEFORE.search(before):
        raise AmbiguousTimeRange(
            f"'{before.split()[-1]} {point.text}' has no start",
            [f"from 00:00 to {point.text}"],
        )
    start_of_day = point.day is not None and point.clock is None and point.exact is None
    since = _SINCE.search(before)
    if since:
        start = _resolve_start(point, point.day, current, zone)
        return _finish(start, current, current, zone_name, lowered[since.start() : point.end])
    if point.label == "now":
        raise AmbiguousTimeRange(
            "'now' is the present value, not a history",
            ["the last 10 minutes", "the last hour"],
        )
    if start_of_day:
        start = _at(point.day, time(0), zone)
        end = _at(point.day + timedelta(days=1), time(0), zone)
        return _finish(start, end, current, zone_name, point.text)
    return _moment(point, current, zone, zone_name)


MOMENT_LOOKBACK = timedelta(hours=1)
"""How far before a moment its value is looked for: archives store on change, so the sample
that holds at 06:30 may be older than 06:30."""


def _moment(point: Point, current: datetime, zone: tzinfo, zone_name: str) -> ParsedTimeRange:
    """A single moment ("at 06:30", "3 hours ago", "yesterday at 14:00")."""
    moment = _resolve_start(point, point.day, current, zone).astimezone(current.tzinfo)
    if moment > current:
        raise InvalidTimeRange(
            f"'{point.text}' is {moment:%Y-%m-%d %H:%M}, which is in the future: there is no "
            "history there yet"
        )
    parsed = _finish(moment - MOMENT_LOOKBACK, moment, current, zone_name, point.text)
    return ParsedTimeRange(parsed.start, parsed.end, zone_name, point.text, moment=moment)


def _between(
    lowered: str,
    first: Point,
    second: Point,
    rest: list[Point],
    current: datetime,
    zone: tzinfo,
    zone_name: str,
) -> ParsedTimeRange:
    """A "from A to B" range: a side without a date borrows the other's (or a later one's)."""
    shared_day = first.day or second.day or next((p.day for p in rest if p.clock is None), None)
    expression = lowered[first.start : second.end]
    if shared_day is None and first.exact is not None:
        shared_day = first.exact.date()
    start = _resolve_start(first, first.day or shared_day, current, zone)
    if second.exact is not None:
        end = second.exact
    else:
        # A side without a date borrows the start's day ("from 10:00 to 12:00").
        end_day = second.day or start.date()
        if second.clock is None:
            end = _at(end_day + timedelta(days=1), time(0), zone)
        else:
            end = _at(end_day, second.clock, second.zone or zone)
            if end <= start and second.day is None:
                end = _at(end_day + timedelta(days=1), second.clock, second.zone or zone)
    return _finish(start, end, current, zone_name, expression)


def _resolve_start(point: Point, day: date | None, current: datetime, zone: tzinfo) -> datetime:
    """The start a point names; a bare clock time is its most recent past occurrence."""
    if point.exact is not None:
        return point.exact
    zone = point.zone or zone
    if day is None:
        day = current.astimezone(zone).date()
        if point.clock is not None and _at(day, point.clock, zone) > current:
            day -= timedelta(days=1)
    return _at(day, point.clock or time(0), zone)


def _at(day: date, clock: time, zone: tzinfo) -> datetime:
    return datetime.combine(day, clock, tzinfo=zone)


def _finish(
    start: datetime, end: datetime, current: datetime, zone_name: str, expression: str
) -> ParsedTimeRange:
    zone = current.tzinfo
    start, end = start.astimezone(zone), end.astimezone(zone)
    if start >= current:
        raise InvalidTimeRange(
            f"'{expression}' starts at {start:%Y-%m-%d %H:%M}, which is in the future: "
            "there is no history there yet"
        )
    end = min(end, current)
    if end <= start:
        raise InvalidTimeRange(
            f"'{expression}' ends ({end:%Y-%m-%d %H:%M}) before it starts "
            f"({start:%Y-%m-%d %H:%M}): give the earlier time first"
        )
    return ParsedTimeRange(start=start, end=end, timezone_name=zone_name, expression=expression)
