"""The chat transcript: requests, live status lines, Markdown responses and errors.

Appends at the end only (never re-renders the whole document), and follows the bottom only
when the operator has not scrolled up to read something.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QWidget

USER_STYLE = "color:#0d47a1; font-weight:600;"
STATUS_STYLE = "color:#616161; font-size:small;"
ERROR_STYLE = "color:#b71c1c; background:#ffebee; font-weight:600;"
NOTE_STYLE = "color:#4e342e; font-style:italic;"


def status_line_for(event: Mapping[str, Any]) -> str | None:
    """The one-line status a progress event deserves in the transcript, if any."""
    kind = event.get("type")
    if kind == "task_extracted":
        return f"Task: {event.get('task', '')}"
    if kind == "capabilities_selected":
        return "Capabilities: " + (", ".join(map(str, event.get("capabilities") or [])) or "none")
    if kind == "plan_created":
        steps = (event.get("plan") or {}).get("steps") or []
        chain = " → ".join(str(s.get("capability", "?")) for s in steps if isinstance(s, dict))
        return f"Plan created: {len(steps)} step{'s' if len(steps) != 1 else ''} ({chain})"
    if kind == "capability_start":
        index = event.get("step_index")
        total = event.get("total_steps")
        where = f"Step {index + 1} of {total}" if isinstance(index, int) and total else "Step"
        objective = event.get("task_objective") or ""
        return f"{where}: {event.get('capability', '?')}" + (f" — {objective}" if objective else "")
    if kind == "capability_complete" and not event.get("success", True):
        return f"Step failed: {event.get('capability', '?')}: {event.get('error') or 'no reason'}"
    if kind == "clarification":
        return f"Step needs your input: {event.get('capability', '?')} asks a question"
    if kind == "approval_required":
        return f"Waiting for your approval ({event.get('approval_type', 'approval')})"
    if kind == "approval_received":
        return "Approved" if event.get("approved") else "Rejected"
    return None


def message_role_text(message: Any) -> tuple[str, str]:
    """(role, text) of a LangChain message or a plain dict message, for replaying history."""
    if isinstance(message, Mapping):
        role = str(message.get("type") or message.get("role") or "")
        content = message.get("content")
    else:
        role, content = str(getattr(message, "type", "")), getattr(message, "content", "")
    if isinstance(content, list):
        content = "".join(p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content)
    return role, str(content or "")


class Transcript(QTextBrowser):
    """Read-only conversation view. Every append adds one block at the end."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setOpenExternalLinks(True)
        self.setPlaceholderText(
            "Ask about the machine, e.g. 'What is the beam current?' — "
            "type / for commands, Ctrl+K for everything else."
        )
        self.entries: list[tuple[str, str]] = []  # (kind, plain text): what the operator saw

    def _at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 4

    def _end_cursor(self, top_margin: float = 0.0) -> QTextCursor:
        """A cursor on a fresh, plain block at the end: no list or style of the last entry
        (a Markdown list would otherwise swallow every later line)."""
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if not self.document().isEmpty():
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        current = cursor.currentList()
        if current is not None:
            current.remove(cursor.block())
        block = QTextBlockFormat()
        block.setTopMargin(top_margin)
        cursor.setBlockFormat(block)
        return cursor

    def _append(self, write: Callable[[QTextCursor], None], top_margin: float = 0.0) -> None:
        follow = self._at_bottom()
        write(self._end_cursor(top_margin))
        if follow:
            self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())

    def _append_html(self, fragment: str, top_margin: float = 0.0) -> None:
        self._append(lambda cursor: cursor.insertHtml(fragment), top_margin)

    def add_request(self, text: str) -> None:
        stamp = time.strftime("%H:%M:%S")
        body = html.escape(text).replace("\n", "<br>")
        self._append_html(f'<span style="{USER_STYLE}">You · {stamp}</span><br>{body}', 12)
        self.entries.append(("request", text))

    def add_status(self, text: str) -> None:
        self._append_html(f'<span style="{STATUS_STYLE}">• {html.escape(text)}</span>')
        self.entries.append(("status", text))

    def add_event(self, event: Mapping[str, Any]) -> None:
        if event.get("type") == "error":
            self.add_error(str(event.get("message") or "The agent reported an error."))
            return
        line = status_line_for(event)
        if line:
            self.add_status(line)

    def add_response(self, markdown: str) -> None:
        self._append_html(f'<span style="{USER_STYLE}">Osprey</span>', 8)
        self._append(lambda cursor: cursor.insertMarkdown(markdown))
        self.entries.append(("response", markdown))

    def add_error(self, message: str, next_step: str | None = None) -> None:
        text = message if not next_step else f"{message} {next_step}"
        self._append_html(f'<p style="{ERROR_STYLE}">⚠ {html.escape(text)}</p>')
        self.entries.append(("error", text))

    def add_note(self, text: str) -> None:
        """System feedback: slash-command results, stop confirmations, restored approvals.

        Multi-line feedback (``/help``) is Markdown and rendered as such."""
        if "\n" in text.strip():
            self._append(lambda cursor: cursor.insertMarkdown(text))
        else:
            self._append_html(f'<p style="{NOTE_STYLE}">{html.escape(text)}</p>')
        self.entries.append(("note", text))

    def clear_entries(self) -> None:
        self.clear()
        self.entries.clear()

    def texts(self, kind: str | None = None) -> list[str]:
        return [t for k, t in self.entries if kind is None or k == kind]
