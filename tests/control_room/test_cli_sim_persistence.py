"""An approved write outlives its process: the next ``osprey-desktop`` command sees it.

Each command is its own ``python -m osprey_desktop`` process on one temporary database and data
folder, as an operator's shell would run them; the simulated ring keeps its setpoints in
``<data dir>/sim_machine.json`` between them.
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

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture
def cli(isolated_config):
    db = str(isolated_config / "threads.sqlite")
    env = cli_environment(isolated_config)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_osprey([*args, "--db", db], env=env, cwd=REPO, timeout=90)

    return run


def thread_of(text: str) -> str:
    match = re.search(r"thread: (\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def test_an_approved_write_is_read_back_by_the_next_process(cli, isolated_config):
    asked = cli("ask", "set HCM01 to 1.5 A")
    assert asked.returncode == 3, asked.stderr
    assert "(now 0.000 A" in asked.stdout
    approved = cli("approve", "--thread", thread_of(asked.stdout), "yes")
    assert approved.returncode == 0, approved.stderr
    assert "wrote 1.5 A" in approved.stdout

    read = cli("ask", "read HCM01")

    assert read.returncode == 0, read.stderr
    assert re.search(r"\| SR01C:HCM01:Current:SP \| [^|]+ \| 1\.50* A \|", read.stdout), read.stdout
    rb = re.search(r"\| SR01C:HCM01:Current:RB \| [^|]+ \| (-?\d+\.\d+) A \|", read.stdout)
    assert rb and abs(float(rb.group(1)) - 1.5) <= 0.05, read.stdout
    state = json.loads((isolated_config / "data" / "sim_machine.json").read_text())
    assert state["setpoints"] == {"SR01C:HCM01:Current:SP": 1.5}

    # the next write's proposal (and its audit row) start from the persisted value
    again = cli("ask", "set HCM01 to 2 A")
    assert again.returncode == 3, again.stderr
    assert "to `SR01C:HCM01:Current:SP` (now 1.500 A" in again.stdout, again.stdout
