"""Start the window on a qasync loop: the UI, the Gateway and the graph share one loop.

The window is shown first; the session (SQLite checkpointer and compiled graph) opens inside
the running loop right after, and is closed before the loop ends. Closing the last window
does not quit Qt by itself (``setQuitOnLastWindowClosed(False)``): the window's ``closed``
signal ends the main coroutine, which then closes the session and the connectors.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import re
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

logger = logging.getLogger(__name__)
T = TypeVar("T")


async def run_window(
    config: Any,
    db_path: str | Path | None = None,
    thread_id: str | None = None,
    window_ready: Any = None,
) -> int:
    """The main coroutine: show the window, open the session, wait for the window to close."""
    from osprey_desktop.ui.controller import SessionController
    from osprey_desktop.ui.main_window import MainWindow

    closed = asyncio.Event()
    controller = SessionController()
    window = MainWindow(controller, config)
    window.closed.connect(closed.set)
    window.show()
    signal_watch = _TerminalSignals(window)
    if window_ready is not None:
        window_ready(window)
    await asyncio.sleep(0)  # let the first paint happen before the heavy imports below
    # The agent stack (LangGraph, the connectors, the channel list: seconds on a loaded
    # machine) is imported in a worker thread: the window keeps taking keys meanwhile, and
    # what is typed is queued until the session is open.
    await asyncio.to_thread(load_agent_stack, config)
    from osprey_desktop.session import AgentSession

    try:
        async with AgentSession.open(config, db_path) as session:
            await controller.attach(session, thread_id)
            await closed.wait()
    except Exception as exc:
        logger.exception("the session could not be opened or closed cleanly")
        await _report_fatal(window, fatal_message(exc, config, db_path))
        return 1
    finally:
        signal_watch.stop()
        await _close_connectors()
    return 0


STARTUP_MODULES = (
    "osprey_desktop.session",
    "osprey_desktop.graph",
    "osprey_desktop.registry",
    "osprey_desktop.infrastructure.gateway",
    "osprey_desktop.persistence.postgres",
    "osprey_desktop.persistence.checkpointer",
    # what the Activity and Alarms docks read with once the session is open (the logbook's
    # stores and Olog client, the investigations): left out of the first paint, and imported
    # here rather than on the loop when the docks attach (a 70 ms stall at load 8)
    "osprey_desktop.logbook.activity",
    "osprey_desktop.logbook.publishing",
    "osprey_desktop.investigate.alarms",
    # pyqtgraph and the plot modules (0.4-0.7 s): imported here, before the session opens,
    # they no longer run beside the first request, whose turn stalled 75-215 ms waiting for
    # the import lock and the GIL while the window imported them after the session opened
    "osprey_desktop.ui.plot_dock",
    # numpy imports its masked arrays at the first np.median, which the answer of a history
    # asks for on the loop (22 ms there, in the first history request's turn)
    "numpy.ma",
    # what the graph's first run imports (its tracers and the in-memory saver of a subgraph)
    "langchain_core.tracers.run_collector",
    "langchain_core.tracers.stdout",
    "langgraph.checkpoint.memory",
)


def load_agent_stack(config: Any) -> None:
    """Import what opening a session imports, and read the channel list, in a worker thread
    (no Qt object is made here). Measured on a loaded 2-core machine, these held the window
    for 4 s when the session imported them on the loop (bench/ui_latency.py).

    The cyclic collector is paused meanwhile and what was loaded is then frozen (kept out of
    its generations, as the controller does once the session is open): the imports make
    hundreds of thousands of objects that live as long as the process, and each full pass
    they set off here held the GIL, and so the window, for 90-190 ms on an idle machine
    (three per start-up; ``bench/ui_latency.py --only paint --sample``)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        _load_agent_stack(config)
    finally:
        gc.freeze()  # a no-collection move of every tracked object: no pass over them
        if enabled:
            gc.enable()


