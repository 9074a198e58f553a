"""A step that asks the operator a question is shown as needing input, not as failed."""

from __future__ import annotations

import pytest

from osprey_desktop.ui.chat.transcript import status_line_for
from osprey_desktop.ui.plan_viewer import PlanViewerDock

pytestmark = pytest.mark.gui

PLAN = {
    "steps": [
        {"context_key": "cf", "capability": "channel_finding", "task_objective": "find it"},
        {"context_key": "cr", "capability": "channel_read", "task_objective": "read it"},
        {"context_key": "answer", "capability": "respond", "task_objective": "answer"},
    ]
}
QUESTION = "I found no channel matching 'cryoplant pressure'. Which channel do you mean?"


def event(kind: str, index: int, key: str, capability: str, total: int = 3, **extra):
    return {
        "type": kind,
        "step_index": index,
        "total_steps": total,
        "context_key": key,
        "capability": capability,
        **extra,
    }


def test_asking_step_shows_needs_input_and_the_clarify_step_follows(qtbot):
    dock = PlanViewerDock()
    qtbot.addWidget(dock)
    dock.apply_event({"type": "plan_created", "plan": PLAN})
    dock.apply_event(event("capability_start", 0, "cf", "channel_finding"))
    dock.apply_event(
        event("clarification", 0, "cf", "channel_finding", question=QUESTION, duration=0.02)
    )
    assert dock.states()[0] == "needs input"
    assert "step 1 needs your input" in dock.caption.text()
    assert "failed" not in dock.caption.text()
    assert f"Question: {QUESTION}" in dock.tree.topLevelItem(0).toolTip(1)
    assert dock.tree.topLevelItem(0).text(1) == "? needs input"

    dock.apply_event(event("capability_start", 1, "cf_clarify", "clarify", total=2))
    dock.apply_event(
        event("capability_complete", 1, "cf_clarify", "clarify", total=2, success=True)
    )
    dock.finish_turn()
    assert dock.states() == ["needs input", "skipped", "skipped", "done"]


def test_the_transcript_says_the_step_asks_rather_than_failed():
    line = status_line_for(event("clarification", 0, "cf", "channel_finding", question=QUESTION))
    assert line is not None and "Channel finding" in line and "input" in line
    assert "failed" not in line.lower()
