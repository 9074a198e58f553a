"""Whole turns on the simulated ring: groups with devices left out, ranges written, follow-ups
that name another kind, another plane or the same time, and questions about the limits."""

from __future__ import annotations

import pytest

from tests.support.turns import proposed, steps


async def _read(session, text: str, thread: str = "t1") -> set[str]:
    from osprey_desktop.cli.common import found_channels

    result = await session.submit(text, thread)
    assert result.pending_approval is None
    return {c["name"] for c in found_channels(result)}


@pytest.mark.parametrize(
    ("text", "absent", "count"),
    [
        ("all the gauges apart from sector 2", {"SR02C:IG03:Pressure", "SR02C:IG04:Pressure"}, 22),
        ("every gauge but the ones in sectors 1 and 2", {"SR01C:IG01:Pressure"}, 20),
        ("the sector 4 BPMs excluding BPM 20", {"SR04C:BPM20:X", "SR04C:BPM20:Y"}, 10),
    ],
)
async def test_what_a_group_leaves_out_is_not_read(session, text, absent, count):
    read = await _read(session, text)

    assert len(read) == count and not read & absent


async def test_a_device_left_out_of_a_group_write_is_not_written(session):
    result = await session.submit("zero the vertical correctors in sector 4 except VCM 11", "t1")

    assert set(proposed(result)) == {"SR04C:VCM10:Current:SP", "SR04C:VCM12:Current:SP"}
    await session.resume("t1", False)


async def test_a_range_with_an_arrow_writes_every_device_of_the_range(session):
    result = await session.submit("horizontal correctors 13 through 15 -> 0.05 A", "t1")

    assert proposed(result) == {
        f"SR05C:HCM{n}:Current:SP": pytest.approx(0.05) for n in (13, 14, 15)
    }
    await session.resume("t1", False)


async def test_the_other_one_of_a_kind_is_the_kind_less_what_was_read(session):
    assert await _read(session, "read IG 21") == {"SR11C:IG21:Pressure"}

    assert await _read(session, "and the other sector 11 gauge?") == {"SR11C:IG22:Pressure"}


async def test_the_same_for_a_plane_takes_the_devices_of_that_plane(session):
    await _read(session, "read HCM 16 to HCM 18")

    read = await _read(session, "same for the verticals")

    # each device read as "read HCM 16" reads it: setpoint and readback
    assert read == {f"SR06C:VCM{n}:Current:{r}" for n in (16, 17, 18) for r in ("SP", "RB")}


async def test_another_plane_at_the_same_time_keeps_the_moment(session):
    await session.submit("what was the horizontal tune at 07:00?", "t1")

    result = await session.submit("and the vertical one at the same time please", "t1")

    assert "archiver_retrieval" in steps(result)
    assert "SR:TUNE:Y" in result.response and "07:00" in result.response


async def test_a_plane_as_well_asks_only_that_plane(session):
    await _read(session, "the horizontal orbit in sector 2")

    read = await _read(session, "and the vertical one as well, if you don't mind")

    assert read == {f"SR02C:BPM{n:02d}:Y" for n in range(7, 13)}


async def test_thanks_before_a_request_is_no_end_of_the_conversation(session):
    await _read(session, "the beam energy please")

    result = await session.submit("Thanks - could you plot it over the last hour as well?", "t1")

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ]


async def test_a_change_said_as_a_gerund_asked_of_the_limits_writes_nothing(session):
    result = await session.submit("would putting VCM 6 at 6 A be inside the limits?", "t1")

    assert steps(result) == ["respond"] and result.pending_approval is None
    assert "Write limits" in result.response


async def test_a_handover_item_held_for_later_is_noted_and_the_others_are_proposed(session):
    result = await session.submit(
        "Handover: (a) set VCM 20 to 0.1 A; (b) QF 25 +0.5 A is for tomorrow, do not do it now",
        "t1",
    )

    assert proposed(result) == {"SR07C:VCM20:Current:SP": pytest.approx(0.1)}
    await session.resume("t1", False)


async def test_a_noted_item_beside_readings_is_said_back_and_not_done(session):
    result = await session.submit(
        "Shift handover: lifetime; tunes. Note for the log only: QF 13 gets ramped tomorrow.",
        "t1",
    )

    assert result.pending_approval is None and "channel_write" not in steps(result)
    assert "Only noted, not done" in result.response and "QF 13" in result.response


async def test_the_other_plane_of_a_change_with_its_own_value_is_that_change(session):
    first = await session.submit("set VCM 14 to 0.1 A", "t1")
    await session.resume("t1", False)
    assert first.pending_approval is not None

    result = await session.submit("and the horizontal one to -0.1", "t1")

    assert proposed(result) == {"SR05C:HCM14:Current:SP": pytest.approx(-0.1)}
    await session.resume("t1", False)


async def test_the_horizontal_one_alone_is_never_device_one(session):
    result = await session.submit("set the horizontal one to 0.2 A", "t1")

    assert result.pending_approval is None and steps(result)[-1] == "clarify"


