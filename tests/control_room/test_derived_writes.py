"""Writes whose value comes from the machine (copy, restore from the archive, condition),
writes to several channels, and targets that are not unique, through whole turns."""

from __future__ import annotations

import time

import pytest

from osprey_desktop.capabilities.control_room.write_derivation import parse_derivation
from osprey_desktop.config import get_audit_db_path
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.safety import AuditLog
from tests.support.turns import operations, steps

VCM07 = "SR03C:VCM07:Current:SP"
VCM08 = "SR03C:VCM08:Current:SP"
QF11 = "SR03C:QF11:Current:SP"
HCM20 = "SR07C:HCM20:Current:SP"


# -- the grammar ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "target", "source"),
    [
        ("make VCM08 the same as VCM07", "VCM08", "VCM07"),
        ("set HCM03 to the same value as HCM02", "HCM03", "HCM02"),
        ("copy the VCM07 setpoint to VCM08", "VCM08", "the VCM07 setpoint"),
        ("set HCM03 to HCM02's value", "HCM03", "HCM02"),
        ("please make QD06 equal to QD04", "QD06", "QD04"),
        ("match VCM04 to VCM03", "VCM04", "VCM03"),
    ],
)
def test_copies_name_their_source_and_target(text, target, source):
    derivation = parse_derivation(text)
    assert derivation is not None and derivation.kind == "copy"
    assert (derivation.target, derivation.source) == (target, source)


@pytest.mark.parametrize(
    ("text", "factor", "offset"),
    [
        ("set HCM03 to the same value as HCM02 times 0.5", 0.5, 0.0),
        ("set QF3 to the same value as QF5 times 2 plus 1 A", 2.0, 1.0),
        ("set QF3 to the same value as QF5", 1.0, 0.0),
    ],
)
def test_a_copy_may_scale_its_source(text, factor, offset):
    derivation = parse_derivation(text)
    assert derivation is not None and derivation.kind == "copy"
    assert (derivation.factor, derivation.offset) == (factor, offset)


@pytest.mark.parametrize(
    ("text", "target", "moment"),
    [
        ("restore QF11 to its value from this morning at 09:30", "QF11", "this morning at 09:30"),
        ("put HCM05 back to where it was 2 hours ago", "HCM05", "2 hours ago"),
        (
            "set the ID04 gap back to what it was yesterday at 14:00",
            "the ID04 gap",
            "yesterday at 14:00",
        ),
        ("revert HCM07 to 10:15", "HCM07", "10:15"),
    ],
)
def test_restores_name_their_target_and_moment(text, target, moment):
    derivation = parse_derivation(text)
    assert derivation is not None and derivation.kind == "restore"
    assert (derivation.target, derivation.moment) == (target, moment)


@pytest.mark.parametrize(
    ("text", "subject", "comparison", "threshold", "write"),
    [
        (
            "if the HCM20 setpoint is below -1 A, set it to -1 A",
            "the HCM20 setpoint",
            "<",
            -1.0,
            "set the HCM20 setpoint to -1 A",
        ),
        ("set HCM20 to 0 if it is above 2 A", "", ">", 2.0, "set HCM20 to 0"),
        ("when QF05 exceeds 120 A, set QF05 to 118 A", "QF05", ">", 120.0, "set QF05 to 118 A"),
        (
            "only set VCM01 to 0.2 if the lifetime is at least 5 h",
            "the lifetime",
            ">=",
            5.0,
            "only set VCM01 to 0.2",
        ),
        # "at" a value is equal to it
        ("if HCM19 is still at zero, set it to 0.35 A", "HCM19", "==", 0.0, "set HCM19 to 0.35 A"),
    ],
)
def test_conditions_name_what_is_compared(text, subject, comparison, threshold, write):
    derivation = parse_derivation(text)
    assert derivation is not None and derivation.kind == "condition"
    condition = derivation.condition
    assert (condition.subject, condition.comparison, condition.threshold) == (
        subject,
        comparison,
        threshold,
    )
    assert derivation.write == write


@pytest.mark.parametrize(
    "text",
    [
        "set HCM01 to 1.5 A",
        "reset HCM01 to 0",
        "read the beam current",
        "set VCM05 to VCM08 to 0.1 A",
        "Set transfer line horizontal corrector 4 to 1.2 A",
        "copy the beam current to 5 mA",
    ],
)
def test_plain_writes_and_reads_derive_nothing(text):
    assert parse_derivation(text) is None


