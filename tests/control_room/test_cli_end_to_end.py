"""Plain-English requests end to end through the headless command line on the simulated ring.

Every command is its own ``python -m osprey_desktop`` process on one temporary database and
data folder, as an operator's shell would run them; approvals are answered by a second
process. Each process builds its own simulated ring from the setpoints saved in the data
folder; here the written value is checked through the write's own readback and the audit log
(``test_cli_sim_persistence.py`` checks that a later process reads it).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.support.cli_env import cli_environment
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


@pytest.fixture
def cli(isolated_config):
    db = str(isolated_config / "threads.sqlite")
    env = cli_environment(isolated_config)

    def run(*args: str, with_db: bool = True) -> subprocess.CompletedProcess[str]:
        extra = ["--db", db] if with_db else []
        return run_osprey([*args, *extra], env=env, cwd=REPO, timeout=90)

    return run


def thread_of(text: str) -> str:
    match = re.search(r"thread: (\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def audit_rows(cli) -> list[dict]:
    """The audit log the CLI processes wrote, as printed by ``osprey-desktop audit --json``."""
    printed = cli("audit", "--json", with_db=False)
    assert printed.returncode == 0, printed.stderr
    return json.loads(printed.stdout)


def test_read_the_beam_current(cli):
    result = cli("ask", "read the beam current")
    assert result.returncode == 0, result.stderr
    # the answer is a table: channel, description, value at its precision, alarm, age
    row = r"\| SR:DCCT:Current \| [^|]+ \| \d{3}\.\d+ mA \| OK \|"
    assert re.search(row, result.stdout), result.stdout


def test_show_the_horizontal_orbit_in_sector_3(cli):
    result = cli("ask", "show the horizontal orbit in sector 3")
    assert result.returncode == 0, result.stderr
    for n in range(13, 19):
        assert f"| SR03C:BPM{n}:X |" in result.stdout
    assert ":Y" not in result.stdout


def test_plot_the_beam_current_over_the_last_2_hours(cli):
    result = cli("ask", "plot the beam current over the last 2 hours", "--json")
    assert result.returncode == 0, result.stderr
    turn = json.loads(result.stdout)
    steps = [s["capability"] for s in turn["plan"]["steps"]]
    assert steps == ["channel_finding", "time_range_parsing", "archiver_retrieval", "respond"]
    assert "ARCHIVER_DATA.archiver_retrieval_1" in turn["context_keys"]
    assert "| SR:DCCT:Current |" in turn["response"] and "| Mean |" in turn["response"]
    uris = [c["launch_uri"] for c in turn["launchable_commands"]]
    assert "osprey-desktop://stripchart?channels=SR:DCCT:Current" in uris


def test_set_a_corrector_approved_then_written_and_read_back(cli):
    asked = cli("ask", "set corrector HCM01 to 1.5 A")
    assert asked.returncode == 3, asked.stderr
    assert "write **1.5 A** to `SR01C:HCM01:Current:SP` (now 0.000 A" in asked.stdout
    thread = thread_of(asked.stdout)

    approved = cli("approve", "--thread", thread, "yes")

    assert approved.returncode == 0, approved.stderr
    match = re.search(
        r"\*\*verified\*\* — wrote 1\.5 A \(was 0 A\), readback (\d+\.\d+) A", approved.stdout
    )
    assert match, approved.stdout
    assert abs(float(match.group(1)) - 1.5) <= 0.05
    intent, outcome = audit_rows(cli)
    assert (intent["outcome"], outcome["outcome"]) == ("intent", "verified")
    assert (outcome["thread_id"], outcome["channel"]) == (thread, "SR01C:HCM01:Current:SP")


def test_set_a_corrector_rejected_leaves_it_unchanged(cli):
    asked = cli("ask", "set HCM02 to 0.5 A")
    assert asked.returncode == 3, asked.stderr
    thread = thread_of(asked.stdout)

    rejected = cli("approve", "--thread", thread, "no")

    assert rejected.returncode == 0, rejected.stderr
    assert "**Nothing was written** (1 rejected by you)" in rejected.stdout
    (row,) = audit_rows(cli)
    assert (row["outcome"], row["value_before"], row["readback_after"]) == ("rejected", 0, None)


def test_a_write_beyond_its_limit_is_refused_with_the_limit_named(cli):
    result = cli("ask", "set HCM01 to 7 A")
    assert result.returncode == 0, result.stderr
    assert "**Nothing was written** (1 blocked by the write policy)" in result.stdout
    assert "7.0 A is above the maximum of 5.0 A" in result.stdout and "limit max=5" in result.stdout
    (row,) = audit_rows(cli)
    assert row["outcome"] == "blocked"


def test_json_names_the_channels_the_turn_found(cli):
    result = cli("ask", "show the horizontal orbit in sector 3", "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)["channels"]
    assert [c["name"] for c in found] == [f"SR03C:BPM{n}:X" for n in range(13, 19)]
