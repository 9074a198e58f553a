"""The status bar says what the agent does: running, waiting for the operator, or idle."""

from __future__ import annotations

import pytest

from osprey_desktop.ui.status_bar import AppStatusBar

pytestmark = pytest.mark.gui

WRITE_APPROVAL = {"resume_payload": {"approval_type": "channel_write"}}


@pytest.fixture
def status(qtbot):
    bar = AppStatusBar()
    qtbot.addWidget(bar)
    bar.show()
    return bar


def test_pending_approval_replaces_idle_with_waiting_for_you(status):
    assert status.activity_label.text() == "Idle"
    status.show_approval(WRITE_APPROVAL)
    assert "Approval pending: channel write" in status.approval_text
    assert status.activity_label.text() == "Waiting for your approval"
    status.clear_approval()
    assert status.activity_label.text() == "Idle"


def test_running_turn_shows_running_even_with_an_approval_pending(status):
    status.show_approval(WRITE_APPROVAL)
    status.set_running(True)
    status.set_step("step 1/2 channel_write")
    assert status.activity_label.text().startswith("Running 0 s — step 1/2 channel_write")
    status.set_running(False)
    assert status.activity_label.text() == "Waiting for your approval"
