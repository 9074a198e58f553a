"""Find the points in time an operator's sentence names: dates, clock times, "2 hours ago".

Kept apart from the range logic in ``time_parsing`` so each stays small. Every pattern is
anchored away from letters and colons so channel names such as ``SR03:BPM02:X`` or values
such as "2 amps" are never read as times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from osprey_desktop.language.numbers import NUMBER_WORDS, words_pattern


class TimeRangeError(ValueError):
    """The text's time range cannot be used; the message says why and what to type."""


class NoTimeRange(TimeRangeError):
    """The text names no time at all."""


class InvalidTimeRange(TimeRangeError):
    """The range is empty, reversed, in the future, or names an impossible date."""


class AmbiguousTimeRange(TimeRangeError):
    """The text could mean several ranges; ``suggestions`` are unambiguous rephrasings."""

    def __init__(self, reason: str, suggestions: list[str] | None = None) -> None:
        self.reason = reason
        self.suggestions = list(suggestions or [])
        hint = f" Try: {', '.join(repr(s) for s in self.suggestions)}." if self.suggestions else ""
        super().__init__(f"The time range is ambiguous: {reason}.{hint}")


# Quantities only a duration takes ("a couple of hours", "half an hour"), on top of the
# shared number words.
_NUMBER_WORDS: dict[str, float] = {
    **NUMBER_WORDS,
    "a": 1,
    "an": 1,
    "couple of": 2,
    "a couple of": 2,
    "half an": 0.5,
    "half a": 0.5,
    "half": 0.5,
}
NUMBER_PATTERN = r"\d+(?:\.\d+)?|" + words_pattern(_NUMBER_WORDS)
# Digits may touch their unit ("24h"); a number word needs a space ("two hours", not "as").
NUMBER_UNIT_GAP = r"(?:(?<=\d)\s*|[\s-]+)"
UNIT_PATTERN = (
    r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|s|m|h|d|w"
)
_UNIT_SECONDS = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hr": 3600,
    "hour": 3600,
    "d": 86400,
    "day": 86400,
    "w": 604800,
    "wk": 604800,
    "week": 604800,
    "month": 30 * 86400,
    "year": 365 * 86400,
}


def parse_number(word: str) -> float:
    """A count typed as digits or words ("2", "2.5", "two", "a couple of", "half an")."""
    word = word.strip()
    return float(_NUMBER_WORDS[word]) if word in _NUMBER_WORDS else float(word)


def unit_delta(unit: str, count: float) -> timedelta:
    """``count`` of ``unit`` (any spelling of UNIT_PATTERN); a month is 30 days, a year 365."""
    key = unit.rstrip("s") if len(unit) > 1 else unit
    return timedelta(seconds=_UNIT_SECONDS[key] * count)


def earlier(moment: datetime, delta: timedelta) -> datetime:
    """``moment - delta`` in elapsed time, so "last 3 hours" is 3 hours across a DST change."""
    return (moment.astimezone(UTC) - delta).astimezone(moment.tzinfo)


@dataclass
class Point:
    """A point named in the text: a day, a clock time, both, or an exact instant."""

    start: int
    end: int
    text: str
    label: str
    day: date | None = None
    clock: time | None = None
    exact: datetime | None = None
    zone: tzinfo | None = None  # set when the text names one ("10:00 UTC")


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH_RE = (
    r"(january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
)
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_AMPM = r"(am|pm|a\.m\.|p\.m\.)"
_LEFT = r"(?<![\w:.\-/])"

