"""Consoles that share one PostgreSQL database: real ``osprey-desktop`` processes.

Each command runs as its own process with its own operator (``USER``), as on two consoles in a
control room; they share the simulated ring (its state file) and, through ``--db URL``, the
threads, the approvals and the audit log. Nothing is written to a SQLite file.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli_env import cli_environment
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[2]
HCM01 = "SR01C:HCM01:Current:SP"

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


@pytest.fixture
def console(isolated_config, postgres_url):
    """``console("alice", "ask", ...)`` runs a command as that operator on the shared database."""
    base_env = cli_environment(isolated_config)

    def command(*args: str) -> list[str]:
        return [sys.executable, "-m", "osprey_desktop", *args, "--db", postgres_url]

    def plain(operator: str, *args: str) -> subprocess.CompletedProcess[str]:
        """Without --db: the configured database."""
        return run_osprey(args, env=env(operator), cwd=REPO, timeout=120)

    def env(operator: str) -> dict[str, str]:
        return {**base_env, "USER": operator, "LOGNAME": operator}

    def run(operator: str, *args: str) -> subprocess.CompletedProcess[str]:
        return run_osprey([*args, "--db", postgres_url], env=env(operator), cwd=REPO, timeout=120)

    def start(operator: str, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            command(*args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env(operator),
        )

    run.start = start  # type: ignore[attr-defined]
    run.plain = plain  # type: ignore[attr-defined]
    run.url = postgres_url  # type: ignore[attr-defined]
    run.data = isolated_config / "data"  # type: ignore[attr-defined]
    run.config = isolated_config / "config" / "osprey-desktop" / "config.yaml"  # type: ignore[attr-defined]
    return run


def thread_of(text: str) -> str:
    match = re.search(r"thread: (\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def ask_write(console, operator: str, request: str) -> str:
    asked = console(operator, "ask", request)
    assert asked.returncode == 3, asked.stdout + asked.stderr
    return thread_of(asked.stderr + asked.stdout)


def threads(console, operator: str) -> dict[str, dict]:
    listed = console(operator, "threads", "--json")
    assert listed.returncode == 0, listed.stderr
    return {t["thread_id"]: t for t in json.loads(listed.stdout)}


def audit(console, operator: str) -> list[tuple[str, str, str]]:
    printed = console(operator, "audit", "--json")
    assert printed.returncode == 0, printed.stderr
    return [(r["operator"], r["outcome"], r["channel"]) for r in json.loads(printed.stdout)]


def setpoint(console, channel: str = HCM01) -> float:
    path = console.data / "sim_machine.json"
    if not path.exists():
        return 0.0
    return json.loads(path.read_text()).get("setpoints", {}).get(channel, 0.0)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out + err


def test_consoles_share_threads_pending_approvals_and_who_approved_what(console):
    thread = ask_write(console, "alice", "set HCM01 to 1.5 A")

    seen = threads(console, "bob")[thread]
    assert seen["pending_approval"] and seen["title"] == "set HCM01 to 1.5 A"
    assert "write **1.5 A** to `SR01C:HCM01:Current:SP`" in seen["pending_message"]

    approved = console("bob", "approve", "--thread", thread, "yes")
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert "verified" in approved.stdout

    late = console("alice", "approve", "--thread", thread, "yes")
    assert late.returncode == 4, late.stdout + late.stderr
    assert re.search(r"already answered yes at .* by bob@", late.stderr), late.stderr
    assert not threads(console, "alice")[thread]["pending_approval"]
    assert setpoint(console) == 1.5

    second = ask_write(console, "bob", "set HCM01 to 1.0 A")
    assert console("alice", "approve", "--thread", second, "yes").returncode == 0

    expected = [
        ("bob", "intent", HCM01),
        ("bob", "verified", HCM01),
        ("alice", "intent", HCM01),
        ("alice", "verified", HCM01),
    ]
    assert audit(console, "alice") == expected
    assert audit(console, "bob") == expected
    assert setpoint(console) == 1.0
    left = sorted(p.name for p in console.data.iterdir())
    assert not [name for name in left if name.endswith(".sqlite")], left


def test_three_consoles_approving_one_write_at_once_put_it_once(console):
    thread = ask_write(console, "alice", "set HCM01 to 1.5 A")

    racing = [
        console.start(operator, "approve", "--thread", thread, "yes")
        for operator in ("alice", "bob", "carol")
    ]
    results = [
        (operator, *finish(process))
        for operator, process in zip(("alice", "bob", "carol"), racing, strict=True)
    ]

    assert sorted(code for _, code, _ in results) == [0, 4, 4], results
    (winner,) = [operator for operator, code, _ in results if code == 0]
    for _, code, text in results:
        if code == 4:  # each loser names the console that won
            assert re.search(rf"already answered yes at .* by {winner}@", text), text
    outcomes = [(outcome, channel) for _, outcome, channel in audit(console, "carol")]
    assert outcomes == [("intent", HCM01), ("verified", HCM01)], "one put, whoever won"
    assert setpoint(console) == 1.5


def test_a_rejection_on_one_console_is_final_on_the_others(console):
    thread = ask_write(console, "alice", "set HCM01 to 2.0 A")

    rejected = console("bob", "approve", "--thread", thread, "no")
    assert rejected.returncode == 0, rejected.stdout + rejected.stderr

    late = console("alice", "approve", "--thread", thread, "yes")
    assert late.returncode == 4 and "already answered no at" in late.stderr, late.stderr
    assert audit(console, "alice") == [("bob", "rejected", HCM01)]
    assert setpoint(console) == 0.0


def test_a_write_left_in_doubt_by_a_killed_console_is_verified_by_another(console):
    thread = ask_write(console, "alice", "set HCM01 to 1.5 A")
    approving = console.start("alice", "approve", "--thread", thread, "yes")
    deadline = time.monotonic() + 60
    while setpoint(console) != 1.5:  # the put landed; its readback is still settling
        assert approving.poll() is None and time.monotonic() < deadline, finish(approving)
        time.sleep(0.005)
    os.kill(approving.pid, signal.SIGKILL)
    approving.wait(timeout=30)
    approving.stdout.close()
    approving.stderr.close()

    again = console("bob", "approve", "--thread", thread, "yes")
    assert again.returncode == 4, again.stdout + again.stderr
    assert "write in doubt — sent at" in again.stdout + again.stderr
    assert audit(console, "bob") == [("alice", "intent", HCM01)], "never sent a second time"

    verified = console("bob", "verify", "--thread", thread)

    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "the value sent was applied" in verified.stdout
    assert audit(console, "alice") == [("alice", "intent", HCM01), ("bob", "resolved", HCM01)]


def test_a_database_url_in_the_configuration_needs_no_db_option(console):
    console.config.parent.mkdir(parents=True, exist_ok=True)
    console.config.write_text(f"file_paths:\n  checkpoint_db: {console.url}\n")
    asked = console.plain("alice", "ask", "set HCM01 to 0.5 A")
    assert asked.returncode == 3, asked.stdout + asked.stderr
    thread = thread_of(asked.stdout + asked.stderr)

    assert console("bob", "threads", "--json").stdout.count(thread) == 1  # the same database
    assert console.plain("bob", "approve", "--thread", thread, "yes").returncode == 0

    printed = console.plain("carol", "audit")
    assert printed.returncode == 0, printed.stderr
    assert f"Audit log in PostgreSQL database {console.url}" in printed.stdout
    assert "bob" in printed.stdout and "verified" in printed.stdout
    assert not list(console.data.glob("*.sqlite"))


def test_an_unreachable_database_is_one_line_and_exit_2(isolated_config):
    done = subprocess.run(
        [sys.executable, "-m", "osprey_desktop", "threads", "--db"]
        + ["postgresql://ops:s3cret@127.0.0.1:1/threads"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env=cli_environment(isolated_config),
    )

    assert done.returncode == 2
    assert done.stderr.startswith(
        "osprey-desktop threads: conversation database postgresql://ops:***@127.0.0.1:1/threads:"
        " the server cannot be reached"
    ), done.stderr
    assert "Traceback" not in done.stderr and "s3cret" not in done.stderr
