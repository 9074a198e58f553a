"""The approval dialog: decisions by click and by key, the grace period, violations, freshness."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from osprey_desktop.ui.approval_dialog import (
    EXPIRED_NOTE,
    GRACE_NOTE,
    ApprovalDialog,
    describe_write,
)

pytestmark = pytest.mark.gui

QUICK_GRACE_MS = 50  # keyboard tests arm quickly; the grace tests use the real GRACE_MS

WRITE = {
    "user_message": "**Write** to the corrector?",
    "resume_payload": {
        "approval_type": "channel_write",
        "operations": [
            {
                "channel": "HCM01:SP",
                "current_value": 1.2,
                "new_value": 1.5,
                "units": "A",
                "limits": {"min": -5.0, "max": 5.0, "max_step": 0.5},
                "violation": None,
            }
        ],
    },
}


def violating_write() -> dict:
    payload = {"user_message": "Write?", "resume_payload": dict(WRITE["resume_payload"])}
    op = dict(WRITE["resume_payload"]["operations"][0], new_value=9.0)
    op["violation"] = "9 A is above the maximum 5 A"
    payload["resume_payload"]["operations"] = [op]
    return payload


def write_read_at(asked_at: float, expires_at: float) -> dict:
    resume = dict(WRITE["resume_payload"], asked_at=asked_at, expires_at=expires_at)
    return {"user_message": "Write?", "resume_payload": resume}


class ButtonSpy:
    """Records which of the dialog's buttons acted."""

    def __init__(self, dialog: ApprovalDialog) -> None:
        self.acted: list[str] = []
        dialog.reject_button.clicked.connect(lambda: self.acted.append("Reject"))
        dialog.approve_button.clicked.connect(lambda: self.acted.append("Approve"))


def shown(qtbot, payload, grace_ms: int = QUICK_GRACE_MS) -> ApprovalDialog:
    dialog = ApprovalDialog(payload, grace_ms=grace_ms)
    qtbot.addWidget(dialog)
    with qtbot.waitExposed(dialog):
        dialog.show()
    return dialog


def armed(qtbot, payload) -> ApprovalDialog:
    dialog = shown(qtbot, payload)
    qtbot.waitUntil(dialog.is_armed, timeout=2000)
    return dialog


def press(qtbot, dialog: ApprovalDialog, key: Qt.Key) -> None:
    """A key press where the keyboard goes: the dialog's focused widget."""
    qtbot.keyClick(dialog.focusWidget() or dialog, key)


def decide(qtbot, loop, payload, act) -> bool:
    """Open the dialog from a coroutine (as the controller does), act on it, await the answer."""
    dialog = ApprovalDialog(payload, grace_ms=QUICK_GRACE_MS)
    qtbot.addWidget(dialog)
    task = loop.create_task(dialog.ask())
    qtbot.waitUntil(dialog.is_armed, timeout=2000)
    act(dialog)
    qtbot.waitUntil(task.done, timeout=3000)
    return task.result()


def test_clicking_approve_returns_true(qtbot, qasync_loop):
    approved = decide(
        qtbot, qasync_loop, WRITE, lambda d: qtbot.mouseClick(d.approve_button, Qt.LeftButton)
    )
    assert approved is True


def test_clicking_reject_returns_false(qtbot, qasync_loop):
    rejected = decide(
        qtbot, qasync_loop, WRITE, lambda d: qtbot.mouseClick(d.reject_button, Qt.LeftButton)
    )
    assert rejected is False


def test_escape_rejects(qtbot, qasync_loop):
    assert decide(qtbot, qasync_loop, WRITE, lambda d: press(qtbot, d, Qt.Key_Escape)) is False


def test_no_button_is_a_dialog_default_that_could_take_enter(qtbot):
    dialog = armed(qtbot, WRITE)
    for button in dialog.findChildren(QPushButton):
        assert not button.isDefault() and not button.autoDefault()


def test_reject_has_the_initial_focus_and_enter_rejects(qtbot):
    dialog = armed(qtbot, WRITE)
    spy = ButtonSpy(dialog)
    assert dialog.focusWidget() is dialog.reject_button
    press(qtbot, dialog, Qt.Key_Return)
    assert spy.acted == ["Reject"]
    assert dialog.result() == ApprovalDialog.DialogCode.Rejected


