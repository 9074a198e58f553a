"""Whole turns: a follow-up after a question about a change, after a read, after a plot of
one plane; a count of threshold crossings answered from the history; a reference value said
alone; the point halfway between two devices."""

from __future__ import annotations

import pytest

from tests.support.turns import proposed, steps


async def test_it_after_a_question_about_a_device_is_that_device(session):
    await session.submit("is 0.3 A too much for HCM 4?", "t1")

    again = await session.submit("fine, set it to 0.3 then", "t1")

    assert proposed(again) == {"SR02C:HCM04:Current:SP": pytest.approx(0.3)}
    await session.resume("t1", False)


async def test_above_that_after_a_read_is_a_copy_of_what_was_read(session, machine):
    await session.submit("ID 5 gap?", "t1")

    again = await session.submit("put ID 7 3 mm above that", "t1")

    assert steps(again)[:3] == ["channel_finding", "channel_read", "channel_write"]
    source = machine.value("SR05C:ID05:Gap:SP")
    assert proposed(again) == {"SR07C:ID07:Gap:SP": pytest.approx(source + 3)}
    await session.resume("t1", False)


async def test_the_other_plane_after_a_plot_plots_the_other_plane(session):
    from osprey_desktop.cli.common import found_channels

    await session.submit("plot the horizontal orbit in sector 4 over the last hour", "t1")

    again = await session.submit("now the other plane", "t1")

    assert "archiver_retrieval" in steps(again)
    names = {c["name"] for c in found_channels(again)}
    assert names and all(n.endswith(":Y") for n in names)


async def test_the_other_way_after_a_change_by_an_amount_is_that_amount_back(session):
    first = await session.submit("raise the ID 9 gap by 3 mm", "t1")
    await session.resume("t1", False)
    before = proposed(first)["SR09C:ID09:Gap:SP"]

    again = await session.submit("now the other way", "t1")

    assert proposed(again) == {"SR09C:ID09:Gap:SP": pytest.approx(before - 6)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    [
        "how often did the lifetime drop below 8 h in the last 24 h?",
        "how often did the vacuum in sector 7 go above 5e-9 in the last 2 days? is that normal?",
    ],
)
async def test_a_count_of_threshold_crossings_is_read_from_the_history(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ]


@pytest.mark.parametrize("text", ["QF 29 back to nominal pls", "set QF 29 to nominal"])
async def test_nominal_said_alone_is_the_nominal_value(session, text):
    result = await session.submit(text, "t1")

    assert proposed(result) == {"SR08C:QF29:Current:SP": pytest.approx(120.0)}
    await session.resume("t1", False)


async def test_halfway_between_two_devices_is_their_average(session, machine):
    result = await session.submit("put QF 9 halfway between QF 7 and QF 11", "t1")

    low, high = machine.value("SR02C:QF07:Current:SP"), machine.value("SR03C:QF11:Current:SP")
    assert proposed(result) == {"SR03C:QF09:Current:SP": pytest.approx((low + high) / 2)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    [
        "raise the RF voltage by 0.1 MV and QF 21 by 0.5 A",
        "RF voltage up by 0.1 MV; then raise QF 21 by 0.5 A",
    ],
)
async def test_a_described_channel_and_a_named_device_each_get_their_change(session, text):
    result = await session.submit(text, "t1")

    assert proposed(result) == {
        "SR:RF:Voltage:SP": pytest.approx(2.6),
        "SR06C:QF21:Current:SP": pytest.approx(120.5),
    }
    await session.resume("t1", False)


async def test_a_heading_that_names_the_list_is_no_part_of_its_items(session):
    text = "Next steps:\n1. HCM 10 to 0.2 A\n2. HCM 11 to -0.2 A\n3. HCM 12 to 0.1 A"
    result = await session.submit(text, "t1")

    assert proposed(result) == {
        "SR04C:HCM10:Current:SP": pytest.approx(0.2),
        "SR04C:HCM11:Current:SP": pytest.approx(-0.2),
        "SR04C:HCM12:Current:SP": pytest.approx(0.1),
    }
    await session.resume("t1", False)


async def test_an_amount_offered_with_a_hedge_after_a_vague_change_is_that_change(session):
    await session.submit("could you lower the RF voltage a little bit?", "t1")

    again = await session.submit("by 0.05 MV I guess?", "t1")

    assert proposed(again) == {"SR:RF:Voltage:SP": pytest.approx(2.45)}
    await session.resume("t1", False)


async def test_a_bit_lower_than_that_after_a_change_asks_how_much(session):
    first = await session.submit("i need to put QD 22 at ninety four point five amps", "t1")
    await session.resume("t1", False)
    assert first.pending_approval is not None

    again = await session.submit("hmm, maybe a bit lower than that?", "t1")

    assert again.pending_approval is None and steps(again)[-1] == "clarify"
    assert "says no amount" in again.response


async def test_only_one_plane_of_both_is_that_plane(session):
    from osprey_desktop.cli.common import found_channels

    await session.submit("Trend of both tunes over the last 12 h; tell me if either drifted", "t1")

    again = await session.submit("plot only the vertical one, last 24 h", "t1")

    assert {c["name"] for c in found_channels(again)} == {"SR:TUNE:Y"}


async def test_other_devices_instead_take_the_values_in_their_order(session):
    first = await session.submit("Set HCM 4 to 0.2 A and VCM 4 to -0.1 A, one approval", "t1")
    assert first.pending_approval is not None
    await session.resume("t1", False)

    again = await session.submit("make it HCM 5 and VCM 5 instead", "t1")

    assert proposed(again) == {
        "SR02C:HCM05:Current:SP": pytest.approx(0.2),
        "SR02C:VCM05:Current:SP": pytest.approx(-0.1),
    }
    await session.resume("t1", False)


async def test_instead_tell_me_after_a_change_reads_and_never_writes(session):
    first = await session.submit("increase the I D four gap by two millimetres", "t1")
    await session.resume("t1", False)
    assert first.pending_approval is not None

    text = "hmm, hold on, no, don't. Instead tell me what the I D four gap readback is"
    again = await session.submit(text, "t1")

    assert again.pending_approval is None and "channel_write" not in steps(again)


async def test_just_the_number_skip_the_plot_reads_now(session):
    await session.submit("plot IG 17 last hour", "t1")

    again = await session.submit("just the number, skip the plot", "t1")

    assert steps(again) == ["channel_finding", "channel_read", "respond"]


async def test_record_a_logbook_entry_is_a_logbook_entry(session):
    result = await session.submit("record a logbook entry: QF 3 changed", "t1")

    assert steps(result)[0] == "logbook_entry"


@pytest.mark.parametrize(
    "text", ["bring HCM 3 closer to nominal", "move QF 9 a bit towards nominal"]
)
async def test_closer_to_nominal_is_no_value_and_is_asked(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and steps(result)[-1] == "clarify"
