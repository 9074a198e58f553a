"""The status bar shows the posture; a live machine that may be written to stands out."""

from __future__ import annotations

import pytest

from osprey_desktop.config import build_config
from osprey_desktop.config.posture import describe_posture, with_read_only
from osprey_desktop.ui.status_bar import LIVE_ARMED_STYLE, AppStatusBar

pytestmark = pytest.mark.gui
LOOPBACK = {"EPICS_CA_ADDR_LIST": "127.0.0.1", "EPICS_CA_AUTO_ADDR_LIST": "NO"}


@pytest.fixture
def status(qtbot) -> AppStatusBar:
    bar = AppStatusBar()
    qtbot.addWidget(bar)
    return bar


def test_the_simulated_ring_is_shown_plain(status):
    status.set_posture(describe_posture(build_config(), {}))
    assert status.posture_label.text() == "Simulated ring · writes armed"
    assert status.posture_label.styleSheet() == ""
    assert "control_system.sim.writes_enabled: true" in status.posture_label.toolTip()


def test_an_armed_live_machine_is_marked_and_read_only_is_not(status):
    armed = build_config({"control_system": {"type": "epics", "epics": {"writes_enabled": True}}})
    status.set_posture(describe_posture(armed, LOOPBACK))
    assert status.posture_label.text() == "EPICS CA (address list 127.0.0.1) · writes armed"
    assert status.posture_label.styleSheet() == LIVE_ARMED_STYLE

    status.set_posture(describe_posture(with_read_only(armed), LOOPBACK))
    assert status.posture_label.text() == "EPICS CA (address list 127.0.0.1) · read-only"
    assert status.posture_label.styleSheet() == ""
    assert "no write is planned or sent" in status.posture_label.toolTip()
