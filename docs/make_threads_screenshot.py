"""Take ``docs/screenshot-threads.png``: the Threads menu after a console was killed mid-write.

The window asks for a write (HCM01 to 1.5 A); another console answers yes, starts sending and
is gone before it records an outcome (a child process that exits there, as a kill -9 leaves
it); the window starts a new thread, reads the beam current, and opens its Threads menu: the
first thread reads *in doubt* (⁇) as ``osprey-desktop threads`` says, not *waiting*.

Run: ``.venv/bin/python docs/make_threads_screenshot.py --xvfb`` (the menu is a popup: the
screen is grabbed, so it needs a display; ``--xvfb`` starts Xvfb and openbox).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "docs"))

SIZE = (1280, 800)

from make_screenshot import grab_screen, idle, rerun_under_xvfb, submit  # noqa: E402 (after the path)

from tests.support.killed_console import KILLED_CONSOLE  # noqa: E402


async def shoot(window, db_path: Path, out: Path) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QToolTip

    while window.controller.opening:
        await asyncio.sleep(0.05)
    await submit(window, "Set HCM01 to 1.5 A")
    await idle(window)
    dialog = window.approvals.dialog
    if dialog is None:
        print("no approval was asked; transcript:", window.chat.transcript.toPlainText()[-400:])
        window.close()
        return
    thread = window.controller.thread_id
    approval_id = dialog.payload["resume_payload"]["approval_id"]
    dialog.hide()  # answered by the other console, not here
    killed = await asyncio.create_subprocess_exec(
        sys.executable, "-c", KILLED_CONSOLE, str(db_path), approval_id, thread, cwd=REPO
    )
    await killed.wait()
    window.new_thread()
    await submit(window, "What is the beam current?")
    await idle(window)
    window.menus.refresh_threads()
    await window.menus._threads_task
    menu = window.menus.threads_menu
    menu.popup(window.mapToGlobal(QPoint(70, 22)))
    await asyncio.sleep(0.4)
    entry = next(a for a in menu.actions() if thread in a.text())
    menu.setActiveAction(entry)
    where = menu.actionGeometry(entry)
    QToolTip.showText(menu.mapToGlobal(where.bottomLeft() + QPoint(40, 6)), entry.toolTip(), menu)
    await asyncio.sleep(0.6)
    grab_screen(window, out)
    menu.hide()
    window.close()


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import run_on_qt_loop, run_window

    if "--xvfb" in sys.argv:
        return rerun_under_xvfb(__file__)
    out = REPO / "docs" / "screenshot-threads.png"
    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = tmp
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, tmp)
        db_path = Path(tmp) / "threads.sqlite"

        def ready(window) -> None:
            window.resize(*SIZE)
            window.move(0, 0)
            window.fit_docks()
            asyncio.ensure_future(shoot(window, db_path, out))

        return run_on_qt_loop(run_window(get_config(), db_path, None, ready))


if __name__ == "__main__":
    sys.exit(main())
