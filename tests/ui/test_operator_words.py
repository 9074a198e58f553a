"""Operator-facing text never shows capability ids, context keys or config keys."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from osprey_desktop.approval.payloads import create_plan_approval_payload
from osprey_desktop.ui.approval_dialog import ApprovalDialog
from osprey_desktop.ui.step_names import humane_note, operator_message, step_name

pytestmark = pytest.mark.gui

INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[A-Z]+_[A-Z_]+\b")
PLAN = {
    "steps": [
        {
            "context_key": "channel_finding_3",
            "capability": "channel_finding",
            "task_objective": "find HCM01",
            "expected_output": "CHANNEL_ADDRESSES",
            "inputs": [],
        },
        {
            "context_key": "channel_write_3",
            "capability": "channel_write",
            "task_objective": "set HCM01 to 1.5 A",
            "expected_output": "CHANNEL_WRITE_RESULTS",
            "inputs": [{"CHANNEL_ADDRESSES": "channel_finding_3"}],
        },
    ]
}


def test_names_in_words():
    assert step_name("channel_finding") == "Channel finding"
    assert humane_note("Set planning_mode_enabled=True, orchestration_mode=react") == (
        "Set planning mode: on, orchestration mode: react"
    )


def test_a_plan_approval_is_told_in_words(qtbot):
    payload = create_plan_approval_payload(PLAN, "set HCM01 to 1.5 A")
    assert "channel_finding" in payload["user_message"]  # the core's own text names ids
    told = operator_message(payload)
    assert "1. **Channel finding** — find HCM01 (gives: channel addresses)" in told
    assert "uses: channel addresses from step 1" in told
    dialog = ApprovalDialog(payload)
    qtbot.addWidget(dialog)
    shown = dialog.message.toPlainText()
    assert "Channel write" in shown
    assert not INTERNAL.findall(shown), INTERNAL.findall(shown)


def test_the_window_shows_no_internal_names_in_plan_transcript_and_notes(windows, qtbot):
    window = windows.open()
    windows.send(window, "/planning")
    windows.wait_idle(window)
    notes = " ".join(window.chat.transcript.texts("note"))
    assert "planning_mode_enabled" not in notes
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=10_000) as opened:
        windows.send(window, "find and set hcm01 to 1.5")
    dialog = opened.args[0]
    assert not INTERNAL.findall(dialog.message.toPlainText())
    qtbot.waitUntil(dialog.is_armed)
    qtbot.mouseClick(dialog.reject_button, Qt.MouseButton.LeftButton)
    windows.wait_idle(window)
    viewer = window.plan_viewer
    shown = [
        viewer.tree.topLevelItem(i).text(c)
        for i in range(viewer.tree.topLevelItemCount())
        for c in (2, 3)
    ]
    shown += [
        viewer.tree.topLevelItem(i).child(0).text(0) for i in range(viewer.tree.topLevelItemCount())
    ]
    assert not INTERNAL.findall(" ".join(shown)), shown
    assert not INTERNAL.findall(" ".join(window.chat.transcript.texts("status")))


def test_values_show_the_sample_time_with_the_age_beside_it():
    import time
    from datetime import datetime

    from osprey_desktop.answers.model import Cell, Table
    from osprey_desktop.ui.chat.answer_view import table_html, with_sample_times

    read = datetime.fromtimestamp(time.time() - 3)
    table = Table(
        kind="values",
        title="",
        columns=["Channel", "Description", "Value", "Alarm", "Age"],
        rows=[
            [
                Cell("SR:DCCT:Current"),
                Cell("beam current"),
                Cell("500.2 mA"),
                Cell(""),
                Cell("3.0 s", hint=f"read at {read:%Y-%m-%d %H:%M:%S}"),
            ]
        ],
    )
    shown = with_sample_times(table)
    assert shown.columns[-1] == "Time · age"
    assert shown.rows[0][-1].text == f"{read:%H:%M:%S} · 3.0 s"
    assert f"{read:%H:%M:%S} · 3.0 s" in table_html(table)


def test_a_note_repeated_on_many_write_rows_is_said_once_and_the_odd_row_comes_first():
    from osprey_desktop.answers.model import Cell, Table
    from osprey_desktop.ui.chat.answer_view import with_shared_notes

    blocked = "step of 2.5 A is more than 2 A (limit max_step=2)"
    other = "not written because another operation of this request was blocked"
    rows = [[Cell(f"VCM{i:02d}"), Cell("not sent"), Cell(other)] for i in range(1, 37)]
    rows[10] = [Cell("VCM11"), Cell("blocked"), Cell(blocked)]
    table = Table(kind="writes", title="", columns=["Channel", "Outcome", "Note"], rows=rows)
    shown = with_shared_notes(table)
    assert shown.rows[0][0].text == "VCM11" and shown.rows[0][2].text == blocked
    assert {r[2].text for r in shown.rows[1:]} == {"see note 1 below"}
    assert shown.notes == [f"Note 1 (35 channels): {other}"]


def test_errors_and_answers_name_steps_in_words_and_leave_channels_alone(qtbot):
    from osprey_desktop.ui.chat.transcript import Transcript

    transcript = Transcript()
    qtbot.addWidget(transcript)
    transcript.add_error("the task_extraction step failed: no reply")
    transcript.add_response(
        "**What failed:** `channel_write` on `SR01C:HCM01:Current:SP`; kept: `CHANNEL_ADDRESSES`"
        " (see `models.chat_model.timeout_seconds`)"
    )
    text = transcript.toPlainText()
    assert "the Task extraction step failed" in text
    assert "Channel write on SR01C:HCM01:Current:SP" in text
    assert "kept: channel addresses" in text
    assert "models.chat_model.timeout_seconds" in text  # a config key stays a config key
    assert not INTERNAL.findall(text.replace("models.chat_model.timeout_seconds", ""))