async def test_that_one_after_a_reading_is_the_device_read(session):
    await _read(session, "read QF 19")

    result = await session.submit("that one to 120.5", "t1")

    assert proposed(result) == {"SR05C:QF19:Current:SP": pytest.approx(120.5)}
    await session.resume("t1", False)


async def test_an_item_added_to_a_plot_is_plotted_with_it(session):
    await session.submit("plot IG 15 over the last 3 hours", "t1")

    result = await session.submit("add IG 16", "t1")

    assert "archiver_retrieval" in steps(result)
    assert await _names(result) == {"SR08C:IG15:Pressure", "SR08C:IG16:Pressure"}


async def test_the_other_role_too_after_a_plot_plots_both(session):
    await session.submit("plot the QD 24 readback for the last hour", "t1")

    result = await session.submit("setpoint too", "t1")

    assert await _names(result) == {"SR06C:QD24:Current:RB", "SR06C:QD24:Current:SP"}


async def test_a_step_said_with_its_way_is_answered_as_a_step(session):
    result = await session.submit("QD 16 down 0.5 A - just a note for later", "t1")

    assert result.pending_approval is None and "A step of 0.5 A" in result.response


async def _names(result) -> set[str]:
    from osprey_desktop.cli.common import found_channels

    return {c["name"] for c in found_channels(result)}


@pytest.mark.parametrize(
    ("first", "second", "channel", "value"),
    [
        # a new amount keeps the way of the change it corrects
        ("lower the RF voltage by 0.1 MV", "no, by 0.05", "SR:RF:Voltage:SP", 2.45),
        ("lower QF 9 by 1 A", "no, up by 0.5", "SR03C:QF09:Current:SP", 120.5),
        # "same but" replaces the value and keeps the condition
        (
            "if the lifetime is above 5 h, set HCM 30 to 0.2 A",
            "same but 0.3",
            "SR10C:HCM30:Current:SP",
            0.3,
        ),
    ],
)
async def test_a_corrected_change_keeps_what_was_not_corrected(
    session, first, second, channel, value
):
    await session.submit(first, "t1")
    await session.resume("t1", False)

    result = await session.submit(second, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("ID 4 gap := ½ × ID 9 gap", "SR04C:ID04:Gap:SP", 7.5),  # a factor before the device
        ("set QF 5 to 1.01 * QF 7", "SR02C:QF05:Current:SP", 121.2),
        ("VCM 29 = mean(VCM 28, VCM 30) + 0.05 A", "SR10C:VCM29:Current:SP", 0.05),
        ("we're changing samples at ID 7 - please open our gap to 40 mm", "SR07C:ID07:Gap:SP", 40),
        (
            "could the steerer HCM 21 near our beamline go to -0.3 A?",
            "SR07C:HCM21:Current:SP",
            -0.3,
        ),
        ("st hcm 5 ot 0.3A", "SR02C:HCM05:Current:SP", 0.3),
        ("hcm4to0.3", "SR02C:HCM04:Current:SP", 0.3),
    ],
)
async def test_a_derived_or_indirect_change_writes_only_its_target(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value, abs=0.01)}
    await session.resume("t1", False)


async def test_a_setpoint_matched_to_the_readback_just_checked_reads_it_first(session):
    result = await session.submit(
        "check the RF voltage readback and make the setpoint match it", "t1"
    )

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    assert set(proposed(result)) == {"SR:RF:Voltage:SP"}
    await session.resume("t1", False)


async def test_both_of_a_family_in_a_sector_with_an_amount_and_its_way_are_changed(session):
    result = await session.submit("both QFs in sector 5 half an amp higher", "t1")

    assert proposed(result) == {
        "SR05C:QF17:Current:SP": pytest.approx(120.5),
        "SR05C:QF19:Current:SP": pytest.approx(120.5),
    }
    await session.resume("t1", False)


async def test_either_of_a_sector_s_gauges_is_each_of_them(session):
    read = await _read(
        session, "how often did either of the sector 2 gauges go above 5e-9 Torr today?"
    )

    assert read == {"SR02C:IG03:Pressure", "SR02C:IG04:Pressure"}


async def test_items_joined_by_plus_signs_are_each_read(session):
    read = await _read(session, "lifetime+energy")

    assert read == {"SR:DCCT:Lifetime", "SR:BEAM:Energy"}


async def test_a_reading_item_beside_a_change_is_read_and_the_change_proposed(session):
    result = await session.submit("1) tunes 2) ID 2 gap -> 14 mm", "t1")

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    assert proposed(result) == {"SR02C:ID02:Gap:SP": pytest.approx(14.0)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("what's QF 5 set to?", {"SR02C:QF05:Current:SP"}),  # the setting asked
        ("was the ID 4 gap changed today?", {"SR04C:ID04:Gap:SP"}),  # what someone sets
        ("has the beam current changed since 8?", {"SR:DCCT:Current"}),  # no setting: its own
    ],
)
async def test_a_question_of_the_setting_reads_the_setpoint(session, text, read):
    assert await _read(session, text) == read
