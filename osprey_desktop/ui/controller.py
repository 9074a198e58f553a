"""The one object between the widgets and the agent: session, current thread, running turn.

Widgets never call the session; they call ``submit`` / ``decide`` / ``stop`` here and listen
to the signals. Every session call is awaited on the qasync loop (LangGraph's async API only)
inside one task at a time, so the window keeps painting while a turn runs, and a stopped
turn is re-read from the checkpoint so the thread stays consistent and can continue.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from osprey_desktop.ui.collector import IDLE_COLLECT_S, TurnCollector
from osprey_desktop.ui.live_state import LiveState

if TYPE_CHECKING:  # the agent stack (LangGraph) loads after the first paint, not before
    from osprey_desktop.session import AgentSession, TurnResult

logger = logging.getLogger(__name__)
REFRESH_TIMEOUT_S = 10.0

TurnCall = Callable[[Callable[[str, Any], None]], Awaitable["TurnResult"]]
_queue_ids = itertools.count(1)


@dataclass(frozen=True)
class QueuedRequest:
    """A request typed while the agent was busy; it runs when its turn comes."""

    id: int
    text: str


def is_approval_answer(text: str) -> bool:
    """A yes / no (imported on use: the approval package loads the agent stack)."""
    from osprey_desktop.approval.answers import parse_approval_answer

    return parse_approval_answer(text) is not None


def queue_hold_reason(
    opening: bool, running: bool, approval_pending: bool, held_after_stop: bool
) -> str:
    """Why the queue waits, in the operator's words ("" when it runs on)."""
    if opening:
        return "Waiting for the thread database to open"
    if running:
        return "Waiting for the running turn"
    if approval_pending:
        return "Waiting until you answer the approval"
    if held_after_stop:
        return "Held after Stop: press Run to continue"
    return ""


