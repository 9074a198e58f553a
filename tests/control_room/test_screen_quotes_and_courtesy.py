"""Whole turns on the simulated ring: readings quoted from a screen, requests said with British
courtesy, groups of one family's setpoints of different quantities."""

from __future__ import annotations

import pytest

from tests.support.turns import proposed, steps


async def test_a_quoted_reading_is_not_read_and_the_change_goes_where_it_is_asked(session):
    result = await session.submit(
        "Orbit page: BPM05 Y -0.27 mm MINOR. Move VCM05 by -0.05 A.", "t1"
    )

    assert steps(result) == ["channel_finding", "channel_write", "respond"]
    assert proposed(result) == {"SR02C:VCM05:Current:SP": pytest.approx(-0.05)}
    await session.resume("t1", False)


async def test_a_share_of_a_quoted_reading_is_read_then_written(session):
    result = await session.submit("ID04 gap RB 15.0 mm. set ID05 to 90 % of that", "t1")

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    assert proposed(result) == {"SR05C:ID05:Gap:SP": pytest.approx(0.9 * 15.0, abs=0.05)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        (
            "It would be wonderful if you could set QD20 to ninety-five amps.",
            "SR05C:QD20:Current:SP",
            95.0,
        ),
        (
            "I reckon VCM12 would be happier at 0.1 A - could you set that for me?",
            "SR04C:VCM12:Current:SP",
            0.1,
        ),
        ("I was wondering if you could lower HCM09 by 0.05 A", "SR03C:HCM09:Current:SP", -0.05),
        ("it might be worth raising QF 7 by 0.5 A", "SR02C:QF07:Current:SP", 120.5),
    ],
)
async def test_a_change_asked_with_courtesy_is_proposed(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    ["could we open the ID09 gap some?", "It might be worth closing the ID02 gap a little."],
)
async def test_a_change_asked_without_an_amount_asks_for_it_and_reads_nothing(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == ["channel_finding", "clarify"]
    assert result.pending_approval is None


async def test_a_question_whose_answer_rests_on_a_display_is_read(session):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit(
        "Do you happen to know what the ID09 gap is sitting at at the moment?", "t1"
    )

    assert {c["name"] for c in found_channels(result)} == {"SR09C:ID09:Gap:RB"}


async def test_every_readback_of_a_system_is_read_when_all_are_asked(session):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit("both RF readbacks please", "t1")

    assert {c["name"] for c in found_channels(result)} == {
        "SR:RF:Frequency:RB",
        "SR:RF:Voltage:RB",
    }


async def test_one_value_without_a_unit_for_setpoints_of_two_quantities_is_asked(session):
    result = await session.submit("set both RF setpoints to 3", "t1")

    assert steps(result)[-1] == "clarify" and result.pending_approval is None
    assert "MHz" in result.response and "MV" in result.response


async def test_a_step_with_a_unit_goes_to_the_setpoint_counted_in_it(session):
    result = await session.submit("RF setpoints up by 1 kHz", "t1")

    assert proposed(result) == {"SR:RF:Frequency:SP": pytest.approx(499.655)}
    await session.resume("t1", False)


async def test_a_readback_named_for_a_change_offers_its_setpoint(session):
    result = await session.submit("set SR02C:QF05:Current:RB to 120.5", "t1")

    assert steps(result)[-1] == "clarify" and result.pending_approval is None
    assert "read-only" in result.response and "SR02C:QF05:Current:SP" in result.response


async def test_a_plural_typed_with_a_slip_finds_its_channels(session):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit("the sector 3 guages", "t1")

    assert {c["name"] for c in found_channels(result)} == {
        "SR03C:IG05:Pressure",
        "SR03C:IG06:Pressure",
    }