def test_one_tab_reaches_approve_and_enter_then_approves(qtbot):
    dialog = armed(qtbot, WRITE)
    spy = ButtonSpy(dialog)
    press(qtbot, dialog, Qt.Key_Tab)
    assert dialog.focusWidget() is dialog.approve_button
    press(qtbot, dialog, Qt.Key_Return)
    assert spy.acted == ["Approve"]
    assert dialog.result() == ApprovalDialog.DialogCode.Accepted


def test_keypad_enter_on_approve_approves(qtbot):
    dialog = armed(qtbot, WRITE)
    press(qtbot, dialog, Qt.Key_Tab)
    qtbot.keyClick(dialog.approve_button, Qt.Key_Enter, Qt.KeypadModifier)
    assert dialog.result() == ApprovalDialog.DialogCode.Accepted


@pytest.mark.parametrize(("tabs", "acted", "code"), [(0, "Reject", 0), (1, "Approve", 1)])
def test_space_presses_the_focused_button(qtbot, tabs, acted, code):
    dialog = armed(qtbot, WRITE)
    spy = ButtonSpy(dialog)
    for _ in range(tabs):
        press(qtbot, dialog, Qt.Key_Tab)
    press(qtbot, dialog, Qt.Key_Space)
    assert spy.acted == [acted]
    assert dialog.result() == code


def test_shift_tab_from_approve_comes_back_to_reject(qtbot):
    dialog = armed(qtbot, WRITE)
    press(qtbot, dialog, Qt.Key_Tab)
    qtbot.keyClick(dialog.focusWidget(), Qt.Key_Backtab, Qt.ShiftModifier)
    assert dialog.focusWidget() is dialog.reject_button


def test_enter_with_the_focus_off_the_buttons_answers_nothing(qtbot):
    dialog = armed(qtbot, WRITE)
    spy = ButtonSpy(dialog)
    dialog.table.setFocus()
    press(qtbot, dialog, Qt.Key_Return)
    assert spy.acted == []
    assert dialog.isVisible() and dialog.result() == 0


def test_keys_and_clicks_right_after_opening_answer_nothing_and_text_is_handed_back(qtbot):
    dialog = shown(qtbot, WRITE, grace_ms=1000)
    spy = ButtonSpy(dialog)
    handed_back: list[str] = []
    dialog.typed_while_arming.connect(handed_back.append)
    assert not dialog.reject_button.isEnabled() and not dialog.approve_button.isEnabled()
    assert dialog.keys_note.text() == GRACE_NOTE
    target = dialog.focusWidget() or dialog  # wherever the keyboard lands in the dialog
    qtbot.keyClicks(target, " yes")
    for key in (Qt.Key_Return, Qt.Key_Space, Qt.Key_Escape, Qt.Key_Tab, Qt.Key_Backspace):
        qtbot.keyClick(dialog.focusWidget() or dialog, key)
    qtbot.mouseClick(dialog.approve_button, Qt.LeftButton)
    qtbot.mouseClick(dialog.reject_button, Qt.LeftButton)
    assert spy.acted == []
    assert dialog.isVisible() and dialog.result() == 0
    assert "".join(handed_back) == " yes \b"
    assert not dialog.is_armed()
    dialog.accept()  # not even a programmatic accept before the buttons arm
    assert dialog.isVisible()
    qtbot.waitUntil(dialog.is_armed, timeout=3000)
    assert dialog.reject_button.isEnabled() and dialog.approve_button.isEnabled()
    assert dialog.focusWidget() is dialog.reject_button
    assert "Enter or Space" in dialog.keys_note.text()


def test_buttons_stay_off_while_the_operator_keeps_typing(qtbot):
    dialog = shown(qtbot, WRITE, grace_ms=300)
    opened = time.monotonic()
    while time.monotonic() - opened < 0.7:  # more than twice the grace period of typing
        qtbot.keyClick(dialog.focusWidget() or dialog, Qt.Key_A)
        qtbot.wait(60)
    assert not dialog.is_armed()
    with qtbot.waitSignal(dialog.armed, timeout=2000):
        pass
    assert dialog.focusWidget() is dialog.reject_button


def test_reject_is_left_of_approve(qtbot):
    dialog = shown(qtbot, WRITE)
    assert dialog.reject_button.x() < dialog.approve_button.x()


