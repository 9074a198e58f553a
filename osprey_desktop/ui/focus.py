"""The keyboard goes back to the chat input after a dock or toolbar button is used.

Operators click Approve plan, Copy value or Export CSV and then type the next request; that
request must land in the chat, not in whatever widget Qt picks when a button bar hides (the
Context filter, before this). Buttons keep Tab focus for keyboard use, but a click no longer
moves the keyboard to them.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractButton, QLineEdit, QWidget

_WATCHED = "osprey_focus_return"


class FocusReturn(QObject):
    """Connects every button under a widget so a click hands the keyboard to ``target``."""

    def __init__(self, target: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.target = target

    def watch(self, root: QWidget) -> None:
        """Watch the buttons under ``root`` (call again after adding buttons; idempotent)."""
        for button in root.findChildren(QAbstractButton):
            if button.property(_WATCHED) or isinstance(button.parentWidget(), QLineEdit):
                continue  # a line edit's own clear button keeps the focus in its field
            button.setProperty(_WATCHED, True)
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.clicked.connect(self.give_back)

    def give_back(self) -> None:
        # after the click's own handlers ran: a bar hiding moves the focus on its own
        QTimer.singleShot(0, self._focus_target)

    def _focus_target(self) -> None:
        if self.target.isVisible() and self.target.isEnabled():
            self.target.setFocus(Qt.FocusReason.OtherFocusReason)
