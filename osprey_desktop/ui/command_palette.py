"""Ctrl+K: one fuzzy search over launchable commands, slash commands and window actions.

Entries are plain (title, kind, run) records collected when the palette opens, so it always
offers what the window offers right now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget


@dataclass(frozen=True)
class PaletteEntry:
    title: str
    kind: str  # "command", "slash", "action"
    run: Callable[[], object]
    detail: str = ""


def fuzzy_score(query: str, text: str) -> int | None:
    """Score a subsequence match (higher is better); None when ``query`` does not match.

    Consecutive letters and word starts score more, so 'oarch' ranks 'Open archive viewer'
    above 'Show context browser'.
    """
    query, text_l = query.lower().strip(), text.lower()
    if not query:
        return 0
    score, pos, run = 0, 0, 0
    for ch in query:
        if ch == " ":
            continue
        found = text_l.find(ch, pos)
        if found < 0:
            return None
        run = run + 1 if found == pos else 0
        at_word_start = found == 0 or not text_l[found - 1].isalnum()
        score += 1 + 3 * run + (5 if at_word_start else 0)
        pos = found + 1
    if text_l.startswith(query):
        score += 20
    return score - len(text_l) // 20


def rank(query: str, entries: Iterable[PaletteEntry]) -> list[PaletteEntry]:
    scored = []
    for i, entry in enumerate(entries):
        score = fuzzy_score(query, f"{entry.title} {entry.detail}")
        if score is not None:
            scored.append((-score, i, entry))
    return [e for _, _, e in sorted(scored, key=lambda t: (t[0], t[1]))]


KIND_LABEL = {"command": "Command", "slash": "Slash", "action": "Window"}


class CommandPalette(QDialog):
    """A frameless search popup; Enter runs the highlighted entry, Esc closes."""

    def __init__(self, entries: list[PaletteEntry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("command_palette")
        self.setWindowTitle("Command palette")
        self.setMinimumWidth(520)
        self.entries = entries
        self.query = QLineEdit(placeholderText="Type to search commands, /slash and actions…")
        self.results = QListWidget()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.query)
        layout.addWidget(self.results)
        self.query.textChanged.connect(self._filter)
        self.query.installEventFilter(self)
        self.results.itemActivated.connect(self._run_item)
        self._filter("")

    def _filter(self, text: str) -> None:
        self.results.clear()
        for entry in rank(text, self.entries):
            label = f"{entry.title}    ·  {KIND_LABEL.get(entry.kind, entry.kind)}"
            item = QListWidgetItem(label)
            item.setToolTip(entry.detail or entry.title)
            item.setData(Qt.ItemDataRole.UserRole, entry)
            self.results.addItem(item)
        if self.results.count():
            self.results.setCurrentRow(0)

    def visible_titles(self) -> list[str]:
        return [
            self.results.item(i).data(Qt.ItemDataRole.UserRole).title
            for i in range(self.results.count())
        ]

    def _run_item(self, item: QListWidgetItem) -> None:
        entry: PaletteEntry = item.data(Qt.ItemDataRole.UserRole)
        self.accept()
        entry.run()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if (
            watched is self.query
            and isinstance(event, QKeyEvent)
            and event.type() == event.Type.KeyPress
        ):
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                step = 1 if key == Qt.Key.Key_Down else -1
                row = max(0, min(self.results.count() - 1, self.results.currentRow() + step))
                self.results.setCurrentRow(row)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                item = self.results.currentItem()
                if item is not None:
                    self._run_item(item)
                return True
        return super().eventFilter(watched, event)
