"""Fixtures for the control-room tests: a fresh simulated ring whose magnets settle fast,
the real registry and planner, and connectors closed after every test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from osprey_desktop.connectors import close_connectors, get_configured_channel_database
from osprey_desktop.connectors.factory import reset_sim_machines, set_sim_machine
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import reset_registry
from osprey_desktop.session import AgentSession


@pytest.fixture(autouse=True)
def fresh_framework() -> Iterator[None]:
    reset_registry()
    reset_planner()
    yield
    reset_registry()
    reset_planner()


@pytest.fixture
def machine(isolated_config) -> Iterator[SimMachine]:
    """The process's simulated ring for this test; readbacks settle in ~0.1 s."""
    reset_sim_machines()
    ring = SimMachine(get_configured_channel_database(), seed=7, lag_scale=0.05)
    set_sim_machine(ring)
    yield ring
    reset_sim_machines()


@pytest.fixture
async def connectors(machine: SimMachine) -> AsyncIterator[SimMachine]:
    """``machine`` plus: every connector opened on this test's loop is closed at the end."""
    yield machine
    await close_connectors()


@pytest.fixture
async def session(connectors, tmp_path) -> AsyncIterator[AgentSession]:
    """An AgentSession on a fresh thread database, on this test's simulated ring."""
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as opened:
        yield opened
