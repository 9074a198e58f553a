"""A facility's channel list on the simulated ring: the answer says its values are simulated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from osprey_desktop.connectors import close_connectors
from osprey_desktop.connectors.factory import reset_sim_machines
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import reset_registry
from osprey_desktop.session import AgentSession

CHANNELS = "name,description,units,writable\nFAC:HEATER:SP,Heater power setpoint,W,yes\n"


@pytest.fixture
async def session(configure, tmp_path: Path) -> AsyncIterator[AgentSession]:
    reset_registry()
    reset_planner()
    reset_sim_machines()
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as opened:
        yield opened
    await close_connectors()
    reset_sim_machines()
    reset_registry()
    reset_planner()


async def test_a_facility_list_on_the_simulated_ring_is_said_to_be_simulated(
    session, configure, tmp_path: Path
) -> None:
    (tmp_path / "channels.csv").write_text(CHANNELS)
    configure({"control_system": {"channel_database": str(tmp_path / "channels.csv")}})
    result = await session.submit("read the heater power setpoint", "t1")
    assert "FAC:HEATER:SP" in result.response
    assert "Simulated values: control_system.type is sim" in result.response, result.response


async def test_the_shipped_ring_needs_no_such_note(session, configure) -> None:
    configure()
    result = await session.submit("read the beam current", "t1")
    assert "SR:DCCT:Current" in result.response and "Simulated values" not in result.response
