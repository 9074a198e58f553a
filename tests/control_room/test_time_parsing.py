"""The time-range parser: what operators type, read the way they mean it, or a question back."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.time_parsing import (
    AmbiguousTimeRange,
    InvalidTimeRange,
    NoTimeRange,
    parse_time_range,
)

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 21, 14, 30, tzinfo=BERLIN)  # a Saturday


def at(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BERLIN)


def parse(text: str):
    return parse_time_range(text, now=NOW, tz=BERLIN)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("plot the beam current over the last 2 hours", at(21, 12, 30), NOW),
        ("past 30 minutes", at(21, 14), NOW),
        ("the last two hours", at(21, 12, 30), NOW),
        ("last 24h", at(20, 14, 30), NOW),
        ("the past hour", at(21, 13, 30), NOW),
        ("history of HCM01 over the last half hour", at(21, 14), NOW),
        ("last couple of hours", at(21, 12, 30), NOW),
        ("last week", at(14, 14, 30), NOW),
        ("2 hours of data", at(21, 12, 30), NOW),
        ("since 8:00", at(21, 8), NOW),
        ("since 8 am", at(21, 8), NOW),
        ("since 9pm", at(20, 21), NOW),
        ("since yesterday 16:00", at(20, 16), NOW),
        ("since 3 hours ago", at(21, 11, 30), NOW),
        ("today", at(21, 0), NOW),
        ("yesterday", at(20, 0), at(21, 0)),
        ("this morning", at(21, 6), at(21, 12)),
        ("last night", at(20, 18), at(21, 6)),
        ("this week", at(16, 0), NOW),
        ("from 2026-11-20 10:00 to 12:00", at(20, 10), at(20, 12)),
        ("between 10:00 and 11:30 yesterday", at(20, 10), at(20, 11, 30)),
        ("from 22:00 to 02:00", at(20, 22), at(21, 2)),
        ("from 3 hours ago to 1 hour ago", at(21, 11, 30), at(21, 13, 30)),
        ("from monday to wednesday", at(16, 0), at(19, 0)),
        ("on 20.11.2026", at(20, 0), at(21, 0)),
        ("on nov 20", at(20, 0), at(21, 0)),
        ("on 20th November 2026", at(20, 0), at(21, 0)),
        ("SR03:BPM02:X from 2026-11-20T10:00 to 2026-11-20T12:30", at(20, 10), at(20, 12, 30)),
        ("from 10:00 to 11:00 UTC yesterday", at(20, 10), at(20, 12)),
    ],
)
def test_operator_phrases_resolve_to_the_range_they_mean(text, start, end):
    parsed = parse(text)
    assert (parsed.start, parsed.end) == (start, end)
    assert parsed.timezone_name == "Europe/Berlin"
    assert parsed.start.tzinfo is not None


def test_relative_ranges_count_real_elapsed_time_across_a_dst_change():
    after_switch = datetime(2026, 10, 25, 4, 0, tzinfo=BERLIN)  # clocks went back at 03:00
    parsed = parse_time_range("last 3 hours", now=after_switch, tz=BERLIN)
    assert parsed.duration == timedelta(hours=3)
    assert parsed.end.astimezone(UTC) - parsed.start.astimezone(UTC) == timedelta(hours=3)


def test_a_clock_time_later_than_now_means_yesterday():
    parsed = parse("since 15:00")
    assert parsed.start == at(20, 15)


def test_a_range_reaching_into_the_future_stops_at_now():
    parsed = parse("from 12:00 to 18:00 today")
    assert (parsed.start, parsed.end) == (at(21, 12), NOW)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("since 8", "08:00 or 20:00"),
        ("from 8 to 10", "08:00 or 20:00"),
        ("the last few hours", "how far back"),
        ("recently", "how far back"),
        ("on 03/04/2026", "3 Apr or Mar 4"),
        ("before 10:00", "has no start"),
        ("during the last shift", "shift schedule"),
        ("the last 2 hours of yesterday", "different ranges"),
        ("now", "not a history"),
    ],
)
def test_ambiguous_ranges_ask_instead_of_guessing(text, fragment):
    with pytest.raises(AmbiguousTimeRange) as info:
        parse(text)
    assert fragment in str(info.value)
    assert info.value.suggestions, "a clarification must offer unambiguous rephrasings"
    for suggestion in info.value.suggestions:
        if "now" not in suggestion:
            parse(suggestion)  # every suggestion is itself understood


@pytest.mark.parametrize(
    "text",
    ["set HCM01 to 1.5 A", "set it to 2 amps", "read SR03C:BPM13:X", "as of"],
)
def test_text_without_a_time_is_reported_not_guessed(text):
    with pytest.raises(NoTimeRange, match="no time range found"):
        parse(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("last 0 hours", "positive amount"),
        ("tomorrow", "'tomorrow' is in the future"),
        ("tomorrow at 10:00", "'tomorrow' is in the future"),
        ("2 hours from now", "'2 hours from now' is in the future"),
        ("from 12:00 to 10:00 today", "give the earlier time first"),
        ("on 2026-02-30", "is not a date"),
        ("since 2026-12-24", "in the future"),
    ],
)
def test_impossible_ranges_say_what_is_wrong(text, fragment):
    with pytest.raises(InvalidTimeRange, match=fragment):
        parse(text)


def test_unknown_time_zone_name_is_a_clear_error():
    with pytest.raises(InvalidTimeRange, match="unknown time zone 'Mars/Olympus'"):
        parse_time_range("last hour", now=NOW, tz="Mars/Olympus")


def test_default_zone_is_the_local_zone_with_a_name():
    parsed = parse_time_range("last hour")
    assert parsed.timezone_name
    assert parsed.duration == timedelta(hours=1)


SHIFTS = (time(7), time(15), time(23))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("average lifetime over the last shift", at(20, 23), at(21, 7)),
        ("during the previous shift", at(20, 23), at(21, 7)),
        ("this shift", at(21, 7), NOW),
        ("over the current shift", at(21, 7), NOW),
    ],
)
def test_a_shift_is_read_from_the_facility_schedule(text, start, end):
    parsed = parse_time_range(text, now=NOW, tz=BERLIN, shifts=SHIFTS)
    assert (parsed.start, parsed.end) == (start, end)


def test_the_last_shift_just_after_midnight_began_the_day_before():
    parsed = parse_time_range("the last shift", now=at(22, 0, 30), tz=BERLIN, shifts=SHIFTS)
    assert (parsed.start, parsed.end) == (at(21, 15), at(21, 23))


def test_a_named_shift_is_asked_about_even_with_a_schedule():
    with pytest.raises(AmbiguousTimeRange):
        parse_time_range("the owl shift", now=NOW, tz=BERLIN, shifts=SHIFTS)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("over the weekend", at(21, 0), NOW),  # NOW is a Saturday: the weekend so far
        ("since 14h", at(21, 14), NOW),
    ],
)
def test_weekends_and_clock_times_with_an_h(text, start, end):
    from osprey_desktop.language.time_words import spoken_times

    parsed = parse(spoken_times(text))
    assert (parsed.start, parsed.end) == (start, end)


def test_the_weekend_after_it_ended():
    parsed = parse_time_range("the weekend", now=at(26, 9), tz=BERLIN)
    assert (parsed.start, parsed.end) == (at(21, 0), at(23, 0))
