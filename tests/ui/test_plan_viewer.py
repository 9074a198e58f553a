"""The plan viewer follows progress events: pending -> running -> done / failed / skipped."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from osprey_desktop.ui.plan_viewer import PlanViewerDock

pytestmark = pytest.mark.gui

PLAN = {
    "steps": [
        {
            "context_key": "beam_channels",
            "capability": "channel_finding",
            "task_objective": "find the beam current channel",
            "expected_output": "CHANNEL_ADDRESSES",
            "inputs": [],
        },
        {
            "context_key": "beam_values",
            "capability": "channel_read",
            "task_objective": "read it",
            "expected_output": "CHANNEL_VALUES",
            "inputs": [{"CHANNEL_ADDRESSES": "beam_channels"}],
        },
        {
            "context_key": "answer",
            "capability": "respond",
            "task_objective": "answer",
            "inputs": [],
        },
    ]
}


@pytest.fixture
def viewer(qtbot):
    dock = PlanViewerDock()
    qtbot.addWidget(dock)
    dock.apply_event({"type": "plan_created", "plan": PLAN})
    return dock


def start(i, key, cap):
    return {
        "type": "capability_start",
        "step_index": i,
        "total_steps": 3,
        "context_key": key,
        "capability": cap,
    }


def test_plan_shows_capability_objective_inputs_and_output(viewer):
    item = viewer.tree.topLevelItem(1)
    assert [item.text(c) for c in range(2, 4)] == ["Channel read", "read it"]
    detail = item.child(0).text(0)
    assert "uses: channel addresses from step 1" in detail
    assert "gives: channel values" in detail
    assert "beam_channels" not in detail and "CHANNEL_" not in detail
    assert viewer.states() == ["pending"] * 3


def test_steps_go_through_running_done_and_failed(viewer):
    viewer.apply_event(start(0, "beam_channels", "channel_finding"))
    assert viewer.states()[0] == "running"
    assert "running step 1 of 3" in viewer.caption.text()
    viewer.apply_event(
        {
            **start(0, "beam_channels", "channel_finding"),
            "type": "capability_complete",
            "success": True,
            "duration": 0.25,
        }
    )
    viewer.apply_event(start(1, "beam_values", "channel_read"))
    viewer.apply_event(
        {
            **start(1, "beam_values", "channel_read"),
            "type": "capability_complete",
            "success": False,
            "duration": 1.5,
            "error": "timeout",
        }
    )
    viewer.finish_turn()
    assert viewer.states() == ["done", "failed", "skipped"]
    assert viewer.tree.topLevelItem(0).text(4) == "250 ms"
    assert viewer.tree.topLevelItem(1).text(4) == "1.5 s"
    assert "timeout" in viewer.tree.topLevelItem(1).toolTip(1)


def test_reactive_steps_are_appended_as_they_start(qtbot):
    dock = PlanViewerDock()
    qtbot.addWidget(dock)
    dock.apply_event(start(0, "k1", "channel_read"))
    dock.apply_event(start(1, "k2", "respond"))
    assert [dock.tree.topLevelItem(i).text(2) for i in range(2)] == ["Channel read", "Respond"]


def test_plan_awaiting_approval_offers_reject_left_and_approve_right(qtbot):
    dock = PlanViewerDock()
    qtbot.addWidget(dock)
    dock.show()
    dock.show_plan(PLAN, awaiting_approval=True)
    assert dock.approval_bar.isVisible()
    assert dock.reject_button.x() < dock.approve_button.x()
    with qtbot.waitSignal(dock.decision) as decided:
        qtbot.mouseClick(dock.approve_button, Qt.LeftButton)
    assert decided.args == [True]
    assert not dock.approval_bar.isVisible()


def test_step_waiting_for_approval_is_shown_as_such(viewer):
    viewer.apply_event(start(0, "beam_channels", "channel_finding"))
    viewer.apply_event({"type": "approval_required", "approval_type": "channel_write"})
    assert viewer.states()[0] == "awaiting approval"
    assert "step 1 waits for your approval" in viewer.caption.text()
    viewer.apply_event(start(0, "beam_channels", "channel_finding"))  # resumed: runs again
    assert viewer.states()[0] == "running"


def result(key, cap, index, success=True, **extra):
    return {
        "capability": cap,
        "context_key": key,
        "step_index": index,
        "success": success,
        "duration": 0.5,
        "error": None if success else "channel not found",
        "timestamp": 1_700_000_000.0 + index,
        **extra,
    }


def test_restored_thread_without_approval_shows_results_and_skips_the_rest(qtbot):
    dock = PlanViewerDock()
    qtbot.addWidget(dock)
    values = {
        "planning_execution_plan": PLAN,
        "execution_step_results": {
            "beam_channels": result("beam_channels", "channel_finding", 0, success=False)
        },
    }
    dock.show_restored(values)
    assert dock.states() == ["failed", "skipped", "skipped"]
    assert "channel not found" in dock.tree.topLevelItem(0).toolTip(1)
    assert dock.tree.topLevelItem(0).text(4) == "500 ms"
    assert not dock.approval_bar.isVisible()


def test_restored_reactive_thread_lists_earlier_steps_then_the_waiting_one(qtbot):
    dock = PlanViewerDock()
    qtbot.addWidget(dock)
    values = {
        "planning_execution_plan": {"steps": [PLAN["steps"][1]]},
        "planning_current_step_index": 0,
        "execution_step_results": {
            "beam_channels": result("beam_channels", "channel_finding", 0),
            "asked": result(
                "asked",
                "time_range_parsing",
                0,
                False,
                needs_clarification=True,
                question="Which hour?",
            ),
        },
    }
    dock.show_restored(values, awaiting_approval=True)
    assert dock.states() == ["done", "needs input", "awaiting approval"]
    assert [dock.tree.topLevelItem(i).text(2) for i in range(3)] == [
        "Channel finding",
        "Time range parsing",
        "Channel read",
    ]
    dock.await_step(PLAN["steps"][1])  # the reactive approval names the step already shown
    assert dock.states() == ["done", "needs input", "awaiting approval"]
    assert dock.approval_bar.isHidden() is False
