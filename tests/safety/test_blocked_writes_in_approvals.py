"""A batch with some writes blocked by the policy asks about the others and never sends those.

Real command-line processes on one thread database and data folder: ``ask`` shows the blocked
write as *will not be sent* beside the one asked, ``approve`` sends the allowed one exactly
once, the blocked one is audited as blocked once, and a thread database restored from a copy
still cannot replay the approval (the blocked entry written when it was asked is no witness
of a send, the intent is).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from osprey_desktop.connectors.sim_state import SimStateFile
from tests.support.cli_env import cli_environment
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[2]
HCM01 = "SR01C:HCM01:Current:SP"
HCM02 = "SR01C:HCM02:Current:SP"

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


class Console:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.db = home / "threads.sqlite"
        self.env = cli_environment(home)
        self.ring = SimStateFile(home / "data" / "sim_machine.json")

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        extra = ["--db", str(self.db)] if args[0] in ("ask", "approve") else []
        return run_osprey([*args, *extra], env=self.env, cwd=REPO, timeout=120)

    def setpoint(self, channel: str) -> float:
        return self.ring.load().get(channel, 0.0)

    def audit(self) -> list[tuple[str, str]]:
        printed = self("audit", "--json")
        assert printed.returncode == 0, printed.stderr
        return [(r["channel"], r["outcome"]) for r in json.loads(printed.stdout)]


@pytest.fixture
def console(isolated_config) -> Console:
    return Console(isolated_config)


def test_a_blocked_write_is_shown_not_sent_and_the_allowed_one_is_sent_once(console):
    asked = console("ask", "set HCM01 to 1.5 A and HCM02 to 9 A")

    text = asked.stdout + asked.stderr
    assert asked.returncode == 3, text
    assert "1 write blocked by the write policy (will not be sent" in text, text
    assert f"⊘ `{HCM02}`: 9.0 A" in text and "above the maximum of 5.0 A" in text, text
    assert f"write **1.5 A** to `{HCM01}`" in text, text
    assert console.audit() == [(HCM02, "blocked")]
    thread = re.search(r"thread: (\w+)", text).group(1)  # type: ignore[union-attr]
    backup = console.home / "threads-backup.sqlite"
    shutil.copyfile(console.db, backup)

    approved = console("approve", "--thread", thread, "yes")

    said = approved.stdout + approved.stderr
    assert approved.returncode == 0, said
    assert (console.setpoint(HCM01), console.setpoint(HCM02)) == (1.5, 0.0)
    assert f"`{HCM02}`: **blocked**" in said and f"`{HCM01}`: **verified**" in said, said
    assert console.audit() == [(HCM02, "blocked"), (HCM01, "intent"), (HCM01, "verified")]

    again = console("approve", "--thread", thread, "yes")
    assert again.returncode == 4, again.stdout + again.stderr

    # the thread database put back as it was while the approval waited: no replay
    console.ring.update({HCM01: 0.0})
    shutil.copyfile(backup, console.db)
    for suffix in ("-wal", "-shm"):
        Path(f"{console.db}{suffix}").unlink(missing_ok=True)
    replayed = console("approve", "--thread", thread, "yes")

    assert "already holds approval" in replayed.stdout + replayed.stderr
    assert console.setpoint(HCM01) == 0.0, "sent once, never again"
    assert console.audit()[3:] == [(HCM01, "not_sent")]
