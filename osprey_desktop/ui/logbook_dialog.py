"""The confirmation of a logbook entry: the approval dialog with the entry editable.

An entry waits as a *draft* in the logbook while it is confirmed. Here the operator edits its
title, text, logbook and tags, sees its attachments, and may add a screenshot of the window;
**Publish** saves the edits into the draft and answers yes (the entry is then published as
stored), **Discard** answers no. Everything else (grace period, Reject focused first, keys
typed while it opens going back to the chat) is the approval dialog's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QWidget,
)

from osprey_desktop.logbook.entries import Attachment
from osprey_desktop.ui.approval_dialog import ApprovalDialog

log = logging.getLogger(__name__)

Screenshot = Callable[[], bytes | None]


def is_logbook_approval(payload: Mapping[str, Any]) -> bool:
    resume = payload.get("resume_payload") or {}
    return resume.get("approval_type") == "logbook_entry" and bool(resume.get("entry_id"))


def window_png(window: QWidget) -> bytes | None:
    """A PNG of the window as it looks now (None when it cannot be drawn)."""
    pixmap = window.grab()
    if pixmap.isNull():
        return None
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    pixmap.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


class LogbookEntryDialog(ApprovalDialog):
    """Confirm (and edit) one logbook entry; ``store`` is the logbook holding its draft."""

    def __init__(
        self,
        payload: Mapping[str, Any],
        store: Any,
        parent: QWidget | None = None,
        screenshot: Screenshot | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(payload, parent, **kwargs)
        resume = payload.get("resume_payload") or {}
        self.store = store
        self.entry_id = int(resume.get("entry_id") or 0)
        self.screenshot = screenshot
        self.setWindowTitle("Logbook entry")
        destination = resume.get("destination") or "the logbook"
        self.message.setMarkdown(
            f"**Publish this logbook entry to {destination}?** Edit it below; nothing is "
            "logged without Publish."
        )
        # one line of question; the entry itself is in the editors below
        self.message.setMaximumHeight(4 * self.message.fontMetrics().height())
        self.title_edit = QLineEdit(str(resume.get("title") or ""))
        self.title_edit.setObjectName("logbook_title")
        self.text_edit = QPlainTextEdit(str(resume.get("text") or ""))
        self.text_edit.setObjectName("logbook_text")
        self.logbook_edit = QLineEdit(str(resume.get("logbook") or ""))
        self.tags_edit = QLineEdit(", ".join(resume.get("tags") or []))
        self.tags_edit.setPlaceholderText("comma-separated")
        self.attachments = QListWidget()
        self.attachments.setObjectName("logbook_attachments")
        for item in resume.get("attachments") or []:
            size = int(item.get("size") or 0)
            self.attachments.addItem(f"{item.get('filename')} ({max(1, size // 1024)} KB)")
        self.attachments.setMaximumHeight(70)
        self.screenshot_box = QCheckBox("Attach a screenshot of the window")
        self.screenshot_box.setEnabled(screenshot is not None)
        self.problem = QLabel()
        self.problem.setObjectName("logbook_problem")
        self.problem.setStyleSheet("color: #c62828; font-weight: bold;")
        self.problem.setWordWrap(True)
        self.problem.hide()
        form = QFormLayout()
        form.addRow("Title", self.title_edit)
        form.addRow("Text", self.text_edit)
        form.addRow("Logbook", self.logbook_edit)
        form.addRow("Tags", self.tags_edit)
        form.addRow("Attachments", self.attachments)
        form.addRow("", self.screenshot_box)
        layout = self.layout()
        # the editors go above the keys note and the buttons (the last two items)
        layout.insertLayout(max(0, layout.count() - 2), form)  # type: ignore[attr-defined]
        layout.insertWidget(max(0, layout.count() - 2), self.problem)  # type: ignore[attr-defined]
        self.approve_button.setText("Publish")
        self.reject_button.setText("Discard")
        self.approve_button.setToolTip("Publish the entry as edited here")
        self.reject_button.setToolTip("Discard the entry: nothing is logged")
        for widget in (
            self.title_edit,
            self.text_edit,
            self.logbook_edit,
            self.tags_edit,
            self.screenshot_box,
            self.attachments,
        ):
            widget.installEventFilter(self)
        self.resize(max(self.width(), 720), max(self.height(), 560))

    def _arm(self) -> None:
        super()._arm()
        self.keys_note.setText(
            "Tab moves between Discard and Publish; Enter or Space presses the focused one."
        )

    def edits(self) -> dict[str, Any]:
        tags = tuple(t.strip() for t in self.tags_edit.text().split(",") if t.strip())
        return {
            "title": self.title_edit.text().strip(),
            "text": self.text_edit.toPlainText().strip(),
            "logbook": self.logbook_edit.text().strip(),
            "tags": tags,
        }

    def accept(self) -> None:
        """Save the edits into the draft, then answer yes; a problem keeps the dialog open."""
        if not self.is_armed():
            return  # the approval dialog's grace period: nothing is saved or answered yet
        edits = self.edits()
        if not edits["title"] or not edits["logbook"]:
            self._show_problem("The entry needs a title and a logbook.")
            return
        try:
            saved = self.store.update(self.entry_id, **edits)
            if saved and self.screenshot_box.isChecked() and self.screenshot is not None:
                png = self.screenshot()
                if png:
                    self.store.add_attachment(
                        self.entry_id, Attachment("window.png", "image/png", png)
                    )
        except Exception as exc:  # noqa: BLE001 - the operator must see why, and may discard
            log.exception("could not save the logbook entry's edits")
            self._show_problem(f"The edits could not be saved: {exc}")
            return
        if not saved:
            self._show_problem(
                "This entry was already answered (on another console?); it cannot be edited."
            )
            return
        super().accept()

    def _show_problem(self, text: str) -> None:
        self.problem.setText(f"⚠ {text}")
        self.problem.show()


def logbook_entry_dialog(
    payload: Mapping[str, Any], window: QWidget, controller: Any, **kwargs: Any
) -> LogbookEntryDialog:
    """The dialog for a logbook approval of the thread ``controller`` runs."""
    from osprey_desktop.logbook import logbook_for

    session = getattr(controller, "session", None)
    store = logbook_for(getattr(session, "checkpointer", None))
    return LogbookEntryDialog(
        payload, store, window, screenshot=lambda: window_png(window), **kwargs
    )


__all__ = ["LogbookEntryDialog", "is_logbook_approval", "logbook_entry_dialog", "window_png"]
