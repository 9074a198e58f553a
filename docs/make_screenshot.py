"""Take ``docs/screenshot-main.png``: the window after a read, plot and write session.

Runs the real app coroutine (real graph, built-in planner, simulated machine) on a
temporary database, types three requests as an operator would, approves the write by
clicking Approve in the dialog, opens the interesting context entries, and grabs the window.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_screenshot.py [OUT.png]``
(or under ``xvfb-run -a``).

``--scenes`` takes the pictures of docs/window.md instead — a read answered as a table, a
write result, a 24-hour orbit, a 6-channel strip chart, and a history with an enum channel and
alarm severities — as ``docs/screenshot-*.png``. The simulated ring has no enum channel, so
that last history is the UI tests' fixture (``tests/ui/history_fixtures.py``: an RF station
trip) opened in the same window's plot dock;
``--approval`` takes ``docs/screenshot-approval-xvfb.png``: a value copied from another channel
waiting in the approval dialog (the screen is grabbed, dialog included; use it with ``--xvfb``).
``--shift`` takes the pictures of a whole shift's window: ``screenshot-queue.png`` (requests
typed while a 24-hour orbit turn runs, queued), ``screenshot-setpoint-steps.png`` (a corrector
setpoint that stepped three times in two hours, drawn as steps, the cursor reading it),
``screenshot-approval-36.png`` (the approval of 36 vertical correctors → 0 A, with its
predicted orbit change) and ``screenshot-approval-blocked.png`` (the same request when VCM11
would step more than its max_step: the agent asks about the other 35 and carries VCM11 beside
them, listed first as not sent). The ring's history is seeded on the simulated machine first
(setpoint changes in the past).
``--size 1280x800`` takes them at that window size instead of 1600x1000.
``--xvfb`` runs it on a private Xvfb display with openbox (the desktop's focus behaviour), as
an operator's screen draws it: ``.venv/bin/python docs/make_screenshot.py --scenes --xvfb``.
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


SCENES = (
    ("screenshot-read-table.png", "Show the horizontal orbit in sector 3", None),
    ("screenshot-write-result.png", "Set HCM01 to 1.5 A", None),
    ("screenshot-orbit.png", "Show the horizontal orbit over the last 24 hours", "plots"),
)
STRIP_CHANNELS = [f"SR01C:BPM0{i}:X" for i in range(1, 7)]


async def scenes(window, folder: Path) -> None:
    """One picture per scene of docs/window.md."""
    while window.controller.session is None:
        await asyncio.sleep(0.05)
    # opened first, so it has gathered half a minute of live data when its picture is taken
    strip = window.open_stripchart(STRIP_CHANNELS)
    for name, text, dock in SCENES:
        window.chat.input.setPlainText(text)
        window.chat.input.submit()
        await idle(window)
        dialog = window.approvals.dialog
        if dialog is not None:
            while not dialog.is_armed():
                await asyncio.sleep(0.05)
            dialog.approve_button.click()
            await idle(window)
        if dock == "plots" and window.plot_dock is not None:
            window.plot_dock.raise_()
            await asyncio.sleep(1.5)  # the orbit is prepared in a worker thread
        await asyncio.sleep(0.5)
        window.grab().save(str(folder / name))
        print(f"saved {folder / name}")
    await asyncio.sleep(15.0)  # more live data
    strip.raise_()
    await asyncio.sleep(0.3)
    window.grab().save(str(folder / "screenshot-stripchart.png"))
    print(f"saved {folder / 'screenshot-stripchart.png'}")
    await history_scene(window, folder / "screenshot-history-states.png")
    window.close()


async def approval(window, out: Path) -> None:
    """``--approval``: a copied value waiting for approval, the dialog over the window (the
    screen is grabbed, so the dialog is in the picture)."""
    from PySide6.QtWidgets import QApplication

    while window.controller.session is None:
        await asyncio.sleep(0.05)
    for text, answer in (("set VCM07 to 0.35 A", True), ("make VCM08 the same as VCM07", None)):
        window.chat.input.setPlainText(text)
        window.chat.input.submit()
        await idle(window)
        dialog = window.approvals.dialog
        while dialog is not None and not dialog.is_armed():
            await asyncio.sleep(0.05)
        if answer and dialog is not None:
            dialog.approve_button.click()
            await idle(window)
    await asyncio.sleep(0.8)
    QApplication.primaryScreen().grabWindow(0).copy(0, 0, *SIZE).save(str(out))
    print(f"saved {out}")
    if window.approvals.dialog is not None:
        window.approvals.dialog.reject_button.click()
        await idle(window)
    window.close()


async def history_scene(window, out: Path) -> None:
    """An RF trip: the station's enum state as named steps, the beam current with its alarms
    marked and its gaps broken, a text channel as a state track (test fixture data)."""
    import time

    from tests.ui.history_fixtures import history_state, rf_history_entry

    dock = window.ensure_plot_dock()
    dock.show_state(history_state(rf_history_entry(time.time() - 3 * 3600)))
    view = dock.current_view()
    while not view.ready:
        await asyncio.sleep(0.05)
    view.views.setCurrentWidget(view.timeseries)
    # the operator hides the side docks (View menu) and drags the plot taller to read it
    window.plan_viewer.hide()
    window.context_browser.hide()
    await asyncio.sleep(0.2)
    window.resizeDocks([dock], [int(window.height() * 0.62)], Qt.Orientation.Vertical)
    await asyncio.sleep(0.6)
    window.grab().save(str(out))
    print(f"saved {out}")


async def submit(window, text: str) -> None:
    window.chat.input.setPlainText(text)
    window.chat.input.submit()


async def approve_if_asked(window) -> None:
    dialog = window.approvals.dialog
    if dialog is None:
        return
    while not dialog.is_armed():
        await asyncio.sleep(0.05)
    dialog.approve_button.click()
    await idle(window)


async def grab_approval(window, out: Path) -> bool:
    """The approval dialog at its natural size, once it takes answers, then rejected; False
    when no approval was asked."""
    dialog = window.approvals.dialog
    if dialog is None:
        return False
    dialog.resize(dialog.sizeHint())
    while not dialog.is_armed():
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    grab_screen(window, out)
    dialog.reject_button.click()
    await idle(window)
    return True


def grab_screen(window, out: Path) -> None:
    """The screen under the window (dialogs included), cut to the window's size."""
    from PySide6.QtWidgets import QApplication

    geometry = window.frameGeometry()
    QApplication.primaryScreen().grabWindow(0).copy(geometry).save(str(out))
    print(f"saved {out}")