# -- whole turns -----------------------------------------------------------------------------


async def test_a_copy_reads_the_source_and_the_approval_says_where_the_value_came_from(
    session, machine: SimMachine
):
    machine.set_setpoint(VCM07, 0.35)

    asked = await session.submit("make VCM08 the same as VCM07", "t1")

    assert steps(asked) == ["channel_finding", "channel_read", "channel_write", "respond"]
    (op,) = operations(asked)
    assert op["channel"] == VCM08 and op["new_value"] == pytest.approx(0.35)
    assert op["derived_from"]["channel"] == VCM07
    assert f"copied from `{VCM07}` (read 0.35 A" in asked.pending_approval["user_message"]

    done = await session.resume("t1", True)

    assert machine.value(VCM08) == pytest.approx(0.35)
    assert f"value copied from `{VCM07}`" in done.response


@pytest.mark.parametrize(
    ("text", "factor"),
    [
        ("VCM08 = half the VCM07 setpoint", 0.5),
        ("set VCM08 to twice VCM07", 2.0),
        ("make VCM08 80% of VCM07", 0.8),
    ],
)
async def test_a_scaled_copy_writes_the_source_times_its_factor_and_never_the_source(
    session, machine: SimMachine, text, factor
):
    machine.set_setpoint(VCM07, 0.2)

    asked = await session.submit(text, "t1")

    assert steps(asked) == ["channel_finding", "channel_read", "channel_write", "respond"]
    (op,) = operations(asked)
    assert op["channel"] == VCM08 and op["new_value"] == pytest.approx(0.2 * factor)
    assert op["derived_from"]["channel"] == VCM07
    await session.resume("t1", False)
    assert machine.value(VCM07) == pytest.approx(0.2)


async def test_described_devices_copy_each_other_and_a_shorter_source_is_of_the_targets_family(
    session, machine: SimMachine
):
    machine.set_setpoint("SR03C:HCM09:Current:SP", 0.2)

    asked = await session.submit(
        "Would you kindly make horizontal corrector 8 agree with corrector 9, plus a tenth of "
        "an ampere?",
        "t1",
    )

    (op,) = operations(asked)
    assert op["channel"] == "SR03C:HCM08:Current:SP"
    assert op["new_value"] == pytest.approx(0.3)
    assert op["derived_from"]["channel"] == "SR03C:HCM09:Current:SP"
    await session.resume("t1", False)


async def test_a_device_named_only_as_a_reference_is_never_written(session, machine: SimMachine):
    asked = await session.submit("raise QF 3 by 1 A above QF 5", "t1")

    assert asked.pending_approval is None
    assert "QF5 is named as what the value is measured against" in asked.response


async def test_a_copy_below_another_writes_only_the_target(session, machine: SimMachine):
    asked = await session.submit("set QD10 half an amp below QD12", "t1")

    (op,) = operations(asked)
    assert op["channel"] == "SR03C:QD10:Current:SP"
    assert op["derived_from"]["channel"] == "SR03C:QD12:Current:SP"
    await session.resume("t1", False)


async def test_a_mean_of_two_devices_reads_both_and_writes_only_the_target(
    session, machine: SimMachine
):
    machine.set_setpoint(VCM07, 0.2)
    machine.set_setpoint("SR02C:VCM04:Current:SP", 0.4)

    asked = await session.submit("set VCM08 to the average of VCM07 and VCM04", "t1")

    assert steps(asked) == ["channel_finding", "channel_read", "channel_write", "respond"]
    (op,) = operations(asked)
    assert op["channel"] == VCM08 and op["new_value"] == pytest.approx(0.3)
    assert op["derived_from"]["kind"] == "mean"
    assert "the mean of" in asked.pending_approval["user_message"]
    await session.resume("t1", False)
    assert machine.value(VCM08) == 0.0


async def test_devices_picked_by_their_place_in_a_sector_copy_each_other(
    session, machine: SimMachine
):
    machine.set_setpoint("SR04C:QD14:Current:SP", 94.0)

    asked = await session.submit(
        "give the second defocusing quad of sector 4 the same current as the first one", "t1"
    )

    (op,) = operations(asked)
    assert op["channel"] == "SR04C:QD16:Current:SP" and op["new_value"] == pytest.approx(94.0)
    assert op["derived_from"]["channel"] == "SR04C:QD14:Current:SP"
    await session.resume("t1", False)


