"""A simulated ring replaying a shipped scenario at a fixed facility time (for the tests)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from osprey_desktop.channels import get_channel_database
from osprey_desktop.config import resolve_resource_file
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.connectors.sim_scenario_engine import ScenarioEngine

ZONE_NAME = "Europe/Berlin"
ZONE = ZoneInfo(ZONE_NAME)
#: "Now" in every scenario test: a Thursday late morning, facility time.
NOW = datetime(2026, 11, 26, 11, 0, tzinfo=ZONE).timestamp()


def scenario_machine(name: str, now: float = NOW) -> SimMachine:
    database = get_channel_database(resolve_resource_file(None, "channels.yaml"))
    engine = ScenarioEngine.named(name, ZONE)
    return SimMachine(database, clock=lambda: now, lag_scale=1.0, scenario=engine)