def seed_shift(window) -> dict[str, str]:
    """A shift's worth of history on the simulated ring: HCM01 stepped three times in two
    hours, five vertical correctors away from zero (VCM11 at 2.5 A)."""
    import time

    from osprey_desktop.connectors.factory import get_sim_machine

    machine = get_sim_machine(window.config)
    by_device = {r.device: r.name for r in machine.database if r.role == "setpoint" and r.device}
    now = time.time()
    for minutes, value in ((112, 1.2), (64, 0.5), (23, 0.8)):
        machine.set_setpoint(by_device["HCM01"], value, t=now - minutes * 60)
    for device, value in (("VCM03", 0.42), ("VCM07", -0.35), ("VCM11", 2.5), ("VCM19", 0.8)):
        machine.set_setpoint(by_device[device], value, t=now - 600)
    return by_device


async def shift_scenes(window, folder: Path, suffix: str) -> None:
    """``--shift``: the queue, a stepped setpoint with the cursor, 36 correctors to approve."""
    import time

    while window.controller.opening:
        await asyncio.sleep(0.05)
    by_device = seed_shift(window)
    # 1. type ahead while a long turn runs
    await submit(window, "Show the horizontal orbit over the last 24 hours")
    await asyncio.sleep(0.3)
    for text in ("What is the beam current?", "Show the vertical orbit in sector 3"):
        window.chat.input.setPlainText(text)
        window.chat.input.submit()
        await asyncio.sleep(0.15)
    window.chat.input.setPlainText("and the lifetime")
    await asyncio.sleep(0.3)
    grab_screen(window, folder / f"screenshot-queue{suffix}.png")
    window.chat.input.clear()
    for _ in range(1200):  # at most two minutes for the queue to run
        if not (window.controller.running or window.controller.queue):
            break
        await asyncio.sleep(0.1)
    await idle(window)
    # 2. a setpoint that stepped, read with the cursor
    await submit(window, "Plot the HCM01 setpoint over the last 2 hours")
    await idle(window)
    await asyncio.sleep(1.0)
    if window.plot_dock is None:
        print("no plot opened for the setpoint history; transcript:")
        print(window.chat.transcript.toPlainText()[-600:])
        window.close()
        return
    plot = window.plot_dock.current_plot()
    window.plot_dock.raise_()
    window.context_browser.hide()
    window.resizeDocks([window.plot_dock], [int(window.height() * 0.55)], Qt.Orientation.Vertical)
    await asyncio.sleep(0.4)
    plot.show_cursor(time.time() - 80 * 60)
    await asyncio.sleep(0.3)
    grab_screen(window, folder / f"screenshot-setpoint-steps{suffix}.png")
    plot.show_cursor(None)
    window.context_browser.show()
    # 3. 36 correctors to zero: the agent asks (VCM11 first back within its step)
    await submit(window, "set VCM11 to 1.5 A")
    await idle(window)
    await approve_if_asked(window)
    await submit(window, "set all vertical correctors to 0 A")
    await idle(window)
    await grab_approval(window, folder / f"screenshot-approval-36{suffix}.png")
    # 4. the same request with VCM11 at 2.5 A: its step to 0 A is beyond max_step, so the
    # agent asks about the other 35 and carries VCM11 beside them (the real flow)
    from osprey_desktop.connectors.factory import get_sim_machine

    get_sim_machine(window.config).set_setpoint(by_device["VCM11"], 2.5)
    await submit(window, "set all vertical correctors to 0 A")
    await idle(window)
    if not await grab_approval(window, folder / f"screenshot-approval-blocked{suffix}.png"):
        print("no approval was asked for the blocked batch; transcript:")
        print(window.chat.transcript.toPlainText()[-600:])
    window.close()


