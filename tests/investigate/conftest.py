"""Fixtures for the scenario turns: the ring replays a scenario on the real clock, in a
facility zone where it is late morning now (so "this morning" and "yesterday at 14:32" are
in the past whenever the tests run)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from osprey_desktop.connectors import close_connectors, get_configured_channel_database
from osprey_desktop.connectors.factory import reset_sim_machines, set_sim_machine
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.connectors.sim_scenario_engine import ScenarioEngine
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import reset_registry
from osprey_desktop.session import AgentSession


def late_morning_zone() -> str:
    """A fixed-offset zone (Etc/GMT±N) in which the present hour is 11."""
    offset = 11 - time.gmtime().tm_hour
    if offset == 0:
        return "Etc/GMT"
    return f"Etc/GMT{'+' if offset < 0 else '-'}{abs(offset)}"  # Etc/ signs are inverted


@pytest.fixture
def ring(configure) -> Iterator[Callable[[str], SimMachine]]:
    """``ring("vacuum_burst")``: install a ring replaying that scenario; returns it."""
    from zoneinfo import ZoneInfo

    zone = late_morning_zone()
    configure({"machine": {"timezone": zone}})
    reset_registry()
    reset_planner()
    reset_sim_machines()

    def build(name: str) -> SimMachine:
        engine = ScenarioEngine.named(name, ZoneInfo(zone))
        machine = SimMachine(get_configured_channel_database(), seed=0, scenario=engine)
        set_sim_machine(machine)
        return machine

    build.zone = ZoneInfo(zone)  # the facility's zone: times typed in requests are read in it
    yield build
    reset_sim_machines()
    reset_registry()
    reset_planner()


@pytest.fixture
async def session(ring, tmp_path) -> AsyncIterator[AgentSession]:
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as opened:
        yield opened
    await close_connectors()