class SessionController(QObject):
    """Owns the running task; reports everything through signals.

    Payload signals are typed ``object``: a ``dict`` signal makes Qt convert the whole state
    to a QVariantMap and back on every emit (40 ms for 10,000 context entries).
    """

    progress_event = Signal(object)  # a custom-stream progress event
    turn_started = Signal(str)  # the request text ("" when resuming an approval)
    turn_finished = Signal(object)  # TurnResult
    turn_cancelled = Signal()
    running_changed = Signal(bool)
    state_changed = Signal(object, object)  # values, changed keys (set) or None for "all"
    approval_requested = Signal(object)  # interrupt payload (with interrupt_id)
    approval_cleared = Signal()
    error = Signal(str)
    note = Signal(str)
    thread_changed = Signal(str)
    exit_requested = Signal()

    ready = Signal()  # a session is attached: requests can be sent
    queue_changed = Signal(object, str)  # [QueuedRequest], why it waits ("" = runs on)
    request_returned = Signal(str)  # text given back to the input, with why (``note``)
    other_approvals = Signal(object)  # [ThreadInfo]: other threads waiting for an approval
    other_writes_in_doubt = Signal(object)  # [ThreadInfo]: other threads with a write in doubt

    def __init__(
        self,
        session: AgentSession | None = None,
        thread_id: str | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session: AgentSession | None = session
        self.thread_id = thread_id or ""  # chosen by ``attach`` when empty
        self.live = LiveState()
        self.pending_approval: dict[str, Any] | None = None
        self.task: asyncio.Task[None] | None = None
        self.queue: list[QueuedRequest] = []
        self.queue_held = False  # after Stop the queue waits for the operator
        self._stopped = False
        self.opening = session is None  # until a session is attached and its thread read
        # the collector's passes between turns, not inside them (``collector``)
        self.collector = TurnCollector()
        self._idle_timer = QTimer(self)
        self._idle_timer.setSingleShot(True)
        self._idle_timer.setInterval(int(IDLE_COLLECT_S * 1000))
        self._idle_timer.timeout.connect(self.collector.idle)

    # ------------------------------------------------------------------ queries
    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def slash_commands(self) -> list[tuple[str, str]]:
        if self.session is None:
            return []
        registry = self.session.gateway.slash_commands
        return [(f"/{c.name}", c.help) for c in registry.commands()]

    async def attach(self, session: AgentSession, thread_id: str | None = None) -> None:
        """Use ``session`` (opened after the window was shown) and restore a thread.

        Without ``thread_id`` the most recently active thread continues, so a pending
        approval comes back after a restart; with no threads at all a new one starts.
        """
        from osprey_desktop.session import new_thread_id

        self.opening = True
        thread_id = thread_id or self.thread_id or None
        try:
            threads = await session.list_threads()
        except Exception as exc:
            threads = []
            if thread_id is None:
                self.error.emit(f"Could not list the saved threads: {exc}. Starting a new one.")
        if thread_id is None:
            thread_id = threads[0].thread_id if threads else new_thread_id()
        self.session = session  # only now: a request typed meanwhile must not change thread
        self._set_thread(thread_id, {})
        self.ready.emit()
        await self.restore()
        self.opening = False
        self._run_next()  # what was typed while the window opened
        # An approval waiting on another thread must not stay invisible behind "Idle"; one
        # whose console was killed after the answer is not waiting (the ledger says so, as
        # for `osprey-desktop threads`), and a write left in doubt is said as such.
        from osprey_desktop.ui.thread_states import thread_states

        others = [t for t in threads if t.pending_approval and t.thread_id != self.thread_id]
        states = await thread_states(session, others)
        self.other_approvals.emit([s.info for s in states if s.waiting])
        self.other_writes_in_doubt.emit([s.info for s in states if s.in_doubt])
        # What starting made (modules, widgets, the compiled graph, the channel list) lives as
        # long as the window: out of the collector's generations, its full passes over a
        # shift's histories stay short instead of stalling the window for 100 ms and more.
        # (no gc.collect() first: a full pass over the start-up heap held the window 0.2-0.5 s)
        gc.freeze()

    # ------------------------------------------------------------------ actions
    def submit(self, text: str) -> asyncio.Task[None] | None:
        """Send what the operator typed (a request, a slash command, or yes/no).

        While the agent is busy (opening, a turn running, an approval waiting, or queued
        requests ahead) the request is queued and runs in order; nothing typed is dropped.
        A yes / no is never queued: it would answer an approval the operator has not seen.
        """
        text = text.strip()
        if not text:
            return None
        if self.opening or self.session is None:  # queue first, ask what it is once open
            self._enqueue(text)
            return None
        is_answer = is_approval_answer(text)
        if self._can_run_now(text, is_answer):
            if self.pending_approval is not None and is_answer:
                self._clear_approval()
            return self._submit_now(text)
        if is_answer:
            self._give_back(text)
        else:
            self._enqueue(text)
        return None

    def _enqueue(self, text: str) -> None:
        self.queue.append(QueuedRequest(next(_queue_ids), text))
        self._publish_queue()

    def _give_back(self, text: str) -> None:
        self.request_returned.emit(text)
        self.note.emit(
            f"“{text}” was not sent: it answers an approval only while one is shown, and none "
            "is shown now. It is back in the input."
        )

    def _can_run_now(self, text: str, is_answer: bool) -> bool:
        if self.opening or self.session is None or self.running:
            return False
        if is_answer:
            return self.pending_approval is not None
        if self.queue or self.queue_held:
            return False
        # /help and the like run beside a waiting approval; a request waits for the answer
        return self.pending_approval is None or text.startswith("/")

    def _submit_now(self, text: str) -> asyncio.Task[None]:
        return self._start(
            text, lambda on_event: self.session.submit(text, self.thread_id, on_event)
        )

    def remove_queued(self, request_id: int) -> QueuedRequest | None:
        """Take a queued request out (it never runs); returns it so its text can be kept."""
        for request in self.queue:
            if request.id == request_id:
                self.queue.remove(request)
                self._publish_queue()
                return request
        return None

    def run_queue(self) -> None:
        """Go on with the queue after Stop held it."""
        self.queue_held = False
        self._publish_queue()
        self._run_next()

    def queue_reason(self) -> str:
        return queue_hold_reason(
            self.opening or self.session is None,
            self.running,
            self.pending_approval is not None,
            self.queue_held,
        )

    def _publish_queue(self) -> None:
        self.queue_changed.emit(list(self.queue), self.queue_reason() if self.queue else "")

    def _run_next(self) -> None:
        """Start the next queued request when nothing is in its way."""
        if not self.queue or self.queue_reason():
            self._publish_queue()
            return
        request = self.queue.pop(0)
        self._publish_queue()
        if is_approval_answer(request.text):  # typed during start-up: never answers unseen
            self._give_back(request.text)
            self._run_next()
            return
        self._submit_now(request.text)

    def decide(self, approved: bool) -> asyncio.Task[None] | None:
        """Answer the pending approval with a structured decision."""
        pending = self.pending_approval
        if pending is None:
            self.error.emit("No approval is pending on this thread; nothing was sent.")
            return None
        if self.running:
            self.error.emit("A turn is still running; answer the approval when it stops.")
            return None
        from osprey_desktop.approval import ApprovalDecision

        decision = ApprovalDecision(
            approved=approved, payload=None, interrupt_id=pending.get("interrupt_id")
        )
        self._clear_approval()
        return self._start(
            "", lambda on_event: self.session.resume(self.thread_id, decision, on_event)
        )

    def stop(self) -> asyncio.Task[None] | None:
        """Cancel the running turn; the task then re-reads the thread and reports."""
        if not self.running:
            return None
        assert self.task is not None
        self._stopped = True
        self.task.cancel()
        return self.task

    async def stop_and_wait(self) -> None:
        task = self.stop()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    def new_thread(self) -> None:
        if self.running:
            self.error.emit("Stop the running turn before starting a new thread.")
            return
        from osprey_desktop.session import new_thread_id

        self._set_thread(new_thread_id(), {})

    async def switch_thread(self, thread_id: str) -> None:
        if self.running:
            self.error.emit("Stop the running turn before switching threads.")
            return
        self._set_thread(thread_id, {})
        await self.restore()

    async def restore(self) -> None:
        """Read the thread back from the checkpoint: state, and a pending approval if any."""
        if self.session is None:
            return
        try:
            values = await self.session.get_state_values(self.thread_id)
            pending = await self.session.pending_approval(self.thread_id)
        except Exception as exc:
            self.error.emit(f"Could not read thread {self.thread_id}: {exc}")
            return
        self._publish_read_back(values, pending)

    async def shutdown(self) -> None:
        """Stop any turn and wait for it (the app then closes the checkpointer)."""
        await self.stop_and_wait()

    # ---------------------------------------------------------------- internals
    def _set_thread(self, thread_id: str, values: Mapping[str, Any]) -> None:
        self.thread_id = thread_id
        self.live.replace(values)
        self._clear_approval()
        self.thread_changed.emit(thread_id)
        self.state_changed.emit(self.live.values, None)

    def _clear_approval(self) -> None:
        if self.pending_approval is not None:
            self.pending_approval = None
            self.approval_cleared.emit()

    def _request_approval(self, payload: dict[str, Any]) -> None:
        same = self.pending_approval is not None and self.pending_approval.get(
            "interrupt_id"
        ) == payload.get("interrupt_id")
        self.pending_approval = payload
        if not same:
            self.approval_requested.emit(payload)

    def _on_event(self, mode: str, payload: Any) -> None:
        if mode == "custom" and isinstance(payload, Mapping):
            self.progress_event.emit(dict(payload))
        elif mode == "updates":
            self.collector.step_reported()
            changed = self.live.apply_updates(payload)
            if changed:
                self.state_changed.emit(self.live.values, changed)

    def _start(self, text: str, call: TurnCall) -> asyncio.Task[None]:
        self.task = asyncio.ensure_future(self._run(text, call))
        self.task.add_done_callback(self._after_turn)
        return self.task

    def _after_turn(self, task: asyncio.Task[None]) -> None:
        """Once a turn is over (not inside it: it still counts as running there), the next
        queued request starts; after Stop the queue waits for the operator."""
        if task is not self.task:
            return
        self.collector.turn_ended()
        self._idle_timer.start()
        if self._stopped and self.queue:
            self.queue_held = True
        self._stopped = False
        self._run_next()

    async def _run(self, text: str, call: TurnCall) -> None:
        self.running_changed.emit(True)
        self.turn_started.emit(text)
        try:
            result = await call(self._on_event)
        except asyncio.CancelledError:
            await self._after_stop()
            return
        except Exception as exc:  # database errors and the like: say so, keep the window
            logger.exception("turn on thread %s failed", self.thread_id)
            self.running_changed.emit(False)
            self.error.emit(f"The turn on thread {self.thread_id} failed: {exc}")
            return
        self.collector.step_reported()  # the result read back, before plots are built
        self.running_changed.emit(False)
        self._report(result)

    async def _after_stop(self) -> None:
        """After a cancel: re-read the checkpoint so the window shows what the thread holds."""
        self.running_changed.emit(False)
        self.turn_cancelled.emit()
        try:
            # a write stopped mid-way finishes its record; bring the thread up to date with it
            settled = await asyncio.wait_for(self.session.settle(self.thread_id), REFRESH_TIMEOUT_S)
        except (asyncio.CancelledError, Exception) as exc:  # shutting down, or unreadable
            logger.info("no settle after stop on %s: %r", self.thread_id, exc)
            settled = None
        if settled is not None:
            self._report(settled)
            return
        try:
            values = await asyncio.wait_for(
                self.session.get_state_values(self.thread_id), REFRESH_TIMEOUT_S
            )
            pending = await asyncio.wait_for(
                self.session.pending_approval(self.thread_id), REFRESH_TIMEOUT_S
            )
        except (asyncio.CancelledError, Exception) as exc:  # shutting down, or unreadable
            logger.info("no refresh after stop on %s: %r", self.thread_id, exc)
            return
        self._publish_read_back(values, pending)

    def _publish_read_back(self, values: Mapping[str, Any], pending: dict[str, Any] | None) -> None:
        """Report a state read from the checkpoint, and the approval it waits for.

        ``pending_approval`` is set before ``state_changed`` so a listener rebuilding the view
        from the state already knows whether a step waits; ``approval_requested`` follows.
        """
        self.live.replace(values)
        new = pending is not None and (
            self.pending_approval is None
            or self.pending_approval.get("interrupt_id") != pending.get("interrupt_id")
        )
        if pending is not None:
            self.pending_approval = pending
        self.state_changed.emit(self.live.values, None)
        if new:
            self.approval_requested.emit(pending)

    def _report(self, result: TurnResult) -> None:
        if result.message:
            self.note.emit(result.message)
        if result.state:
            self.live.replace(result.state)
            self.state_changed.emit(self.live.values, None)
        if result.error:
            self.error.emit(result.error)
        if result.pending_approval is not None:
            self._request_approval(result.pending_approval)
        elif not result.error:
            self._clear_approval()
        self.turn_finished.emit(result)
        if result.exit_requested:
            self.exit_requested.emit()