def rerun_under_xvfb(script: str = __file__) -> int:
    """Start Xvfb and openbox on a free display, run ``script`` there, stop them."""
    import shutil
    import subprocess
    import time

    for tool in ("Xvfb", "openbox"):
        if shutil.which(tool) is None:
            print(f"{tool} is missing (apt-get install xvfb openbox)")
            return 2
    display = next(f":{n}" for n in range(91, 140) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
    started = [
        subprocess.Popen(["Xvfb", display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"])
    ]
    try:
        time.sleep(1.0)
        started.append(subprocess.Popen(["openbox"], env=env, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
        args = [a for a in sys.argv[1:] if a != "--xvfb"]
        return subprocess.run([sys.executable, script, *args], env=env).returncode
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait(timeout=10)


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import run_on_qt_loop, run_window

    if "--xvfb" in sys.argv:
        return rerun_under_xvfb()
    take_scenes = "--scenes" in sys.argv
    size = SIZE
    if "--size" in sys.argv:
        width, _, height = sys.argv[sys.argv.index("--size") + 1].partition("x")
        size = (int(width), int(height))
    paths = [a for a in sys.argv[1:] if not a.startswith("--") and "x" not in a[:5]]
    out = Path(paths[0]) if paths else REPO / "docs" / "screenshot-main.png"
    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = tmp
        # The shot starts from the default layout and leaves the operator's saved one alone.
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, tmp)

        def ready(window) -> None:
            window.resize(*size)
            window.fit_docks()
            if take_scenes:
                asyncio.ensure_future(scenes(window, REPO / "docs"))
            elif "--shift" in sys.argv:
                window.move(0, 0)
                suffix = "" if size == SIZE else f"-{size[0]}"
                asyncio.ensure_future(shift_scenes(window, REPO / "docs", suffix))
            elif "--approval" in sys.argv:
                window.move(0, 0)
                asyncio.ensure_future(
                    approval(window, REPO / "docs" / "screenshot-approval-xvfb.png")
                )
            else:
                asyncio.ensure_future(session(window, out))

        return run_on_qt_loop(run_window(get_config(), Path(tmp) / "threads.sqlite", None, ready))


if __name__ == "__main__":
    sys.exit(main())