_CLOCK_RE = re.compile(
    r"(?:(?<![\w:.\-/])|(?<=\dt))"  # also the clock of an ISO "2026-11-20T10:00"
    + r"(\d{1,2})[:h](\d{2})(?::(\d{2}))?(?:\s*"
    + _AMPM
    + r"(?!\w))?(\s*(?:utc|z)\b)?(?![\d:])"
)
_HOUR_AMPM_RE = re.compile(_LEFT + r"(\d{1,2})\s*" + _AMPM + r"(?!\w)(\s*utc\b)?")
_NAMED_CLOCK_RE = re.compile(r"\b(noon|midday|midnight)\b")
_ISO_RE = re.compile(_LEFT + r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?![\d])")
_NUMERIC_DATE_RE = re.compile(_LEFT + r"(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?!\d)")
_DAY_MONTH_RE = re.compile(
    _LEFT + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_RE + r"(?:,?\s+(\d{4}))?\b"
)
_MONTH_DAY_RE = re.compile(
    r"\b" + _MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?!\s*[:h]\d)(?:,?\s+(\d{4}))?\b"
)
#: "on the 25th", "since the 3rd": a day of this month (of the last, while it is still ahead)
_DAY_OF_MONTH_RE = re.compile(
    r"(?:(?<=\bon\s)|(?<=\bsince\s)|(?<=\bfrom\s)|(?<=\buntil\s)|(?<=\btill\s)|(?<=\bbefore\s)|"
    r"(?<=\bafter\s)|(?<=\bto\s))the\s+(\d{1,2})(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\s+)?" + _MONTH_RE + r")"
)
_DAY_WORD_RE = re.compile(r"\b(the day before yesterday|yesterday|today|tonight|now)\b")
_WEEKDAY_RE = re.compile(r"\b(?:(last|on)\s+)?(" + "|".join(_WEEKDAYS) + r")\b")
_AGO_RE = re.compile(
    r"\b(" + NUMBER_PATTERN + r")" + NUMBER_UNIT_GAP + r"(" + UNIT_PATTERN + r")\s+ago\b"
)
_JOIN_RE = re.compile(r"^(?:\s*,?\s*(?:at|on)?\s*|t)$")


def find_points(lowered: str, current: datetime) -> list[Point]:
    """Every point named in ``lowered`` (already lower-cased), in reading order.

    A day and a clock time next to each other ("yesterday at 10:00", "2026-11-20 10:00")
    become one point. Raises ``AmbiguousTimeRange`` for day/month orders that could be
    read both ways and ``InvalidTimeRange`` for dates that do not exist.
    """
    found: list[Point] = []
    found += _clock_points(lowered)
    found += _date_points(lowered, current)
    found += _relative_points(lowered, current)
    found.sort(key=lambda p: (p.start, -(p.end - p.start)))
    points: list[Point] = []
    for point in found:
        if points and point.start < points[-1].end:
            continue  # overlaps a longer match already taken
        points.append(point)
    return _merge_day_and_clock(lowered, points)


def _clock_points(lowered: str) -> list[Point]:
    points = []
    for m in _CLOCK_RE.finditer(lowered):
        clock = _clock(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), m.group(4))
        if clock is not None:
            points.append(_clock_point(m, clock, bool(m.group(5))))
    for m in _HOUR_AMPM_RE.finditer(lowered):
        clock = _clock(int(m.group(1)), 0, 0, m.group(2))
        if clock is not None:
            points.append(_clock_point(m, clock, bool(m.group(3))))
    for m in _NAMED_CLOCK_RE.finditer(lowered):
        clock = time(0) if m.group(1) == "midnight" else time(12)
        points.append(Point(m.start(), m.end(), m.group(0), "clock", clock=clock))
    return points


def _clock_point(m: re.Match[str], clock: time, utc: bool) -> Point:
    zone = UTC if utc else None
    return Point(m.start(), m.end(), m.group(0).strip(), "clock", clock=clock, zone=zone)


def _clock(hour: int, minute: int, second: int, ampm: str | None) -> time | None:
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm.startswith("p") else 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return time(hour, minute, second)


