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
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.time_parsing import parse_time_range
from osprey_desktop.language.time_points import AmbiguousTimeRange

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset({"beam", "current", "lifetime", "tune", "gap", "vacuum", "pressure"}),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("UTC"))


def parse(text: str):
    return parse_request(text, WORDS, NOW)


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
