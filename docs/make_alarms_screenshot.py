"""Take ``docs/screenshot-alarms.png``: the window with the Alarms dock raised.

The simulated ring replays ``corrector_step`` (an unrecorded corrector change moved the
orbit, and BPMs are in alarm now), the operator asks "any alarms?", the Alarms dock is raised
and the window grabbed.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_alarms_screenshot.py [OUT.png]``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import Qt

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1600, 1000)
REQUESTS = ("any alarms?",)


async def idle(window) -> None:
    await asyncio.sleep(0.2)
    while window.controller.running:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)


async def shoot(window, out: Path) -> None:
    while window.controller.session is None:
        await asyncio.sleep(0.05)
    for text in REQUESTS:
        window.chat.input.setPlainText(text)
        window.chat.input.submit()
        await idle(window)
    dock = window.alarms
    done = asyncio.Event()
    dock.refreshed.connect(done.set)
    dock.raise_()
    window.resizeDocks([dock], [int(window.height() * 0.45)], Qt.Orientation.Vertical)
    await asyncio.wait_for(done.wait(), 20)
    await asyncio.sleep(0.5)
    window.grab().save(str(out))
    print(f"saved {out}")
    window.close()


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from osprey_desktop.config import build_config, set_config
    from osprey_desktop.ui.app import run_on_qt_loop, run_window

    paths = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = Path(paths[0]) if paths else REPO / "docs" / "screenshot-alarms.png"
    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = tmp
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, tmp)
        config = build_config({"control_system": {"sim": {"scenario": "corrector_step"}}})
        set_config(config)

        def ready(window) -> None:
            window.resize(*SIZE)
            window.fit_docks()
            asyncio.ensure_future(shoot(window, out))

        return run_on_qt_loop(run_window(config, Path(tmp) / "threads.sqlite", None, ready))


if __name__ == "__main__":
    sys.exit(main())
