"""A way said alone, an hour said alone, and a value asked of the write limits.

"VCM 3 down pls" and "QD 40 ↑ ?" are changes whose amount is asked; "at 2" when 02:00 and
14:00 have both passed is an hour to ask about ("at 9" at 15:30 is this morning's);
"is 0.4 inside the limits for hcm12?" is answered from the write policy.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.questions import asks_for_limits
from osprey_desktop.language.request import parse_request
from osprey_desktop.language.time_parsing import parse_time_range
from osprey_desktop.language.time_points import AmbiguousTimeRange
from tests.support.request_words import NOW, WORDS, parse


@pytest.mark.parametrize(
    "text", ["VCM 3 down pls", "please VCM 3 down", "HCM 3 up please", "QD 40 ↑ ?", "QD 40 ↑"]
)
def test_a_way_said_alone_is_a_change_whose_amount_is_asked(text):
    request = parse(text)
    assert request.intent == "write" and request.quantity is None


def test_an_arrow_with_an_amount_is_that_change():
    request = parse("HCM 3 ↓ 0.1")
    assert request.changes and request.quantity is not None and request.quantity.value == -0.1


@pytest.mark.parametrize(
    "text",
    ["what was the lifetime at 2?", "lifetime at 1 o'clock?", "IG13 at 3 o'clock for the report"],
)
def test_an_hour_that_has_passed_twice_today_is_asked(text):
    request = parse(text)
    assert request.time is not None
    with pytest.raises(AmbiguousTimeRange, match="could mean"):
        parse_time_range(request.time.canonical, now=NOW)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("what was the lifetime at 9?", "at 09:00"),  # 21:00 has not come yet
        ("the beam current at 9 o'clock?", "at 09:00"),  # o'clock says a moment, no verb needed
        ("the lifetime at 2 this afternoon", "14:00"),  # the part of the day says which
    ],
)
def test_an_hour_that_passed_once_today_or_is_qualified_is_that_moment(text, said):
    request = parse(text)
    assert request.time is not None and said in request.time.canonical


def test_a_change_at_an_hour_is_for_later_never_a_moment_read():
    request = parse("set HCM3 to 0.2 at 3 o'clock")
    assert request.intent != "history"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("get me the lifetime for the logbook", "get me the lifetime"),
        ("IG13 pressure for the incident report", "IG13 pressure"),
        ("set hcm 3 to 0.2 for the handover notes", "set HCM3 to 0.2"),
    ],
)
def test_where_the_answer_goes_is_no_part_of_the_request(text, canonical):
    assert parse(text).canonical == canonical


@pytest.mark.parametrize(
    "text",
    [
        "is 0.4 inside the limits for hcm12?",
        "hcm12 0.4 -- don't put, just check it's inside limits",
        "max_step for QF 3?",
    ],
)
def test_a_value_or_a_step_asked_of_the_limits_is_a_question_for_the_write_policy(text):
    assert asks_for_limits(text)


def test_a_change_whose_limits_are_its_condition_is_no_question():
    assert not asks_for_limits("is 0.4 inside the limits for hcm12? if so set it")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("ID 11 gap on Monday morning at 8", "at 2026-11-23 08:00"),
        ("lifetime at 9.30 last Thursday", "at 2026-11-19 09:30"),  # today is a Thursday
        ("QF 3 on Wednesday at 14:30", "at 2026-11-25 14:30"),
        ("QF 3 on Thursday at 16:00", "at 2026-11-19 16:00"),  # today's 16:00 is still ahead
    ],
)
def test_a_clock_time_of_a_day_of_the_week_is_that_day(text, said):
    request = parse(text)
    assert request.time is not None and request.time.canonical == said


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("plot HCM 14 since Friday", "2026-11-20 00:00", None),
        ("spread of the QF 5 readback since the 25th", "2026-11-25 00:00", None),
        ("HCM 20 sp on the 25th at 10:00", None, "2026-11-25 10:00"),
        ("lifetime since the 28th", "2026-10-28 00:00", None),  # the 28th is still ahead
    ],
)
def test_days_of_the_week_and_of_the_month_are_times(text, start, end):
    request = parse(text)
    assert request.time is not None
    found = parse_time_range(request.time.canonical, now=NOW)
    if start:
        assert f"{found.start:%Y-%m-%d %H:%M}" == start
    if end:
        assert f"{found.end:%Y-%m-%d %H:%M}" == end


def test_an_ordinal_of_a_device_is_no_day_of_the_month():
    assert parse("the 2nd corrector in sector 3").time is None


def test_an_hour_of_yesterday_read_twice_is_asked_with_its_day():
    request = parse("what was the vacuum in sector 7 at 3 yesterday")
    assert request.time is not None
    with pytest.raises(AmbiguousTimeRange) as asked:
        parse_time_range(request.time.canonical, now=NOW)
    assert asked.value.suggestions == ["yesterday at 03:00", "yesterday at 15:00"]


def test_a_part_of_the_day_after_an_hour_it_was_decides_it_whatever_the_time_now():
    late = datetime(2026, 11, 26, 21, 30, tzinfo=ZoneInfo("UTC"))
    request = parse_request(
        "QD 26 please make to go back how it was at 6 in the morning.", WORDS, late
    )
    assert request.intent == "restore" and "06:00" in request.canonical


def test_a_change_on_a_day_of_the_week_is_never_read_as_a_past_moment():
    request = parse("set QF 1 to 121 A on Monday at 08:00")
    assert "2026-11-23" not in request.canonical


@pytest.mark.parametrize(
    "text", ["vcm 22 needs a few mA more", "RF voltage up by some kV", "raise QF 3 by a few amps"]
)
def test_units_not_counted_are_a_vague_amount(text):
    request = parse(text)
    assert request.changes and request.quantity is not None and request.quantity.value is None


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("hcm04..06 -> -0.2", ("hcm04 through hcm06",)),
        ("read BPM 10 thru 12 x", ("BPM10 through BPM12 x",)),
        ("horizontal orbit sector 4 in microns", ("horizontal orbit sector 4",)),
    ],
)
def test_a_range_of_numbers_of_one_family_and_a_unit_after_a_place(text, targets):
    assert parse(text).targets == targets


def test_this_time_last_week_is_a_moment():
    request = parse("tunes this time last week?")
    assert request.time is not None
    found = parse_time_range(request.time.canonical, now=NOW)
    assert found.moment is not None and (NOW - found.moment).days == 7
