"""Fixtures for the window tests: offscreen Qt and a qasync loop that qtbot can drive.

The tests are synchronous on purpose (see shared NOTES): a qasync loop created with
``already_running=True`` and set as the current loop lets ``qtbot.waitUntil`` /
``qtbot.waitSignal`` run asyncio tasks while Qt processes events. ``waitUntil`` inside an
``async def`` test never lets a task run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

qasync = pytest.importorskip("qasync")


@pytest.fixture(autouse=True)
def window_settings_folder(tmp_path_factory) -> Iterator[Path]:
    """Each test saves and reads window layouts in its own folder, never the user's.

    Qt reads XDG_CONFIG_HOME once per process, so the per-test folder is set explicitly.
    """
    from PySide6.QtCore import QSettings

    folder = tmp_path_factory.mktemp("qsettings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    yield folder


@pytest.fixture
def qasync_loop(qapp, qtbot) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop bound to the test's QApplication; cancelled and closed afterwards."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=5000)
        gens = loop.create_task(loop.shutdown_asyncgens())
        qtbot.waitUntil(gens.done, timeout=5000)
        # The loop never ran exec(): mark it stopped by hand, as qasync asks of the owner.
        loop._QEventLoop__is_running = False  # noqa: SLF001
        asyncio.events._set_running_loop(None)
        with contextlib.suppress(RuntimeError, TypeError):
            qapp.aboutToQuit.disconnect(loop._after_run_forever)
        loop._after_run_forever()
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def run_async(qtbot, qasync_loop):
    """Run a coroutine as a task on the qasync loop, processing Qt events until it is done."""

    def run(coro, timeout: int = 10_000):
        task = qasync_loop.create_task(coro)
        qtbot.waitUntil(task.done, timeout=timeout)
        return task.result()

    return run


class WindowHarness:
    """Opens real windows over a real AgentSession (SQLite in tmp) inside the qasync loop."""

    def __init__(self, qtbot, run_async, db_path, configure) -> None:
        self.qtbot = qtbot
        self.run_async = run_async
        self.db_path = db_path
        self.configure = configure
        self.open_windows: list = []

    def open(self, graph_factory=None, overrides=None, use_real_graph=False):
        from osprey_desktop.session import AgentSession
        from osprey_desktop.ui.controller import SessionController
        from osprey_desktop.ui.main_window import MainWindow
        from tests.ui.window_graph import build_window_graph

        config = self.configure(overrides)
        factory = None if use_real_graph else (graph_factory or build_window_graph)
        manager = AgentSession.open(config, self.db_path, graph_factory=factory)
        session = self.run_async(manager.__aenter__(), timeout=30_000)
        window = MainWindow(SessionController(), config)
        window.show()  # not qtbot.addWidget: pytest-qt would close it before our teardown
        self.run_async(window.controller.attach(session))
        self.open_windows.append((window, manager))
        return window

    def close(self, window) -> None:
        """What the app does after the window's ``closed``: stop everything, close the session."""
        for entry in list(self.open_windows):
            if entry[0] is window:
                self.open_windows.remove(entry)
                if not window._quitting:
                    self.run_async(window.shutdown())
                    window._quitting = True
                    window.close()
                self.run_async(entry[1].__aexit__(None, None, None))
                window.deleteLater()

    def close_all(self) -> None:
        for window, _ in list(reversed(self.open_windows)):
            self.close(window)

    def send(self, window, text: str, timeout: int = 15_000):
        """Type ``text`` into the chat and press Enter, as the operator does."""
        from PySide6.QtCore import Qt

        self.qtbot.keyClicks(window.chat.input, text)
        with self.qtbot.waitSignal(window.controller.turn_started, timeout=timeout):
            self.qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)

    def wait_idle(self, window, timeout: int = 15_000) -> None:
        self.qtbot.waitUntil(lambda: not window.controller.running, timeout=timeout)

    def wait_plots(self, window, timeout: int = 5_000) -> None:
        """Figures are shown a moment after the state that brings them (``FIGURE_DELAY_MS``):
        a turn can end first, so a test waits for the dock, never assumes it."""
        self.qtbot.waitUntil(lambda: window.plot_dock is not None, timeout=timeout)


@pytest.fixture
def windows(qtbot, run_async, tmp_path, configure):
    harness = WindowHarness(qtbot, run_async, tmp_path / "threads.sqlite", configure)
    try:
        yield harness
    finally:
        harness.close_all()
        from osprey_desktop.connectors.factory import close_connectors

        run_async(close_connectors())