async def test_a_restore_takes_the_archived_value_at_the_moment(session, machine: SimMachine):
    now = time.time()
    machine.set_setpoint(QF11, 121.0, t=now - 3 * 3600)
    machine.set_setpoint(QF11, 119.5, t=now - 1800)

    asked = await session.submit("put QF11 back to where it was 2 hours ago", "t1")

    assert steps(asked) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "channel_write",
        "respond",
    ]
    (op,) = operations(asked)
    assert op["channel"] == QF11 and op["new_value"] == pytest.approx(121.0)
    assert op["current_value"] == pytest.approx(119.5)
    assert "restored from the archive" in asked.pending_approval["user_message"]
    rejected = await session.resume("t1", False)
    assert machine.value(QF11) == pytest.approx(119.5) and "rejected" in rejected.response


async def test_a_condition_that_does_not_hold_asks_nothing_and_writes_nothing(
    session, machine: SimMachine
):
    result = await session.submit("if the HCM20 setpoint is below -1 A, set it to -1 A", "t1")

    assert steps(result) == ["channel_finding", "channel_read", "channel_write", "respond"]
    assert result.pending_approval is None
    assert "not below -1 A: the condition does not hold" in result.response
    assert machine.value(HCM20) == 0.0
    (entry,) = AuditLog(get_audit_db_path()).entries()
    assert entry.channel == HCM20 and entry.outcome == "not_sent"


async def test_a_condition_that_holds_is_asked_with_the_reading_it_was_checked_on(
    session, machine: SimMachine
):
    machine.set_setpoint(HCM20, -1.6)

    asked = await session.submit("if the HCM20 setpoint is below -1 A, set it to -1 A", "t1")

    (op,) = operations(asked)
    assert op["channel"] == HCM20 and op["new_value"] == -1.0
    assert "condition checked" in asked.pending_approval["user_message"]
    assert "below -1 A" in asked.pending_approval["user_message"]


@pytest.mark.parametrize(
    ("text", "setpoint", "proposed"),
    [
        ("is HCM20 beyond 1 A? if so halve it", 1.6, 0.8),
        ("if HCM20 is not at zero, zero it", 0.4, 0.0),
        ("if HCM20 is negative set it to 0", -0.3, 0.0),
        ("if HCM20 < -1 A -> set it to -1 A else leave it", -1.6, -1.0),
    ],
)
async def test_a_condition_asked_as_a_question_or_said_with_a_sign_is_checked_first(
    session, machine: SimMachine, text, setpoint, proposed
):
    machine.set_setpoint(HCM20, setpoint)

    asked = await session.submit(text, "t1")

    (op,) = operations(asked)
    assert op["channel"] == HCM20 and op["new_value"] == pytest.approx(proposed)
    await session.resume("t1", False)
    machine.set_setpoint(HCM20, proposed)
    again = await session.submit(text, "t2")
    assert again.pending_approval is None and "the condition does not hold" in again.response
    assert "not not" not in again.response


async def test_a_condition_said_last_about_the_beam_current_is_checked_on_the_beam_current(
    session,
):
    """ "the current" beside a corrector's write is the beam's, not the corrector's own (that
    would be "its current"); the condition was said after the change."""
    asked = await session.submit(
        "put VCM 4 at 0.3 A, but only as long as the current stays over 400 mA", "t1"
    )

    (op,) = operations(asked)
    assert op["channel"] == "SR02C:VCM04:Current:SP" and op["new_value"] == 0.3
    assert op["derived_from"]["channel"] == "SR:DCCT:Current"
    assert op["derived_from"]["comparison"] == ">"


async def test_a_range_of_devices_is_every_device_in_it_in_one_approval(session):
    asked = await session.submit("set VCM05 to VCM08 to 0.1 A", "t1")

    names = [op["channel"] for op in operations(asked)]
    assert names == [
        "SR02C:VCM05:Current:SP",
        "SR02C:VCM06:Current:SP",
        "SR03C:VCM07:Current:SP",
        "SR03C:VCM08:Current:SP",
    ]
    assert all(op["new_value"] == 0.1 for op in operations(asked))


