"""Clock hours qualified by their words resolve to instants; an unqualified hour does not."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.times import find_clock_spans, replace_clock_spans

ZONE = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZONE)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("between 1 and 2 pm", "from 2026-11-26 13:00 to 2026-11-26 14:00"),
        ("between 11 and 1 pm", "from 2026-11-26 11:00 to 2026-11-26 13:00"),
        ("between 11 pm and 1 am", "from 2026-11-25 23:00 to 2026-11-26 01:00"),
        ("since 7 this morning", "since 2026-11-26 07:00"),
        ("from 10 last night", "since 2026-11-25 22:00"),
        ("from 2 last night", "since 2026-11-26 02:00"),
        ("since 9 pm yesterday", "since 2026-11-25 21:00"),
        ("at 3 pm yesterday", "at 2026-11-25 15:00"),
        ("yesterday at noon", "at 2026-11-25 12:00"),
        ("at 2 this afternoon", "at 2026-11-26 14:00"),
        ("since nine a.m.", "since 2026-11-26 09:00"),
    ],
)
def test_qualified_hours_become_absolute_times(text, canonical):
    spans = find_clock_spans(text, NOW)
    assert len(spans) == 1
    assert replace_clock_spans(text, spans) == canonical


def test_a_later_hour_today_means_yesterday():
    (span,) = find_clock_spans("since 6 pm", NOW)
    assert span.first == datetime(2026, 11, 25, 18, 0, tzinfo=ZONE)


@pytest.mark.parametrize("text", ["since 7", "between 9 and 11", "since 08:00", "2 hours ago"])
def test_an_hour_without_qualifying_words_is_left_to_the_time_parser(text):
    assert find_clock_spans(text, NOW) == []


def test_now_must_carry_its_zone():
    with pytest.raises(ValueError, match="timezone-aware"):
        find_clock_spans("since 7 pm", datetime(2026, 11, 26, 15, 30))


def test_a_value_from_a_qualified_hour_is_that_moment_not_a_period():
    (span,) = find_clock_spans("put VCM22 back to its value from 6 this morning", NOW)
    assert span.kind == "moment"
    assert span.canonical() == "at 2026-11-26 06:00"


def test_a_day_said_apart_from_its_hour_is_absorbed_by_it():
    text = "put QF7 back to yesterday's value at 10 pm"
    spans = find_clock_spans(text, NOW)
    assert replace_clock_spans(text, spans) == "put QF7 back to value at 2026-11-25 22:00"


def test_a_day_said_beside_a_range_of_hours_moves_the_range_to_that_day():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from osprey_desktop.language.request import parse_request

    now = datetime(2026, 11, 26, 17, 0, tzinfo=ZoneInfo("UTC"))
    for text in (
        "plot lt yesterday from 14:00 to 16:00",
        "plot lt from 14:00 to 16:00 yesterday",
        "plot lt yesterday 14-16h",
        "plot lt yesterday between 2 and 4 pm",
    ):
        request = parse_request(text, None, now)
        assert request.time.canonical == "from 2026-11-25 14:00 to 2026-11-25 16:00", text
        assert "yesterday" not in request.canonical, text  # the range holds the day now
    today = parse_request("plot lt from 2 to 4 pm today", None, now)
    assert today.time.canonical == "from 2026-11-26 14:00 to 2026-11-26 16:00"


@pytest.mark.parametrize("hour", [13, 15, 16, 23])
def test_an_hour_since_qualified_by_its_part_of_the_day_is_read_whole_at_any_time(hour):
    from osprey_desktop.language.request import parse_request

    now = datetime(2026, 11, 26, hour, 6, tzinfo=ZONE)
    request = parse_request("energy since 3 in the afternoon", None, now)
    assert request.targets == ("energy",) and request.time is not None
    assert request.time.canonical.endswith("15:00")


def test_hours_of_a_range_said_in_words_are_hours_and_devices_stay_devices():
    from osprey_desktop.language.time_words import spoken_clock_times

    assert spoken_clock_times("beam current between nine and eleven") == (
        "beam current between 9 and 11"
    )
    assert spoken_clock_times("correctors between one and three") == (
        "correctors between one and three"
    )
