"""``run_app`` end to end in a child process: real graph, real loop, clean exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def drive_app(db_path: Path, how: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(ROOT / "tests/ui/app_driver.py"), str(db_path), how],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_clean_exit(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, done.stderr
    for trap in ("Event loop is closed", "Event loop stopped before Future", "Traceback"):
        assert trap not in done.stderr


def test_closing_with_a_turn_running_asks_stops_and_exits_cleanly(tmp_path, isolated_config):
    done = drive_app(tmp_path / "threads.sqlite", "close")
    lines = done.stdout.splitlines()
    assert lines[0] == "ready Osprey Desktop 0.1.0 — Simulated ring — writes armed", done.stderr
    assert lines[1:] == ["asked", "exit 0"], done.stderr
    assert_clean_exit(done)
    assert (tmp_path / "threads.sqlite").exists()


def test_sigterm_during_a_turn_stops_it_and_exits_cleanly(tmp_path, isolated_config):
    done = drive_app(tmp_path / "threads.sqlite", "sigterm")
    assert done.stdout.splitlines()[1:] == ["signalled", "exit 0"], done.stderr
    assert_clean_exit(done)


def test_the_real_app_answers_a_request_through_the_built_in_planner(tmp_path, isolated_config):
    """The planner computes in a worker thread with its own asyncio loop: the app's Qt loop
    must not make that loop a Qt one too (qasync.run's policy did, and every turn failed with
    "Event loop stopped before Future completed")."""
    done = drive_app(tmp_path / "threads.sqlite", "answer")
    assert done.stdout.splitlines()[1:] == ["answered True", "exit 0"], done.stderr
    assert_clean_exit(done)