def _date_points(lowered: str, current: datetime) -> list[Point]:
    today = current.date()
    points = []
    for m in _ISO_RE.finditer(lowered):
        day = _make_date(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(0))
        points.append(Point(m.start(), m.end(), m.group(0), "date", day=day))
    for m in _NUMERIC_DATE_RE.finditer(lowered):
        a, sep, b, year = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
        if sep == "." or a > 12:
            day = _make_date(year, b, a, m.group(0))
        elif b > 12 or a == b:
            day = _make_date(year, a, b, m.group(0))
        else:
            raise AmbiguousTimeRange(
                f"'{m.group(0)}' could be {a} {_month_name(b)} or {_month_name(a)} {b}",
                [f"{year}-{b:02d}-{a:02d}", f"{year}-{a:02d}-{b:02d}"],
            )
        points.append(Point(m.start(), m.end(), m.group(0), "date", day=day))
    for m in _DAY_MONTH_RE.finditer(lowered):
        day = _month_date(int(m.group(1)), m.group(2), m.group(3), today, m.group(0))
        points.append(Point(m.start(), m.end(), m.group(0), "date", day=day))
    for m in _MONTH_DAY_RE.finditer(lowered):
        day = _month_date(int(m.group(2)), m.group(1), m.group(3), today, m.group(0))
        points.append(Point(m.start(), m.end(), m.group(0), "date", day=day))
    for m in _DAY_OF_MONTH_RE.finditer(lowered):
        day = _day_of_month(int(m.group(1)), today, m.group(0))
        points.append(Point(m.start(), m.end(), m.group(0), "date", day=day))
    for m in _DAY_WORD_RE.finditer(lowered):
        word = m.group(1)
        if word == "now":
            points.append(Point(m.start(), m.end(), word, "now", exact=current))
            continue
        back = {"today": 0, "tonight": 0, "yesterday": 1, "the day before yesterday": 2}[word]
        points.append(Point(m.start(), m.end(), word, word, day=today - timedelta(days=back)))
    for m in _WEEKDAY_RE.finditer(lowered):
        back = (today.weekday() - _WEEKDAYS.index(m.group(2))) % 7
        if back == 0 and m.group(1) == "last":
            back = 7
        points.append(Point(m.start(), m.end(), m.group(0), "date", day=today - timedelta(back)))
    return points


#: "this time yesterday", "this time last week": now, that long ago
_THIS_TIME_RE = re.compile(r"\bthis\s+time\s+(yesterday|last\s+week)\b")


def _relative_points(lowered: str, current: datetime) -> list[Point]:
    points = []
    for m in _THIS_TIME_RE.finditer(lowered):
        back = timedelta(days=1 if m.group(1) == "yesterday" else 7)
        points.append(Point(m.start(), m.end(), m.group(0), "ago", exact=current - back))
    for m in _AGO_RE.finditer(lowered):
        moment = earlier(current, unit_delta(m.group(2), parse_number(m.group(1))))
        points.append(Point(m.start(), m.end(), m.group(0), "ago", exact=moment))
    return points


def _make_date(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError as exc:
        raise InvalidTimeRange(f"'{text}' is not a date: {exc}") from exc


def _month_name(month: int) -> str:
    return _MONTHS[month - 1].capitalize() if 1 <= month <= 12 else str(month)


def _month_date(day: int, month_word: str, year: str | None, today: date, text: str) -> date:
    month = _MONTHS.index(month_word[:3]) + 1
    if year:
        return _make_date(int(year), month, day, text)
    candidate = _make_date(today.year, month, day, text)
    # Without a year, the most recent past occurrence.
    return candidate if candidate <= today else _make_date(today.year - 1, month, day, text)


def _day_of_month(day: int, today: date, text: str) -> date:
    """The day of this month, or of the month before when it is still ahead."""
    if day <= today.day:
        return _make_date(today.year, today.month, day, text)
    first = today.replace(day=1) - timedelta(days=1)  # the last day of the month before
    return _make_date(first.year, first.month, day, text)


def _merge_day_and_clock(lowered: str, points: list[Point]) -> list[Point]:
    merged: list[Point] = []
    for point in points:
        if merged and _joinable(lowered, merged[-1], point):
            prev = merged[-1]
            merged[-1] = Point(
                prev.start,
                point.end,
                lowered[prev.start : point.end],
                "datetime",
                day=prev.day or point.day,
                clock=prev.clock or point.clock,
                zone=prev.zone or point.zone,
            )
        else:
            merged.append(point)
    return merged


def _joinable(lowered: str, prev: Point, point: Point) -> bool:
    """A bare day next to a bare clock time, separated by nothing more than "at"/"on"/","."""
    kinds = {prev.label == "clock", point.label == "clock"}
    bare_day = any(p.day is not None and p.clock is None for p in (prev, point))
    exact = prev.exact is not None or point.exact is not None
    gap = lowered[prev.end : point.start]
    return kinds == {True, False} and bare_day and not exact and bool(_JOIN_RE.match(gap))
