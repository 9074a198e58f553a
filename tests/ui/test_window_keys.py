"""Keys and closing as an operator meets them: Tab on a slash completion stays in the input,
Ctrl+N leaves the keyboard in the chat, closing with an approval waiting asks first."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


def test_tab_on_a_slash_completion_inserts_it_and_stays_in_the_input(windows, qtbot):
    window = windows.open()
    chat = window.chat.input
    qtbot.keyClicks(chat, "/pla")
    popup = chat.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(chat, Qt.Key.Key_Tab)
    assert chat.toPlainText().startswith("/planning")
    assert window.focusWidget() is chat


def test_ctrl_n_starts_a_thread_with_the_keyboard_in_the_chat(windows, qtbot):
    window = windows.open()
    old = window.controller.thread_id
    window.plan_viewer.tree.setFocus()
    window.menus.new_thread_action.trigger()
    assert window.controller.thread_id != old
    assert window.focusWidget() is window.chat.input


def test_closing_with_an_approval_waiting_asks_and_keep_open_keeps_it(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened):
        windows.send(window, "set hcm01 to 1.5")
    window.close()
    qtbot.waitUntil(lambda: window.close_prompt is not None, timeout=3000)
    text = window.close_prompt.text()
    assert "waits for your approval" in text and "osprey-desktop approve --thread" in text
    keep = next(b for b in window.close_prompt.buttons() if b.text() == "Keep open")
    qtbot.mouseClick(keep, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.close_prompt is None, timeout=3000)
    assert window.isVisible() and window.controller.pending_approval is not None
    window.close()
    qtbot.waitUntil(lambda: window.close_prompt is not None, timeout=3000)
    leave = next(b for b in window.close_prompt.buttons() if b.text() == "Quit")
    with qtbot.waitSignal(window.closed, timeout=10_000):
        qtbot.mouseClick(leave, Qt.MouseButton.LeftButton)
    assert not window.isVisible()
