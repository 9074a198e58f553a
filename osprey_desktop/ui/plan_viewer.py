"""The plan viewer dock: the current execution plan with live step states and times.

In planning mode the plan arrives as an approval; the dock then shows an Approve / Reject
bar under the steps (Reject on the left, Approve on the right) and emits ``decision``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.plan_progress import (
    AWAITING,
    DONE,
    FAILED,
    NEEDS_INPUT,
    PENDING,
    RUNNING,
    SKIPPED,
    PlanProgress,
    StepProgress,
)
from osprey_desktop.ui.step_names import inputs_text, result_name, step_name

COLUMNS = ("#", "State", "Step", "Objective", "Time")
TIME_COLUMN = 4
STATE_LOOK: dict[str, tuple[str, str]] = {
    PENDING: ("○ pending", "#616161"),
    RUNNING: ("▶ running", "#1565c0"),
    AWAITING: ("‖ awaiting approval", "#e65100"),  # DejaVu Sans has no ⏸ (U+23F8)
    DONE: ("✓ done", "#2e7d32"),
    FAILED: ("✗ failed", "#c62828"),
    SKIPPED: ("– skipped", "#9e9e9e"),
    NEEDS_INPUT: ("? needs input", "#6a1b9a"),
}


def format_elapsed(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


class PlanViewerDock(QDockWidget):
    """Shows a ``PlanProgress`` and refreshes rows as events arrive."""

    decision = Signal(bool)

    def __init__(self, progress: PlanProgress | None = None, parent: QWidget | None = None):
        super().__init__("Plan", parent)
        self.setObjectName("plan_viewer")
        self.progress = progress if progress is not None else PlanProgress()

        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(12)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)

        self.caption = QLabel("No plan yet.")
        self.caption.setObjectName("plan_caption")
        self.approval_bar = QWidget()
        self.reject_button = QPushButton("Reject plan")
        self.approve_button = QPushButton("Approve plan")
        self.reject_button.clicked.connect(lambda: self._decide(False))
        self.approve_button.clicked.connect(lambda: self._decide(True))
        bar = QHBoxLayout(self.approval_bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(QLabel("This plan waits for your approval."))
        bar.addStretch(1)
        bar.addWidget(self.reject_button)
        bar.addWidget(self.approve_button)
        self.approval_bar.hide()

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.caption)
        layout.addWidget(self.tree)
        layout.addWidget(self.approval_bar)
        self.setWidget(body)

        self._ticker = QTimer(self)  # refreshes running times, only while a step runs
        self._ticker.setInterval(250)
        self._ticker.timeout.connect(self._tick)

    # ------------------------------------------------------------------ events
    def apply_event(self, event: Mapping[str, Any]) -> None:
        changed = self.progress.apply(event)
        if changed is None:
            self._rebuild()
        else:
            for row in changed:
                self._refresh_row(row)
        self._update_ticker()

    def show_plan(self, plan: Mapping[str, Any] | None, awaiting_approval: bool = False) -> None:
        self.progress.set_plan(plan)
        self._rebuild()
        self.approval_bar.setVisible(awaiting_approval)
        if awaiting_approval:
            self.raise_()

    def show_restored(self, values: Mapping[str, Any], awaiting_approval: bool = False) -> None:
        """Show the plan of a thread read back from the checkpoint, states from its results."""
        self.progress.restore(values, awaiting_approval)
        self._rebuild()
        self.approval_bar.hide()
        self._update_ticker()

    def await_step(self, step: Mapping[str, Any]) -> None:
        """A reactive step waits for approval before it runs: show it so, keep earlier states."""
        self.progress.await_step(step)
        self._rebuild()
        self.approval_bar.show()
        self.raise_()

    def clear_approval(self) -> None:
        self.approval_bar.hide()

    def finish_turn(self) -> None:
        for row in self.progress.finish():
            self._refresh_row(row)
        self._update_ticker()

    def _decide(self, approved: bool) -> None:
        self.approval_bar.hide()
        self.decision.emit(approved)

    # --------------------------------------------------------------- rendering
    def _rebuild(self) -> None:
        self.tree.clear()
        for i, step in enumerate(self.progress.steps):
            item = QTreeWidgetItem([str(i + 1)] + [""] * (len(COLUMNS) - 1))
            self.tree.addTopLevelItem(item)
            # Inputs and output on a spanned line under the step: readable in a narrow dock.
            detail = QTreeWidgetItem(item, [""])
            detail.setFirstColumnSpanned(True)
            detail.setForeground(0, QBrush(QColor("#555555")))
            item.setExpanded(True)
            self._fill(item, step)
        self._update_caption()

    def _refresh_row(self, row: int) -> None:
        item = self.tree.topLevelItem(row)
        if item is not None:
            self._fill(item, self.progress.steps[row])
        self._update_caption()

    def _fill(self, item: QTreeWidgetItem, step: StepProgress) -> None:
        """A step in the operator's words: no capability ids or context keys."""
        label, colour = STATE_LOOK.get(step.state, (step.state, "#000000"))
        name = step_name(step.capability)
        for col, text in enumerate((label, name, step.task_objective), start=1):
            item.setText(col, text)
        item.setText(TIME_COLUMN, format_elapsed(step.elapsed()))
        producers = {s.context_key: i for i, s in enumerate(self.progress.steps) if s.context_key}
        uses = inputs_text(step.inputs, producers)
        gives = result_name(step.expected_output) if step.expected_output else "the answer"
        detail = item.child(0)
        if detail is not None:
            detail.setText(0, f"      uses: {uses}   →   gives: {gives}")
            detail.setToolTip(0, f"Uses: {uses}\nGives: {gives}")
        item.setForeground(1, QBrush(QColor(colour)))
        tip = f"{name}: {step.task_objective}\nUses: {uses}"
        if step.error:
            tip += f"\n{'Question' if step.state == NEEDS_INPUT else 'Error'}: {step.error}"
        for col in range(len(COLUMNS)):
            item.setToolTip(col, tip)
        item.setData(0, Qt.ItemDataRole.UserRole, step.state)

    def _update_caption(self) -> None:
        steps = self.progress.steps
        if not steps:
            self.caption.setText("No plan yet.")
            return
        done = sum(s.state == DONE for s in steps)
        running = [i for i, s in enumerate(steps) if s.state == RUNNING]
        waiting = [i for i, s in enumerate(steps) if s.state == AWAITING]
        text = f"{len(steps)} step{'s' if len(steps) != 1 else ''}, {done} done"
        if running:
            text += f" — running step {running[0] + 1} of {len(steps)}"
        if waiting:
            text += f" — step {waiting[0] + 1} waits for your approval"
        failed = sum(s.state == FAILED for s in steps)
        if failed:
            text += f", {failed} failed"
        asking = [i for i, s in enumerate(steps) if s.state == NEEDS_INPUT]
        if asking:
            text += f" — step {asking[0] + 1} needs your input"
        self.caption.setText(text)

    def _update_ticker(self) -> None:
        if self.progress.any_running():
            if not self._ticker.isActive():
                self._ticker.start()
        else:
            self._ticker.stop()

    def _tick(self) -> None:
        for row, step in enumerate(self.progress.steps):
            if step.state == RUNNING:
                item = self.tree.topLevelItem(row)
                if item is not None:
                    item.setText(TIME_COLUMN, format_elapsed(step.elapsed()))

    def states(self) -> list[str]:
        """Step states in row order, as shown (used by tests and the status bar)."""
        return [s.state for s in self.progress.steps]
