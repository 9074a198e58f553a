"""Take ``docs/screenshot-main.png``: the window after a read, plot and write session.

Runs the real app coroutine (real graph, built-in planner, simulated machine) on a
temporary database, types three requests as an operator would, approves the write by
clicking Approve in the dialog, opens the interesting context entries, and grabs the window.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_screenshot.py [OUT.png]``
(or under ``xvfb-run -a``).
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

SIZE = (1600, 1000)  # a typical desktop window
REQUESTS = (
    "What is the beam current?",
    "Show the beam current and lifetime over the last hour",
    "Set HCM01 to 1.5 A",
)


async def idle(window) -> None:
    await asyncio.sleep(0.2)
    while window.controller.running:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)


async def session(window, out: Path) -> None:
    while window.controller.session is None:
        await asyncio.sleep(0.05)
    for text in REQUESTS:
        window.chat.input.setPlainText(text)
        window.chat.input.submit()
        await idle(window)
        dialog = window.approvals.dialog
        if dialog is not None:
            while not dialog.is_armed():  # the buttons ignore clicks for a moment
                await asyncio.sleep(0.05)
            dialog.approve_button.click()
            await idle(window)
    browser = window.context_browser
    model = window.context_model
    for ctype in ("CHANNEL_VALUES", "ARCHIVER_DATA", "CHANNEL_WRITE_RESULTS"):
        source = model.index_for_path([ctype])
        if source.isValid():
            browser.tree.expand(browser.proxy.mapFromSource(source))
    writes = model.index_for_path(["CHANNEL_WRITE_RESULTS"])
    if writes.isValid() and model.rowCount(writes):
        entry = browser.proxy.mapFromSource(model.index(0, 0, writes))
        browser.tree.expand(entry)
        browser.tree.setCurrentIndex(entry)
    if window.plot_dock is not None:
        window.plot_dock.raise_()
    await asyncio.sleep(0.5)
    window.grab().save(str(out))
    print(f"saved {out}")
    window.close()


def main() -> int:
    import qasync
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import run_window

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshot-main.png"
    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = tmp
        # The shot starts from the default layout and leaves the operator's saved one alone.
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, tmp)

        def ready(window) -> None:
            window.resize(*SIZE)
            window.fit_docks()
            asyncio.ensure_future(session(window, out))

        return qasync.run(run_window(get_config(), Path(tmp) / "threads.sqlite", None, ready))


if __name__ == "__main__":
    sys.exit(main())
