"""The approval flow in the real window: the dialog opens while the operator types."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from osprey_desktop.ui.approval_flow import editable_text_field, type_into

pytestmark = pytest.mark.gui


def keyboard():
    """Where a key pressed now would go: the focused widget of the active window."""
    return QApplication.focusWidget()


def test_keys_typed_for_the_chat_as_the_dialog_appears_neither_approve_nor_reject(windows, qtbot):
    window = windows.open()
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(window.approvals.dialog_opened) as opened:
        windows.send(window, "set hcm01 to 1.5")
    dialog = opened.args[0]
    qtbot.keyClicks(keyboard(), "then read")  # the operator goes on typing the next request
    qtbot.waitUntil(dialog.isActiveWindow)  # the dialog has taken the keyboard
    assert dialog.isAncestorOf(keyboard())
    qtbot.keyClicks(keyboard(), " the beam current")  # a space once pressed Reject
    qtbot.keyClick(keyboard(), Qt.Key.Key_Return)  # and Enter sent the rest as a request
    qtbot.keyClick(keyboard(), Qt.Key.Key_Space)
    assert dialog.isVisible() and dialog.result() == 0
    assert window.controller.pending_approval is not None
    assert window.chat.input.toPlainText() == "then read the beam current "
    assert window.chat.transcript.texts("request") == ["set hcm01 to 1.5"]

    qtbot.waitUntil(dialog.is_armed, timeout=3000)
    assert keyboard() is dialog.reject_button
    assert window.controller.pending_approval is not None
    qtbot.keyClick(keyboard(), Qt.Key.Key_Tab)  # now a deliberate answer: Tab, Enter
    assert keyboard() is dialog.approve_button
    with qtbot.waitSignal(window.controller.turn_finished, timeout=10_000):
        qtbot.keyClick(keyboard(), Qt.Key.Key_Return)
    assert "Written: HCM01:SP = 1.5 A" in window.chat.transcript.toPlainText()
    assert window.chat.input.toPlainText() == "then read the beam current "


def test_text_handed_back_goes_into_an_editable_field_with_backspace(qtbot):
    field = QLineEdit("set")
    qtbot.addWidget(field)
    assert editable_text_field(field) is field
    for text in (" h", "x", "\b", "cm"):
        type_into(field, text)
    assert field.text() == "set hcm"
    field.setReadOnly(True)
    assert editable_text_field(field) is None
