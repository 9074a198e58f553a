"""A derived write is sent only while the facts it was approved for still hold.

Real command-line processes on one thread database, as an operator would use them: ``ask``
shows the approval, the ring moves while it waits (another program changes the saved
setpoints, the ring every process starts from), then ``approve`` answers. A copy's source, a
condition's reading and a clamp's own channel are each derived again right before the put;
when a fact changed, nothing is sent and the operator is asked again with the new facts.
A thread database restored from a copy cannot replay an approval the audit log has seen.
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
HCM03 = "SR01C:HCM03:Current:SP"
VCM04 = "SR02C:VCM04:Current:SP"
VCM07 = "SR03C:VCM07:Current:SP"
VCM08 = "SR03C:VCM08:Current:SP"
HCM20 = "SR07C:HCM20:Current:SP"

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


class Console:
    """``osprey-desktop`` commands run as their own processes on one data folder."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.db = home / "threads.sqlite"
        self.data = home / "data"
        self.env = cli_environment(home)
        self.ring = SimStateFile(self.data / "sim_machine.json")

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        extra = ["--db", str(self.db)] if args[0] in ("ask", "approve", "threads", "verify") else []
        return run_osprey([*args, *extra], env=self.env, cwd=REPO, timeout=120)

    def ask(self, request: str) -> str:
        asked = self("ask", request)
        assert asked.returncode == 3, asked.stdout + asked.stderr
        found = re.search(r"thread: (\w+)", asked.stdout + asked.stderr)
        assert found, asked.stdout + asked.stderr
        return found.group(1)

    def move(self, channel: str, value: float) -> None:
        """The ring moves: another program sets ``channel`` (the saved setpoints)."""
        self.data.mkdir(parents=True, exist_ok=True)
        self.ring.update({channel: value})

    def setpoint(self, channel: str) -> float:
        return self.ring.load().get(channel, 0.0)

    def audit(self) -> list[dict]:
        printed = self("audit", "--json")
        assert printed.returncode == 0, printed.stderr
        return json.loads(printed.stdout)


@pytest.fixture
def console(isolated_config) -> Console:
    return Console(isolated_config)


def test_a_condition_that_stopped_holding_sends_nothing(console):
    console.move(HCM03, 1.0)
    thread = console.ask("set VCM04 to 0.3 A if HCM03 is above 0.5 A")
    console.move(HCM03, 0.0)

    approved = console("approve", "--thread", thread, "yes")

    text = approved.stdout + approved.stderr
    assert console.setpoint(VCM04) == 0.0, text
    assert "the condition no longer holds" in text and "not above 0.5 A" in text, text
    assert approved.returncode != 0, text
    assert [r["outcome"] for r in console.audit() if r["channel"] == VCM04] == ["not_sent"]


def test_a_clamp_asked_again_shows_the_fresh_reason_and_a_false_condition_writes_nothing(
    console,
):
    console.move(HCM20, -2.0)
    thread = console.ask("if the HCM20 setpoint is below -1 A, set it to -1 A")
    console.move(HCM20, 0.5)

    approved = console("approve", "--thread", thread, "yes")

    text = approved.stdout + approved.stderr
    assert console.setpoint(HCM20) == 0.5, "the clamp must not pull a channel that is fine"
    assert "reads 0.5 A, not below -1 A: the condition does not hold" in text, text
    assert "approve --thread" not in text, "a false condition is not asked again"
    assert approved.returncode != 0, text


def test_a_copy_whose_source_moved_sends_nothing_and_asks_again_with_the_new_value(console):
    console.move(VCM07, 0.2)
    thread = console.ask("make VCM08 the same as VCM07")
    console.move(VCM07, 1.0)

    approved = console("approve", "--thread", thread, "yes")

    text = approved.stdout + approved.stderr
    assert approved.returncode == 3, text
    assert console.setpoint(VCM08) == 0.0, "the stale 0.2 A must not be written"
    assert f"{VCM07} now reads 1.000 A, not 0.200 A" in text, text
    assert "write **1.0 A**" in text and "read 1 A" in text, text
    assert "read 0.2 A" not in text, "never the old reason beside the new value"

    again = console("approve", "--thread", thread, "yes")

    assert again.returncode == 0, again.stdout + again.stderr
    assert console.setpoint(VCM08) == 1.0


def test_a_mean_whose_source_moved_sends_nothing_and_asks_again_with_the_new_mean(console):
    console.move(VCM07, 0.2)
    console.move(VCM04, 0.4)
    thread = console.ask("set VCM08 to the average of VCM07 and VCM04")
    console.move(VCM04, 1.0)

    approved = console("approve", "--thread", thread, "yes")

    text = approved.stdout + approved.stderr
    assert approved.returncode == 3, text
    assert console.setpoint(VCM08) == 0.0, "the stale mean must not be written"
    assert f"{VCM04} now reads 1.000 A, not 0.400 A" in text, text
    assert "write **0.6 A**" in text and "the mean of" in text, text

    again = console("approve", "--thread", thread, "yes")

    assert again.returncode == 0, again.stdout + again.stderr
    assert console.setpoint(VCM08) == pytest.approx(0.6)


def test_a_thread_database_restored_from_a_copy_cannot_replay_an_approval(console):
    thread = console.ask("set HCM01 to 1.5 A")
    backup = console.home / "threads-backup.sqlite"
    shutil.copyfile(console.db, backup)
    assert console("approve", "--thread", thread, "yes").returncode == 0
    assert console.setpoint(HCM01) == 1.5
    console.move(HCM01, 0.0)  # set back by hand: the replay would pass the freshness check
    shutil.copyfile(backup, console.db)
    for suffix in ("-wal", "-shm"):
        Path(f"{console.db}{suffix}").unlink(missing_ok=True)

    replayed = console("approve", "--thread", thread, "yes")

    text = replayed.stdout + replayed.stderr
    assert console.setpoint(HCM01) == 0.0, "the approval was sent once, never again"
    assert "already holds approval" in text and "replay" in text, text
    assert replayed.returncode != 0, text
    outcomes = [r["outcome"] for r in console.audit() if r["channel"] == HCM01]
    assert outcomes == ["intent", "verified", "not_sent"], outcomes