def test_write_table_shows_what_will_be_written_where(qtbot):
    dialog = ApprovalDialog(WRITE)
    qtbot.addWidget(dialog)
    cells = [dialog.table.item(0, c).text() for c in range(dialog.table.columnCount())]
    assert cells[:5] == ["HCM01:SP", "1.2", "1.5", "+0.300", "A"]
    assert "-5" in cells[5] and "step ≤ 0.5" in cells[5]
    assert describe_write(WRITE["resume_payload"]["operations"][0]) == (
        "write 1.5 A to HCM01:SP (now 1.2 A)"
    )


def test_violation_disables_approve_and_says_why(qtbot, qasync_loop):
    payload = violating_write()
    dialog = armed(qtbot, payload)
    assert not dialog.approve_button.isEnabled()
    assert "above the maximum" in dialog.approve_button.toolTip()
    dialog.accept()  # even a programmatic accept is refused
    assert dialog.result() != dialog.DialogCode.Accepted
    press(qtbot, dialog, Qt.Key_Tab)  # Tab skips the disabled Approve
    assert dialog.focusWidget() is not dialog.approve_button
    assert (
        decide(
            qtbot,
            qasync_loop,
            payload,
            lambda d: qtbot.mouseClick(d.approve_button, Qt.LeftButton) or d.reject(),
        )
        is False
    )


def test_dialog_says_when_the_values_were_read(qtbot):
    asked_at = time.time() - 5 * 60 - 10
    dialog = shown(qtbot, write_read_at(asked_at, time.time() + 600))
    clock = datetime.fromtimestamp(asked_at).strftime("%H:%M:%S")
    assert dialog.freshness.isVisible()
    assert dialog.freshness.text() == f"Values read at {clock} (5 min ago)"
    assert not dialog.expired_note.isVisible()


def test_expired_approval_says_approving_reads_again(qtbot):
    dialog = shown(qtbot, write_read_at(time.time() - 900, time.time() - 300))
    assert dialog.expired_note.isVisible()
    assert dialog.expired_note.text() == EXPIRED_NOTE
    assert "15 min ago" in dialog.freshness.text()


def test_approval_that_expires_while_open_shows_it(qtbot):
    dialog = shown(qtbot, write_read_at(time.time(), time.time() + 0.3))
    assert not dialog.expired_note.isVisible()
    qtbot.waitUntil(dialog.expired_note.isVisible, timeout=2000)


def test_payload_without_times_shows_no_freshness_line(qtbot):
    dialog = shown(qtbot, WRITE)
    assert not dialog.freshness.isVisible() and not dialog.expired_note.isVisible()


def test_every_approval_type_the_graph_asks_has_a_dialog_title():
    from osprey_desktop.approval import APPROVAL_TYPES
    from osprey_desktop.ui.approval_dialog import TITLES

    assert set(APPROVAL_TYPES) <= set(TITLES)


def test_links_in_the_request_open_web_pages_only(qtbot, tmp_path):
    from PySide6.QtCore import QObject, QUrl, Slot
    from PySide6.QtGui import QDesktopServices

    class Catcher(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.urls: list[str] = []

        @Slot(QUrl)
        def handle(self, url: QUrl) -> None:
            self.urls.append(url.toString())

    catcher = Catcher()
    for scheme in ("https", "file"):
        QDesktopServices.setUrlHandler(scheme, catcher, "handle")
    try:
        program = tmp_path / "tool.desktop"
        page = "https://wiki.example/HCM01"
        payload = {
            "user_message": f"See [the wiki]({page}) or [this]({program.as_uri()}).",
            "resume_payload": WRITE["resume_payload"],
        }
        dialog = shown(qtbot, payload)
        request = dialog.message.toPlainText()
        dialog.message.anchorClicked.emit(QUrl(program.as_uri()))
        dialog.message.anchorClicked.emit(QUrl(page))
        assert catcher.urls == [page]
        assert dialog.message.toPlainText() == request
    finally:
        for scheme in ("https", "file"):
            QDesktopServices.unsetUrlHandler(scheme)


@pytest.mark.parametrize("bad", ["soon", float("nan"), 1e300, True, None, [1]])
def test_unreadable_times_in_the_payload_are_left_out(qtbot, bad):
    dialog = ApprovalDialog(write_read_at(bad, bad))
    qtbot.addWidget(dialog)
    assert dialog.asked_at is None and dialog.expires_at is None
    assert dialog.freshness.isHidden() and dialog.expired_note.isHidden()
