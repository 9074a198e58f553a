"""A facility's own IOC and channel list, in plain English through the command line: a valve
opened by name, a heater set in watts, a temperature read in degC, a history refused because
no archiver is configured. The IOC (``tests.connectors.facility_ioc``, not made by this
product) runs as a child process on free loopback ports and is stopped by its pid."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.connectors.facility_ioc import FacilityIocProcess
from tests.support.cli_env import run_cli

pytestmark = [pytest.mark.ioc, pytest.mark.timeout(240), pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
CHANNELS = """name,description,units,writable
FAC:VALVE,Cooling water valve,,yes
FAC:HEATER:SP,Heater power setpoint,W,yes
FAC:HEATER:RB,Heater power readback,W,no
FAC:TEMP,Cooling water temperature,degC,no
"""
LIMITS = """channels:
  FAC:VALVE:
    writable: true
  FAC:HEATER:SP:
    min: 0
    max: 50
    max_step: 25
    writable: true
"""


@pytest.fixture(scope="module")
def ioc() -> Iterator[FacilityIocProcess]:
    with FacilityIocProcess() as process:
        yield process


@pytest.fixture
def cli(ioc: FacilityIocProcess, isolated_config: Path):
    (isolated_config / "channels.csv").write_text(CHANNELS)
    (isolated_config / "limits.yaml").write_text(LIMITS)
    config = isolated_config / "facility.yaml"
    config.write_text(
        "control_system:\n"
        "  type: epics\n"
        f"  channel_database: {isolated_config / 'channels.csv'}\n"
        f"  limits_database: {isolated_config / 'limits.yaml'}\n"
        "  epics:\n    writes_enabled: true\n"
    )
    db = str(isolated_config / "threads.sqlite")
    ioc_env = {**ioc.client_environment, "XDG_STATE_HOME": str(isolated_config / "state")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(
            isolated_config, "--config", str(config), *args, "--db", db, extra_env=ioc_env
        )

    return run


def thread_of(text: str) -> str:
    found = re.search(r"thread: (\w+)", text)
    assert found, text
    return found.group(1)


def test_open_the_cooling_valve_writes_its_open_state_after_approval(cli):
    asked = cli("ask", "open the cooling valve")
    assert asked.returncode == 3, asked.stdout + asked.stderr
    assert "write **Open** to `FAC:VALVE` (now Closed" in asked.stdout, asked.stdout

    approved = cli("approve", "--thread", thread_of(asked.stderr + asked.stdout), "yes")
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert "**verified**" in approved.stdout, approved.stdout

    read = cli("ask", "is the cooling valve open?")
    assert read.returncode == 0, read.stderr
    assert re.search(r"\| FAC:VALVE \|[^\n]*\| Open \|", read.stdout), read.stdout
    closed = cli("ask", "close the cooling valve")
    assert "write **Closed** to `FAC:VALVE` (now Open" in closed.stdout, closed.stdout


def test_the_heater_is_set_in_watts_and_a_wrong_unit_is_refused(cli):
    asked = cli("ask", "set the heater to 20 W")
    assert asked.returncode == 3, asked.stdout + asked.stderr
    assert "write **20.0 W** to `FAC:HEATER:SP` (now 10.0 W" in asked.stdout, asked.stdout

    wrong = cli("ask", "set the heater to 20 mm")
    assert wrong.returncode != 3, wrong.stdout
    assert "mm" in wrong.stdout and "W" in wrong.stdout, wrong.stdout


def test_a_temperature_reads_in_its_own_units_and_history_says_no_archiver(cli):
    read = cli("ask", "what is the cooling water temperature?")
    assert read.returncode == 0, read.stderr
    assert re.search(r"\| FAC:TEMP \|[^\n]*\| 21\.50 degC \|", read.stdout), read.stdout

    history = cli("ask", "plot the cooling water temperature over the last hour")
    assert "archiver" in history.stdout.lower(), history.stdout
    assert "archiver_appliance" in history.stdout or "archiver:" in history.stdout, history.stdout
