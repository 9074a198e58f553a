"""Whole turns on the simulated ring: follow-ups that narrow, widen, scale, call off or re-time
the request before, and times and amounts said loosely."""

from __future__ import annotations

import pytest

from osprey_desktop.cli.common import found_channels
from tests.support.turns import proposed, steps

_HISTORY = ["channel_finding", "time_range_parsing", "archiver_retrieval", "respond"]


async def _rejected(session, text: str) -> None:
    first = await session.submit(text, "t1")
    assert first.pending_approval is not None
    await session.resume("t1", False)


async def test_only_one_device_after_a_history_keeps_its_time(session):
    await session.submit("vacuum in sector 6 over the last hour", "t1")
    result = await session.submit("only IG 11", "t1")

    assert steps(result) == _HISTORY
    assert {c["name"] for c in found_channels(result)} == {"SR06C:IG11:Pressure"}


async def test_both_after_one_plane_plots_both(session):
    await session.submit("plot the horizontal tune since 08:00", "t1")
    result = await session.submit("both tunes", "t1")

    assert steps(result) == _HISTORY
    assert {c["name"] for c in found_channels(result)} == {"SR:TUNE:X", "SR:TUNE:Y"}


async def test_all_of_a_range_after_a_change_proposes_each(session):
    await _rejected(session, "set HCM 10 to 0.1 A")
    result = await session.submit("all of them, HCM 10 through HCM 12", "t1")

    assert proposed(result) == {
        "SR04C:HCM10:Current:SP": pytest.approx(0.1),
        "SR04C:HCM11:Current:SP": pytest.approx(0.1),
        "SR04C:HCM12:Current:SP": pytest.approx(0.1),
    }
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("first", "then", "channel", "value"),
    [
        ("lower the RF voltage by 0.1 MV", "actually only 0.04", "SR:RF:Voltage:SP", 2.46),
        ("raise VCM 3 by 0.1 A", "double the step", "SR01C:VCM03:Current:SP", 0.2),
        ("raise VCM 3 by 0.1 A", "halve the amount", "SR01C:VCM03:Current:SP", 0.05),
    ],
)
async def test_an_amount_said_again_keeps_the_way(session, first, then, channel, value):
    await _rejected(session, first)
    result = await session.submit(then, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


async def test_cancel_after_a_change_writes_and_asks_nothing(session):
    await _rejected(session, "set QD 12 to 96 A")
    result = await session.submit("cancel that", "t1")

    assert steps(result) == ["respond"]
    assert result.pending_approval is None


async def test_just_the_value_after_a_plot_reads_it_now(session):
    await session.submit("plot the lifetime over the last hour", "t1")
    result = await session.submit("just the value", "t1")

    assert steps(result) == ["channel_finding", "channel_read", "respond"]


async def test_as_a_plot_with_a_time_after_a_reading(session):
    await session.submit("tunes?", "t1")
    result = await session.submit("as a plot, last 3 hours", "t1")

    assert steps(result) == _HISTORY


@pytest.mark.parametrize(
    "text",
    [
        "show me the RF voltage readback from 10:00ish yesterday onwards",  # never ahead of now
        "was the beam current stable in the past 45",
        "did the lifetime hold up over the weekend",
        "how bad did the vacuum get overnight anywhere in the ring",
    ],
)
async def test_loose_times_and_judgements_read_the_history(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == _HISTORY


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("QD 14 up 1/2 A", "SR04C:QD14:Current:SP", 95.5),
        ("VCM 24 := avg of VCM 23 and VCM 25", "SR08C:VCM24:Current:SP", 0.0),
        ("HCM 5 setpoint 0.15 please", "SR02C:HCM05:Current:SP", 0.15),
    ],
)
async def test_values_said_loosely_are_proposed(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value, abs=0.01)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text", ["QF 13 +1 A tomorrow morning, not now", "tomorrow 8am set QF 13 to 121"]
)
async def test_a_change_placed_later_is_never_proposed(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == ["respond"]
    assert result.pending_approval is None


@pytest.mark.parametrize(
    "text",
    [
        # a statement whose subject is left out, then the request with its own time
        "Had two RF trips last week but none today. Since 08:00 yesterday, what was the max of "
        "the RF voltage readback?",
        # a form of a reading
        "channel: SR:DCCT:Current\nfrom: 09:00 yesterday\nto: 11:00 yesterday\nstat: max",
    ],
)
async def test_a_story_or_a_form_around_a_history_asks_its_own_time(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == _HISTORY


async def test_an_aside_after_a_story_leaves_the_question_a_question(session):
    result = await session.submit(
        "Quiet night. Thanks for the plots earlier. What does a BPM measure, by the way?", "t1"
    )

    assert steps(result) == ["respond"]
