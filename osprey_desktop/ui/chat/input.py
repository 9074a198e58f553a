"""The chat input: Enter sends, Shift+Enter breaks the line, Up/Down walk the history,
and a leading '/' completes slash commands from the command registry (Enter on a completion
sends it, Tab only inserts it).

A request is at most ``MAX_REQUEST_CHARS`` characters: a bigger paste is refused with a
message (``refused``) instead of being inserted. A 50 KB paste used to freeze the window for
seconds in the agent's text handling; a request that long is a file, not a sentence.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QMimeData, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QCompleter, QPlainTextEdit, QWidget

from osprey_desktop.language.request_length import MAX_REQUEST_CHARS
from osprey_desktop.language.request_length import too_long_message as _too_long

MAX_HISTORY = 200


def too_long_message(length: int) -> str:
    return f"Not inserted: {_too_long(length)}"


class ChatInput(QPlainTextEdit):
    """Multi-line input that emits ``submitted`` with the stripped text."""

    submitted = Signal(str)
    refused = Signal(str)  # why typed or pasted text was not taken

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chat_input")
        self.setPlaceholderText("Ask Osprey…  (Enter to send, Shift+Enter for a new line)")
        self.setTabChangesFocus(True)
        self.history: list[str] = []
        self._history_pos = 0  # == len(history) means "the draft being typed"
        self._draft = ""
        self._descriptions: dict[str, str] = {}
        self._completion_model = QStringListModel(self)
        self.completer = QCompleter(self._completion_model, self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.activated.connect(self._insert_completion)
        # Keys go to the popup while it shows; QCompleter would only insert on Enter.
        self.completer.popup().installEventFilter(self)
        self.fit_height()

    def fit_height(self) -> None:
        """About three lines tall: the transcript, not the input, should get the space."""
        line = self.fontMetrics().lineSpacing()
        self.setMinimumHeight(int(line * 2.6))
        self.setMaximumHeight(int(line * 4.6))

    # -------------------------------------------------------------- completion
    def set_slash_commands(self, commands: Iterable[tuple[str, str]]) -> None:
        """Names (with their leading '/') and one-line descriptions to complete."""
        self._descriptions = {name: desc for name, desc in commands}
        self._completion_model.setStringList(sorted(self._descriptions))
        for row, name in enumerate(self._completion_model.stringList()):
            index = self._completion_model.index(row)
            self._completion_model.setData(
                index, self._descriptions[name], Qt.ItemDataRole.ToolTipRole
            )

    def _slash_prefix(self) -> str | None:
        text = self.toPlainText()
        if text.startswith("/") and " " not in text and "\n" not in text:
            return text
        return None

    def _update_completion(self) -> None:
        prefix = self._slash_prefix()
        if prefix is None or not self._descriptions:
            self.completer.popup().hide()
            return
        self.completer.setCompletionPrefix(prefix)
        if self.completer.completionCount() == 0:
            self.completer.popup().hide()
            return
        rect = self.cursorRect()
        rect.setWidth(
            self.completer.popup().sizeHintForColumn(0)
            + self.completer.popup().verticalScrollBar().sizeHint().width()
            + 16
        )
        self.completer.complete(rect)
        # Enter / Tab take the first match even before the operator highlights one.
        self.completer.popup().setCurrentIndex(self.completer.completionModel().index(0, 0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if (
            watched is self.completer.popup()
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
        ):
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._send_completion()
                return True
            if event.key() == Qt.Key.Key_Tab:  # insert it and stay here, never move to Send
                self._take_completion()
                return True
        return super().eventFilter(watched, event)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 - Qt override
        """Tab with the completion list open inserts the command (Qt moves the focus on Tab
        before the key reaches ``keyPressEvent``); otherwise Tab leaves the input."""
        if next and self.completer.popup().isVisible():
            self._take_completion()
            return True
        return super().focusNextPrevChild(next)

    def _take_completion(self) -> None:
        """Tab on the completion list: the highlighted command is inserted, the focus stays."""
        popup = self.completer.popup()
        index = popup.currentIndex()
        name = str(index.data()) if index.isValid() else self.completer.currentCompletion()
        popup.hide()
        if name:
            self._insert_completion(name)
        self.setFocus()

    def _send_completion(self) -> None:
        """Enter on the completion list: the highlighted command is sent at once."""
        popup = self.completer.popup()
        index = popup.currentIndex()
        name = str(index.data()) if index.isValid() else self.completer.currentCompletion()
        popup.hide()
        if name:
            self.setPlainText(name)
        self.submit()

    def _insert_completion(self, name: str) -> None:
        self.setPlainText(name + " ")
        self.moveCursor(QTextCursor.MoveOperation.End)

    # ----------------------------------------------------------------- history
    def _recall(self, step: int) -> None:
        if not self.history:
            return
        if self._history_pos == len(self.history):
            self._draft = self.toPlainText()
        pos = min(max(self._history_pos + step, 0), len(self.history))
        if pos == self._history_pos:
            return
        self._history_pos = pos
        self.setPlainText(self._draft if pos == len(self.history) else self.history[pos])
        self.moveCursor(QTextCursor.MoveOperation.End)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt override
        """Paste and drop: refuse text that would make the request too long, say why."""
        if source.hasText():
            selected = len(self.textCursor().selectedText())
            length = len(self.toPlainText()) - selected + len(source.text())
            if length > MAX_REQUEST_CHARS:
                self.refused.emit(too_long_message(length))
                return
        super().insertFromMimeData(source)

    def submit(self) -> None:
        text = self.toPlainText().strip()
        if not text:
            return
        if len(text) > MAX_REQUEST_CHARS:
            self.refused.emit(too_long_message(len(text)).replace("Not inserted", "Not sent"))
            return
        if not self.history or self.history[-1] != text:
            self.history.append(text)
            del self.history[:-MAX_HISTORY]
        self._history_pos = len(self.history)
        self._draft = ""
        self.clear()
        self.submitted.emit(text)

    # ------------------------------------------------------------------- keys
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        popup = self.completer.popup()
        if popup.isVisible() and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._send_completion()  # one Enter sends; Tab only inserts (to add a value)
            return
        if popup.isVisible() and key in (
            Qt.Key.Key_Escape,
            Qt.Key.Key_Up,
            Qt.Key.Key_Down,
        ):
            event.ignore()  # the completer's popup handles these
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.textCursor().insertText("\n")
            else:
                self.submit()
            return
        cursor = self.textCursor()
        if key == Qt.Key.Key_Up and cursor.blockNumber() == 0:
            self._recall(-1)
            return
        if key == Qt.Key.Key_Down and cursor.blockNumber() == self.document().blockCount() - 1:
            self._recall(+1)
            return
        super().keyPressEvent(event)
        self._update_completion()
