"""The main window: chat in the middle, plan and context on the right, plots and log below.

Every widget gets its model as a constructor argument; this class only wires the
controller's signals to them and owns the menus, toolbar and the close sequence (ask when a
turn runs, stop it, wait, then report ``closed`` so the app can close the checkpointer).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QToolBar, QWidget

from osprey_desktop import __version__
from osprey_desktop.config.posture import describe_posture
from osprey_desktop.ui.activity_dock import install_activity
from osprey_desktop.ui.alarms_dock import install_alarms
from osprey_desktop.ui.approval_flow import ApprovalFlow
from osprey_desktop.ui.async_dialogs import await_dialog
from osprey_desktop.ui.chat.panel import ChatPanel
from osprey_desktop.ui.chat.transcript import latest_answer, message_role_text
from osprey_desktop.ui.commands import CommandActions, LaunchableCommand, commands_from_state
from osprey_desktop.ui.context_browser.describe import ContextDescriber
from osprey_desktop.ui.context_browser.model import ContextTreeModel
from osprey_desktop.ui.context_browser.view import ContextBrowserDock
from osprey_desktop.ui.controller import SessionController
from osprey_desktop.ui.focus import FocusReturn
from osprey_desktop.ui.launcher import CommandLauncher
from osprey_desktop.ui.plan_viewer import PlanViewerDock
from osprey_desktop.ui.process_log import ProcessLogDock
from osprey_desktop.ui.status_bar import AppStatusBar
from osprey_desktop.ui.step_names import humane_note, step_name
from osprey_desktop.ui.window_geometry import restore_layout, save_layout
from osprey_desktop.ui.window_menus import WindowMenus

if TYPE_CHECKING:
    from osprey_desktop.session import TurnResult

INTERNAL_ROUTES = ("stripchart", "context")
FIGURE_DELAY_MS = 10
ConnectorFactory = Callable[[], Any]
_DEFAULT: Any = object()  # "the configured archiver" (None means none)


def window_title(config: Any) -> str:
    """Version, what the window is connected to and whether it may write."""
    return describe_posture(config).window_title(__version__)


class MainWindow(QMainWindow):
    closed = Signal()  # the window is gone and every turn is stopped

    def __init__(
        self,
        controller: SessionController,
        config: Any,
        connector_factory: ConnectorFactory | None = None,
        parent: QWidget | None = None,
        archiver_factory: Any = _DEFAULT,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle(window_title(config))
        self.controller = controller
        self.config = config
        self._connector_factory = connector_factory
        # the archive behind plot ranges and strip charts (tests may pass their own, or None)
        self._archiver_factory = (
            self._default_archiver_factory if archiver_factory is _DEFAULT else archiver_factory
        )
        self._quitting = False
        self._close_task: asyncio.Task[None] | None = None
        self.close_prompt: QMessageBox | None = None
        self._known_commands: dict[tuple[str, str], LaunchableCommand] = {}
        self._history_pending = True
        self._plan_from_state = True  # the next full state of this thread rebuilds the plan
        self.stripcharts: list[QWidget] = []
        self.plot_dock: Any = None  # created on first use: pyqtgraph costs ~0.4 s to import
        self._plot_import: asyncio.Future[Any] | None = None  # that import, in a worker
        # a state with new figures waits a moment (see _on_state); a child timer, so it dies
        # with the window instead of firing into a deleted one
        self._figures_due: Mapping[str, Any] | None = None
        self._figure_timer = QTimer(self)
        self._figure_timer.setSingleShot(True)
        self._figure_timer.setInterval(FIGURE_DELAY_MS)
        self._figure_timer.timeout.connect(self._show_due_figures)

        self.chat = ChatPanel()
        self.setCentralWidget(self.chat)
        self.chat.input.setFocus()  # the operator types first: no click needed to start
        self.chat.input.set_slash_commands(controller.slash_commands())
        self.plan_viewer = PlanViewerDock()
        self.context_model = ContextTreeModel()
        self.describer = ContextDescriber()
        self.launcher = CommandLauncher(config.launchers, INTERNAL_ROUTES, self)
        self.command_actions = CommandActions(
            self.launcher.trigger, self, unavailable=self.launcher.unavailable_reason
        )
        export_dir = getattr(config.file_paths, "agent_data_dir", None)
        self.context_browser = ContextBrowserDock(
            self.context_model,
            self.describer,
            self._actions_for_key,
            Path(export_dir).expanduser() if export_dir else None,
        )
        self.process_log = ProcessLogDock()
        self.status = AppStatusBar()
        self.setStatusBar(self.status)
        self.status.set_posture(describe_posture(config))
        self.status.set_thread(controller.thread_id)

        # The right column runs the full height: plan and context keep their rows on a
        # short screen, and plots open under the chat.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.plan_viewer)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.context_browser)
        self.splitDockWidget(self.plan_viewer, self.context_browser, Qt.Orientation.Vertical)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.process_log)

        self.stop_action = QAction("Stop", self)
        self.stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.stop_action.setToolTip("Stop the running turn (Esc); the thread can continue")
        self.stop_action.setEnabled(False)
        self.stop_action.triggered.connect(self.controller.stop)
        self.toolbar = QToolBar("Main")
        self.toolbar.setObjectName("main_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.addToolBar(self.toolbar)
        self.menus = WindowMenus(self)
        self.approvals = ApprovalFlow(
            controller,
            self,
            self.plan_viewer,
            self.status,
            predict=self._predict_write,
            describe=self._describe_channel,
        )
        self.focus_return = FocusReturn(self.chat.input, self)
        for widget in (self.plan_viewer, self.context_browser, self.process_log, self.toolbar):
            self.focus_return.watch(widget)
        self._wire()
        self.activity = install_activity(self)  # Activity dock, "Log this"
        self.alarms = install_alarms(self)  # Alarms dock: what is in alarm now
        if not restore_layout(self):
            self.fit_docks()

    def fit_docks(self) -> None:
        """First-start dock sizes as shares of the window, so a small screen keeps the chat."""
        width, height = self.width(), self.height()
        self.resizeDocks([self.plan_viewer], [int(width * 0.42)], Qt.Orientation.Horizontal)
        self.resizeDocks(
            [self.plan_viewer, self.context_browser],
            [int(height * 0.3), int(height * 0.6)],
            Qt.Orientation.Vertical,
        )
        self.resizeDocks([self.process_log], [int(height * 0.14)], Qt.Orientation.Vertical)

    # ------------------------------------------------------------------- wiring
    def _wire(self) -> None:
        c = self.controller
        self.chat.send_requested.connect(c.submit)
        self.chat.stop_requested.connect(c.stop)
        c.turn_started.connect(self._on_turn_started)
        c.running_changed.connect(self._on_running)
        c.progress_event.connect(self._on_progress)
        c.turn_finished.connect(self._on_turn_finished)
        c.turn_cancelled.connect(self._on_turn_cancelled)
        c.state_changed.connect(self._on_state)
        c.error.connect(lambda message: self.chat.transcript.add_error(message))
        c.note.connect(lambda text: self.chat.transcript.add_note(humane_note(text)))
        self.chat.transcript.link_activated.connect(self.open_link)
        c.thread_changed.connect(self._on_thread_changed)
        c.exit_requested.connect(self.close)
        c.ready.connect(self._on_ready)
        c.other_approvals.connect(self._on_other_approvals)
        c.other_writes_in_doubt.connect(self._on_other_writes_in_doubt)
        c.queue_changed.connect(self.chat.queue_view.show_queue)
        c.request_returned.connect(self.chat.give_back)
        self.chat.queue_view.remove_requested.connect(self._unqueue)
        self.chat.queue_view.run_requested.connect(c.run_queue)
        self.status.switch_requested.connect(
            lambda thread_id: asyncio.ensure_future(c.switch_thread(thread_id))
        )
        self.command_actions.changed.connect(self.menus.rebuild_commands)
        launcher = self.launcher
        launcher.refused.connect(self._on_refused)
        launcher.internal_requested.connect(self._on_internal)
        launcher.process_started.connect(self.process_log.started)
        launcher.process_output.connect(self.process_log.output)
        launcher.process_finished.connect(self.process_log.finished)
        self.context_browser.exported.connect(
            lambda path: self.chat.transcript.add_note(f"Context exported to {path}")
        )
        self.context_browser.export_failed.connect(self.chat.transcript.add_error)

    def _predict_write(self, operations: Any) -> Any:
        from osprey_desktop.prediction import predict_write_effect
        from osprey_desktop.prediction.configured import configured_model

        model, reason = configured_model(self.config)
        return predict_write_effect(operations, model, reason)

    def _describe_channel(self, channel: str) -> str:
        """The channel list's description of a channel ("" when it is not listed)."""
        from osprey_desktop.connectors.factory import get_configured_channel_database

        try:
            record = get_configured_channel_database(self.config).get(channel)
        except Exception:  # no list: the approval still shows, with plainer words
            return ""
        return record.description if record is not None else ""

    def new_thread(self) -> None:
        """Ctrl+N: a new thread, and the keyboard in the chat to ask its first question."""
        self.controller.new_thread()
        self.chat.input.setFocus()

    def _unqueue(self, request_id: int) -> None:
        request = self.controller.remove_queued(request_id)
        if request is not None:
            self.chat.give_back(request.text)

    def _on_ready(self) -> None:
        self.chat.input.set_slash_commands(self.controller.slash_commands())
        self.menus.refresh_threads()
        self.status.showMessage("Ready", 3000)
        self._import_plots_in_worker()

    def _import_plots_in_worker(self) -> None:
        """Import pyqtgraph and the plot modules in a worker thread once the session is open.

        Imported on the loop when the first plot arrived, they stalled the window 0.5-0.7 s
        (bench/ui_latency.py). Importing creates no Qt object, so a worker may do it.
        """
        if self._plot_import is not None:
            return
        try:
            self._plot_import = asyncio.ensure_future(
                asyncio.to_thread(importlib.import_module, "osprey_desktop.ui.plot_dock")
            )
        except RuntimeError:  # no event loop (a window built outside qasync): import on use
            self._plot_import = None

    def _on_other_approvals(self, threads: list[Any]) -> None:
        self.status.show_other_approvals(threads)
        for info in threads:
            waiting = f": {info.pending_message.rstrip(' .')}" if info.pending_message else ""
            self.chat.transcript.add_note(
                f"⚠ Thread {info.thread_id} (“{info.title}”) waits for your approval{waiting}. "
                "Open it from the Threads menu or the status bar to answer."
            )

    def _on_other_writes_in_doubt(self, threads: list[Any]) -> None:
        for info in threads:
            self.chat.transcript.add_note(
                f"⚠ Thread {info.thread_id} (“{info.title}”): a write may have reached the "
                "machine and its console stopped without an outcome (in doubt). Open it from "
                "the Threads menu to see which channel; nothing is sent again."
            )

    def _on_turn_started(self, text: str) -> None:
        self._history_pending = False  # the transcript now follows this thread live
        self._plan_from_state = False  # and the plan viewer follows its progress events
        if not text:
            return
        from osprey_desktop.infrastructure.gateway import parse_approval_answer

        self.chat.transcript.add_request(text)
        if not text.startswith("/") and parse_approval_answer(text) is None:
            self.plan_viewer.show_plan(None)

    def _on_running(self, running: bool) -> None:
        self.chat.set_running(running)
        self.stop_action.setEnabled(running)
        self.status.set_running(running)

    def _on_progress(self, event: dict) -> None:
        self.chat.transcript.add_event(event)
        self.plan_viewer.apply_event(event)
        if event.get("type") == "capability_start":
            index, total = event.get("step_index"), event.get("total_steps")
            where = f"step {index + 1}/{total} " if isinstance(index, int) and total else ""
            self.status.set_step(f"{where}{step_name(str(event.get('capability', '')))}")

    def _on_turn_finished(self, result: TurnResult) -> None:
        if result.response:
            self.chat.transcript.add_response(result.response, latest_answer(result.state))
        if result.pending_approval is None:
            self.plan_viewer.finish_turn()
        self.menus.refresh_threads()

    def _on_turn_cancelled(self) -> None:
        self.chat.transcript.add_note(
            "Stopped. The thread keeps what was done so far; send a new request to continue."
        )
        self.plan_viewer.finish_turn()

    def _on_thread_changed(self, thread_id: str) -> None:
        self.status.set_thread(thread_id)
        self.status.show_other_approvals([])  # listed again when the thread list is read
        self.chat.transcript.clear_entries()
        self.plan_viewer.show_plan(None)
        self._known_commands.clear()
        self.describer.forget_steps()
        self._history_pending = True
        self._plan_from_state = True

    def _on_state(self, values: Mapping[str, Any], changed: set[str] | None) -> None:
        def touched(*keys: str) -> bool:
            return changed is None or any(k in changed for k in keys)

        if touched("capability_context_data", "planning_execution_plan"):
            self.describer.set_state_values(values)
        if touched("capability_context_data"):
            self.context_model.set_context_data(values.get("capability_context_data"))
        if touched("ui_launchable_commands", "ui_captured_notebooks"):
            for command in commands_from_state(values):
                self._known_commands.setdefault(command.identity, command)
            self.command_actions.set_commands(self._known_commands.values())
        figures = values.get("ui_captured_figures") and touched(
            "ui_captured_figures", "capability_context_data"
        )
        if figures:
            # a moment later, not inside the graph's step that delivered the state: input and
            # paint events run in between, so the plot's widgets never add to the time that
            # step holds the loop (a 0 ms timer still ran in the same pass, measured)
            self._figures_due = values  # the newest state, when several arrive meanwhile
            if not self._figure_timer.isActive():
                self._figure_timer.start()
        if changed is None and self._plan_from_state and values.get("messages"):
            # Restored or switched to: no events replay, so the plan comes from the state.
            self._plan_from_state = False
            awaiting = self.controller.pending_approval is not None
            self.plan_viewer.show_restored(values, awaiting_approval=awaiting)
        if changed is None and self._history_pending and values.get("messages"):
            self._history_pending = False
            self._show_history(values)

    def _show_history(self, values: Mapping[str, Any]) -> None:
        """Replay a restored thread's conversation into the (empty) transcript."""
        from osprey_desktop.answers import answer_of_message

        transcript = self.chat.transcript
        if transcript.entries:
            return
        messages = list(values.get("messages") or [])
        answers = [answer_of_message(m) for m in messages]
        for i, message in enumerate(messages):
            role, text = message_role_text(message)
            if role in ("human", "user") and text:
                # the request's time is when its turn started, stored with the answer
                following = next((a for a in answers[i + 1 :] if a is not None), None)
                started = following.started_at if following is not None else None
                transcript.add_request(text, started, restored=True)
            elif role in ("ai", "assistant") and text:
                transcript.add_response(text, answers[i], restored=True)

    # ------------------------------------------------------------------ commands
    def _actions_for_key(self, context_type: str, context_key: str) -> list[QAction]:
        step = self.describer.step_for(context_key)
        producer = str(step.get("capability")) if step else None
        return self.command_actions.related_to(context_type, context_key, producer)

    def open_link(self, uri: str) -> None:
        """A link in an answer goes through the launcher, like any command (it decides)."""
        self.launcher.trigger(LaunchableCommand(launch_uri=uri, display_name=uri))

    def _on_refused(self, message: str) -> None:
        self.process_log.refused(message)
        self.chat.transcript.add_error(message)

    def _on_internal(self, route: str, segments: list, params: dict) -> None:
        if route == "stripchart":
            channels = params.get("channels") or (
                [params["channel"]] if "channel" in params else []
            )
            if not channels:
                self.chat.transcript.add_error(
                    "The strip chart link names no channels; it needs ?channels=A,B."
                )
                return
            self.open_stripchart(list(channels))
        elif route == "context" and not self.context_browser.select_path(segments):
            where = ".".join(segments) or "(nothing)"
            self.chat.transcript.add_error(f"Context entry {where} is not in this thread.")
        elif route == "context":
            self.context_browser.raise_()

    def _show_due_figures(self) -> None:
        values, self._figures_due = self._figures_due, None
        if values is not None and not self._quitting:
            self._show_new_figures(values)

    def _show_new_figures(self, values: Mapping[str, Any]) -> None:
        """Open tabs for figures not shown yet; raise the dock only when something is new."""
        from osprey_desktop.ui.plot_artifacts import figure_identity

        shown = self.plot_dock.shown_identities() if self.plot_dock is not None else set()
        figures = values.get("ui_captured_figures") or []
        if all(figure_identity(f) in shown for f in figures if isinstance(f, Mapping)):
            return
        self.ensure_plot_dock().show_state(values)

    def ensure_plot_dock(self) -> Any:
        if self.plot_dock is None:
            from osprey_desktop.ui.plot_dock import PlotDock

            self.plot_dock = PlotDock(
                self._connector_factory or self._default_connector_factory,
                archiver_factory=self._archiver_factory,
            )
            self.plot_dock.tab_opened.connect(self.focus_return.watch)
            self.plot_dock.stripchart_requested.connect(self.open_stripchart)
            self.plot_dock.message.connect(self.chat.transcript.add_note)
            self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.plot_dock)
            self.tabifyDockWidget(self.process_log, self.plot_dock)
            self.resizeDocks([self.plot_dock], [int(self.height() * 0.4)], Qt.Orientation.Vertical)
            self.menus.add_view_toggle(self.plot_dock)
        self.plot_dock.show()
        self.plot_dock.raise_()
        return self.plot_dock

    def open_stripchart(self, channels: list[str]) -> Any:
        """A strip chart of ``channels``; the same channels again raise the one already open.

        It opens tabbed with the plots and the log at 40% of the window's height, and never
        makes the window wider than the screen (its legend stacks the channels)."""
        from osprey_desktop.ui.stripchart import StripChartDock, stripchart_key

        key = stripchart_key(channels)
        for existing in self.stripcharts:
            if existing.key == key:
                existing.show()
                existing.raise_()
                return existing
        factory = self._connector_factory or self._default_connector_factory
        width = self.width()
        dock = StripChartDock(channels, factory, archiver_factory=self._archiver_factory)
        dock.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.tabifyDockWidget(self.plot_dock or self.process_log, dock)
        dock.show()
        dock.raise_()
        self.resizeDocks([dock], [max(220, int(self.height() * 0.4))], Qt.Orientation.Vertical)
        if self.width() > width:  # a dock must never push the window past the screen
            self.resize(width, self.height())
        self.focus_return.watch(dock)
        dock.start()
        self.stripcharts.append(dock)
        dock.destroyed.connect(
            lambda: self.stripcharts.remove(dock) if dock in self.stripcharts else None
        )
        return dock

    async def _default_archiver_factory(self) -> Any:
        from osprey_desktop.connectors.factory import get_archiver_connector

        return await get_archiver_connector(self.config)

    async def _default_connector_factory(self) -> Any:
        from osprey_desktop.connectors.factory import get_control_system_connector

        return await get_control_system_connector(self.config)

    # ------------------------------------------------------------------- closing
    def closeEvent(self, event: QCloseEvent) -> None:
        if self._quitting:
            save_layout(self)
            event.accept()
            return
        event.ignore()
        if self._close_task is None or self._close_task.done():
            self._close_task = asyncio.ensure_future(self._confirm_and_close())

    async def _confirm_and_close(self) -> None:
        if not self.controller.running and (
            self.controller.pending_approval is not None or self.controller.queue
        ):
            if not await self._confirm_leaving_work():
                return
            await self._shutdown_and_close()
            return
        if self.controller.running:
            box = QMessageBox(self)
            box.setIcon(QMessageBox.Icon.Question)
            box.setWindowTitle("Quit while a turn runs?")
            box.setText(
                f"A turn is running on thread {self.controller.thread_id}.\n"
                "Stop it and quit? What it finished so far is kept; the thread can continue "
                "next time."
            )
            keep = box.addButton("Keep running", QMessageBox.ButtonRole.RejectRole)
            stop = box.addButton("Stop and quit", QMessageBox.ButtonRole.AcceptRole)
            box.setDefaultButton(keep)
            box.setEscapeButton(keep)
            self.close_prompt = box
            await await_dialog(box)
            self.close_prompt = None
            if box.clickedButton() is not stop:
                return
        await self._shutdown_and_close()

    async def _confirm_leaving_work(self) -> bool:
        """Closing with an approval waiting (or requests queued): say what stays, ask."""
        c = self.controller
        parts = []
        if c.pending_approval is not None:
            message = str(c.pending_approval.get("user_message") or "").strip().splitlines()
            what = message[0].replace("*", "") if message else "an approval"
            parts.append(
                f"Thread {c.thread_id} waits for your approval ({what}). It stays waiting: "
                "it comes back when Osprey starts again, or answer it with "
                f"'osprey-desktop approve --thread {c.thread_id} yes|no'."
            )
        if c.queue:
            count = len(c.queue)
            parts.append(
                f"{count} queued request{'s' if count != 1 else ''} will not run "
                f"({'; '.join(r.text[:60] for r in c.queue[:3])}{'…' if count > 3 else ''})."
            )
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Quit with work waiting?")
        box.setText("\n\n".join(parts) + "\n\nQuit anyway?")
        keep = box.addButton("Keep open", QMessageBox.ButtonRole.RejectRole)
        leave = box.addButton("Quit", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        self.close_prompt = box
        await await_dialog(box)
        self.close_prompt = None
        return box.clickedButton() is leave

    async def quit_now(self) -> None:
        """Quit without asking (Ctrl+C or SIGTERM from the terminal): stop the turn, then close."""
        if self._quitting:
            return
        await self._shutdown_and_close()

    async def _shutdown_and_close(self) -> None:
        await self.shutdown()
        self._quitting = True
        self.close()
        self.closed.emit()

    async def shutdown(self) -> None:
        """Stop everything this window started: dialogs, the turn, strip charts, programs."""
        await self.approvals.shutdown()
        await self.controller.shutdown()
        await self.menus.shutdown()
        for dock in list(self.stripcharts):
            await dock.stop()
        if self.plot_dock is not None:
            await self.plot_dock.stop()
        if self._plot_import is not None:  # an import cannot be cancelled: let it finish
            with contextlib.suppress(Exception):
                await self._plot_import
        self.launcher.stop_all()
