"""The status bar: thread, turn activity, and a pending approval the operator cannot miss.

A pending approval lives in the checkpoint; after a restart the controller reads it back and
the indicator returns with it. Its button reopens the dialog.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QStatusBar, QWidget

from osprey_desktop.config.posture import Posture

# A live machine that may be written to is marked; the simulated ring and a disarmed or
# read-only console stay plain.
LIVE_ARMED_STYLE = "QLabel { background: #ffe082; color: #000; font-weight: bold; padding: 0 6px; }"
APPROVAL_STYLE = (
    "QPushButton { background: #ffb300; color: #000; font-weight: bold; padding: 2px 8px; "
    "border: 1px solid #a06f00; border-radius: 3px; }"
)


class AppStatusBar(QStatusBar):
    review_requested = Signal()
    switch_requested = Signal(str)  # a thread id: go to the thread whose approval waits

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("status_bar")
        self.thread_label = QLabel()
        self.activity_label = QLabel("Idle")
        self.approval_button = QPushButton()
        self.approval_button.setObjectName("approval_indicator")
        self.approval_button.setStyleSheet(APPROVAL_STYLE)
        self.approval_button.clicked.connect(self.review_requested)
        self.approval_button.hide()
        self.other_approvals_button = QPushButton()
        self.other_approvals_button.setObjectName("other_approvals_indicator")
        self.other_approvals_button.setStyleSheet(APPROVAL_STYLE)
        self.other_approvals_button.hide()
        self.other_approvals_button.clicked.connect(self._switch_to_waiting)
        self._waiting_threads: list[str] = []
        self.addPermanentWidget(self.other_approvals_button)
        self.posture_label = QLabel()
        self.posture_label.setObjectName("posture")
        self.addPermanentWidget(self.posture_label)
        self.addPermanentWidget(self.approval_button)
        self.addPermanentWidget(self.activity_label)
        self.addPermanentWidget(self.thread_label)
        self._started: float | None = None
        self._step = ""
        self._awaiting = False
        self._clock = QTimer(self)
        self._clock.setInterval(500)
        self._clock.timeout.connect(self._refresh_activity)

    def set_thread(self, thread_id: str) -> None:
        if not thread_id:
            self.thread_label.setText("Opening the thread database…")
            return
        self.thread_label.setText(f"Thread {thread_id}")
        self.thread_label.setToolTip(
            f"Conversation thread {thread_id}; answer from the command line with "
            f"'osprey-desktop approve {thread_id}'"
        )

    def set_posture(self, posture: Posture) -> None:
        """What the window is connected to and whether it may write (config.posture)."""
        self.posture_label.setText(posture.summary)
        self.posture_label.setToolTip(f"{posture.control_system}; {posture.reason}")
        live_armed = posture.live and posture.writes == "armed"
        self.posture_label.setStyleSheet(LIVE_ARMED_STYLE if live_armed else "")

    def set_running(self, running: bool) -> None:
        if running:
            self._started = time.monotonic()
            self._step = ""
            self._clock.start()
        else:
            self._started = None
            self._clock.stop()
        self._refresh_activity()

    def set_step(self, text: str) -> None:
        self._step = text
        self._refresh_activity()

    def _refresh_activity(self) -> None:
        if self._started is None:
            # Not "Idle" next to a pending approval: the agent is waiting on the operator.
            self.activity_label.setText("Waiting for your approval" if self._awaiting else "Idle")
            return
        elapsed = time.monotonic() - self._started
        step = f" — {self._step}" if self._step else ""
        self.activity_label.setText(f"Running {elapsed:.0f} s{step}  (Esc stops)")

    def show_approval(self, payload: Mapping[str, Any]) -> None:
        resume = payload.get("resume_payload") or {}
        kind = str(resume.get("approval_type") or "approval").replace("_", " ")
        self.approval_button.setText(f"⚠ Approval pending: {kind} — Review…")
        self.approval_button.setToolTip(
            "The agent waits for your decision. Review it here, or type yes / no in the chat."
        )
        self.approval_button.show()
        self._awaiting = True
        self._refresh_activity()

    def clear_approval(self) -> None:
        self.approval_button.hide()
        self._awaiting = False
        self._refresh_activity()

    def show_other_approvals(self, threads: list[Any]) -> None:
        """Threads other than the current one that wait for an approval (ThreadInfo list)."""
        self._waiting_threads = [t.thread_id for t in threads]
        if not threads:
            self.other_approvals_button.hide()
            return
        first = threads[0]
        more = f" (+{len(threads) - 1} more)" if len(threads) > 1 else ""
        self.other_approvals_button.setText(
            f"⚠ Approval waiting on thread {first.thread_id}{more} — Go there"
        )
        lines = [
            f"{t.thread_id}: {t.title}" + (f" — {t.pending_message}" if t.pending_message else "")
            for t in threads
        ]
        self.other_approvals_button.setToolTip(
            "Another conversation waits for your decision:\n" + "\n".join(lines)
        )
        self.other_approvals_button.show()

    def _switch_to_waiting(self) -> None:
        if self._waiting_threads:
            self.switch_requested.emit(self._waiting_threads[0])

    @property
    def approval_text(self) -> str:
        return self.approval_button.text() if self.approval_button.isVisible() else ""
