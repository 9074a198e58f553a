"""A pending approval written by one process is answered by another on the same SQLite file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph

pytestmark = pytest.mark.slow  # starts processes: `./osprey test -m "not slow"` skips it

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tests" / "gateway" / "turn_graph.py"


def _process(db: Path, thread: str, verb: str, text: str = "") -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(db), thread, verb, text],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


async def test_second_process_approves_what_the_first_paused_on(tmp_path):
    db = tmp_path / "threads.sqlite"
    paused = _process(db, "t1", "ask", "/planning:on move HCM01 to 1.5 A")
    assert paused["pending_approval"]["resume_payload"]["approval_type"] == "plan"
    assert paused["runs"] == []

    async with AgentSession.open(db_path=db, graph_factory=build_turn_graph) as session:
        (thread,) = await session.list_threads()
        assert thread.pending_approval and thread.title == "move HCM01 to 1.5 A"
        still = await session.pending_approval("t1")
    assert still["interrupt_id"] == paused["pending_approval"]["interrupt_id"]

    approved = _process(db, "t1", "yes")

    assert approved["error"] is None and approved["pending_approval"] is None
    assert approved["response"].startswith("done: move HCM01 to 1.5 A")
    assert approved["runs"] == ["run_1"]


async def _pause_here(db: Path, request: str) -> None:
    async with AgentSession.open(db_path=db, graph_factory=build_turn_graph) as session:
        assert (await session.submit(request, "t1")).pending_approval is not None


async def test_second_process_rejection_executes_nothing(tmp_path):
    db = tmp_path / "threads.sqlite"
    await _pause_here(db, "/planning:on move HCM01 to 1.5 A")

    rejected = _process(db, "t1", "no")

    assert rejected["response"] == "plan rejected, nothing executed"
    assert rejected["runs"] == []


async def test_hard_kill_after_the_approved_step_does_not_leave_it_approvable(tmp_path):
    db = tmp_path / "threads.sqlite"
    await _pause_here(db, "/planning:on move slowly")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    approving = subprocess.Popen(
        [sys.executable, str(SCRIPT), str(db), "t1", "yes", ""],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=REPO,
        env=env,
    )
    try:
        assert approving.stdout.readline().strip() == "acting"  # the approved plan step ended
    finally:
        approving.send_signal(signal.SIGKILL)
        approving.wait(timeout=10)
        approving.stdout.close()

    async with AgentSession.open(db_path=db, graph_factory=build_turn_graph) as session:
        assert await session.pending_approval("t1") is None
        (thread,) = await session.list_threads()
        assert not thread.pending_approval
