"""Shows a pending approval everywhere it belongs and sends back exactly one decision.

The dialog (non-modal, so 'yes' / 'no' typed in the chat still works), the status bar
indicator and, for plans, the plan viewer's Approve / Reject bar all answer the same pending
approval through the controller; whichever answers first closes the others.

The dialog often appears while the operator is typing in the chat. During its grace period
it answers no key and hands back what was typed (see ``approval_dialog``); this flow puts
that text into the field that had the keyboard in the window when the dialog opened (the
chat input, usually), so the sentence goes on where it was being written and is not sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from osprey_desktop.ui.approval_dialog import ApprovalDialog
from osprey_desktop.ui.async_dialogs import show_dialog
from osprey_desktop.ui.controller import SessionController
from osprey_desktop.ui.logbook_dialog import is_logbook_approval, logbook_entry_dialog
from osprey_desktop.ui.plan_viewer import PlanViewerDock
from osprey_desktop.ui.status_bar import AppStatusBar

TextField = QLineEdit | QPlainTextEdit | QTextEdit
Predict = Callable[[Sequence[Mapping[str, Any]]], Any]  # operations -> PredictedEffect
log = logging.getLogger(__name__)


def editable_text_field(widget: QWidget | None) -> TextField | None:
    """``widget`` when the operator can type into it, else None."""
    if isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit)) and not widget.isReadOnly():
        return widget
    return None


def type_into(field: TextField, text: str) -> None:
    """Insert text typed elsewhere at the field's cursor; "\\b" deletes as Backspace does."""
    if not shiboken6.isValid(field):
        return
    if isinstance(field, QLineEdit):
        if text == "\b":
            field.backspace()
        else:
            field.insert(text)
    elif text == "\b":
        field.textCursor().deletePreviousChar()
    else:
        field.insertPlainText(text)


class ApprovalFlow(QObject):
    dialog_opened = Signal(object)  # the ApprovalDialog, for tests and screenshots

    def __init__(
        self,
        controller: SessionController,
        window: QWidget,
        plan_viewer: PlanViewerDock,
        status_bar: AppStatusBar,
        predict: Predict | None = None,
        describe: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(window)
        self.predict = predict
        self.describe = describe
        self.controller = controller
        self.window = window
        self.plan_viewer = plan_viewer
        self.status_bar = status_bar
        self.dialog: ApprovalDialog | None = None
        self._dialog_task: asyncio.Task[None] | None = None
        controller.approval_requested.connect(self.show)
        controller.approval_cleared.connect(self.clear)
        plan_viewer.decision.connect(self._decide)
        status_bar.review_requested.connect(self.review)

    def show(self, payload: Mapping[str, Any]) -> None:
        self.status_bar.show_approval(payload)
        resume = payload.get("resume_payload") or {}
        if resume.get("approval_type") == "plan" and isinstance(resume.get("execution_plan"), dict):
            self.plan_viewer.show_plan(resume["execution_plan"], awaiting_approval=True)
        elif resume.get("approval_type") == "reactive_step" and isinstance(
            resume.get("step"), dict
        ):
            self.plan_viewer.await_step(resume["step"])
        self.open_dialog(payload)

    def open_dialog(self, payload: Mapping[str, Any]) -> None:
        self._close_dialog()
        typing_field = editable_text_field(self.window.focusWidget())
        if is_logbook_approval(payload):  # an entry to confirm, editable while a draft
            dialog: ApprovalDialog = logbook_entry_dialog(payload, self.window, self.controller)
        else:
            dialog = ApprovalDialog(
                payload, self.window, prediction=self._prediction(payload), describe=self.describe
            )
        if typing_field is not None:
            dialog.typed_while_arming.connect(lambda text: type_into(typing_field, text))
        self.dialog = dialog
        # Not modal: the operator can still read the window and type yes / no in the chat.
        shown = show_dialog(dialog, modal=False)
        self._dialog_task = asyncio.ensure_future(self._ask(dialog, shown))
        self.dialog_opened.emit(dialog)

    def _prediction(self, payload: Mapping[str, Any]) -> Any:
        """The predicted effect of a channel write (None for other approvals)."""
        resume = payload.get("resume_payload") or {}
        operations = resume.get("operations") or []
        if self.predict is None or resume.get("approval_type") != "channel_write":
            return None
        if not operations:
            return None
        try:
            return self.predict(operations)
        except Exception:  # a prediction must never keep the approval from showing
            log.exception("predicting the effect of a write failed")
            return None

    async def _ask(self, dialog: ApprovalDialog, shown: asyncio.Future[int]) -> None:
        try:
            approved = await shown == ApprovalDialog.DialogCode.Accepted
        finally:
            dialog.deleteLater()
        if self.dialog is dialog:
            self.dialog = None
            self._decide(approved)

    def visible_dialogs(self) -> list[ApprovalDialog]:
        return [d for d in self.window.findChildren(ApprovalDialog) if d.isVisible()]

    def review(self) -> None:
        """Reopen the dialog for the pending approval (status bar button)."""
        if self.controller.pending_approval is None:
            return
        if self.dialog is not None:
            self.dialog.raise_()
            self.dialog.activateWindow()
            return
        self.open_dialog(self.controller.pending_approval)

    def _decide(self, approved: bool) -> None:
        if self.controller.pending_approval is not None:
            self.controller.decide(approved)

    def clear(self) -> None:
        self.status_bar.clear_approval()
        self.plan_viewer.clear_approval()
        self._close_dialog()

    def _close_dialog(self) -> None:
        """Close an open dialog without deciding (someone else decided).

        Forgetting the dialog first makes its task end without a decision; rejecting it
        here (not by cancelling the task) also works when that task has not started yet.
        """
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.reject()

    async def shutdown(self) -> None:
        task, self._dialog_task = self._dialog_task, None
        self._close_dialog()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
