"""The context browser dock: filter, copy value, detail pane and Export context.json."""

from __future__ import annotations

import json

import pytest
from PySide6.QtGui import QGuiApplication

import osprey_desktop.capabilities.control_room.contexts  # noqa: F401 - declares the classes
from osprey_desktop.ui.context_browser.describe import ContextDescriber
from osprey_desktop.ui.context_browser.model import ContextTreeModel
from osprey_desktop.ui.context_browser.view import ContextBrowserDock

pytestmark = pytest.mark.gui

VALUES = {
    "capability_context_data": {
        "CHANNEL_ADDRESSES": {
            "beam_channels": {
                "channels": ["SR:DCCT:Current"],
                "original_query": "beam current",
                "descriptions": {"SR:DCCT:Current": "Stored beam current"},
            }
        },
        "TIME_RANGE": {"last_hour": {"made_up_field": 1}},
    },
    "planning_execution_plan": {
        "steps": [
            {
                "context_key": "beam_channels",
                "capability": "channel_finding",
                "task_objective": "find the beam current channel",
            }
        ]
    },
}


@pytest.fixture
def dock(qtbot):
    describer = ContextDescriber()
    describer.set_state_values(VALUES)
    model = ContextTreeModel()
    model.set_context_data(VALUES["capability_context_data"])
    widget = ContextBrowserDock(model, describer)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def visible_names(dock) -> list[str]:
    out = []

    def walk(parent):
        for row in range(dock.proxy.rowCount(parent)):
            index = dock.proxy.index(row, 0, parent)
            out.append(index.data())
            walk(index)

    walk(dock.proxy.index(-1, -1))
    return out


def test_filter_finds_a_field_inside_an_unopened_entry(dock):
    dock.filter_edit.setText("descriptions")
    names = visible_names(dock)
    assert "descriptions" in names and "Channel finding, step 1" in names
    assert "Time range" not in names
    dock.filter_edit.clear()
    assert "Time range" in visible_names(dock)


def test_copy_value_puts_json_on_the_clipboard(dock):
    assert dock.select_path(["CHANNEL_ADDRESSES", "beam_channels", "channels"])
    dock.copy_action.trigger()
    assert json.loads(QGuiApplication.clipboard().text()) == ["SR:DCCT:Current"]


def test_detail_pane_shows_step_summary_and_access_details(dock):
    assert dock.select_path(["CHANNEL_ADDRESSES", "beam_channels"])
    text = dock.detail.toPlainText()
    assert "Channel finding: find the beam current channel" in text
    assert '"type": "Channel Addresses"' in text
    assert "context.CHANNEL_ADDRESSES.beam_channels.channels" in text


def test_tooltip_of_an_entry_names_its_step_and_summary(dock):
    index = dock.model.index_for_path(["CHANNEL_ADDRESSES", "beam_channels"])
    tip = index.data(3)  # ToolTipRole
    assert "Step: Channel finding — find the beam current channel" in tip
    assert "Channel Addresses" in tip


def test_rows_show_operator_words_and_keep_the_internal_name_in_the_tooltip(dock):
    """Types and entries read as words; the context key is one hover away, never the row."""
    dock.model.set_context_data(
        {**VALUES["capability_context_data"], "CHANNEL_VALUES": {"channel_read_3": {"v": 1}}}
    )
    dock.model.load_to_depth(2)
    names = visible_names(dock)
    assert names[:2] == ["Channel addresses", "Channel finding, step 1"]
    assert "Channel values" in names and "Channel read 3" in names  # no step known: the id
    assert not [n for n in names if n in ("CHANNEL_ADDRESSES", "beam_channels", "channel_read_3")]
    entry = dock.model.index_for_path(["CHANNEL_ADDRESSES", "beam_channels"])
    assert entry.data(3).splitlines()[0] == "CHANNEL_ADDRESSES.beam_channels"
    kind = dock.model.index_for_path(["CHANNEL_ADDRESSES"])
    assert "CHANNEL_ADDRESSES" in kind.data(3)
    assert dock.select_path(["CHANNEL_ADDRESSES", "beam_channels"])
    heading = dock.detail.toPlainText().splitlines()[0]
    assert heading == "Channel addresses · Channel finding, step 1"


def test_filter_finds_an_entry_by_the_words_it_shows(dock):
    dock.filter_edit.setText("channel finding")
    assert "Channel finding, step 1" in visible_names(dock)
    assert "Time range" not in visible_names(dock)


def test_export_writes_context_json_through_the_core(dock, qtbot, qasync_loop, tmp_path):
    with qtbot.waitSignal(dock.exported, timeout=5000) as exported:
        dock.export_to(tmp_path / "export")
    path = tmp_path / "export" / "context.json"
    assert exported.args == [str(path)]
    assert json.loads(path.read_text())["CHANNEL_ADDRESSES"]["beam_channels"]["channels"] == [
        "SR:DCCT:Current"
    ]


def test_export_to_an_unwritable_place_says_what_to_do(dock, qtbot, qasync_loop, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with qtbot.waitSignal(dock.export_failed, timeout=5000) as failed:
        dock.export_to(blocker / "sub")
    assert "Choose a folder you can write to" in failed.args[0]
