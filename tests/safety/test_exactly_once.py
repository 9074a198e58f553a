"""One approval, at most one write: real command-line processes on one thread database.

Each ``osprey-desktop`` here is its own process (as two consoles, or a console and a shell,
would be); the simulated ring saves every accepted write to the data folder, so the tests see
the machine as every process does. Readbacks lag by ~1.4 s, the window in which a process
that has put the value can be killed before it records the outcome.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli_env import cli_environment
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[2]
HCM01 = "SR01C:HCM01:Current:SP"

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture
def cli(isolated_config):
    db = str(isolated_config / "threads.sqlite")
    env = cli_environment(isolated_config)

    def command(*args: str) -> list[str]:
        return [sys.executable, "-m", "osprey_desktop", *args, *with_db(args)]

    def with_db(args: tuple[str, ...]) -> list[str]:
        return ["--db", db] if args[0] in ("ask", "approve", "threads", "verify") else []

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_osprey([*args, *with_db(args)], env=env, cwd=REPO, timeout=120)

    def start(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            command(*args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env,
        )

    run.start = start  # type: ignore[attr-defined]
    run.data = isolated_config / "data"  # type: ignore[attr-defined]
    return run


def thread_of(text: str) -> str:
    match = re.search(r"thread: (\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def audit_rows(cli) -> list[dict]:
    printed = cli("audit", "--json")
    assert printed.returncode == 0, printed.stderr
    return json.loads(printed.stdout)


def setpoint(cli, channel: str = HCM01) -> float:
    path = cli.data / "sim_machine.json"
    if not path.exists():
        return 0.0
    return json.loads(path.read_text()).get("setpoints", {}).get(channel, 0.0)


def ask_write(cli, request: str = "set HCM01 to 1.5 A") -> str:
    asked = cli("ask", request)
    assert asked.returncode == 3, asked.stdout + asked.stderr
    return thread_of(asked.stderr + asked.stdout)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out + err


def test_two_approvals_at_once_write_exactly_once(cli):
    thread = ask_write(cli)

    first = cli.start("approve", "--thread", thread, "yes")
    second = cli.start("approve", "--thread", thread, "yes")
    results = sorted([finish(first), finish(second)])

    (code_won, _), (code_lost, lost_text) = results
    assert (code_won, code_lost) == (0, 4), results
    assert "already answered yes at" in lost_text
    outcomes = [(r["outcome"], r["channel"]) for r in audit_rows(cli)]
    assert outcomes == [("intent", HCM01), ("verified", HCM01)]
    assert setpoint(cli) == 1.5


def test_a_yes_racing_a_no_ends_one_way_and_the_loser_says_so(cli):
    thread = ask_write(cli)

    yes = cli.start("approve", "--thread", thread, "yes")
    no = cli.start("approve", "--thread", thread, "no")
    (yes_code, yes_text), (no_code, no_text) = finish(yes), finish(no)

    outcomes = [r["outcome"] for r in audit_rows(cli)]
    if outcomes == ["rejected"]:
        assert (no_code, yes_code) == (0, 4) and "already answered no at" in yes_text
        assert setpoint(cli) == 0.0
    else:
        assert outcomes == ["intent", "verified"], outcomes
        assert (yes_code, no_code) == (0, 4) and "already answered yes at" in no_text
        assert "nothing was written" not in no_text
        assert setpoint(cli) == 1.5


def test_kill_9_after_the_machine_took_the_value_is_in_doubt_never_written_again(cli):
    thread = ask_write(cli)
    approve = cli.start("approve", "--thread", thread, "yes")
    deadline = time.monotonic() + 60
    while setpoint(cli) != 1.5:  # the put landed; its readback is still settling
        assert approve.poll() is None and time.monotonic() < deadline, finish(approve)
        time.sleep(0.005)
    os.kill(approve.pid, signal.SIGKILL)
    approve.wait(timeout=30)
    assert [r["outcome"] for r in audit_rows(cli)] == ["intent"], "intent recorded before the put"

    again = cli("approve", "--thread", thread, "yes")

    assert again.returncode == 4, again.stdout + again.stderr
    text = again.stdout + again.stderr
    assert "already answered yes at" in text
    assert "write in doubt — sent at" in text and "now reads 1.500 A" in text
    assert [r["outcome"] for r in audit_rows(cli)] == ["intent"], "not sent a second time"
    listed = cli("ask", "--thread", thread, "read HCM01")
    assert listed.returncode == 0, listed.stderr

    verified = cli("verify", "--thread", thread)

    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "the value sent was applied" in verified.stdout
    rows = audit_rows(cli)
    assert [r["outcome"] for r in rows] == ["intent", "resolved"]
    assert rows[1]["readback_after"] == 1.5
    assert "no write in doubt" in cli("verify", "--thread", thread).stdout


def test_a_locked_audit_log_sends_nothing_and_says_it_is_locked(cli):
    thread = ask_write(cli)
    audit_db = cli.data / "audit.sqlite"
    from osprey_desktop.safety import AuditLog

    AuditLog(audit_db).record(channel="X:SP", outcome="blocked", message="earlier entry")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"c = sqlite3.connect({str(audit_db)!r}, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        approved = cli("approve", "--thread", thread, "yes")
    finally:
        holder.kill()
        holder.wait()

    assert setpoint(cli) == 0.0, "nothing reaches the machine without its intent on record"
    assert "**not sent**" in approved.stdout and "is locked by another program" in approved.stdout
    assert [r["outcome"] for r in audit_rows(cli)] == ["blocked"]


def test_a_damaged_audit_log_sends_nothing_and_says_it_is_damaged(cli):
    thread = ask_write(cli)
    audit_db = cli.data / "audit.sqlite"
    audit_db.parent.mkdir(parents=True, exist_ok=True)
    audit_db.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))

    approved = cli("approve", "--thread", thread, "yes")

    assert setpoint(cli) == 0.0
    assert "**not sent**" in approved.stdout and "is damaged" in approved.stdout


def test_an_audit_log_inside_another_programs_database_is_refused(cli, isolated_config):
    other = isolated_config / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE inventory (item TEXT)")
    config = isolated_config / "config" / "osprey-desktop" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"file_paths:\n  audit_db: {other}\n")
    thread = ask_write(cli)

    approved = cli("approve", "--thread", thread, "yes")

    assert setpoint(cli) == 0.0
    assert "belongs to another program (inventory)" in approved.stdout
    with sqlite3.connect(other) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"inventory"}


def test_a_stale_approval_on_one_thread_is_asked_again_after_another_thread_wrote(cli):
    waiting = ask_write(cli, "increase HCM01 by 0.5 A")
    other = ask_write(cli, "set HCM01 to 1.0 A")
    assert cli("approve", "--thread", other, "yes").returncode == 0
    assert setpoint(cli) == 1.0

    stale = cli("approve", "--thread", waiting, "yes")

    assert stale.returncode == 3, stale.stdout + stale.stderr
    assert setpoint(cli) == 1.0, "the stale 0.5 A must not take HCM01 down"
    assert "now reads 1.000 A, not 0.000 A as shown" in stale.stdout
    assert "write **1.5 A**" in stale.stdout
    assert cli("approve", "--thread", waiting, "yes").returncode == 0
    assert setpoint(cli) == 1.5


def test_a_thread_deleted_during_an_approve_stays_deleted(cli):
    thread = ask_write(cli)
    approve = cli.start("approve", "--thread", thread, "yes")
    deadline = time.monotonic() + 60
    while setpoint(cli) != 1.5:
        assert approve.poll() is None and time.monotonic() < deadline, finish(approve)
        time.sleep(0.005)
    deleted = cli("threads", "--delete", thread)
    assert deleted.returncode == 0, deleted.stderr
    code, text = finish(approve)
    assert code == 0, text  # the write was done: not a failed turn
    assert "**verified**" in text, text
    if "deleted" in text:  # the deletion seen by the turn itself: said beside the write
        assert "the write above was carried out" in text, text

    listed = cli("threads", "--json")
    assert thread not in listed.stdout
    again = cli("ask", "--thread", thread, "read HCM01")
    assert again.returncode == 2 and f"no thread '{thread}'" in again.stderr
    assert [r["outcome"] for r in audit_rows(cli)] == ["intent", "verified"], "audit keeps it"


async def test_the_window_answering_after_the_command_line_is_told_already_answered(cli):
    """The window's session (here in this process) and a shell's ``approve`` share the claim."""
    from osprey_desktop.session import AgentSession

    thread = ask_write(cli)
    assert cli("approve", "--thread", thread, "yes").returncode == 0

    async with AgentSession.open(db_path=cli.data.parent / "threads.sqlite") as session:
        result = await session.resume(thread, True)

    assert result.already_answered is not None and result.already_answered["answer"] == "yes"
    assert "already answered yes at" in (result.error or "")
    assert [r["outcome"] for r in audit_rows(cli)] == ["intent", "verified"]
