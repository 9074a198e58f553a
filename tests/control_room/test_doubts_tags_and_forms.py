"""Whole turns on the simulated ring: yes/no and tag questions, doubts answered by the order
after them, a form and a label's old value before its new one."""

from __future__ import annotations

import pytest

from osprey_desktop.cli.common import found_channels
from tests.support.turns import proposed, steps


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("wouldn't 0.2 A do for HCM 8? put it at 0.2", "SR03C:HCM08:Current:SP", 0.2),
        ("QD 10 is at 95 I think? set it to 95.5 then", "SR03C:QD10:Current:SP", 95.5),
        ("ID 7 can go to 20 mm now, can't it? set ID7 to 20 mm", "SR07C:ID07:Gap:SP", 20.0),
    ],
)
async def test_a_doubt_answered_by_the_order_after_it_is_that_order(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    [
        "lifetime above 8 h? then HCM 34 +0.4A",  # a condition: read first
        "HCM 3 value? set it to 0.2 A",  # a reading asked, then the change
    ],
)
async def test_a_reading_or_a_condition_before_the_order_is_still_read(session, text):
    result = await session.submit(text, "t1")

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    await session.resume("t1", False)


async def test_a_doubt_then_a_value_after_a_change_offers_that_value(session):
    first = await session.submit("set HCM09 to 0.6 A", "t1")
    assert first.pending_approval is not None
    await session.resume("t1", False)

    result = await session.submit("hmm, isn't that a lot? 0.4 then", "t1")

    assert proposed(result) == {"SR03C:HCM09:Current:SP": pytest.approx(0.4)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "channels"),
    [
        ("isnt the lifetime a bit short", {"SR:DCCT:Lifetime"}),
        ("the tunes haven't moved, have they?", {"SR:TUNE:X", "SR:TUNE:Y"}),
        ("doesn't IG 9 look high to you?", {"SR05C:IG09:Pressure"}),
        ("is the lifetime long enough?", {"SR:DCCT:Lifetime"}),
    ],
)
async def test_a_negative_or_tag_question_reads_what_it_asks(session, text, channels):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert {c["name"] for c in found_channels(result)} == channels


async def test_a_value_asked_of_the_limits_with_a_tag_is_answered_from_the_policy(session):
    result = await session.submit(
        "if I put HCM 6 at 4.8 A, that's still inside the limits, isn't it?", "t1"
    )

    assert steps(result) == ["respond"]
    assert "from -5 to 5 A" in result.response


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("device: RF frequency\nnew: 499.655\nreason: orbit length", "SR:RF:Frequency:SP", 499.655),
        ("QF 5 SP: 120 -> 120.5", "SR02C:QF05:Current:SP", 120.5),
    ],
)
async def test_a_form_or_a_labelled_change_is_proposed(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    [
        "set the quad voltage to 2.6",  # quads and a voltage, but no quad voltage
        "steerer voltage to 2.6 MV",
        "kicker voltage to 3 kV",  # a kicker is no corrector, and the ring has none
    ],
)
async def test_a_write_never_goes_to_what_only_some_words_match(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert steps(result) == ["channel_finding", "clarify"]


@pytest.mark.parametrize(
    "text",
    [
        "Plan for 18:00 (not now!):\n1. ID04 gap -> 20 mm\n2. ID07 gap -> 18 mm\n3. check lifetime",
        "QF 9 -> 121?? that's what the note says, not doing anything til I check with Sam",
        "The orbit group's list (they'll apply it themselves):\nVCM07 0.1 A\nVCM08 0.1 A",
    ],
)
async def test_a_list_or_change_held_by_its_words_is_never_proposed(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None


@pytest.mark.parametrize(
    ("text", "channels"),
    [
        ("Q7F readback", {"SR02C:QF07:Current:RB"}),  # the family's letters around the number
        ("bpm14y please", {"SR03C:BPM14:Y"}),  # the plane glued to the number
        ("CV9 and CH9 readbacks", {"SR03C:VCM09:Current:RB", "SR03C:HCM09:Current:RB"}),
        ("steerer 4H setpoint", {"SR02C:HCM04:Current:SP"}),
        ("sr05c_ig09_pressure", {"SR05C:IG09:Pressure"}),  # the list's name, other separators
    ],
)
async def test_another_facilitys_way_of_naming_a_device(session, text, channels):
    result = await session.submit(text, "t1")

    assert {c["name"] for c in found_channels(result)} == channels


async def test_a_plane_last_corrector_is_written_where_it_is_named(session):
    result = await session.submit("steerer 6V to -0.1 A", "t1")

    assert proposed(result) == {"SR02C:VCM06:Current:SP": pytest.approx(-0.1)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("set SR02-HCM05 to 0.3 A", "SR02C:HCM05:Current:SP", 0.3),  # the device after its area
        ("zero CH 12", "SR04C:HCM12:Current:SP", 0.0),
    ],
)
async def test_a_device_named_another_way_is_written_where_it_is_named(
    session, text, channel, value
):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    [
        "ID 7: the users want a smaller gap",  # a wish for more or less: how much is asked
        "Maria wants a higher RF voltage",
    ],
)
async def test_a_wish_for_more_or_less_asks_how_much(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == ["channel_finding", "clarify"]
    assert result.pending_approval is None


@pytest.mark.parametrize("text", ["lifetime at 1", "tunes at 9?"])
async def test_a_quantity_at_a_bare_hour_is_a_moment(session, text):
    result = await session.submit(text, "t1")

    # asked which hour when both have passed today, else the one that has (it answered with
    # the channel's address): a moment either way, whatever the hour the test runs at
    assert steps(result) != ["channel_finding", "respond"]
    assert "Which time do you mean?" in result.response or "time_range_parsing" in steps(result)


async def test_a_value_inside_the_limits_for_a_quantity_is_the_policys_answer(session):
    result = await session.submit("is 2.9 MV inside the limits for the RF voltage?", "t1")

    assert steps(result) == ["respond"]
    assert "2.9 MV is within the range" in result.response


@pytest.mark.parametrize(
    "text",
    [
        "what's the max I can put on QD 18, and what is it reading now?",
        "what is QD 18 reading now, and what's the max I can put on it?",
    ],
)
async def test_the_limits_and_a_reading_asked_together_are_both_answered(session, text):
    result = await session.submit(text, "t1")

    assert {c["name"] for c in found_channels(result)} == {"SR05C:QD18:Current:RB"}
    assert "from 85 to 105 A" in result.response
    assert "Nothing was read" not in result.response


@pytest.mark.parametrize(
    "text", ["read the photon flux at ID 9", "what's the cooling water flow on QF 5"]
)
async def test_a_quantity_the_list_lacks_asked_of_a_device_is_asked_about(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == ["channel_finding", "clarify"]
    assert "the channel list has no" in result.response.lower()


async def test_a_form_on_one_line_is_read_as_a_form(session):
    result = await session.submit("Period: since 06:00 | Stat: max | Channel: IG 8", "t1")

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ]
    assert {c["name"] for c in found_channels(result)} == {"SR04C:IG08:Pressure"}
