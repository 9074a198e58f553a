"""The approval dialog shown when the graph interrupts for a plan, a step or a channel write.

Operator conventions: Reject is the default and sits on the left (Enter and Esc reject),
Approve on the right; every channel write reads "write NEW UNITS to CHANNEL (now CURRENT)";
a limit violation disables Approve and its tooltip says why (fail closed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
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

from osprey_desktop.ui.async_dialogs import await_dialog
from osprey_desktop.ui.values import format_scalar

TITLES = {
    "plan": "Approve execution plan",
    "reactive_step": "Approve next step",
    "step": "Approve step",
    "capability": "Approve capability action",
    "channel_write": "Approve channel write",
}
WRITE_COLUMNS = ("Channel", "Current", "New", "Units", "Limits", "Violation")
VIOLATION_BG = QColor("#ffcdd2")


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


def describe_write(op: Mapping[str, Any]) -> str:
    """'write 1.5 A to HCM01:SP (now 1.2 A)': what will be written where."""
    units = f" {op['units']}" if op.get("units") else ""
    now = op.get("current_value")
    now_text = f" (now {format_scalar(now)}{units})" if now is not None else " (now unknown)"
    return f"write {format_scalar(op.get('new_value'))}{units} to {op.get('channel')}{now_text}"


class ApprovalDialog(QDialog):
    """Shows one interrupt payload; ``ask()`` resolves to True only on Approve."""

    def __init__(self, payload: Mapping[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.payload = payload
        resume = payload.get("resume_payload") or {}
        self.approval_type = str(resume.get("approval_type", "approval"))
        self.operations: Sequence[Mapping[str, Any]] = resume.get("operations") or []
        self.setWindowTitle(TITLES.get(self.approval_type, "Approval required"))
        self.setObjectName("approval_dialog")
        self.setMinimumWidth(640)

        self.message = QTextBrowser()
        self.message.setMarkdown(str(payload.get("user_message") or "Approve this action?"))
        self.message.setOpenExternalLinks(True)

        layout = QVBoxLayout(self)
        layout.addWidget(self.message, 2)

        self.table: QTableWidget | None = None
        self.violations = [op for op in self.operations if op.get("violation")]
        if self.operations:
            self.table = self._build_table(self.operations)
            layout.addWidget(self.table, 1)
            summary = QLabel("\n".join(describe_write(op) for op in self.operations))
            summary.setObjectName("write_summary")
            summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            bold = QFont(summary.font())
            bold.setBold(True)
            summary.setFont(bold)
            layout.addWidget(summary)

        self.reject_button = QPushButton("Reject")
        self.approve_button = QPushButton("Approve")
        self.reject_button.setDefault(True)
        self.reject_button.setAutoDefault(True)
        self.approve_button.setAutoDefault(False)
        self.reject_button.clicked.connect(self.reject)
        self.approve_button.clicked.connect(self.accept)
        if self.violations:
            self.approve_button.setEnabled(False)
            reasons = "; ".join(f"{op.get('channel')}: {op['violation']}" for op in self.violations)
            self.approve_button.setToolTip(
                f"Cannot approve: {reasons}. Reject, then ask for a value within limits."
            )
            self.status = QLabel(f"⚠ Approve is disabled — {reasons}")
            self.status.setStyleSheet("color: #c62828; font-weight: bold;")
            self.status.setWordWrap(True)
            layout.addWidget(self.status)
        else:
            self.approve_button.setToolTip(self._approve_tooltip())
        buttons = QHBoxLayout()
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        buttons.addWidget(self.approve_button)
        layout.addLayout(buttons)
        self.reject_button.setFocus()

    def accept(self) -> None:
        """Fail closed: a write with a violation can never be accepted, whatever the caller."""
        if self.violations:
            return
        super().accept()

    def _approve_tooltip(self) -> str:
        if self.operations:
            return "Approve: " + "; ".join(describe_write(op) for op in self.operations)
        return f"Approve this {self.approval_type.replace('_', ' ')}"

    def _build_table(self, operations: Sequence[Mapping[str, Any]]) -> QTableWidget:
        table = QTableWidget(len(operations), len(WRITE_COLUMNS))
        table.setObjectName("write_table")
        table.setHorizontalHeaderLabels(list(WRITE_COLUMNS))
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        for row, op in enumerate(operations):
            cells = (
                str(op.get("channel", "?")),
                format_scalar(op.get("current_value")),
                format_scalar(op.get("new_value")),
                str(op.get("units") or ""),
                format_limits(op.get("limits")),
                str(op.get("violation") or "—"),
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(describe_write(op))
                if op.get("violation"):
                    item.setBackground(QBrush(VIOLATION_BG))
                    item.setToolTip(f"{op.get('channel')}: {op['violation']}")
                table.setItem(row, col, item)
        return table

    async def ask(self, modal: bool = False) -> bool:
        """Show the dialog (no nested loop) and return the operator's decision.

        Not modal by default, so the operator can still read the window and answer by typing
        yes / no in the chat; closing the dialog is a rejection.
        """
        return await await_dialog(self, modal=modal) == QDialog.DialogCode.Accepted
