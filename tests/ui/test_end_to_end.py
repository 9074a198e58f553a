"""The real window with the real graph: built-in planner, control-room capabilities, the
simulated machine and a SQLite checkpointer. Driven by typing and clicking only.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui

WRITE = "Set HCM01 to 1.5 A"


def read_channel(run_async, name: str) -> float:
    from osprey_desktop.connectors.factory import get_control_system_connector

    async def read() -> float:
        connector = await get_control_system_connector()
        return float((await connector.read_channel(name)).value)

    return run_async(read())


def test_request_steps_through_the_plan_and_fills_the_tree(windows, qtbot):
    window = windows.open(use_real_graph=True)
    states: list[tuple[str, ...]] = []
    window.controller.progress_event.connect(
        lambda _e: states.append(tuple(window.plan_viewer.states()))
    )
    windows.send(window, "What is the beam current?")
    windows.wait_idle(window)
    final = window.plan_viewer.states()
    assert final and all(s == "done" for s in final)
    assert any("running" in s for s in states)  # the viewer stepped through live
    assert "mA" in window.chat.transcript.texts("response")[-1]
    model, browser = window.context_model, window.context_browser
    values = model.index_for_path(["CHANNEL_VALUES"])
    browser.tree.expand(browser.proxy.mapFromSource(values))  # the view loads the rows
    assert model.rowCount(values) == 1
    first_key = model.index(0, 0, values)
    browser.tree.setCurrentIndex(browser.proxy.mapFromSource(first_key))
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    windows.send(window, "What is the beam lifetime?")
    windows.wait_idle(window)
    assert resets == []
    assert model.rowCount(model.index_for_path(["CHANNEL_VALUES"])) == 2
    assert browser.tree.isExpanded(
        browser.proxy.mapFromSource(model.index_for_path(["CHANNEL_VALUES"]))
    )
    assert browser.current_source_index() == model.index(
        0, 0, model.index_for_path(["CHANNEL_VALUES"])
    )


def _open_write_dialog(windows, qtbot, window):
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=15_000) as opened:
        windows.send(window, WRITE)
    dialog = opened.args[0]
    qtbot.waitUntil(dialog.is_armed)  # the buttons ignore clicks for a moment after opening
    return dialog


def test_approved_write_changes_the_channel(windows, qtbot, run_async):
    window = windows.open(use_real_graph=True)
    dialog = _open_write_dialog(windows, qtbot, window)
    channel = dialog.table.item(0, 0).text()
    assert "HCM01" in channel and dialog.table.item(0, 4).text() == "A"
    assert dialog.table.item(0, 2).text() == "1.500"  # at the channel's precision
    assert "awaiting approval" in window.plan_viewer.states()
    with qtbot.waitSignal(window.controller.turn_finished, timeout=15_000):
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert abs(read_channel(run_async, channel) - 1.5) < 1e-6
    assert window.status.approval_text == ""
    assert "CHANNEL_WRITE_RESULTS" in window.controller.live.values["capability_context_data"]


def test_rejected_write_leaves_channel_unchanged(windows, qtbot, run_async):
    window = windows.open(use_real_graph=True)
    dialog = _open_write_dialog(windows, qtbot, window)
    channel = dialog.table.item(0, 0).text()
    before = read_channel(run_async, channel)
    with qtbot.waitSignal(window.controller.turn_finished, timeout=15_000):
        qtbot.mouseClick(dialog.reject_button, Qt.MouseButton.LeftButton)
    assert read_channel(run_async, channel) == before
    assert window.approvals.visible_dialogs() == []


def test_history_plots_and_its_strip_chart_command_opens_live(windows, qtbot):
    window = windows.open(use_real_graph=True)
    windows.send(window, "Show the beam current over the last hour")
    windows.wait_idle(window)
    windows.wait_plots(window)
    qtbot.waitUntil(lambda: window.plot_dock.current_plot() is not None)  # drawn in steps
    plot = window.plot_dock.current_plot()
    counts = plot.point_counts()
    assert counts and all(n > 100 for n in counts.values())
    assert plot.plot_item.getAxis("left").labelText == "mA"
    strip = [a for a in window.command_actions.actions() if a.text().startswith("Live strip chart")]
    assert strip and strip[0].toolTip().startswith("osprey-desktop://stripchart?channels=")
    strip[0].trigger()
    assert window.stripcharts
    dock = window.stripcharts[-1]
    qtbot.waitUntil(lambda: any(n > 0 for n in dock.point_counts().values()), timeout=5000)


def test_planning_mode_plan_is_approved_in_the_plan_viewer(windows, qtbot):
    window = windows.open(use_real_graph=True)
    windows.send(window, "/planning:on")
    windows.wait_idle(window)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=15_000):
        windows.send(window, "What is the beam current?")
    viewer = window.plan_viewer
    qtbot.waitUntil(viewer.approval_bar.isVisible)
    assert viewer.states() and set(viewer.states()) == {"pending"}
    assert [viewer.tree.topLevelItem(i).text(2) for i in range(2)][0] == "Channel finding"
    with qtbot.waitSignal(window.controller.turn_finished, timeout=15_000):
        qtbot.mouseClick(viewer.approve_button, Qt.MouseButton.LeftButton)
    assert all(s == "done" for s in viewer.states())
    assert window.approvals.visible_dialogs() == []
    assert "mA" in window.chat.transcript.texts("response")[-1]


def test_planning_mode_plan_rejected_runs_nothing(windows, qtbot):
    window = windows.open(use_real_graph=True)
    windows.send(window, "/planning:on")
    windows.wait_idle(window)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=15_000) as opened:
        windows.send(window, "What is the beam current?")
    qtbot.waitUntil(opened.args[0].is_armed)
    with qtbot.waitSignal(window.controller.turn_finished, timeout=15_000):
        qtbot.mouseClick(opened.args[0].reject_button, Qt.MouseButton.LeftButton)
    assert "done" not in window.plan_viewer.states()
    assert not window.plan_viewer.approval_bar.isVisible()
    assert "CHANNEL_VALUES" not in (
        window.controller.live.values.get("capability_context_data") or {}
    )
