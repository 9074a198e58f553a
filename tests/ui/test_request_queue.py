"""Requests typed while the agent is busy are queued, shown, removable, and run in order.

Driven through the real window over a real AgentSession and the deterministic graph.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

pytestmark = pytest.mark.gui


def _type(qtbot, window, text: str) -> None:
    qtbot.keyClicks(window.chat.input, text)
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)


def _remove_buttons(window) -> list[QToolButton]:
    return window.chat.queue_view.findChildren(QToolButton, "queued_remove")


def test_requests_typed_during_a_turn_wait_and_run_in_order_after_stop_and_run(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.controller.progress_event, timeout=5000):
        windows.send(window, "slowly read everything")
    _type(qtbot, window, "read the beam current")
    _type(qtbot, window, "read the lifetime")
    queue = window.chat.queue_view
    assert queue.isVisible()
    assert queue.texts() == ["read the beam current", "read the lifetime"]
    assert "waiting for the running turn" in queue.reason.text()
    assert window.chat.input.toPlainText() == ""
    assert window.chat.transcript.texts("request") == ["slowly read everything"]

    qtbot.mouseClick(_remove_buttons(window)[1], Qt.MouseButton.LeftButton)
    assert queue.texts() == ["read the beam current"]
    assert window.chat.input.toPlainText() == "read the lifetime"  # nothing typed is lost
    window.chat.input.clear()

    with qtbot.waitSignal(window.controller.turn_cancelled, timeout=5000):
        qtbot.keyClick(window.chat.input, Qt.Key.Key_Escape)
    windows.wait_idle(window)
    qtbot.waitUntil(lambda: window.chat.queue_view.run_button.isVisible(), timeout=3000)
    assert "held after stop" in queue.reason.text().lower()
    assert window.chat.transcript.texts("request") == ["slowly read everything"]

    with qtbot.waitSignal(window.controller.turn_started, timeout=5000) as started:
        qtbot.mouseClick(queue.run_button, Qt.MouseButton.LeftButton)
    assert started.args == ["read the beam current"]
    windows.wait_idle(window)
    qtbot.waitUntil(lambda: not queue.isVisible(), timeout=3000)
    assert "The beam current is 500.2 mA." in window.chat.transcript.toPlainText()
    # both turns (the stopped one and this) ended with the collector told, its idle pass due
    assert window.controller.collector.turns_since_collect == 2
    assert window.controller._idle_timer.isActive()


def test_a_request_typed_while_the_window_opens_runs_once_the_session_is_open(
    qtbot, run_async, tmp_path, configure
):
    from osprey_desktop.session import AgentSession
    from osprey_desktop.ui.controller import SessionController
    from osprey_desktop.ui.main_window import MainWindow
    from tests.ui.window_graph import build_window_graph

    config = configure()
    window = MainWindow(SessionController(), config)
    window.show()
    _type(qtbot, window, "read the beam current")
    queue = window.chat.queue_view
    assert queue.texts() == ["read the beam current"]
    assert "thread database to open" in queue.reason.text()
    assert window.chat.transcript.texts("error") == []

    manager = AgentSession.open(config, tmp_path / "t.sqlite", graph_factory=build_window_graph)
    session = run_async(manager.__aenter__(), timeout=30_000)
    try:
        with qtbot.waitSignal(window.controller.turn_started, timeout=10_000):
            run_async(window.controller.attach(session))
        qtbot.waitUntil(lambda: not window.controller.running, timeout=10_000)
        assert "The beam current is 500.2 mA." in window.chat.transcript.toPlainText()
        assert not queue.isVisible()
    finally:
        run_async(window.shutdown())
        window._quitting = True
        window.close()
        run_async(manager.__aexit__(None, None, None))
        window.deleteLater()


def test_a_yes_typed_during_a_turn_is_given_back_never_queued(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.controller.progress_event, timeout=5000):
        windows.send(window, "slowly read everything")
    _type(qtbot, window, "yes")
    assert window.chat.queue_view.texts() == []
    assert window.chat.input.toPlainText() == "yes"
    assert "answers an approval only while one is shown" in window.chat.transcript.texts("note")[-1]
    window.controller.stop()
    windows.wait_idle(window)


def test_a_request_waits_for_the_pending_approval_then_runs(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened) as opened:
        windows.send(window, "set hcm01 to 1.5")
    dialog = opened.args[0]
    _type(qtbot, window, "read the beam current")
    assert window.chat.queue_view.texts() == ["read the beam current"]
    assert "answer the approval" in window.chat.queue_view.reason.text()
    qtbot.waitUntil(dialog.is_armed)
    qtbot.mouseClick(dialog.reject_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: "The beam current is 500.2 mA." in window.chat.transcript.toPlainText(),
        timeout=10_000,
    )
    assert window.chat.transcript.texts("request") == ["set hcm01 to 1.5", "read the beam current"]
