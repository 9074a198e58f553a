"""The approval dialog shown when the graph interrupts for a plan, a step or a channel write.

Operator conventions: Reject on the left, Approve on the right; every channel write reads
"write NEW UNITS to CHANNEL (now CURRENT)"; a limit violation disables Approve and its tooltip
says why (fail closed). Writes the core blocked and carries beside the approval
(``blocked_operations``) are listed first, marked "not sent": Approve sends the others only.
When the payload says when the values were read (``asked_at``) and until when the approval
holds (``expires_at``), the dialog shows the age of the values and, once expired, that
approving re-reads the channels and asks again.

Keyboard: there is no default button. Reject has the initial focus, one Tab reaches Approve,
and the focused button acts on Enter or Space; Esc rejects. Enter never acts on a button that
does not show the focus.

Typing while the dialog appears: the dialog opens without waiting for the operator, often
while they are typing in the chat, and a window manager hands it the keyboard. So for a grace
period (``GRACE_MS``) after it appears, and again after every keystroke that arrives in that
period, both buttons are disabled and the dialog says "Keys ignored for a moment"; no key or
click answers it, Esc and shortcuts included. What was typed is not lost: printable text (and
Backspace) is handed back through ``typed_while_arming`` to the field the operator was typing
in (``ApprovalFlow`` puts it into the chat input); Enter, Tab and every other key are dropped,
so half a sentence is never sent as a request or read as a yes / no. Once the keyboard has been
quiet for the grace period, the buttons arm and Reject takes the focus.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QDesktopServices, QFont, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.approval_summary import (
    Describe,
    WriteRow,
    format_change,
    ordered_rows,
    summary_line,
)
from osprey_desktop.ui.async_dialogs import await_dialog
from osprey_desktop.ui.step_names import operator_message
from osprey_desktop.ui.values import format_scalar

if TYPE_CHECKING:
    from osprey_desktop.prediction import PredictedEffect

TITLES = {
    "plan": "Approve execution plan",
    "reactive_step": "Approve next step",
    "step": "Approve step",
    "capability": "Approve capability action",
    "channel_write": "Approve channel write",
}
WRITE_COLUMNS = ("Channel", "Now", "New", "Δ", "Units", "Limits", "Verdict")
LISTED_WRITES = 3  # up to this many writes are also spelled out one line each
VISIBLE_ROWS = 12  # the table shows this many rows before it scrolls
VIOLATION_BG = QColor("#ffcdd2")
GRACE_MS = 1000  # like browsers' install / permission prompts: long enough to stop typing
GRACE_NOTE = "⌨ Keys ignored for a moment — what you type goes back to the chat."
KEYS_NOTE = "Tab moves between Reject and Approve; Enter or Space presses the focused one."
EXPIRED_NOTE = (
    "This approval has expired: approving re-reads the channels and asks again with fresh values."
)
_KEY_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride)
_COMMAND_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)
FRESHNESS_TICK_MS = 15_000


def format_limits(limits: Mapping[str, Any] | None) -> str:
    if not limits:
        return "none known"
    parts = []
    if limits.get("min") is not None or limits.get("max") is not None:
        low = format_scalar(limits.get("min")) if limits.get("min") is not None else "−∞"
        high = format_scalar(limits.get("max")) if limits.get("max") is not None else "+∞"
        parts.append(f"{low} … {high}")
    if limits.get("max_step") is not None:
        parts.append(f"step ≤ {format_scalar(limits['max_step'])}")
    return ", ".join(parts) or "none known"


def _reading(op: Mapping[str, Any], key: str = "current_value") -> str:
    """A value of the write (now, or the new one) at the channel's own precision, as its
    panel would show it."""
    from osprey_desktop.capabilities.control_room.write_operations import show_reading

    return show_reading(op.get(key), "", op.get("precision"))


def describe_write(op: Mapping[str, Any]) -> str:
    """'write 1.5 A to HCM01:SP (now 1.2 A)': what will be written where."""
    units = f" {op['units']}" if op.get("units") else ""
    now = op.get("current_value")
    now_text = f" (now {_reading(op)}{units})" if now is not None else " (now unknown)"
    return f"write {format_scalar(op.get('new_value'))}{units} to {op.get('channel')}{now_text}"


def epoch_seconds(value: Any) -> float | None:
    """A payload timestamp as epoch seconds, or None when absent or not a plausible time."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and 0 < seconds < 1e11 else None


def describe_freshness(asked_at: float, now: float) -> str:
    """'Values read at 14:03:12 (5 min ago)', in the local time of the control room."""
    age = max(0.0, now - asked_at)
    ago = "under 1 min ago" if age < 60 else f"{int(age // 60)} min ago"
    return f"Values read at {datetime.fromtimestamp(asked_at).strftime('%H:%M:%S')} ({ago})"


