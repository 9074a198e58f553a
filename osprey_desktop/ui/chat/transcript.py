"""The chat transcript: requests, live status lines, answers and errors.

Appends at the end only (never re-renders the whole document). It follows the bottom until
the operator scrolls up to read something, and again once they scroll back down: whether it
follows is decided by what the operator did with the scroll bar, not by where the bar is, so a
dock opening under the chat (which shortens the view) does not stop it following.

Answers with a structured form (``osprey_desktop.answers``) render as tables with alarm and
outcome colours, refusals and failures in a frame of their own; links (``details ›``) go out
through ``link_activated``.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextFrameFormat,
)
from PySide6.QtWidgets import QAbstractSlider, QTextBrowser, QWidget

from osprey_desktop.ui.chat.stamps import stamp_text
from osprey_desktop.ui.step_names import humane_text, step_name

if TYPE_CHECKING:  # the answers load with the agent stack, after the window has painted
    from osprey_desktop.answers.model import Answer

USER_STYLE = "color:#0d47a1; font-weight:600;"
STATUS_STYLE = "color:#616161; font-size:small;"
ERROR_STYLE = "color:#b71c1c; background:#ffebee; font-weight:600;"
NOTE_STYLE = "color:#4e342e; font-style:italic;"


def status_line_for(event: Mapping[str, Any]) -> str | None:
    """The status a progress event deserves in the transcript, in the operator's words (no
    capability ids, no context keys), if any. The task and the chosen capabilities are the
    agent's own bookkeeping: not shown."""
    kind = event.get("type")
    if kind == "plan_created":
        steps = (event.get("plan") or {}).get("steps") or []
        chain = " → ".join(
            step_name(str(s.get("capability", "?"))) for s in steps if isinstance(s, dict)
        )
        return f"Plan: {len(steps)} step{'s' if len(steps) != 1 else ''} ({chain})"
    if kind == "capability_start":
        index = event.get("step_index")
        total = event.get("total_steps")
        where = f"Step {index + 1} of {total}" if isinstance(index, int) and total else "Step"
        objective = event.get("task_objective") or ""
        name = step_name(str(event.get("capability", "?")))
        return f"{where}: {name}" + (f" — {objective}" if objective else "")
    if kind == "capability_complete" and not event.get("success", True):
        name = step_name(str(event.get("capability", "?")))
        return f"Step failed: {name}: {event.get('error') or 'no reason'}"
    if kind == "clarification":
        name = step_name(str(event.get("capability", "?")))
        return f"Step needs your input: {name} asks a question"
    if kind == "approval_required":
        what = str(event.get("approval_type") or "approval").replace("_", " ")
        return f"Waiting for your approval ({what})"
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


def latest_answer(values: Mapping[str, Any]) -> Answer | None:
    """The structured answer of the last message of a state, if it carries one."""
    from osprey_desktop.answers.model import answer_of_message

    messages = list(values.get("messages") or []) if isinstance(values, Mapping) else []
    return answer_of_message(messages[-1]) if messages else None


