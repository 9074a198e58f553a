"""Follow-ups that name one slot in few words, and hours of a past moment
(``language.follow_ups``, ``language.time_words``)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.time_words import hours_of_past_moments
from tests.support.follow_up_turns import merged, parse


@pytest.mark.parametrize("said", ["no: 0.55 A", "no — 0.55", "0.55, not 0.6", "no; 0.55 A"])
def test_a_value_after_a_correction_mark_replaces_the_value(said):
    request = merged("set HCM09 to 0.6 A", said)
    assert request is not None and request.intent == "write"
    assert request.quantity.value == pytest.approx(0.55)
    assert request.canonical == "set HCM09 to 0.55 A"


@pytest.mark.parametrize("said", ["no — RB", "sorry, I meant the readback", "no, the RB"])
def test_a_role_after_a_correction_replaces_the_role(said):
    request = merged("read HCM05 setpoint", said)
    assert request is not None and request.targets[0].split()[0] == "HCM05"
    assert request.targets[0].split()[-1].lower() in ("rb", "readback")


def test_the_other_plane_alone_after_a_read_is_that_plane():
    request = merged("What's the horizontal tune?", "And the vertical one?")
    assert request is not None and request.targets == ("the vertical tune",)


def test_the_other_plane_alone_after_a_change_writes_nothing_new():
    request = merged("set HCM22 to 0.1 A", "and the vertical one?")
    assert request is None or request.targets != ("VCM22",)


@pytest.mark.parametrize("said", ["vs 07:00?", "higher or lower than at 7?", "compared to 07:00"])
def test_a_moment_compared_after_a_read_compares_now_with_it(said):
    request = merged("what's the lifetime", said)
    assert request is not None and request.intent == "compare"
    assert request.targets == ("the lifetime",) and "07:00" in request.time.canonical


def test_a_value_at_a_moment_after_a_plot_is_that_channel_then():
    request = merged("plot the lifetime over the last 2 hours", "value 20 min ago?")
    assert request is not None and request.targets == ("the lifetime",)
    assert "20 min ago" in request.time.canonical


@pytest.mark.parametrize(
    ("previous", "said", "moment"),
    [
        ("plot QF07 SP, last 3 h", "restore → 06:00 value", "06:00"),
        ("what was QF09 at yesterday 14:00", "put it back to that", "14:00"),
        ("plot QF07 over the last hour", "revert it to 13:10", "13:10"),
    ],
)
def test_a_restore_alone_restores_the_channels_just_shown(previous, said, moment):
    request = merged(previous, said)
    assert request is not None and request.intent == "restore"
    assert request.targets[0].startswith("QF0") and moment in request.canonical


def test_a_restore_alone_after_a_change_or_without_a_moment_is_not_merged():
    assert merged("plot QF07 over the last hour", "put it back to that") is None
    assert merged("set QF07 to 121 A", "restore → 06:00 value") is None


def test_do_another_device_instead_is_the_same_change_for_it():
    request = merged("set qf 7 up by 1 a", "actually do qf 9 instead")
    assert request is not None and request.intent == "write"
    assert request.targets == ("QF9",) and request.quantity.value == pytest.approx(1.0)


def test_the_same_for_a_sector_said_short_replaces_only_the_sector():
    request = merged("set all vertical correctors in sector 3 to 0.1 A", "same → s4")
    assert request is not None and "sector 4 to 0.1 A" in request.canonical


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("what was the lifetime at 7", "what was the lifetime at 07:00"),
        ("is it higher than at 10?", "is it higher than at 10:00?"),
        ("the current vs 14:30", "the current vs at 14:30"),
        ("what was QF3 at 19 yesterday", "what was QF3 at 19:00 yesterday"),
        ("what was QF09 at yesterday 14:00", "what was QF09 yesterday at 14:00"),
        ("lifetime today 06:30?", "lifetime today at 06:30?"),
        ("put QF5 back to how it was at 9", "put QF5 back to how it was at 09:00"),
        ("what was the lifetime at seven o'clock", "what was the lifetime at 07:00"),
    ],
)
def test_an_hour_alone_at_a_past_moment_is_that_clock_time(text, said):
    assert hours_of_past_moments(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "put HCM 3 at 7",  # a value
        "set QF3 at 7 A",
        "is the lifetime at 7 h?",  # a value with its unit
        "show the lifetime at 7",  # nothing of the past or a comparison
        "plot the current from yesterday 14:00 to 16:00",  # a range reads its own day
    ],
)
def test_an_hour_that_is_a_value_or_a_write_back_stays_as_typed(text):
    assert hours_of_past_moments(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "can you put QF11 back to where it was at 10",
        "return VCM 4 to what it was at two o'clock",
        "put HCM 3 back to how it was at 1",
    ],
)
def test_the_hour_of_a_write_back_is_its_moment_never_the_value(text):
    request = parse(text)
    assert request.intent == "restore"
    assert request.quantity is None
    assert request.time is not None and re.search(r"\d\d:00", request.time.canonical)


def test_a_value_with_more_than_six_digits_is_written_back_as_typed():
    request = merged("set the RF frequency to 499.655 MHz", "ok 499.6545 then")
    assert request is not None and request.canonical.endswith("to 499.6545 MHz")
    request = merged("increase QF3 by 1 A", "make it 0.0001234 A")
    assert request is not None and "0.0001234" in request.canonical


def test_now_alone_after_a_moment_reads_the_same_channels_now():
    request = merged("what was the lifetime 3 hours ago", "and now?")
    assert request is not None and request.intent == "read"
    assert request.targets == ("the lifetime",) and request.time is None


def test_a_statistic_of_it_after_a_plot_is_over_the_plots_window():
    request = merged(
        "plot the vertical tune for the last 4 hours", "and its mean over that window?"
    )
    assert request is not None and request.intent == "statistic"
    assert request.targets == ("the vertical tune",) and "4 hours" in request.time.canonical


def test_whether_a_change_is_inside_the_limits_asks_the_write_policy():
    request = merged("HCM 4 to 0.5 A", "wait, is that even inside the limits?")
    assert request is not None and request.intent == "knowledge"
    assert "HCM4 at 0.5 A" in request.text or "HCM4 at 0.5 A" in request.canonical


def test_the_other_plane_at_another_time_is_that_plane_then():
    request = merged("what is the horizontal tune?", "and the vertical one yesterday at 22:00?")
    assert request is not None and request.targets == ("the vertical tune",)
    assert request.intent in ("history", "read") and request.time is not None


def test_do_that_again_names_no_new_target():
    assert merged("read the beam current", "do that again") is None


@pytest.mark.parametrize(
    ("text", "hour", "said"),
    [
        ("what was the lifetime at 7", 6, "at 19:00"),  # before 7 in the morning: last evening
        ("what was the lifetime at 7", 10, "at 07:00"),  # after it: this morning
        # both 07:00 and 19:00 have passed today: said as the clock's hour, which is asked
        ("what was the lifetime at 7", 21, "at 7 o'clock"),
        ("the lifetime at 2 o'clock for the report", 16, "at 2 o'clock"),
        ("the lifetime at 2 this afternoon", 16, "at 2 this afternoon"),  # the day part says
        ("the average current since 8", 7, "since 20:00"),
        ("the average current since 8", 9, "since 08:00"),
        ("the average current since 14", 9, "since 14:00"),  # a 24-hour clock says it itself
        ("put QF5 back to how it was at 12", 11, "at 00:00"),  # noon has not come yet
    ],
)
def test_a_bare_hour_is_the_last_such_hour_on_a_twelve_hour_clock(text, hour, said):
    now = datetime(2026, 5, 6, hour, 30, tzinfo=ZoneInfo("UTC"))
    assert said in hours_of_past_moments(text, now)