class DialogButton(QPushButton):
    """A button that acts on Enter, as on Space, when it has the focus, and only then.

    Never a dialog default: ``QDialog`` clicks its default button on Enter wherever the focus
    is, which made Enter reject while Approve showed the focus.
    """

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setAutoDefault(False)
        self.setDefault(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        plain = not (event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            if not event.isAutoRepeat():
                self.click()
            event.accept()
            return
        super().keyPressEvent(event)


class ApprovalDialog(QDialog):
    """Shows one interrupt payload; ``ask()`` resolves to True only on Approve."""

    typed_while_arming = Signal(str)  # text typed during the grace period ("\b" = Backspace)
    armed = Signal()  # the grace period is over: the buttons answer keys and clicks

    def __init__(
        self,
        payload: Mapping[str, Any],
        parent: QWidget | None = None,
        grace_ms: int = GRACE_MS,
        prediction: PredictedEffect | None = None,
        describe: Describe | None = None,
    ) -> None:
        super().__init__(parent)
        self.payload = payload
        resume = payload.get("resume_payload") or {}
        self.approval_type = str(resume.get("approval_type", "approval"))
        self.operations: Sequence[Mapping[str, Any]] = _mappings(resume.get("operations"))
        # blocked by the write policy when asked, carried beside the question: never sent
        self.not_sent: Sequence[Mapping[str, Any]] = _mappings(resume.get("blocked_operations"))
        every = [*self.not_sent, *self.operations]
        self.asked_at = epoch_seconds(resume.get("asked_at"))
        self.expires_at = epoch_seconds(resume.get("expires_at"))
        self.setWindowTitle(TITLES.get(self.approval_type, "Approval required"))
        self.setObjectName("approval_dialog")
        self.setMinimumWidth(640)

        many = len(every) > LISTED_WRITES
        told = operator_message(payload)  # a plan or step in words, without internal names
        message, bullets = _split_write_lines(
            told or str(payload.get("user_message") or "Approve this action?"),
            len(self.operations),
        )
        if many and self.not_sent:  # the table lists them first, in red, with their reasons
            message = _without_blocked_lines(message)
        self.message = QTextBrowser()
        self.message.setObjectName("approval_message")
        # with many writes each bullet becomes its row's tooltip: the table says it once
        self.message.setMarkdown(message if many and bullets else "\n".join([message, *bullets]))
        # Web links open in the browser; any other link is ignored rather than followed
        # inside the browser, which would replace the request being approved.
        self.message.setOpenLinks(False)
        self.message.anchorClicked.connect(_open_web_link)

        layout = QVBoxLayout(self)
        layout.addWidget(self.message, 1 if every else 2)

        self.table: QTableWidget | None = None
        self.violations = [op for op in self.operations if op.get("violation")]
        self.rows: list[WriteRow] = ordered_rows(self.operations, self.not_sent)
        self.summary: QLabel | None = None
        if every:
            tips = dict(zip(map(id, self.operations), bullets, strict=False))  # none: no tips
            self.table = self._build_table(self.rows, tips)
            layout.addWidget(self.table, 3)
            if many:
                text = summary_line(self.operations, describe, self.not_sent)
            else:
                text = "\n".join(
                    [
                        *(f"not sent: {describe_write(op)}" for op in self.not_sent),
                        *(describe_write(op) for op in self.operations),
                    ]
                )
            self.summary = QLabel(text)
            self.summary.setObjectName("write_summary")
            self.summary.setWordWrap(True)
            self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            bold = QFont(self.summary.font())
            bold.setBold(True)
            self.summary.setFont(bold)
            layout.addWidget(self.summary)
        self.prediction_view: QWidget | None = None
        if prediction is not None and self.operations:
            from osprey_desktop.ui.prediction_view import PredictionView

            self.prediction_view = PredictionView(prediction)
            layout.addWidget(self.prediction_view, 2 if prediction.planes else 0)

        self.freshness = QLabel()
        self.freshness.setObjectName("freshness")
        self.expired_note = QLabel(EXPIRED_NOTE)
        self.expired_note.setObjectName("expired_note")
        self.expired_note.setWordWrap(True)
        self.expired_note.setStyleSheet("color: #e65100; font-weight: bold;")
        self.expired_note.hide()
        layout.addWidget(self.freshness)
        layout.addWidget(self.expired_note)
        self._freshness_timer = QTimer(self)
        self._freshness_timer.setInterval(FRESHNESS_TICK_MS)
        self._freshness_timer.timeout.connect(self.refresh_freshness)
        self._expiry_timer = QTimer(self)
        self._expiry_timer.setSingleShot(True)
        self._expiry_timer.timeout.connect(self.refresh_freshness)
        self.freshness.setVisible(self.asked_at is not None)
        self.refresh_freshness()

        self.reject_button = DialogButton("Reject")
        self.approve_button = DialogButton("Approve")
        self.reject_button.clicked.connect(self.reject)
        self.approve_button.clicked.connect(self.accept)
        self.status: QLabel | None = None
        if self.violations:
            first = f"{self.violations[0].get('channel')}: {self.violations[0]['violation']}"
            if len(self.violations) == 1:
                reasons = first
            else:
                reasons = (
                    f"{len(self.violations)} of {len(self.operations)} writes are blocked "
                    f"(listed first, in red; hover a row for its reason). First: {first}"
                )
            self.approve_button.setToolTip(
                f"Cannot approve: {reasons}. Reject, then ask for values within limits."
            )
            self.status = QLabel(f"⚠ Approve is disabled — {reasons}")
            self.status.setObjectName("violation_status")
            self.status.setStyleSheet("color: #c62828; font-weight: bold;")
            self.status.setWordWrap(True)
            layout.addWidget(self.status)
        else:
            self.approve_button.setToolTip(self._approve_tooltip())
            if self.not_sent:
                self.status = QLabel(self._not_sent_note())
                self.status.setObjectName("not_sent_status")
                self.status.setStyleSheet("color: #c62828; font-weight: bold;")
                self.status.setWordWrap(True)
                layout.addWidget(self.status)
        self.keys_note = QLabel(GRACE_NOTE)
        self.keys_note.setObjectName("keys_note")
        layout.addWidget(self.keys_note)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        buttons.addWidget(self.approve_button)
        layout.addLayout(buttons)
        QWidget.setTabOrder(self.reject_button, self.approve_button)

        # Grace period: the buttons are off and every key aimed at the dialog is caught.
        self._armed = False
        self._grace = QTimer(self)
        self._grace.setSingleShot(True)
        self._grace.setInterval(max(0, grace_ms))
        self._grace.timeout.connect(self._arm)
        self.reject_button.setEnabled(False)
        self.approve_button.setEnabled(False)
        for widget in (self, *self.findChildren(QWidget)):
            widget.installEventFilter(self)

    # ------------------------------------------------------------ grace period
    def is_armed(self) -> bool:
        """True once the buttons answer keys and clicks."""
        return self._armed

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._armed and not self._grace.isActive():
            self._grace.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._armed or event.type() not in _KEY_EVENTS:
            return super().eventFilter(watched, event)
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # claim the key so no shortcut fires; the KeyPress is dropped below
        elif event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            self._grace.start()  # still typing: wait until the keyboard is quiet
            text = _forwardable_text(event)
            if text:
                self.typed_while_arming.emit(text)
        return True

    def _arm(self) -> None:
        self._armed = True
        self.reject_button.setEnabled(True)
        self.approve_button.setEnabled(not self.violations)
        self.keys_note.setText(KEYS_NOTE)
        self.reject_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.armed.emit()

    def accept(self) -> None:
        """Fail closed: a write with a violation, or a dialog not yet armed, is never accepted."""
        if self.violations or not self._armed:
            return
        super().accept()

    # --------------------------------------------------------------- freshness
    def refresh_freshness(self) -> None:
        """Update the age of the values shown and, past ``expires_at``, the expiry line."""
        now = time.time()
        if self.asked_at is not None:
            self.freshness.setText(describe_freshness(self.asked_at, now))
            if not self._freshness_timer.isActive():
                self._freshness_timer.start()
        if self.expires_at is None:
            return
        expired = now > self.expires_at
        self.expired_note.setVisible(expired)
        if not expired and not self._expiry_timer.isActive():
            # QTimer takes a signed 32-bit interval: re-check at most every ~24 days.
            wait_ms = min(int((self.expires_at - now) * 1000) + 50, 2**31 - 1)
            self._expiry_timer.start(wait_ms)
        if expired:
            self._expiry_timer.stop()

    # ----------------------------------------------------------------- content
    def _approve_tooltip(self) -> str:
        blocked = len(self.not_sent)
        unsent = (
            f" ({blocked} blocked write{'s are' if blocked != 1 else ' is'} not sent)"
            if blocked
            else ""
        )
        if len(self.operations) > LISTED_WRITES:
            return "Approve: " + summary_line(self.operations) + unsent
        if self.operations:
            return "Approve: " + "; ".join(describe_write(op) for op in self.operations) + unsent
        return f"Approve this {self.approval_type.replace('_', ' ')}"

    def _not_sent_note(self) -> str:
        """'⚠ 1 write is blocked and will not be sent (listed first): VCM11 … Approve sends
        the other 35.'"""
        count, first = len(self.not_sent), self.not_sent[0]
        reason = str(first.get("violation") or "blocked by the write policy").rstrip(". ")
        head = (
            f"⚠ {count} write{'s are' if count != 1 else ' is'} blocked and will not be sent "
            f"(listed first, in red; hover a row for its reason)"
        )
        sent = len(self.operations)
        return (
            f"{head}: {first.get('channel', '?')}: {reason}"
            + (f" and {count - 1} more" if count > 1 else "")
            + f". Approve sends the other {sent} write{'s' if sent != 1 else ''} only."
        )

    def _build_table(self, rows: Sequence[WriteRow], bullets: Mapping[int, str]) -> QTableWidget:
        table = QTableWidget(len(rows), len(WRITE_COLUMNS))
        table.setObjectName("write_table")
        table.setHorizontalHeaderLabels(list(WRITE_COLUMNS))
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        table.verticalHeader().setVisible(False)
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        for row, write in enumerate(rows):
            op = write.op
            cells = (
                ("⊘ " if write.blocked else "") + str(op.get("channel", "?")),
                _reading(op),
                _reading(op, "new_value"),
                format_change(write.delta, op.get("precision")),
                str(op.get("units") or ""),
                format_limits(op.get("limits")),
                _verdict_text(write),
            )
            tip = bullets.get(id(op)) or describe_write(op)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if col in (1, 2, 3):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if write.blocked:
                    item.setBackground(QBrush(VIOLATION_BG))
                    reason = op.get("violation") or "blocked by the write policy"
                    unsent = "; not sent, whatever you answer" if write.not_sent else ""
                    item.setToolTip(f"{op.get('channel')}: {reason}{unsent}")
                table.setItem(row, col, item)
        shown = min(len(rows), VISIBLE_ROWS)
        header = table.horizontalHeader().sizeHint().height()
        rows_height = shown * table.verticalHeader().defaultSectionSize()
        table.setMinimumHeight(
            header + min(len(rows), 4) * table.verticalHeader().defaultSectionSize() + 4
        )
        self._table_height = header + rows_height + 6
        return table

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        """Room for the table's first rows and the prediction, within the screen."""
        hint = super().sizeHint()
        width = max(hint.width(), 760 if self.rows else 560)
        height = hint.height()
        if self.table is not None:
            height += max(0, self._table_height - self.table.sizeHint().height())
        screen = (self.screen() or QApplication.primaryScreen()).availableGeometry()
        return QSize(min(width, int(screen.width() * 0.9)), min(height, int(screen.height() * 0.9)))

    async def ask(self, modal: bool = False) -> bool:
        """Show the dialog (no nested loop) and return the operator's decision.

        Not modal by default, so the operator can still read the window and answer by typing
        yes / no in the chat; closing the dialog is a rejection.
        """
        return await await_dialog(self, modal=modal) == QDialog.DialogCode.Accepted


def _mappings(value: Any) -> list[Mapping[str, Any]]:
    """The operations of a payload: a list of mappings (anything else in it is dropped, so a
    malformed payload shows fewer rows instead of crashing the window)."""
    return [op for op in value if isinstance(op, Mapping)] if isinstance(value, list) else []


def _verdict_text(write: WriteRow) -> str:
    if write.not_sent:
        return f"⊘ not sent: {write.verdict}"
    return ("⊘ " + write.verdict) if write.blocked else "✓ ok"


def _without_blocked_lines(message: str) -> str:
    """The core's message without its list of blocked writes (the table shows each, first,
    with its reason); the count in its title stays."""
    lines = message.splitlines()
    kept = [
        line
        for line in lines
        if not line.startswith("- ⊘ ")
        and "blocked by the write policy" not in line
        and line.strip() != "**Asked:**"
    ]
    # the list that sentence points "above" to is the table's first rows now, below it
    return "\n".join(kept).replace(
        "The blocked writes above are", "The blocked writes, first in the table below, are"
    )


def _split_write_lines(message: str, count: int) -> tuple[str, list[str]]:
    """The message without its one-bullet-per-write lines, and those lines as plain text
    (the table shows them; each becomes its row's tooltip). Nothing is split unless there is
    exactly one bullet per write."""
    lines = message.splitlines()
    bullets = [line for line in lines if line.startswith("- write ")]
    if count == 0 or len(bullets) != count:
        return message, []
    rest = "\n".join(line for line in lines if not line.startswith("- write "))
    plain = [b[2:].replace("**", "").replace("`", "") for b in bullets]
    return rest, plain


def _forwardable_text(event: QKeyEvent) -> str:
    """The text a key would have typed in the chat: printable characters and Backspace."""
    if event.modifiers() & _COMMAND_MODIFIERS:
        return ""
    if event.key() == Qt.Key.Key_Backspace:
        return "\b"
    text = event.text()
    return text if text and text.isprintable() else ""


def _open_web_link(url: QUrl) -> None:
    """Links in a request open only as web pages: never a file or a program from here."""
    if url.scheme().lower() in ("http", "https"):
        QDesktopServices.openUrl(url)
