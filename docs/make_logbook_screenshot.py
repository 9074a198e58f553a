"""Take ``docs/screenshot-logbook.png`` and ``docs/screenshot-activity.png``.

Runs the real app (real graph, built-in planner, simulated ring) on a temporary database:
writes HCM01 (approved in the dialog), plots the beam current, asks "log this" and grabs the
logbook entry's confirmation dialog; then publishes it, undoes the write, tries a write beyond
its limit and grabs the window with the Activity dock raised.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_logbook_screenshot.py``
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1400, 900)


async def idle(window) -> None:
    await asyncio.sleep(0.2)
    while window.controller.running:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)


async def ask(window, text: str, answer: bool | None = True) -> object:
    window.chat.input.setPlainText(text)
    window.chat.input.submit()
    await idle(window)
    dialog = window.approvals.dialog
    if dialog is not None:
        while not dialog.is_armed():
            await asyncio.sleep(0.05)
        if answer is True:
            dialog.approve_button.click()
            await idle(window)
        elif answer is False:
            dialog.reject_button.click()
            await idle(window)
    return dialog


async def scenes(window, folder: Path) -> None:
    from PySide6.QtCore import Qt

    while window.controller.session is None:
        await asyncio.sleep(0.05)
    await ask(window, "Set HCM01 to 1.5 A")
    await ask(window, "Plot the beam current over the last hour")
    dialog = await ask(window, "log this", answer=None)
    if dialog is None:
        raise RuntimeError(window.chat.transcript.toPlainText()[-800:])
    dialog.text_edit.setPlainText(
        "HCM01 raised to 1.5 A to centre the orbit in sector 1; beam current steady.\n\n"
        + dialog.text_edit.toPlainText().split("\n", 1)[-1]
    )
    dialog.title_edit.setText("Orbit bump in sector 1")
    dialog.tags_edit.setText("Orbit, Correctors")
    await asyncio.sleep(0.3)
    dialog.grab().save(str(folder / "screenshot-logbook.png"))
    print(f"saved {folder / 'screenshot-logbook.png'}")
    dialog.approve_button.click()
    await idle(window)
    await ask(window, "undo the last write")
    await ask(window, "set HCM02 to 9 A")
    await ask(window, "set HCM03 to 0.4 A", answer=False)
    window.activity.raise_()
    task = window.activity.refresh()
    if task is not None:
        await task
    window.resizeDocks([window.activity], [330], Qt.Orientation.Vertical)
    await asyncio.sleep(0.5)
    window.grab().save(str(folder / "screenshot-activity.png"))
    print(f"saved {folder / 'screenshot-activity.png'}")
    window.close()


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import run_on_qt_loop, run_window

    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = tmp
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, tmp)

        def ready(window) -> None:
            window.resize(*SIZE)
            window.fit_docks()
            asyncio.ensure_future(scenes(window, REPO / "docs"))

        return run_on_qt_loop(run_window(get_config(), Path(tmp) / "threads.sqlite", None, ready))


if __name__ == "__main__":
    sys.exit(main())
