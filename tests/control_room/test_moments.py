"""A moment in the past ("at 06:30", "2 hours ago") is the archived value at that moment, and
now against that moment compares the present reading with it."""

from __future__ import annotations

import time

from osprey_desktop.capabilities.control_room.archiver_retrieval import ArchiverRetrievalCapability
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.support.turns import steps

HCM02 = "SR01C:HCM02:Current:SP"


async def test_a_moment_is_the_archived_value_at_it(session, machine: SimMachine):
    now = time.time()
    machine.set_setpoint(HCM02, 0.2, t=now - 4 * 3600)
    machine.set_setpoint(HCM02, 0.5, t=now - 1800)

    result = await session.submit("the HCM02 setpoint 2 hours ago", "t1")

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ]
    assert f"`{HCM02}` at " in result.response and "**0.2000 A**" in result.response
    assert "archived sample of" in result.response


async def test_now_against_a_moment_says_higher_or_lower_and_by_how_much(
    session, machine: SimMachine
):
    now = time.time()
    machine.set_setpoint(HCM02, 0.2, t=now - 4 * 3600)
    machine.set_setpoint(HCM02, 0.5, t=now - 1800)

    result = await session.submit("is the HCM02 setpoint higher than 2 hours ago?", "t1")

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "channel_read",
        "archiver_retrieval",
        "respond",
    ]
    assert "**0.2000 A**" in result.response and "now 0.5000 A" in result.response
    assert "**higher** by 0.3000 A" in result.response


async def test_a_moment_in_the_future_is_asked_about(session):
    # tomorrow, not "23:59 today": a clock late today is no longer ahead a minute before midnight
    result = await session.submit("what was the lifetime at 09:00 tomorrow", "t1")
    assert result.pending_approval is None
    assert "in the future" in result.response or "Which" in result.response


def test_a_moment_and_now_asked_together_read_now_too():
    asked = "What was the QF 7 readback at 03:00 and what is it now?"
    assert ArchiverRetrievalCapability.inputs_for(asked) == ["CHANNEL_VALUES"]
