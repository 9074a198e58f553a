"""Chat input keys, history and slash completion; transcript rendering."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from osprey_desktop.ui.chat.input import ChatInput
from osprey_desktop.ui.chat.transcript import Transcript, status_line_for

pytestmark = pytest.mark.gui


@pytest.fixture
def chat_input(qtbot):
    widget = ChatInput()
    qtbot.addWidget(widget)
    widget.show()
    widget.setFocus()
    return widget


def test_enter_sends_and_clears(qtbot, chat_input):
    qtbot.keyClicks(chat_input, "beam current?")
    with qtbot.waitSignal(chat_input.submitted) as sent:
        qtbot.keyClick(chat_input, Qt.Key_Return)
    assert sent.args == ["beam current?"]
    assert chat_input.toPlainText() == ""


def test_shift_enter_adds_a_line_without_sending(qtbot, chat_input):
    received = []
    chat_input.submitted.connect(received.append)
    qtbot.keyClicks(chat_input, "first")
    qtbot.keyClick(chat_input, Qt.Key_Return, Qt.ShiftModifier)
    qtbot.keyClicks(chat_input, "second")
    assert received == []
    assert chat_input.toPlainText() == "first\nsecond"


def test_up_and_down_walk_the_history_and_keep_the_draft(qtbot, chat_input):
    for text in ("one", "two"):
        qtbot.keyClicks(chat_input, text)
        qtbot.keyClick(chat_input, Qt.Key_Return)
    qtbot.keyClicks(chat_input, "draft")
    qtbot.keyClick(chat_input, Qt.Key_Up)
    assert chat_input.toPlainText() == "two"
    qtbot.keyClick(chat_input, Qt.Key_Up)
    assert chat_input.toPlainText() == "one"
    qtbot.keyClick(chat_input, Qt.Key_Down)
    qtbot.keyClick(chat_input, Qt.Key_Down)
    assert chat_input.toPlainText() == "draft"


def test_slash_completes_commands_from_the_registry(qtbot, chat_input):
    chat_input.set_slash_commands([("/planning", "toggle planning"), ("/help", "list commands")])
    sent = []
    chat_input.submitted.connect(sent.append)
    qtbot.keyClicks(chat_input, "/pl")
    popup = chat_input.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    assert chat_input.completer.currentCompletion() == "/planning"
    qtbot.keyClick(popup, Qt.Key_Tab)
    assert chat_input.toPlainText() == "/planning "
    assert sent == []  # Tab only inserts the completion, so a value can follow


def test_one_enter_sends_the_completed_slash_command(qtbot, chat_input):
    chat_input.set_slash_commands([("/planning", "toggle planning"), ("/help", "list commands")])
    sent = []
    chat_input.submitted.connect(sent.append)
    qtbot.keyClicks(chat_input, "/he")
    popup = chat_input.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key_Return)  # keys go to the popup while it shows
    assert sent == ["/help"]
    assert chat_input.toPlainText() == "" and not popup.isVisible()


def test_a_50_kb_paste_is_refused_with_a_message_and_sends_nothing(qtbot):
    from PySide6.QtCore import QMimeData

    from osprey_desktop.ui.chat.panel import ChatPanel

    panel = ChatPanel()
    qtbot.addWidget(panel)
    panel.show()
    sent = []
    panel.send_requested.connect(sent.append)
    qtbot.keyClicks(panel.input, "summarise ")
    data = QMimeData()
    data.setText("x" * 50_000)
    panel.input.insertFromMimeData(data)
    assert panel.input.toPlainText() == "summarise "  # what was typed stays
    assert panel.input_notice.isVisible()
    assert "50,010 characters" in panel.input_notice.text()
    assert "at most 8,000" in panel.input_notice.text()
    small = QMimeData()
    small.setText("the orbit")
    panel.input.insertFromMimeData(small)
    qtbot.keyClick(panel.input, Qt.Key_Return)
    assert sent == ["summarise the orbit"] and not panel.input_notice.isVisible()


def test_transcript_renders_markdown_and_errors(qtbot):
    transcript = Transcript()
    qtbot.addWidget(transcript)
    transcript.add_request("What is the beam current?")
    transcript.add_event(
        {
            "type": "capability_start",
            "capability": "channel_read",
            "step_index": 0,
            "total_steps": 2,
            "task_objective": "read DCCT",
        }
    )
    assert transcript.live_status() == "Step 1 of 2: Channel read — read DCCT"
    transcript.add_response("The current is **500 mA**.")
    transcript.add_event({"type": "error", "message": "Archiver unreachable."})
    text = transcript.toPlainText()
    assert "channel_read" not in text
    assert "Step 1 of 2" not in text  # the answer took the progress line's place
    assert "The current is 500 mA." in text  # bold rendered, not literal asterisks
    assert "Archiver unreachable." in transcript.texts("error")[0]


def test_status_lines_name_the_plan_chain():
    line = status_line_for(
        {"type": "plan_created", "plan": {"steps": [{"capability": "a"}, {"capability": "b"}]}}
    )
    assert line == "Plan: 2 steps (A → B)"
    assert status_line_for({"type": "phase_start"}) is None


def test_text_after_a_markdown_list_is_not_part_of_the_list(qtbot):
    transcript = Transcript()
    qtbot.addWidget(transcript)
    transcript.add_response("Values:\n\n- SR:DCCT:Current: 500 mA\n- SR:Lifetime: 10 h")
    transcript.add_request("next request")
    transcript.add_status("Task: next")
    last_blocks = [transcript.document().lastBlock(), transcript.document().lastBlock().previous()]
    assert all(block.textList() is None for block in last_blocks)
