"""Whole turns: a correction of the previous answer ("wrong one, I meant HCM 14", "you read the
wrong gauges, I wanted sector 8", "wrong unit, in mbar please") is the request before with what
was meant in the place of what was wrong; a change stays a change, a read a read."""

from __future__ import annotations

import pytest

from osprey_desktop.cli.common import found_channels
from tests.support.turns import proposed, steps


@pytest.mark.parametrize(
    ("before", "text", "read"),
    [
        ("QD 10 setpoint", "wrong, I wanted the readback", {"SR03C:QD10:Current:RB"}),
        ("read QF 9", "try again with the setpoint", {"SR03C:QF09:Current:SP"}),
        (
            "vacuum in sector 3",
            "you read the wrong gauges, I wanted sector 8",
            {"SR08C:IG15:Pressure", "SR08C:IG16:Pressure"},
        ),
        ("ID 4 gap", "no the other undulator, ID 5", {"SR05C:ID05:Gap:RB"}),
        ("show BPM 3 X", "not BPM 3, BPM 33", {"SR06C:BPM33:X"}),
        ("what's the horizontal tune?", "that's the wrong one, the vertical", {"SR:TUNE:Y"}),
    ],
)
async def test_a_read_corrected_reads_what_was_meant(session, before, text, read):
    await session.submit(before, "t1")

    again = await session.submit(text, "t1")

    assert again.pending_approval is None and "channel_write" not in steps(again)
    assert {c["name"] for c in found_channels(again)} == read


@pytest.mark.parametrize(
    ("before", "text", "channel", "value"),
    [
        ("set HCM 4 to 0.3 A", "wrong one, I meant HCM 14", "SR05C:HCM14:Current:SP", 0.3),
        ("raise QF 17 by 1 A", "not that one, make that QF 19", "SR05C:QF19:Current:SP", 121.0),
        (
            "put vcm 33 at minus 0.35",
            "that's the wrong plane, horizontal",
            "SR11C:HCM33:Current:SP",
            -0.35,
        ),
        ("open ID 9 to 40 mm", "wrong undulator - sector 11", "SR11C:ID11:Gap:SP", 40.0),
        (
            "increase the RF frequency by 1 kHz",
            "too much, half of that",
            "SR:RF:Frequency:SP",
            499.6545,
        ),
    ],
)
async def test_a_change_corrected_is_the_change_meant(session, before, text, channel, value):
    first = await session.submit(before, "t1")
    await session.resume("t1", False)
    assert first.pending_approval is not None

    again = await session.submit(text, "t1")

    assert proposed(again) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


async def test_a_copy_corrected_to_another_target_copies_the_same_source(session):
    first = await session.submit("copy the QF 5 setpoint to QF 7", "t1")
    await session.resume("t1", False)
    assert first.pending_approval is not None

    again = await session.submit("wrong target, copy it to QF 9", "t1")

    assert set(proposed(again)) == {"SR03C:QF09:Current:SP"}
    await session.resume("t1", False)


async def test_a_moment_corrected_to_another_day_reads_that_day(session):
    await session.submit("beam current at 08:00", "t1")

    again = await session.submit("no, 08:00 yesterday, not today", "t1")

    from datetime import timedelta

    from osprey_desktop.planners.channel_words import facility_now

    yesterday = (facility_now() - timedelta(days=1)).date().isoformat()
    assert "archiver_retrieval" in steps(again)
    assert f"at {yesterday} 08:00" in again.response


async def test_a_value_corrected_with_a_remark_about_the_mistake_is_that_value(session):
    await session.submit("set the ID 5 gap to 20 mm", "t1")
    await session.resume("t1", False)

    again = await session.submit("no, 18 mm, I misread the request", "t1")

    assert proposed(again) == {"SR05C:ID05:Gap:SP": pytest.approx(18.0)}
    await session.resume("t1", False)


async def test_something_smaller_after_a_change_asks_how_much(session):
    await session.submit("set HCM 10 to 0.4 A", "t1")
    await session.resume("t1", False)

    again = await session.submit("no, not that value, something smaller", "t1")

    assert again.pending_approval is None and steps(again)[-1] == "clarify"


async def test_a_condition_asked_as_a_question_then_a_change_reads_it_first(session):
    result = await session.submit("lifetime above 8 h? then HCM 34 +0.4A", "t1")

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    # the ring's lifetime is about 10 h: the condition holds, the change is asked
    assert proposed(result) == {"SR12C:HCM34:Current:SP": pytest.approx(0.4)}
    await session.resume("t1", False)


async def test_avg_is_the_average_of_the_devices_named(session, machine):
    result = await session.submit("set VCM 31 to the avg of VCM 30 and VCM 32", "t1")

    low, high = machine.value("SR10C:VCM30:Current:SP"), machine.value("SR11C:VCM32:Current:SP")
    assert proposed(result) == {"SR11C:VCM31:Current:SP": pytest.approx((low + high) / 2)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("set HCM 3, I mean HCM 4, to 0.2", "SR02C:HCM04:Current:SP", 0.2),
        ("raise QF 3 - sorry, QF 5 - by 1 A", "SR02C:QF05:Current:SP", 121.0),
    ],
)
async def test_a_device_taken_back_in_the_same_message_is_never_written(
    session, text, channel, value
):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)
