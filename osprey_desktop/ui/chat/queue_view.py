"""Requests typed while the agent was busy, shown under the transcript until they run.

Each queued request has a ✕ that takes it out of the queue and puts its text back into the
input (nothing typed is thrown away); the line above says why the queue waits, and after
Stop a **Run** button lets the operator go on with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.controller import QueuedRequest

SHOWN_CHARS = 140


def _shown(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= SHOWN_CHARS else line[: SHOWN_CHARS - 1] + "…"


class QueueView(QFrame):
    remove_requested = Signal(int)  # QueuedRequest.id
    run_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("request_queue")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#request_queue { background: #fff8e1; border: 1px solid #ffcc80; }")
        self.reason = QLabel()
        self.reason.setObjectName("queue_reason")
        self.reason.setStyleSheet("color: #5d4037; font-weight: 600;")
        self.run_button = QPushButton("Run")
        self.run_button.setObjectName("queue_run")
        self.run_button.setToolTip("Go on with the queued requests, in order")
        self.run_button.clicked.connect(self.run_requested)
        self.run_button.hide()
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.reason, 1)
        head.addWidget(self.run_button)
        self.rows = QVBoxLayout()
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.rows.setSpacing(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addLayout(self.rows)
        self.requests: list[QueuedRequest] = []
        self.hide()

    def show_queue(self, requests: Sequence[QueuedRequest], reason: str) -> None:
        self.requests = list(requests)
        while self.rows.count():
            item = self.rows.takeAt(0)
            row = item.widget()
            if row is not None:
                row.setParent(None)  # out of the view at once, not only at the next loop turn
                row.deleteLater()
        for position, request in enumerate(self.requests, start=1):
            self.rows.addWidget(self._row(position, request))
        count = len(self.requests)
        plural = "s" if count != 1 else ""
        why = f" — {reason[0].lower()}{reason[1:]}" if reason else ""
        self.reason.setText(f"◷ {count} request{plural} queued, run in order{why}")
        self.run_button.setVisible(reason.startswith("Held"))
        self.setVisible(bool(self.requests))

    def _row(self, position: int, request: QueuedRequest) -> QWidget:
        row = QWidget()
        row.setObjectName("queued_request")
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        text = QLabel(f"{position}. {_shown(request.text)}")
        text.setToolTip(request.text)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        remove = QToolButton()
        remove.setObjectName("queued_remove")
        remove.setText("✕")
        remove.setToolTip("Take this request out of the queue; its text goes back to the input")
        remove.clicked.connect(lambda: self.remove_requested.emit(request.id))
        layout.addWidget(text, 1)
        layout.addWidget(remove)
        return row

    def texts(self) -> list[str]:
        return [r.text for r in self.requests]
