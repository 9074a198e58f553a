"""What a batch leaves on record when its console is killed half-way, with real processes.

``approve`` carries out a four-channel batch and is killed (SIGKILL) right after the second
put landed: the first channel's outcome is on record, the second is in doubt, the last two
were never sent. ``threads`` must say the approval is in doubt (not pending), the thread must
say "sent at" only for the channel that may have left, and ``verify`` reads back only that
one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.safety.test_derived_write_facts import REPO, Console

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

BATCH = [f"SR01C:HCM0{i}:Current:SP" for i in (1, 2, 3)] + ["SR02C:HCM04:Current:SP"]


@pytest.fixture
def console(isolated_config) -> Console:
    return Console(isolated_config)


def test_a_batch_killed_half_way_is_in_doubt_for_one_channel_and_never_sent_for_the_rest(
    console,
):
    thread = console.ask("set HCM01 to HCM04 to 0.5 A")
    approve = subprocess.Popen(
        [sys.executable, "-m", "osprey_desktop", "approve", "--thread", thread, "yes", "--db",
         str(console.db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=console.env,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while console.setpoint(BATCH[1]) != 0.5:  # the second put landed; its readback settles
        assert approve.poll() is None and time.monotonic() < deadline, approve.communicate()
        time.sleep(0.005)
    os.kill(approve.pid, signal.SIGKILL)
    approve.wait(timeout=30)

    listed = json.loads(console("threads", "--json").stdout)
    (row,) = [t for t in listed if t["thread_id"] == thread]
    assert row["approval_status"] == "in_doubt" and row["pending_approval"] is False, row
    table = console("threads").stdout
    assert "in doubt" in next(line for line in table.splitlines() if thread in line)

    again = console("approve", "--thread", thread, "yes")

    text = again.stdout + again.stderr
    assert again.returncode == 4, text
    lines = {c: next(line for line in text.splitlines() if c in line) for c in BATCH}
    assert "verified" in lines[BATCH[0]], text
    assert "sent at" in lines[BATCH[1]], text
    for never in BATCH[2:]:
        assert "not sent" in lines[never] and "sent at" not in lines[never], text
    assert console.setpoint(BATCH[2]) == 0.0 and console.setpoint(BATCH[3]) == 0.0

    verified = console("verify", "--thread", thread)

    assert verified.returncode == 0, verified.stdout + verified.stderr
    resolved = [r["channel"] for r in console.audit() if r["outcome"] == "resolved"]
    assert resolved == [BATCH[1]], "only the channel that may have left is read back"
