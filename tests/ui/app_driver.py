"""Drives ``run_app`` in a child process: send a request, then close while a turn runs.

Usage: ``python tests/ui/app_driver.py DB_PATH [close|sigterm]``. ``close`` closes the window
like an operator; ``sigterm`` sends the process SIGTERM as a terminal or a session manager
would; ``answer`` waits for the answer, then quits. Prints one line per milestone; the test
reads them and the exit code. The window is found the way an operator's tooling would: as
the application's top-level ``MainWindow``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication


def main_window():
    from osprey_desktop.ui.main_window import MainWindow

    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, MainWindow):
            return widget
    return None


async def drive(how: str) -> None:
    window = None
    while window is None or window.controller.opening:
        await asyncio.sleep(0.02)
        window = main_window()
    print("ready", window.windowTitle(), flush=True)
    window.controller.submit("read the beam current")
    assert window.controller.running
    if how == "answer":  # let the turn finish: the planner runs in its own thread's loop
        while window.controller.running:
            await asyncio.sleep(0.02)
        answers = window.chat.transcript.texts("response")
        print("answered", "mA" in (answers[-1] if answers else ""), flush=True)
        window._quitting = True
        window.close()
        window.closed.emit()
        return
    if how == "sigterm":
        os.kill(os.getpid(), signal.SIGTERM)  # no question asked: the turn stops, the app quits
        print("signalled", flush=True)
        return
    window.close()  # a turn runs: the window must ask first
    while window.close_prompt is None:
        await asyncio.sleep(0.02)
    print("asked", flush=True)
    stop = next(b for b in window.close_prompt.buttons() if b.text() == "Stop and quit")
    stop.click()


def run(db_path: str, how: str) -> int:
    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import run_app

    QApplication.instance() or QApplication(sys.argv)  # before run_app: the timer needs it
    QTimer.singleShot(0, lambda: asyncio.ensure_future(drive(how)))
    code = run_app(get_config(), db_path)
    print("exit", code, flush=True)
    return code


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "close"))
