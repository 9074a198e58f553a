"""An approval of many channel writes: a scrolling table with Δ and verdicts, blocked rows
first, one summary line, and the predicted effect from the ring model."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from osprey_desktop.channels.loading import get_channel_database
from osprey_desktop.prediction import RingModel, predict_write_effect
from osprey_desktop.prediction.effect import NO_MODEL_REASON
from osprey_desktop.ui.approval_dialog import ApprovalDialog

pytestmark = pytest.mark.gui

STEP_VIOLATION = (
    "Changing 'SR04C:VCM11:Current:SP' from 2.5 A to 0.0 A is a step of 2.5 A, more than the "
    "maximum step of 2.0 A (limit max_step=2); make the change in smaller steps."
)


def vertical_correctors(blocked: int | None = None) -> list[dict]:
    database = get_channel_database(None)
    names = [r.name for r in database if r.family == "VCM" and r.role == "setpoint"]
    ops = []
    for i, name in enumerate(names):
        now = 2.5 if i + 1 == blocked else round(0.05 * (i % 7) - 0.1, 3)
        ops.append(
            {
                "channel": name,
                "current_value": now,
                "new_value": 0.0,
                "units": "A",
                "precision": 3,
                "limits": {"min": -5.0, "max": 5.0, "max_step": 2.0},
                "violation": STEP_VIOLATION if i + 1 == blocked else None,
            }
        )
    return ops


def payload(ops: list[dict]) -> dict:
    lines = [f"**Approve {len(ops)} writes to the machine?**", ""]
    lines += [f"- write **0.0 A** to `{op['channel']}` (now {op['current_value']} A)" for op in ops]
    return {
        "user_message": "\n".join(lines),
        "resume_payload": {"approval_type": "channel_write", "operations": ops},
    }


def describe(channel: str) -> str:
    record = get_channel_database(None).get(channel)
    return record.description if record else ""


def test_36_writes_with_one_blocked_put_it_first_and_sum_up_in_one_line(qtbot):
    ops = vertical_correctors(blocked=11)
    dialog = ApprovalDialog(payload(ops), describe=describe)
    qtbot.addWidget(dialog)
    table = dialog.table
    assert table.rowCount() == 36
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Channel", "Now", "New", "Δ", "Units", "Limits", "Verdict"]
    first = [table.item(0, c).text() for c in range(table.columnCount())]
    assert first[0] == "⊘ SR04C:VCM11:Current:SP"
    assert first[3] == "-2.500"
    assert first[6] == "⊘ max_step"
    assert all(table.item(r, 6).text() == "✓ ok" for r in range(1, 36))
    assert dialog.summary.text() == (
        "36 vertical corrector magnets, all → 0 A, |Δ| ≤ 2.5 A, 1 blocked: VCM11 max_step"
    )
    assert not dialog.approve_button.isEnabled()
    assert "max_step=2" in dialog.status.text()
    # the 36 bullets are row tooltips, not 36 more lines above the table
    assert "SR01C:VCM01" not in dialog.message.toPlainText()
    assert "SR01C:VCM01:Current:SP" in table.item(1, 0).toolTip()


@pytest.mark.parametrize("shape", ["inside", "beside"])
def test_the_dialog_fits_the_screen_and_the_table_scrolls(qtbot, shape):
    """Both shapes of a blocked write (inside the asked writes, or carried beside them with
    its long reason under the table) leave at least four rows in view on the screen."""
    ops = vertical_correctors(blocked=11)
    asked = payload(ops) if shape == "inside" else split_payload(ops)
    dialog = ApprovalDialog(asked, describe=describe)
    qtbot.addWidget(dialog)
    dialog.resize(dialog.sizeHint())
    dialog.show()
    qtbot.waitExposed(dialog)
    screen = QApplication.primaryScreen().availableGeometry()
    assert dialog.height() <= screen.height() and dialog.width() <= screen.width()
    rows_shown = dialog.table.viewport().height() / dialog.table.rowHeight(0)
    assert rows_shown >= 4  # never 2 rows at a time
    assert dialog.table.verticalScrollBar().maximum() > 0  # the rest scroll


def test_the_predicted_orbit_change_is_shown_before_approving(qtbot):
    ops = vertical_correctors()
    effect = predict_write_effect(ops, RingModel.from_records(get_channel_database(None)))
    dialog = ApprovalDialog(payload(ops), prediction=effect, describe=describe)
    qtbot.addWidget(dialog)
    view = dialog.prediction_view
    assert view is not None and view.plot is not None
    assert "prediction from the ring model" in view.heading.text()
    assert view.text().startswith("Vertical orbit: up to ")
    assert not view.plot.grab().isNull()


def test_without_a_model_the_dialog_says_there_is_no_prediction(qtbot):
    ops = vertical_correctors()[:2]
    effect = predict_write_effect(ops, None, NO_MODEL_REASON)
    dialog = ApprovalDialog(payload(ops), prediction=effect)
    qtbot.addWidget(dialog)
    assert dialog.prediction_view.plot is None
    assert dialog.prediction_view.text() == NO_MODEL_REASON
    # two writes: each spelled out, as before
    assert dialog.summary.text().count("write 0 A to") == 2


def test_a_corrector_write_in_the_window_shows_the_prediction(windows, qtbot):
    window = windows.open(use_real_graph=True)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=20_000) as opened:
        windows.send(window, "set HCM01 to 1.5 A")
    dialog = opened.args[0]
    assert dialog.prediction_view is not None
    assert dialog.prediction_view.text().startswith("Horizontal orbit: up to ")
    qtbot.waitUntil(dialog.is_armed)
    dialog.reject_button.click()
    windows.wait_idle(window)


def split_payload(ops: list[dict]) -> dict:
    """The core's shape since writes blocked by the policy travel beside the question: the
    allowed writes are asked, the blocked ones ride along in ``blocked_operations``."""
    allowed = [op for op in ops if not op["violation"]]
    blocked = [op for op in ops if op["violation"]]
    asked = payload(allowed)
    asked["resume_payload"]["blocked_operations"] = blocked
    return asked


def test_a_write_blocked_beside_the_question_is_listed_first_as_not_sent(qtbot):
    dialog = ApprovalDialog(
        split_payload(vertical_correctors(blocked=11)), grace_ms=0, describe=describe
    )
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(dialog.is_armed)
    table = dialog.table
    assert table.rowCount() == 36
    first = [table.item(0, c).text() for c in range(table.columnCount())]
    assert first[0] == "⊘ SR04C:VCM11:Current:SP"
    assert first[6] == "⊘ not sent: max_step"
    assert "not sent, whatever you answer" in table.item(0, 0).toolTip()
    assert all(table.item(r, 6).text() == "✓ ok" for r in range(1, 36))
    assert dialog.summary.text() == (
        "36 vertical corrector magnets, all → 0 A, |Δ| ≤ 2.5 A, 1 blocked: VCM11 max_step"
    )
    # the other 35 can be approved; the note says the blocked one is not sent
    assert dialog.approve_button.isEnabled()
    assert "1 write is blocked and will not be sent" in dialog.status.text()
    assert "Approve sends the other 35 writes only" in dialog.status.text()
    assert "not sent" in dialog.approve_button.toolTip()
    assert "SR04C:VCM11" not in dialog.message.toPlainText()  # once, in the table
    with qtbot.waitSignal(dialog.accepted, timeout=2000):
        dialog.approve_button.click()


def test_a_malformed_blocked_list_shows_what_it_can_and_never_crashes(qtbot):
    asked = payload(vertical_correctors()[:2])
    asked["resume_payload"]["blocked_operations"] = ["VCM11", None, {"channel": "VCM12"}]
    dialog = ApprovalDialog(asked, grace_ms=0)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 3
    assert dialog.table.item(0, 6).text() == "⊘ not sent: blocked"
    assert dialog.summary.text().startswith("not sent: write")


def test_the_real_flow_asks_the_allowed_writes_and_lists_the_blocked_one_first(windows, qtbot):
    """'set all vertical correctors to 0 A' with VCM11 at 2.5 A (max step 2 A): the agent asks
    about 35 writes and carries VCM11 beside them; the dialog lists it first, not sent."""
    from osprey_desktop.connectors.factory import get_sim_machine

    window = windows.open(use_real_graph=True)
    machine = get_sim_machine(window.config)
    vcm11 = next(r.name for r in machine.database if r.device == "VCM11" and r.role == "setpoint")
    machine.set_setpoint(vcm11, 2.5)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=30_000) as opened:
        windows.send(window, "set all vertical correctors to 0 A")
    dialog = opened.args[0]
    assert [op["channel"] for op in dialog.not_sent] == [vcm11]
    assert "first in the table below" in dialog.message.toPlainText()
    assert len(dialog.operations) == 35
    assert dialog.table.item(0, 0).text() == f"⊘ {vcm11}"
    assert dialog.table.item(0, 6).text() == "⊘ not sent: max_step"
    assert dialog.summary.text().endswith(", 1 blocked: VCM11 max_step")
    qtbot.waitUntil(dialog.is_armed)
    assert dialog.approve_button.isEnabled()
    dialog.reject_button.click()
    windows.wait_idle(window)
