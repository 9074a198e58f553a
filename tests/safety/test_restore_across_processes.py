"""A restore offers the value the channel held at the moment, also when other processes wrote it.

Real command-line processes on one data folder, as an operator would use them: ``ask`` and
``approve`` set a corrector to 1.0 A, later to 2.0 A; a third ``ask`` restores it "to its value
from 14:03:07" or "from 1 minute ago". Each process starts its own simulated ring from the saved
file, so the archive it asks knows that moment only if the ring's history survived the
processes that wrote it (before, the saved ring had no past: 2.0 A was offered for every moment).
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

from osprey_desktop.connectors.sim_state import SimStateFile
from tests.support.cli_env import cli_environment
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[2]
HCM05 = "SR02C:HCM05:Current:SP"

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


class Console:
    """``osprey-desktop`` commands as their own processes on one data folder and database."""

    def __init__(self, home: Path) -> None:
        self.db = home / "threads.sqlite"
        self.env = cli_environment(home)
        self.ring = SimStateFile(home / "data" / "sim_machine.json")

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_osprey([*args, "--db", str(self.db)], env=self.env, cwd=REPO, timeout=120)

    def ask(self, request: str) -> tuple[str, str]:
        """The thread and the text of an ``ask`` that waits for an approval."""
        asked = self("ask", request)
        text = asked.stdout + asked.stderr
        assert asked.returncode == 3, text
        found = re.search(r"thread: (\w+)", text)
        assert found, text
        return found.group(1), text

    def write(self, request: str) -> None:
        thread, _ = self.ask(request)
        approved = self("approve", "--thread", thread, "yes")
        assert approved.returncode == 0, approved.stdout + approved.stderr

    def setpoint(self, channel: str) -> float:
        return self.ring.load().get(channel, 0.0)


@pytest.fixture
def console(isolated_config) -> Console:
    return Console(isolated_config)


def test_a_restore_from_a_minute_ago_on_a_ring_that_changed_writes_the_value_then(console):
    console.write("set HCM05 to 1.0 A")
    first_written = time.time()
    time.sleep(25.0)
    console.write("set HCM05 to 2.0 A")
    assert console.setpoint(HCM05) == 2.0

    # a clock time between the two writes, with seconds: offered 1.0 A, date and time shown
    moment = first_written + 2.0
    clock = time.strftime("%H:%M:%S", time.localtime(moment))
    day = time.strftime("%Y-%m-%d", time.localtime(moment))
    thread, text = console.ask(f"restore HCM05 to its value from {clock}")
    assert "write **1.0 A**" in text and f"at {day} {clock}" in text, text
    declined = console("approve", "--thread", thread, "no")
    assert declined.returncode == 0, declined.stdout + declined.stderr
    assert console.setpoint(HCM05) == 2.0

    # "a minute ago" is also an instant between the two writes once a minute has passed
    time.sleep(max(0.0, first_written + 65.0 - time.time()))
    thread, text = console.ask("restore HCM05 to its value from 1 minute ago")
    assert "write **1.0 A**" in text and f"at {day} " in text, text
    approved = console("approve", "--thread", thread, "yes")

    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert console.setpoint(HCM05) == 1.0
