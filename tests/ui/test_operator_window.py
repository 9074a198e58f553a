"""The window an operator trusts at a glance: answers as tables, focus, following, restarts."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextTable
from PySide6.QtWidgets import QApplication

from osprey_desktop.answers.model import Answer
from osprey_desktop.answers.tables import values_table, write_table, write_tone
from osprey_desktop.capabilities.control_room.contexts import (
    ChannelReading,
    ChannelValuesContext,
    ChannelWriteResultsContext,
    WriteOperationResult,
)
from osprey_desktop.ui.chat.answer_view import stamp_text
from osprey_desktop.ui.chat.transcript import Transcript
from osprey_desktop.ui.context_browser.describe import ContextDescriber
from osprey_desktop.ui.context_browser.model import ContextTreeModel
from osprey_desktop.ui.context_browser.view import ContextBrowserDock

pytestmark = pytest.mark.gui
NOW = time.time()


def alarm_answer() -> Answer:
    stamp = datetime.fromtimestamp(NOW - 2, tz=UTC)
    values = ChannelValuesContext(
        channel_values={
            "SR03C:BPM13:X": ChannelReading(
                value=2.208,
                timestamp=stamp,
                units="mm",
                alarm_severity="MAJOR",
                alarm_status="HIHI",
                precision=4,
            ),
            "SR:DCCT:Current": ChannelReading(value=300.0, timestamp=stamp, units="mA"),
        },
        errors={"SR05C:BPM30:X": "timed out"},
    )
    table = values_table(values, {}, NOW, ("CHANNEL_VALUES", "read_1"))
    return Answer(blocks=[table], tone="success", answered_at=NOW)


def test_values_answer_is_a_table_with_alarm_colours_and_a_details_link(qtbot):
    transcript = Transcript()
    qtbot.addWidget(transcript)
    transcript.add_response("markdown for the command line", alarm_answer())
    html = transcript.toHtml().lower()
    assert "<table" in html
    assert "#e53935" in html  # MAJOR red behind the value and the alarm
    assert "#757575" in html  # the unread channel shows DISCONNECTED in grey
    text = transcript.toPlainText()
    assert "2.2080 mm" in text and "MAJOR · HIHI" in text and "DISCONNECTED" in text
    assert "osprey-desktop://context/channel_values/read_1" in html
    assert "channel_values" not in text.lower()  # internal names stay one click away
    assert transcript.texts("response") == ["markdown for the command line"]


def frames_of(transcript: Transcript) -> list:
    """The frames of the transcript that are not tables (tables are frames too)."""
    return [
        f for f in transcript.document().rootFrame().childFrames() if not isinstance(f, QTextTable)
    ]


def test_a_refused_write_is_framed_and_headed_differently_from_a_success(qtbot):
    write = ChannelWriteResultsContext(
        results=[
            WriteOperationResult(
                channel="SR01C:HCM01:Current:SP",
                requested_value=50,
                units="A",
                outcome="blocked",
                message="above the maximum of 5.0 A",
            )
        ]
    )
    tone, headline = write_tone(write)
    answer = Answer(blocks=[write_table(write, ["facts"])], tone=tone, headline=headline)
    transcript = Transcript()
    qtbot.addWidget(transcript)
    transcript.add_response("ok", alarm_answer())
    assert frames_of(transcript) == []  # a success is not framed
    transcript.add_response("refused", answer)
    frames = frames_of(transcript)
    assert len(frames) == 1
    assert frames[0].frameFormat().borderBrush().color().name() == "#ef8f00"
    assert "⊘ Refused" in transcript.toPlainText()


def test_stored_times_are_shown_as_stored_with_the_date_when_not_today(qtbot):
    transcript = Transcript()
    qtbot.addWidget(transcript)
    yesterday = (datetime.now() - timedelta(days=1)).replace(hour=9, minute=5)
    transcript.add_request("old request", yesterday.timestamp(), restored=True)
    transcript.add_request("no stored time", None, restored=True)
    text = transcript.toPlainText()
    assert f"You · {yesterday:%Y-%m-%d} 09:05" in text
    assert "You\nno stored time" in text  # not the time the window opened
    now = time.time()  # not the module's NOW: taken before midnight, it is "not today" after
    assert stamp_text(now) == time.strftime("%H:%M:%S", time.localtime(now))


def test_the_filter_finds_a_channel_name_inside_a_table_of_values(qtbot):
    model = ContextTreeModel()
    dock = ContextBrowserDock(model, ContextDescriber())
    qtbot.addWidget(dock)
    model.set_context_data(
        {
            "CHANNEL_VALUES": {
                "read_1": {"channel_values": {"SR03C:BPM13:X": {"value": 2.2}}},
                "read_2": {"channel_values": {"SR:DCCT:Current": {"value": 300.0}}},
            }
        }
    )
    dock.filter_edit.setText("bpm13")
    keys = dock.proxy.index(0, 0)
    assert keys.data() == "Channel values"  # operator words; the key is in the tooltip
    shown = [dock.proxy.index(r, 0, keys).data() for r in range(dock.proxy.rowCount(keys))]
    assert shown == ["Read 1"]
    field = dock.proxy.index(0, 0, dock.proxy.index(0, 0, keys))
    dock.tree.expand(field)
    assert dock.proxy.index(0, 0, field).data() == "SR03C:BPM13:X"


def test_focus_returns_to_the_chat_after_approve_plan(windows, qtbot):
    window = windows.open(use_real_graph=True)
    window.activateWindow()
    windows.send(window, "/planning:on")
    windows.wait_idle(window)
    with qtbot.waitSignal(window.approvals.dialog_opened, timeout=15_000):
        windows.send(window, "What is the beam current?")
    viewer = window.plan_viewer
    qtbot.waitUntil(viewer.approval_bar.isVisible)
    window.approvals.dialog.hide()  # answer from the dock, as in the report
    window.activateWindow()
    with qtbot.waitSignal(window.controller.turn_finished, timeout=15_000):
        qtbot.mouseClick(viewer.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.chat.input, timeout=3000)
    assert window.context_browser.filter_edit.text() == ""
    answer = window.chat.transcript.answers[-1]
    assert answer.tables("values") and "mA" in answer.tables("values")[0].rows[0][2].text


def test_the_transcript_keeps_following_after_the_plots_dock_opens(windows, qtbot):
    window = windows.open()
    window.resize(900, 600)
    transcript = window.chat.transcript
    for i in range(8):
        windows.send(window, f"read SR:DCCT:Current {i}")
        windows.wait_idle(window)
    windows.send(window, "history of SR:DCCT:Current")
    windows.wait_idle(window)
    windows.wait_plots(window)
    assert window.plot_dock.isVisible()
    windows.send(window, "read SR:DCCT:Current again")
    windows.wait_idle(window)
    bar = transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and bar.maximum() > 0, timeout=3000)
    # scrolling up to read stops the following; the next answer leaves the view alone
    bar.triggerAction(bar.SliderAction.SliderToMinimum)
    windows.send(window, "read SR:DCCT:Current once more")
    windows.wait_idle(window)
    assert bar.value() == 0 and not transcript.following


def test_an_approval_waiting_on_another_thread_is_shown_at_start(windows, qtbot):
    window = windows.open()
    with qtbot.waitSignal(window.approvals.dialog_opened):
        windows.send(window, "find and set hcm01 to 1.5")
    waiting = window.controller.thread_id
    window.approvals.clear()
    window.controller.new_thread()
    windows.send(window, "read SR:DCCT:Current")  # the newest thread is not the waiting one
    windows.wait_idle(window)
    windows.close(window)
    again = windows.open()
    button = again.status.other_approvals_button
    qtbot.waitUntil(button.isVisible, timeout=5000)
    assert again.controller.thread_id != waiting
    assert waiting in button.text()
    assert any(waiting in note for note in again.chat.transcript.texts("note"))
    with qtbot.waitSignal(again.approvals.dialog_opened, timeout=5000):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert again.controller.thread_id == waiting


def test_the_toolbar_shows_the_latest_three_commands_and_the_menu_all(windows, qtbot):
    from osprey_desktop.ui.commands import LaunchableCommand

    window = windows.open()
    commands = [
        LaunchableCommand(f"https://archiver.test/viewer?pv=SR:BPM{i}", f"Open the {i}th viewer")
        for i in range(6)
    ]
    window.command_actions.set_commands(commands)
    actions = window.command_actions.actions()
    on_toolbar = [a for a in window.toolbar.actions() if a in actions]
    assert len(actions) == 6 and on_toolbar == actions[-3:]
    assert [a for a in window.menus.commands_menu.actions() if a in actions] == actions
    assert window.toolbar.sizeHint().width() <= window.width()
    titles = [e.title for e in window.menus.palette_entries()]
    assert all(c.display_name in titles for c in commands)


def test_a_strip_chart_opens_at_a_readable_size_once_per_set_of_channels(windows, qtbot):
    window = windows.open()
    screen = window.screen().availableGeometry()
    window.resize(min(1280, screen.width()), min(800, screen.height()))
    width = window.width()
    channels = [f"SR01C:BPM0{i}:X" for i in range(1, 7)]
    dock = window.open_stripchart(channels)
    qtbot.waitUntil(lambda: dock.height() >= 150, timeout=3000)
    assert window.width() <= max(width, screen.width())
    assert window.open_stripchart(list(reversed(channels))) is dock
    assert len(window.stripcharts) == 1
