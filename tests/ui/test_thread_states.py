"""The window's thread list after a console was killed mid-approval agrees with the ledger, as
``osprey-desktop threads`` does: an approval answered and left sending by a process that died
reads "in doubt" in the Threads menu, and is not announced as waiting for an approval."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.killed_console import KILLED_CONSOLE

pytestmark = [pytest.mark.gui, pytest.mark.timeout(180)]

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "osprey_desktop", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def test_a_write_left_in_doubt_by_a_killed_console_reads_in_doubt_as_threads_says(
    windows, qtbot, run_async
):
    window = windows.open(use_real_graph=True)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=30_000) as opened:
        windows.send(window, "set HCM01 to 1.5 A")
    dialog = opened.args[0]
    asked = window.controller.thread_id
    approval_id = dialog.payload["resume_payload"]["approval_id"]
    dialog.hide()  # not answered here: another console answers and is killed

    killed = subprocess.run(
        [sys.executable, "-c", KILLED_CONSOLE, str(windows.db_path), approval_id, asked],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert killed.returncode == 0, killed.stderr

    listed = json.loads(run_cli("threads", "--json", "--db", str(windows.db_path)).stdout)
    (row,) = [t for t in listed if t["thread_id"] == asked]
    assert row["approval_status"] == "in_doubt"

    window.menus.refresh_threads()
    qtbot.waitUntil(lambda: window.menus._threads_task.done(), timeout=10_000)
    (entry,) = [a for a in window.menus.threads_menu.actions() if asked in a.text()]
    assert entry.text().startswith("⚠ in doubt: ")
    assert "In doubt" in entry.toolTip()

    # a window opened on another thread of this database: not "waits for your approval"
    window.controller.new_thread()
    controller = window.controller
    with (
        qtbot.waitSignal(controller.other_writes_in_doubt, timeout=10_000) as doubt,
        qtbot.waitSignal(controller.other_approvals, timeout=10_000) as waiting,
    ):
        run_async(controller.attach(controller.session))
    assert waiting.args[0] == []
    assert [t.thread_id for t in doubt.args[0]] == [asked]
    assert not window.status.other_approvals_button.isVisible()
    assert f"Thread {asked}" in window.chat.transcript.toPlainText()
    assert "in doubt" in window.chat.transcript.toPlainText()


def test_a_pending_approval_on_another_thread_is_still_announced(windows, qtbot, run_async):
    window = windows.open(use_real_graph=True)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=30_000) as opened:
        windows.send(window, "set HCM01 to 1.5 A")
    opened.args[0].hide()
    asked = window.controller.thread_id

    window.menus.refresh_threads()
    qtbot.waitUntil(lambda: window.menus._threads_task.done(), timeout=10_000)
    (entry,) = [a for a in window.menus.threads_menu.actions() if asked in a.text()]
    assert entry.text().startswith("⚠ ")
    assert entry.toolTip().startswith("Waiting for approval")

    window.controller.new_thread()
    with qtbot.waitSignal(window.controller.other_approvals, timeout=10_000) as waiting:
        run_async(window.controller.attach(window.controller.session))
    assert [t.thread_id for t in waiting.args[0]] == [asked]