def _load_agent_stack(config: Any) -> None:
    for name in STARTUP_MODULES:
        importlib.import_module(name)
    from osprey_desktop.registry import manager

    registered = [
        *(path.partition(":")[0] for path in manager.FRAMEWORK_INFRASTRUCTURE),
        *(path.partition(":")[0] for path in manager.FRAMEWORK_CAPABILITIES),
        *manager.DEFAULT_CAPABILITY_MODULES,
        *(getattr(getattr(config, "registry", None), "modules", None) or []),
    ]
    for name in registered:
        try:
            importlib.import_module(name)
        except Exception:  # the registry reports a module that cannot load, in its words
            logger.debug("module %s not preloaded", name, exc_info=True)
    try:
        from osprey_desktop.channels.finding import configured_finder
        from osprey_desktop.connectors.factory import get_configured_channel_database

        configured_finder(get_configured_channel_database(config)).warm_words()
    except Exception:  # the session reports a bad channel list in its own words
        logger.debug("channel list not preloaded", exc_info=True)
    control = getattr(config, "control_system", None)
    if getattr(control, "type", None) == "sim":
        # the simulated ring's lattice and saved state (a 60 ms stall when the first
        # request's read built it on the loop); plain Python, process-wide, behind a lock
        try:
            from osprey_desktop.connectors.factory import get_sim_machine

            get_sim_machine(config)
            # its connectors, which the first read and the first history import otherwise
            importlib.import_module("osprey_desktop.connectors.sim")
            importlib.import_module("osprey_desktop.connectors.sim_archiver")
        except Exception:  # the first read reports a broken simulator in its own words
            logger.debug("simulated ring not preloaded", exc_info=True)
    try:
        # The parse's patterns compile and the list's words are gathered on first use: 30 ms
        # on the loop during the operator's first request. One parse here does it in advance.
        from osprey_desktop.planners.builtin import parse

        parse("plot the beam current over the last 2 hours")
    except Exception:  # the first request reports a broken vocabulary in its own words
        logger.debug("request parse not preloaded", exc_info=True)


class _TerminalSignals:
    """Ctrl+C and SIGTERM stop the turn and close the window cleanly instead of being ignored.

    Python runs signal handlers only between bytecodes; while Qt idles in C++ none run, so a
    slow timer gives the interpreter a moment to notice the signal. The previous handlers come
    back when the window is gone.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, window: Any) -> None:
        from PySide6.QtCore import QTimer

        loop = asyncio.get_running_loop()

        def request_quit(signum: int, _frame: Any) -> None:
            logger.info("signal %s received: stopping the turn and closing", signum)
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(window.quit_now()))

        self._previous = {signum: signal.signal(signum, request_quit) for signum in self.SIGNALS}
        self._timer = QTimer()
        self._timer.setInterval(250)
        self._timer.timeout.connect(lambda: None)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)


def fatal_message(exc: BaseException, config: Any = None, db_path: str | Path | None = None) -> str:
    """What the operator reads when the session cannot go on: a file or a server, no password."""
    from osprey_desktop.persistence.postgres import (
        PostgresDatabase,
        conversation_database,
        redact,
    )

    try:
        database = conversation_database(db_path, config)
    except Exception:  # the configuration itself may be what failed
        database = None
    # a URL may sit in any exception's text (a driver's, a configuration error's)
    text = re.sub(r"postgres(?:ql)?://\S+", lambda m: redact(m.group(0)), str(exc), flags=re.I)
    if isinstance(database, PostgresDatabase):
        advice = (
            f"Check that PostgreSQL runs at {database} and accepts this user (the URL comes "
            "from --db or file_paths.checkpoint_db in the configuration), then start again."
        )
    else:
        advice = (
            "Check file_paths.checkpoint_db in the configuration (or move the file aside) "
            "and start again."
        )
    return f"Osprey Desktop cannot continue: {text}\n\n{advice}"


async def _report_fatal(window: Any, message: str) -> None:
    from PySide6.QtWidgets import QMessageBox

    from osprey_desktop.ui.async_dialogs import await_dialog

    print(f"osprey-desktop: {message}", file=sys.stderr)
    if window.isVisible():
        box = QMessageBox(QMessageBox.Icon.Critical, "Osprey Desktop", message, parent=window)
        await await_dialog(box)
    window._quitting = True
    window.close()


async def _close_connectors() -> None:
    try:
        from osprey_desktop.connectors.factory import close_connectors

        await close_connectors()
    except Exception:  # shutting down: log, never hang the exit on a connector
        logger.exception("closing the connectors failed")


def run_on_qt_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on a qasync loop over the QApplication, as ``qasync.run`` does, but without
    installing qasync's event-loop policy for the whole process.

    On Python 3.11 ``qasync.run`` sets that policy while it runs, so any ``asyncio.run`` in a
    worker thread (the planner's deadline thread does one per planner call) builds a second Qt
    loop in that thread, which cannot run there: every turn then failed with "Event loop
    stopped before Future completed". Here only this loop is a Qt loop; a worker's
    ``asyncio.run`` gets a plain asyncio loop.
    """
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        return runner.run(main)


def run_app(config: Any, db_path: str | Path | None = None, thread_id: str | None = None) -> int:
    """Create the QApplication, run the window until it closes, return the exit code."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("Osprey Desktop")
    app.setOrganizationName("osprey-desktop")
    app.setQuitOnLastWindowClosed(False)
    return int(run_on_qt_loop(run_window(config, db_path, thread_id)) or 0)
