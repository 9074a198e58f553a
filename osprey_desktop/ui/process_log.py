"""The log pane for desktop programs started from command templates, and refusals."""

from __future__ import annotations

import time

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QDockWidget, QPlainTextEdit, QWidget

MAX_BLOCKS = 5000


class ProcessLogDock(QDockWidget):
    """Append-only log: what ran (program and arguments), its output and its exit code."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Command log", parent)
        self.setObjectName("process_log")
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setMaximumBlockCount(MAX_BLOCKS)
        self.view.setPlaceholderText("Output of programs started from launchable commands.")
        self.setWidget(self.view)

    def append(self, text: str) -> None:
        cursor = self.view.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text if text.endswith("\n") else text + "\n")
        self.view.ensureCursorVisible()

    def started(self, name: str, command_line: str) -> None:
        self.append(f"[{time.strftime('%H:%M:%S')}] {name}: started {command_line}")

    def output(self, name: str, text: str) -> None:
        self.append("".join(f"{name}> {line}\n" for line in text.splitlines()))

    def finished(self, name: str, code: int) -> None:
        self.append(f"[{time.strftime('%H:%M:%S')}] {name}: exited with code {code}")

    def refused(self, message: str) -> None:
        self.append(f"[{time.strftime('%H:%M:%S')}] {message}")

    def text(self) -> str:
        return self.view.toPlainText()
