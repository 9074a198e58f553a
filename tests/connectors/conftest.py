"""Shared fixtures: the shipped channel database and simulated machines with controllable clocks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from osprey_desktop.channels import ChannelDatabase, load_channel_database
from osprey_desktop.config import resources_dir
from osprey_desktop.connectors.factory import reset_sim_machines
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.connectors.helpers import FakeClock

_DB: ChannelDatabase | None = None


@pytest.fixture
def database() -> ChannelDatabase:
    global _DB
    if _DB is None:
        _DB = load_channel_database(resources_dir() / "channels.yaml")
    return _DB


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def machine(database: ChannelDatabase, clock: FakeClock) -> SimMachine:
    """A ring on a hand-moved clock."""
    return SimMachine(database, seed=3, clock=clock)


@pytest.fixture
def fast_machine(database: ChannelDatabase) -> SimMachine:
    """A ring on the real clock whose readbacks settle in ~0.1 s (keeps write tests quick)."""
    return SimMachine(database, seed=3, lag_scale=0.05)


@pytest.fixture(autouse=True)
def fresh_sim_machines() -> Iterator[None]:
    reset_sim_machines()
    yield
    reset_sim_machines()