class Transcript(QTextBrowser):
    """Read-only conversation view. Every append adds one block at the end."""

    link_activated = Signal(str)  # a link in an answer (details ›, http…), for the window

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setOpenLinks(False)  # links go to the window's launcher, which decides
        self.anchorClicked.connect(self._on_anchor)
        self.following = True
        bar = self.verticalScrollBar()
        bar.actionTriggered.connect(self._on_scroll_action)
        bar.rangeChanged.connect(self._keep_following)
        self.answers: list[Answer] = []
        self.setPlaceholderText(
            "Ask about the machine, e.g. 'What is the beam current?' — "
            "type / for commands, Ctrl+K for everything else."
        )
        self.entries: list[tuple[str, str]] = []  # (kind, plain text): what the operator saw
        self._status_at: int | None = None  # position of the live status line

    def _at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 4

    def _on_scroll_action(self, action: int) -> None:
        """The operator moved the bar (wheel, keys, drag): follow only if they are at the end."""
        if action == QAbstractSlider.SliderAction.SliderNoAction.value:
            return
        bar = self.verticalScrollBar()
        self.following = bar.sliderPosition() >= bar.maximum() - 4

    def _keep_following(self, _minimum: int, maximum: int) -> None:
        if self.following:
            self.verticalScrollBar().setValue(maximum)

    def _on_anchor(self, url: QUrl) -> None:
        self.link_activated.emit(url.toString())

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
        write(self._end_cursor(top_margin))
        if self.following:
            self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())

    def _append_html(self, fragment: str, top_margin: float = 0.0) -> None:
        self._append(lambda cursor: cursor.insertHtml(fragment), top_margin)

    def add_request(self, text: str, when: float | None = None, restored: bool = False) -> None:
        """A request; ``when`` is its stored time (a restored one without a time shows none)."""
        stamp = stamp_text(when if when is not None or restored else time.time())
        who = f"You · {stamp}" if stamp else "You"
        body = html.escape(text).replace("\n", "<br>")
        self._status_at = None  # the last turn's line stays where it is (a stop, an error)
        self._append_html(f'<span style="{USER_STYLE}">{who}</span><br>{body}', 12)
        self.entries.append(("request", text))

    def add_status(self, text: str) -> None:
        """The turn's progress: one grey line, rewritten as the turn goes on (not a line per
        step before every answer); the answer or an error takes its place."""
        fragment = f'<span style="{STATUS_STYLE}">• {html.escape(text)}</span>'
        block = self._status_block()
        if block is None:
            self._append_html(fragment)
            self._status_at = self.document().lastBlock().position()
        else:
            cursor = self._select_to_end(block.position())
            cursor.removeSelectedText()
            cursor.insertHtml(fragment)
        self.entries.append(("status", text))

    def _status_block(self) -> Any:
        """The live status line, when it is still the last block."""
        if self._status_at is None:
            return None
        block = self.document().lastBlock()
        return block if block.position() == self._status_at else None

    def _select_to_end(self, position: int) -> QTextCursor:
        cursor = QTextCursor(self.document())
        cursor.setPosition(position)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def _drop_status(self) -> None:
        block = self._status_block()
        self._status_at = None
        if block is None:
            return
        cursor = self._select_to_end(block.position())
        cursor.removeSelectedText()
        if block.position() > 0:
            cursor.deletePreviousChar()  # the line break before it: no empty line left

    def live_status(self) -> str:
        """The progress line shown now ("" when none)."""
        block = self._status_block()
        return block.text().lstrip("• ") if block is not None else ""

    def add_event(self, event: Mapping[str, Any]) -> None:
        if event.get("type") == "error":
            self.add_error(str(event.get("message") or "The agent reported an error."))
            return
        line = status_line_for(event)
        if line:
            self.add_status(line)

    def add_response(
        self, markdown: str, answer: Answer | None = None, restored: bool = False
    ) -> None:
        """An answer: its structured form when there is one, else its Markdown."""
        self._drop_status()
        when = answer.answered_at if answer is not None else (None if restored else time.time())
        stamp = stamp_text(when)
        who = f"Osprey · {stamp}" if stamp else "Osprey"
        self._append_html(f'<span style="{USER_STYLE}">{who}</span>', 8)
        if answer is None or not answer.blocks:
            self._append(lambda cursor: cursor.insertMarkdown(humane_text(markdown)))
        else:
            self._append(lambda cursor: self._write_answer(cursor, answer))
            self.answers.append(answer)
        self.entries.append(("response", markdown))

    def _write_answer(self, cursor: QTextCursor, answer: Answer) -> None:
        from osprey_desktop.answers.model import Table, TextBlock
        from osprey_desktop.ui.chat.answer_view import TONE_LOOK, headline_html, table_html

        look = TONE_LOOK.get(answer.tone)
        if look is not None:  # a refusal or failure reads as one at a glance: framed, coloured
            background, border, _, _ = look
            frame = QTextFrameFormat()
            frame.setBackground(QBrush(QColor(background)))
            frame.setBorder(2)
            frame.setBorderBrush(QBrush(QColor(border)))
            frame.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
            frame.setPadding(6)
            cursor.insertFrame(frame)
            cursor.insertHtml(headline_html(answer))
        first = look is None
        for block in answer.blocks:
            if not first:
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            first = False
            if isinstance(block, Table):
                cursor.insertHtml(table_html(block))
            elif isinstance(block, TextBlock):
                cursor.insertMarkdown(humane_text(block.markdown))

    def add_error(self, message: str, next_step: str | None = None) -> None:
        text = humane_text(message if not next_step else f"{message} {next_step}")
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
        self._status_at = None
        self.clear()
        self.entries.clear()

    def texts(self, kind: str | None = None) -> list[str]:
        return [t for k, t in self.entries if kind is None or k == kind]
