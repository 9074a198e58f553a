"""The approval dialog: decisions by clicking, Reject as default, violations disable Approve."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from osprey_desktop.ui.approval_dialog import ApprovalDialog, describe_write

pytestmark = pytest.mark.gui

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


def decide(qtbot, loop, payload, act) -> bool:
    """Open the dialog from a coroutine (as the controller does), act on it, await the answer."""
    dialog = ApprovalDialog(payload)
    qtbot.addWidget(dialog)
    task = loop.create_task(dialog.ask())
    qtbot.waitUntil(dialog.isVisible)
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
    assert decide(qtbot, qasync_loop, WRITE, lambda d: qtbot.keyClick(d, Qt.Key_Escape)) is False


def test_enter_rejects_because_reject_is_the_default(qtbot, qasync_loop):
    assert decide(qtbot, qasync_loop, WRITE, lambda d: qtbot.keyClick(d, Qt.Key_Return)) is False


def test_reject_is_left_of_approve(qtbot):
    dialog = ApprovalDialog(WRITE)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.reject_button.x() < dialog.approve_button.x()


def test_write_table_shows_what_will_be_written_where(qtbot):
    dialog = ApprovalDialog(WRITE)
    qtbot.addWidget(dialog)
    cells = [dialog.table.item(0, c).text() for c in range(dialog.table.columnCount())]
    assert cells[:4] == ["HCM01:SP", "1.2", "1.5", "A"]
    assert "-5" in cells[4] and "step ≤ 0.5" in cells[4]
    assert describe_write(WRITE["resume_payload"]["operations"][0]) == (
        "write 1.5 A to HCM01:SP (now 1.2 A)"
    )


def test_violation_disables_approve_and_says_why(qtbot, qasync_loop):
    payload = violating_write()
    dialog = ApprovalDialog(payload)
    qtbot.addWidget(dialog)
    assert not dialog.approve_button.isEnabled()
    assert "above the maximum" in dialog.approve_button.toolTip()
    dialog.accept()  # even a programmatic accept is refused
    assert dialog.result() != dialog.DialogCode.Accepted
    assert (
        decide(
            qtbot,
            qasync_loop,
            payload,
            lambda d: qtbot.mouseClick(d.approve_button, Qt.LeftButton) or d.reject(),
        )
        is False
    )


def test_every_approval_type_the_graph_asks_has_a_dialog_title():
    from osprey_desktop.approval import APPROVAL_TYPES
    from osprey_desktop.ui.approval_dialog import TITLES

    assert set(APPROVAL_TYPES) <= set(TITLES)
