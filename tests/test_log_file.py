"""The log file: every command and the window append to $XDG_STATE_HOME/osprey-desktop/."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from osprey_desktop import log_file
from osprey_desktop.cli import main
from osprey_desktop.log_file import logging_to_file
from tests.support.cli_env import REPO, cli_environment
from tests.support.cli_process import run_osprey


def _env(base: Path) -> dict[str, str]:
    env = cli_environment(base)
    env["XDG_STATE_HOME"] = str(base / "state")
    return env


def _cli(base: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_osprey([*args], env=_env(base), cwd=REPO, timeout=90)


def _log(base: Path) -> str:
    return (base / "state" / "osprey-desktop" / "osprey-desktop.log").read_text(encoding="utf-8")


def test_a_command_logs_its_start_posture_and_exit_code(tmp_path):
    done = _cli(tmp_path, "ask", "--read-only", "read the beam current")

    assert done.returncode == 0, done.stderr
    text = _log(tmp_path)
    first = re.match(r"\d{4}-\d\d-\d\d [\d:,]+ (\d+) INFO osprey_desktop.cli: ", text)
    assert first, text
    assert f"osprey-desktop 0.1.0 ask (pid {first.group(1)}): " in text
    assert "Simulated ring · read-only" in text
    assert "osprey-desktop ask ended with exit code 0" in text
    assert " DEBUG " not in text, "DEBUG records only with --verbose"
    assert done.stderr.strip().startswith("thread: "), "the terminal stays quiet"


def test_verbose_adds_debug_records_of_osprey_desktop(tmp_path):
    done = _cli(tmp_path, "--verbose", "threads", "--json")

    assert done.returncode == 0, done.stderr
    assert "DEBUG osprey_desktop.cli: arguments: {" in _log(tmp_path)
    logger = logging.getLogger("osprey_desktop.test")
    with logging_to_file(verbose=True, path=tmp_path / "v.log") as path:
        logger.debug("a debug record")
        logging.getLogger("aiosqlite").debug("a library's debug record")
    with logging_to_file(verbose=False, path=tmp_path / "q.log"):
        logger.debug("a quiet debug record")
        logger.info("an info record")
    verbose = path.read_text()
    assert "DEBUG osprey_desktop.test: a debug record" in verbose
    assert "a library's debug record" not in verbose
    quiet = (tmp_path / "q.log").read_text()
    assert "an info record" in quiet and "a quiet debug record" not in quiet


def test_the_log_rotates_and_keeps_five_old_files(tmp_path, monkeypatch):
    monkeypatch.setattr(log_file, "MAX_BYTES", 2_000)
    logger = logging.getLogger("osprey_desktop.test")
    with logging_to_file(path=tmp_path / "osprey-desktop.log"):
        for n in range(400):
            logger.info("line %d of a long session", n)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["osprey-desktop.log"] + [f"osprey-desktop.log.{i}" for i in range(1, 6)]
    assert all(p.stat().st_size <= 2_000 for p in tmp_path.iterdir())
    assert "line 399 of a long session" in (tmp_path / "osprey-desktop.log").read_text()


def test_handlers_and_levels_are_restored_after_the_command(tmp_path):
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    assert main(["--verbose", "threads", "--db", str(tmp_path / "none.sqlite")]) == 0
    assert main(["threads", "--db", str(tmp_path / "none.sqlite")]) == 0
    assert (list(root.handlers), root.level) == before
    log = Path(os.environ["XDG_STATE_HOME"]) / "osprey-desktop" / "osprey-desktop.log"
    assert log.read_text().count("osprey-desktop threads ended with exit code 0") == 2


def test_an_unwritable_log_folder_is_said_once_and_the_command_still_runs(tmp_path):
    (tmp_path / "state").write_text("a file where the state folder should be")

    done = _cli(tmp_path, "ask", "read the beam current")

    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "log file" in line]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        f"osprey-desktop: cannot write the log file {tmp_path}/state/osprey-desktop/"
    )
    assert "continuing without one" in warnings[0]
    assert "SR:DCCT:Current" in done.stdout


@pytest.mark.gui
def test_the_window_logs_to_the_same_file(tmp_path):
    env = _env(tmp_path)
    env["QT_QPA_PLATFORM"] = "offscreen"
    window = subprocess.Popen(
        [sys.executable, "-m", "osprey_desktop", "run", "--read-only"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        threads_db = tmp_path / "data" / "threads.sqlite"
        deadline = time.monotonic() + 45
        while not threads_db.exists() and window.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert threads_db.exists(), "the window did not open its session"
        window.send_signal(signal.SIGTERM)
        _, err = window.communicate(timeout=30)
    finally:
        if window.poll() is None:
            window.kill()
            window.communicate()
    assert window.returncode == 0, err
    text = _log(tmp_path)
    assert "osprey-desktop 0.1.0 run" in text and "Simulated ring · read-only" in text
    assert "INFO osprey_desktop.ui.app: signal 15 received" in text
    assert "osprey-desktop run ended with exit code 0" in text