async def test_a_mass_write_lists_every_channel_in_one_approval(session):
    asked = await session.submit("set all vertical correctors to zero", "t1")

    ops = operations(asked)
    assert len(ops) == 36 and all(op["new_value"] == 0.0 for op in ops)
    assert "Approve 36 writes to the machine?" in asked.pending_approval["user_message"]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("set the undulator gap to 15 mm", "6 fit it"),
        ("set the horizontal corrector in sector 2 to 0.5 A", "3 fit it"),
    ],
)
async def test_one_device_named_where_several_fit_is_asked_never_guessed(session, text, count):
    result = await session.submit(text, "t1")

    assert steps(result) == ["channel_finding", "clarify"]
    assert result.pending_approval is None
    assert count in result.response and "Which one do you mean?" in result.response


async def test_every_names_the_whole_family(session):
    asked = await session.submit("set every undulator gap to 20 mm", "t1")
    assert len(operations(asked)) == 6


def test_a_reference_value_names_its_target_and_its_reference():
    derivation = parse_derivation("Set dipole 4 current to golden values")
    assert derivation is not None and derivation.kind == "copy" and derivation.reference
    assert (derivation.target, derivation.source) == ("dipole 4 current", "dipole 4 current golden")


async def test_a_nominal_value_from_the_channel_list_is_written_after_approval(
    session, machine: SimMachine
):
    qf03 = "SR01C:QF03:Current:SP"
    machine.set_setpoint(qf03, 121.0)

    asked = await session.submit("restore QF03 to its nominal value", "t1")

    (op,) = operations(asked)
    assert op["channel"] == qf03 and op["new_value"] == 120.0
    assert (
        "the nominal value of `SR01C:QF03:Current:SP` in the channel list"
        in (asked.pending_approval["user_message"])
    )


async def test_a_reference_nobody_keeps_is_asked_about(session):
    result = await session.submit("set QF03 to its golden value", "t1")
    assert result.pending_approval is None
    assert "I found no golden value for SR01C:QF03:Current:SP" in result.response


async def test_a_copy_after_an_earlier_read_reads_the_source_again(session, machine: SimMachine):
    await session.submit("read VCM07 and VCM08", "t1")
    machine.set_setpoint(VCM07, 0.45)  # moves after that read

    asked = await session.submit("make VCM08 the same as VCM07", "t1")

    assert "channel_read" in steps(asked)
    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(0.45), "the present value, not the earlier read"


@pytest.mark.parametrize(
    ("text", "source", "target"),
    [
        (
            "please set the VCM08 setpoint to the value the VCM07 readback shows",
            "SR03C:VCM07:Current:RB",
            VCM08,
        ),
        (
            "the VCM 7 readback looks odd to me, can you set the setpoint to match the readback",
            "SR03C:VCM07:Current:RB",
            VCM07,
        ),
    ],
)
async def test_a_copy_from_a_readback_reads_that_readback(
    session, machine: SimMachine, text, source, target
):
    machine.set_setpoint(VCM07, 0.4, t=time.time() - 600)

    asked = await session.submit(text, "t1")

    (op,) = operations(asked)
    assert op["channel"] == target
    assert op["derived_from"]["channel"] == source
    assert op["new_value"] == pytest.approx(0.4, abs=0.02)


# -- moments of a restore ----------------------------------------------------------------------


async def test_a_restore_from_a_minute_ago_is_the_value_then_not_now(session, machine: SimMachine):
    now = time.time()
    machine.set_setpoint(QF11, 121.0, t=now - 600)
    machine.set_setpoint(QF11, 122.0, t=now - 20)

    asked = await session.submit("restore QF11 to its value from 1 minute ago", "t1")

    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(121.0), "the value a minute ago, not the present one"
    assert op["derived_from"]["moment"] == pytest.approx(now - 60, abs=5)
    day = time.strftime("%Y-%m-%d", time.localtime(now - 60))
    assert f"was 121 A at {day} " in asked.pending_approval["user_message"]


async def test_a_restore_from_a_clock_time_is_that_instant_with_its_date(
    session, machine: SimMachine
):
    now = time.time()
    moment = now - 2 * 3600
    clock = time.strftime("%H:%M", time.localtime(moment))
    machine.set_setpoint(QF11, 121.0, t=moment - 600)
    machine.set_setpoint(QF11, 119.0, t=moment + 600)  # since then it changed

    asked = await session.submit(f"restore QF11 to its value from {clock}", "t1")

    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(121.0)
    day = time.strftime("%Y-%m-%d", time.localtime(moment))
    assert f"at {day} {clock}:00" in asked.pending_approval["user_message"]


