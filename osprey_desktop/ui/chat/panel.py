"""The chat panel: transcript above, input with Send and Stop below.

Stop is enabled only while a turn runs; the panel itself never talks to the agent, it emits
``send_requested`` and ``stop_requested`` for the controller.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from osprey_desktop.ui.chat.input import ChatInput
from osprey_desktop.ui.chat.queue_view import QueueView
from osprey_desktop.ui.chat.transcript import Transcript


class ChatPanel(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.transcript = Transcript()
        self.input = ChatInput()
        self.send_button = QPushButton("Send")
        self.send_button.setToolTip("Send the request (Enter)")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setObjectName("stop_button")
        self.stop_button.setToolTip("Stop the running turn (Esc); the thread can continue")
        self.stop_button.setEnabled(False)

        self.input_notice = QLabel()  # why a paste was not taken; gone at the next request
        self.input_notice.setObjectName("input_notice")
        self.input_notice.setWordWrap(True)
        self.input_notice.setStyleSheet("color: #b71c1c; font-weight: 600;")
        self.input_notice.hide()
        self.queue_view = QueueView()
        self.input.refused.connect(self.show_input_notice)
        self.input.submitted.connect(lambda _text: self.input_notice.hide())
        self.input.submitted.connect(self.send_requested)
        self.send_button.clicked.connect(self.input.submit)
        self.stop_button.clicked.connect(self.stop_requested)

        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.transcript, 1)
        layout.addWidget(self.queue_view)
        layout.addWidget(self.input_notice)
        layout.addLayout(row)

    def show_input_notice(self, text: str) -> None:
        self.input_notice.setText(text)
        self.input_notice.show()

    def give_back(self, text: str) -> None:
        """Put a request that was not sent back into the input, before what is there now."""
        current = self.input.toPlainText().strip()
        self.input.setPlainText(f"{text} {current}".strip() if current else text)
        self.input.moveCursor(self.input.textCursor().MoveOperation.End)
        self.input.setFocus()

    def set_running(self, running: bool) -> None:
        """Stop only while a turn runs; Send stays on so 'yes' / 'no' can answer an approval."""
        self.stop_button.setEnabled(running)
