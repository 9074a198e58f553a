"""Whole turns on the simulated ring: values said in words never widen a write, a spoken
offset makes a copy, a corrector called a dipole corrector is found, a setpoint is matched to
what its readback shows, an ISO time is a time, and "not yet" calls a change off."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.support.turns import proposed, steps


@pytest.mark.parametrize("text", ["set QF to one twenty one", "set qf to twenty"])
async def test_a_family_given_a_value_in_words_asks_which_device(session, text):
    # "twenty" of the value is no count of devices: never all 24 quadrupoles
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and steps(result)[-1] == "clarify"
    assert "a write never picks one for you" in result.response


async def test_an_offset_said_in_words_copies_and_never_writes_the_source(session, machine):
    result = await session.submit("set q f nine to q f eleven plus point five", "t1")

    source = machine.value("SR03C:QF11:Current:SP")
    assert proposed(result) == {"SR03C:QF09:Current:SP": pytest.approx(source + 0.5)}
    await session.resume("t1", False)


async def test_a_dipole_corrector_is_a_corrector(session):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit("what is the horizontal dipole corrector 7 reading?", "t1")

    assert {c["name"] for c in found_channels(result)} == {"SR03C:HCM07:Current:RB"}


async def test_a_setpoint_matched_to_what_its_readback_shows_reads_it_first(session):
    result = await session.submit(
        "Could you match the cavity voltage setpoint to what the readback shows?", "t1"
    )

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    assert set(proposed(result)) == {"SR:RF:Voltage:SP"}
    await session.resume("t1", False)


async def test_a_range_written_in_iso_form_is_that_range(session):
    from osprey_desktop.planners.channel_words import facility_now

    # yesterday's morning: a range of today's would lie ahead of a run before 09:00
    day = (facility_now() - timedelta(days=1)).date().isoformat()
    result = await session.submit(f"plot SR:TUNE:Y from {day}T06:00 to {day}T09:00", "t1")

    assert "archiver_retrieval" in steps(result)
    assert f"{day} 06:00 to {day} 09:00" in result.response


@pytest.mark.parametrize("text", ["not yet", "hold on dont do that yet", "hold off on that"])
async def test_not_yet_after_a_change_calls_it_off(session, text):
    first = await session.submit("set HCM 3 to 0.2", "t1")
    assert first.pending_approval is not None
    await session.resume("t1", False)

    again = await session.submit(text, "t1")

    assert steps(again) == ["respond"] and again.pending_approval is None
    assert "nothing was changed" in again.response