@pytest.mark.parametrize("moment", ["tomorrow at 10:00", "2 hours from now", "next week"])
async def test_a_restore_to_a_future_moment_is_refused(session, machine: SimMachine, moment):
    result = await session.submit(f"restore QF11 to its value from {moment}", "t1")

    assert result.pending_approval is None
    assert "in the future" in result.response
    assert machine.setpoint_changes(QF11) == ()


@pytest.mark.parametrize(
    "text",
    [
        "put QF11 back to how it was at {hour}",
        "set QF11 back to where it was at {hour} before the trip",
        "set QF11 to what it read at {hour}",
    ],
)
async def test_the_hour_of_a_write_back_is_its_moment_never_the_value(
    session, machine: SimMachine, text
):
    now = time.time()
    hour = int(time.strftime("%H", time.localtime(now - 3 * 3600)))
    machine.set_setpoint(QF11, 119.0, t=now - 5 * 3600)
    machine.set_setpoint(QF11, 118.0, t=now - 600)

    asked = await session.submit(text.format(hour=hour), "t1")

    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(119.0), "the value at that hour, not the hour"
    assert f"{hour:02d}:00:00" in asked.pending_approval["user_message"]


async def test_a_write_back_whose_moment_cannot_be_read_asks_for_it(session, machine: SimMachine):
    result = await session.submit("put QF11 back to how it was at 9ish", "t1")

    assert result.pending_approval is None
    assert "which moment" in result.response
    assert machine.setpoint_changes(QF11) == ()


# a whole day, a shift, "this morning": tests/control_room/test_period_restores.py


# -- facts asked again in the same process -----------------------------------------------------


async def test_a_copy_asked_again_reads_its_source_afresh(session, machine: SimMachine):
    machine.set_setpoint(VCM07, 0.2)
    await session.submit("make VCM08 the same as VCM07", "t1")
    machine.set_setpoint(VCM07, 0.6)

    again = await session.resume("t1", True)

    assert machine.value(VCM08) == 0.0
    (op,) = operations(again)
    assert op["new_value"] == pytest.approx(0.6)
    assert op["derived_from"]["value"] == pytest.approx(0.6)
    assert "now reads 0.600 A, not 0.200 A" in again.pending_approval["user_message"]


async def test_a_condition_still_holding_with_a_new_reading_is_sent(session, machine: SimMachine):
    hcm03 = "SR01C:HCM03:Current:SP"
    vcm04 = "SR02C:VCM04:Current:SP"
    machine.set_setpoint(hcm03, 1.0)
    await session.submit("set VCM04 to 0.3 A if the HCM03 setpoint is above 0.5 A", "t1")
    machine.set_setpoint(hcm03, 0.9)  # moved, but the verdict is the approved one

    done = await session.resume("t1", True)

    assert done.pending_approval is None
    assert machine.value(vcm04) == pytest.approx(0.3)


async def test_a_restore_to_before_my_change_is_the_value_right_before_my_last_write(
    session, machine: SimMachine
):
    machine.set_setpoint(QF11, 121.0, t=time.time() - 600)
    await session.submit("set QF11 to 122 A", "t1")
    done = await session.resume("t1", True)
    assert machine.value(QF11) == pytest.approx(122.0), done.response

    asked = await session.submit("restore QF11 to before my change", "t2")

    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(121.0), "the value right before my write"
    assert op["derived_from"]["kind"] == "archive"


async def test_a_restore_to_before_my_change_without_one_asks(session):
    result = await session.submit("restore QF11 to before my change", "t1")

    assert result.pending_approval is None
    assert "holds no write of yours" in result.response


@pytest.mark.parametrize(
    ("text", "threshold", "write"),
    [
        # a spelled threshold ("four hundred") is one number
        (
            "if the beam current is above four hundred milliamps then set VCM8 to 0.15",
            400.0,
            "set VCM8 to 0.15",
        ),
        # a reading before the condition is its own clause, not part of the write
        (
            "check lifetime and current, and if the current is over 450 mA, set VCM30 to 0.2 A",
            450.0,
            "set VCM30 to 0.2 A",
        ),
    ],
)
def test_conditions_with_spelled_thresholds_and_readings_before_them(text, threshold, write):
    derivation = parse_derivation(text)
    assert derivation is not None and derivation.kind == "condition"
    assert derivation.condition.threshold == threshold
    assert derivation.write == write


