"""The real window over a real AgentSession (SQLite) and a deterministic graph.

Everything is driven as the operator does it: typing, Enter, clicking dialog buttons, Esc.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from osprey_desktop.ui.context_browser.model import PATH_ROLE
from tests.ui.window_graph import VIEWER

pytestmark = pytest.mark.gui


def test_title_names_version_control_system_and_write_posture(windows):
    window = windows.open()
    assert window.windowTitle() == "Osprey Desktop 0.1.0 — Simulated ring — writes armed"
    assert window.status.posture_label.text() == "Simulated ring · writes armed"


def test_the_chat_input_has_the_focus_when_the_window_opens(windows):
    window = windows.open()
    assert window.focusWidget() is window.chat.input


def test_request_steps_through_the_plan_and_answers_in_markdown(windows, qtbot):
    window = windows.open()
    seen_states = []
    window.controller.progress_event.connect(
        lambda e: seen_states.append(tuple(window.plan_viewer.states()))
    )
    windows.send(window, "read the beam current")
    windows.wait_idle(window)
    assert ("running", "pending") in seen_states and ("done", "running") in seen_states
    assert window.plan_viewer.states() == ["done", "done"]
    transcript = window.chat.transcript
    assert transcript.texts("request") == ["read the beam current"]
    assert "Step 1 of 2: Channel read — read the beam current" in transcript.texts("status")
    assert "channel_read" not in transcript.toPlainText()
    assert "The beam current is 500.2 mA." in transcript.toPlainText()
    assert window.context_model.index_for_path(["CHANNEL_VALUES", "values_1"]).isValid()


def test_context_tree_gains_entries_without_collapsing(windows, qtbot):
    window = windows.open()
    windows.send(window, "read the beam current")
    windows.wait_idle(window)
    browser = window.context_browser
    model = window.context_model
    type_index = browser.proxy.mapFromSource(model.index_for_path(["CHANNEL_VALUES"]))
    browser.tree.expand(type_index)
    assert browser.select_path(["CHANNEL_VALUES", "values_1", "channel_values"])
    resets, inserts = [], []
    model.modelReset.connect(lambda: resets.append(1))
    model.rowsInserted.connect(lambda parent, a, b: inserts.append(model.path(parent)))
    windows.send(window, "read the beam current again")
    windows.wait_idle(window)
    assert resets == []
    assert ("CHANNEL_VALUES",) in inserts
    assert browser.tree.isExpanded(
        browser.proxy.mapFromSource(model.index_for_path(["CHANNEL_VALUES"]))
    )
    current = browser.tree.currentIndex()
    assert current.data(PATH_ROLE) == ("CHANNEL_VALUES", "values_1", "channel_values")
    assert model.rowCount(model.index_for_path(["CHANNEL_VALUES"])) == 2


def test_write_is_approved_by_clicking_approve(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened) as opened:
        windows.send(window, "set hcm01 to 1.5")
    dialog = opened.args[0]
    assert dialog.table.item(0, 0).text() == "HCM01:SP"
    assert "Approval pending: channel write" in window.status.approval_text
    assert dialog.isVisible()
    qtbot.waitUntil(dialog.is_armed)  # the buttons ignore clicks for a moment after opening
    with qtbot.waitSignal(window.controller.turn_finished, timeout=10_000):
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert "Written: HCM01:SP = 1.5 A" in window.chat.transcript.toPlainText()
    assert window.status.approval_text == ""
    assert window.approvals.visible_dialogs() == []
    written = window.controller.live.values["capability_context_data"]["CHANNEL_WRITE_RESULTS"]
    assert written["write_1"]["written"] is True


def test_write_is_rejected_by_clicking_reject(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened) as opened:
        windows.send(window, "set hcm01 to 1.5")
    qtbot.waitUntil(opened.args[0].is_armed)
    with qtbot.waitSignal(window.controller.turn_finished, timeout=10_000):
        qtbot.mouseClick(opened.args[0].reject_button, Qt.MouseButton.LeftButton)
    assert "Not written: rejected." in window.chat.transcript.toPlainText()
    written = window.controller.live.values["capability_context_data"]["CHANNEL_WRITE_RESULTS"]
    assert written["write_1"]["written"] is False


def test_violation_in_the_window_disables_approve(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened) as opened:
        windows.send(window, "set hcm01 to 9")
    dialog = opened.args[0]
    assert not dialog.approve_button.isEnabled()
    assert "above the maximum 5 A" in dialog.approve_button.toolTip()


def test_typed_no_answers_the_approval_and_closes_the_dialog(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened) as opened:
        windows.send(window, "set hcm01 to 1.5")
    assert opened.args[0].isVisible()
    windows.send(window, "no")
    windows.wait_idle(window)
    assert window.approvals.visible_dialogs() == []
    assert "Not written: rejected." in window.chat.transcript.toPlainText()


def test_pending_approval_comes_back_after_restart(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened):
        windows.send(window, "find and set hcm01 to 1.5")
    thread = window.controller.thread_id
    windows.close(window)
    again = windows.open()
    qtbot.waitUntil(lambda: again.approvals.dialog is not None, timeout=5000)
    assert again.controller.thread_id == thread
    assert "Approval pending: channel write" in again.status.approval_text
    assert again.status.activity_label.text() == "Waiting for your approval"
    assert again.chat.transcript.texts("request") == ["find and set hcm01 to 1.5"]
    viewer = again.plan_viewer
    assert viewer.states() == ["done", "awaiting approval", "pending"]
    assert [viewer.tree.topLevelItem(i).text(2) for i in range(3)] == [
        "Channel finding",
        "Channel write",
        "Respond",
    ]
    details = [viewer.tree.topLevelItem(i).child(0).text(0) for i in range(3)]
    assert "gives: channel addresses" in details[0]
    assert all("find_" not in d and "CHANNEL_" not in d for d in details)
    assert "step 2 waits for your approval" in viewer.caption.text()
    qtbot.waitUntil(again.approvals.dialog.is_armed)
    qtbot.mouseClick(again.approvals.dialog.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Written" in again.chat.transcript.toPlainText(), timeout=10_000)


def test_stop_cancels_the_turn_and_the_thread_continues(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.controller.progress_event, timeout=5000):
        windows.send(window, "slowly read everything")
    qtbot.waitUntil(lambda: "running" in window.plan_viewer.states(), timeout=5000)
    assert window.chat.stop_button.isEnabled()
    with qtbot.waitSignal(window.controller.turn_cancelled, timeout=5000):
        qtbot.keyClick(window.chat.input, Qt.Key.Key_Escape)
    windows.wait_idle(window)
    assert "Stopped." in window.chat.transcript.texts("note")[-1]
    assert window.plan_viewer.states() == ["failed"]
    windows.send(window, "read the beam current")
    windows.wait_idle(window)
    assert "The beam current is 500.2 mA." in window.chat.transcript.toPlainText()


def test_closing_during_a_turn_asks_then_stops_and_closes(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.controller.progress_event, timeout=5000):
        windows.send(window, "slowly read everything")
    window.close()
    qtbot.waitUntil(lambda: window.close_prompt is not None, timeout=3000)
    keep = [b for b in window.close_prompt.buttons() if b.text() == "Keep running"][0]
    qtbot.mouseClick(keep, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.close_prompt is None, timeout=3000)
    assert window.isVisible() and window.controller.running
    window.close()
    qtbot.waitUntil(lambda: window.close_prompt is not None, timeout=3000)
    stop = [b for b in window.close_prompt.buttons() if b.text() == "Stop and quit"][0]
    with qtbot.waitSignal(window.closed, timeout=10_000):
        qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    assert not window.isVisible()
    assert not window.controller.running


class UrlCatcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def handle(self, url: QUrl) -> None:
        self.urls.append(url.toString())


def test_history_opens_a_plot_and_its_commands_launch(windows, qtbot):
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("https", catcher, "handle")
    try:
        window = windows.open()
        windows.send(window, "history of the beam current")
        windows.wait_idle(window)
        windows.wait_plots(window)
        qtbot.waitUntil(lambda: window.plot_dock.current_plot() is not None)  # drawn in steps
        plot = window.plot_dock.current_plot()
        assert plot.point_counts() == {"SR:DCCT:Current": 60}
        menu_texts = [a.text() for a in window.menus.commands_menu.actions()]
        assert "Open in the archive viewer" in menu_texts
        assert "Open in the archive viewer" in [a.text() for a in window.toolbar.actions()]
        related = window.context_browser.related_actions(("ARCHIVER_DATA", "history_1"))
        viewer = [a for a in related if a.text() == "Open in the archive viewer"][0]
        assert viewer.toolTip() == VIEWER
        viewer.trigger()
        assert catcher.urls == [VIEWER]
    finally:
        QDesktopServices.unsetUrlHandler("https")


def test_command_palette_finds_and_runs_a_window_action(windows, qtbot):
    window = windows.open()
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.menus.palette is not None and window.menus.palette.isVisible())
    palette = window.menus.palette
    qtbot.keyClicks(palette.query, "newthr")
    assert palette.visible_titles()[0] == "New thread"
    old = window.controller.thread_id
    qtbot.keyClick(palette.query, Qt.Key.Key_Return)
    assert window.controller.thread_id != old
    titles = [e.title for e in window.menus.palette_entries()]
    assert "/planning" in titles and "Quit" in titles


def test_later_steps_do_not_pull_the_plot_tab_forward_again(windows, qtbot):
    window = windows.open()
    windows.send(window, "history of the beam current")
    windows.wait_idle(window)
    windows.wait_plots(window)
    assert window.plot_dock.tabs.count() == 1
    window.process_log.raise_()
    qtbot.waitUntil(lambda: not window.process_log.visibleRegion().isEmpty())
    windows.send(window, "read the beam current")
    windows.wait_idle(window)
    qtbot.wait(50)
    assert not window.process_log.visibleRegion().isEmpty()
    assert window.plot_dock.tabs.count() == 1


def test_context_tree_updates_after_each_step_not_only_at_the_end(windows, qtbot):
    window = windows.open()
    seen_at_second_step = []

    def on_event(event):
        if event.get("type") == "capability_start" and event.get("step_index") == 1:
            index = window.context_model.index_for_path(["CHANNEL_VALUES", "values_1"])
            seen_at_second_step.append(index.isValid())

    window.controller.progress_event.connect(on_event)
    windows.send(window, "read the beam current")
    windows.wait_idle(window)
    assert seen_at_second_step == [True]


def test_switching_threads_shows_that_threads_conversation_and_context(windows, qtbot):
    window = windows.open()
    windows.send(window, "read the beam current")
    windows.wait_idle(window)
    first = window.controller.thread_id
    window.menus.new_thread_action.trigger()
    assert window.controller.thread_id != first
    assert window.chat.transcript.texts("request") == []
    assert window.context_model.rowCount() == 0
    assert window.describer.step_for("values_1") is None  # no step of the other thread shown
    windows.send(window, "history of the beam current")
    windows.wait_idle(window)
    qtbot.waitUntil(
        lambda: any(first in a.text() for a in window.menus.threads_menu.actions()), timeout=5000
    )
    switch = next(a for a in window.menus.threads_menu.actions() if first in a.text())
    with qtbot.waitSignal(window.controller.state_changed, timeout=5000):
        switch.trigger()
    qtbot.waitUntil(lambda: window.controller.thread_id == first, timeout=5000)
    qtbot.waitUntil(lambda: window.chat.transcript.texts("request") == ["read the beam current"])
    assert window.context_model.index_for_path(["CHANNEL_VALUES", "values_1"]).isValid()
    assert not window.context_model.index_for_path(["ARCHIVER_DATA"]).isValid()
    viewer = window.plan_viewer
    assert viewer.states() == ["done", "done"]
    assert [viewer.tree.topLevelItem(i).text(2) for i in range(2)] == ["Channel read", "Respond"]