@pytest.mark.parametrize(
    ("text", "source", "offset", "unit"),
    [
        ("set VCM08 to the same value as VCM07 plus 0.1 A", "VCM07", 0.1, "A"),
        ("set QD12 to the same value as QD10 minus 0.5 A", "QD10", -0.5, "A"),
        ("make VCM08 the same as VCM07", "VCM07", 0.0, None),
    ],
)
def test_a_copy_keeps_the_offset_said_after_its_source(text, source, offset, unit):
    derivation = parse_derivation(text)
    assert derivation is not None and derivation.kind == "copy"
    assert (derivation.source, derivation.offset, derivation.offset_unit) == (source, offset, unit)


@pytest.mark.parametrize(
    "text",
    [
        "set VCM08 to VCM07 plus 0.1 A",
        "set VCM08 to VCM07's value plus 0.1 A",
        "put VCM08 0.1 A above VCM07",
        "give VCM08 whatever VCM07 has, plus 0.1 A",
    ],
)
async def test_a_copy_with_an_offset_writes_the_source_plus_the_offset_and_nothing_else(
    session, machine: SimMachine, text
):
    """The source is read, never written: "VCM07 plus 0.1 A" is VCM07's value plus 0.1 A
    for VCM08, not 0.1 A more on both."""
    machine.set_setpoint(VCM07, 0.35)

    asked = await session.submit(text, "t1")

    (op,) = operations(asked)
    assert op["channel"] == VCM08 and op["new_value"] == pytest.approx(0.45)
    assert op["derived_from"]["offset"] == pytest.approx(0.1)
    assert "plus 0.1 A" in asked.pending_approval["user_message"]
    await session.resume("t1", False)
    assert machine.value(VCM07) == pytest.approx(0.35)


async def test_the_one_device_of_a_sector_said_in_words_is_asked_when_several_fit(session):
    """ "the focusing quad in sector eight": "eight" places it, it counts nothing; two fit."""
    result = await session.submit("lower the focusing quad in sector eight by one amp", "t1")

    assert result.pending_approval is None
    assert "2 fit it" in result.response and "Which one do you mean?" in result.response


@pytest.mark.parametrize("text", ["QD 48 to QD 46 + 0.5", "HCM 35 := HCM 34 - 0.2 A"])
async def test_a_terse_copy_with_an_offset_writes_only_its_target(session, text):
    result = await session.submit(text, "t1")
    ops = result.pending_approval["resume_payload"]["operations"]
    assert len(ops) == 1
    assert ops[0]["channel"] in ("SR12C:QD48:Current:SP", "SR12C:HCM35:Current:SP")
    await session.resume("t1", False)


async def test_a_copy_with_a_percent_offset_is_that_percent_of_the_source(session):
    result = await session.submit("set QF 19 to QF 17 plus 1 %", "t1")
    (op,) = result.pending_approval["resume_payload"]["operations"]
    assert op["channel"] == "SR05C:QF19:Current:SP"
    assert op["new_value"] == pytest.approx(121.2)
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    ["set VCM 7 and VCM 8 to the same value as VCM 9", "copy VCM 9 to VCM 7 and VCM 8"],
)
async def test_a_copy_to_several_devices_writes_each_of_them(session, text):
    result = await session.submit(text, "t1")
    ops = result.pending_approval["resume_payload"]["operations"]
    assert sorted(op["channel"] for op in ops) == [
        "SR03C:VCM07:Current:SP",
        "SR03C:VCM08:Current:SP",
    ]
    await session.resume("t1", False)


@pytest.mark.parametrize("text", ["set the RF to 2.55 MV", "RF to 2.55 MV"])
async def test_a_value_with_a_unit_goes_to_the_setpoint_counted_in_it(session, text):
    result = await session.submit(text, "t1")
    (op,) = result.pending_approval["resume_payload"]["operations"]
    assert (op["channel"], op["new_value"]) == ("SR:RF:Voltage:SP", 2.55)
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    ["vertical correctors 19, 20, 21 → −0.1 A", "vertical correctors 19, 20 and 21 to -0.1 A"],
)
async def test_a_value_given_to_a_list_of_described_devices_writes_each(session, text):
    result = await session.submit(text, "t1")
    ops = result.pending_approval["resume_payload"]["operations"]
    assert sorted(op["channel"] for op in ops) == [
        "SR07C:VCM19:Current:SP",
        "SR07C:VCM20:Current:SP",
        "SR07C:VCM21:Current:SP",
    ]
    assert {op["new_value"] for op in ops} == {-0.1}
    await session.resume("t1", False)
