"""The context tree model merges new states in place: inserts, removals, dataChanged."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QTreeView

from osprey_desktop.ui.context_browser.model import BATCH, PATH_ROLE, ContextTreeModel

pytestmark = pytest.mark.gui

BASE = {
    "PV_ADDRESSES": {"beam_channels": {"pvs": ["SR:DCCT", "SR:LIFETIME"], "description": "beam"}},
    "PV_VALUES": {
        "beam_values": {
            "pv_values": {"SR:DCCT": {"value": 500.1, "units": "mA", "alarm_severity": "NO_ALARM"}}
        }
    },
}


class SignalLog:
    def __init__(self, model: ContextTreeModel) -> None:
        self.events: list[tuple] = []
        model.modelReset.connect(lambda: self.events.append(("reset",)))
        model.rowsInserted.connect(lambda p, a, b: self.events.append(("ins", a, b)))
        model.rowsRemoved.connect(lambda p, a, b: self.events.append(("rem", a, b)))
        model.dataChanged.connect(lambda a, b, roles=(): self.events.append(("chg", a.row())))

    def kinds(self) -> set[str]:
        return {e[0] for e in self.events}


@pytest.fixture
def model(qapp):
    m = ContextTreeModel()
    tester = QAbstractItemModelTester(m, QAbstractItemModelTester.FailureReportingMode.Fatal)
    m.set_context_data(BASE)
    yield m
    del tester


def test_types_keys_and_fields_appear_as_three_levels(model):
    index = model.index_for_path(["PV_VALUES", "beam_values", "pv_values", "SR:DCCT", "value"])
    assert index.isValid()
    assert model.data(index.siblingAtColumn(1)) == "500.1"
    assert model.data(index, PATH_ROLE) == (
        "PV_VALUES",
        "beam_values",
        "pv_values",
        "SR:DCCT",
        "value",
    )
    assert [model.data(model.index(r, 0)) for r in range(model.rowCount())] == [
        "PV_ADDRESSES",
        "PV_VALUES",
    ]


def test_new_key_is_inserted_as_a_row_without_reset(model):
    type_index = model.index_for_path(["PV_ADDRESSES"])
    model.fetchMore(type_index)
    log = SignalLog(model)
    new = copy.deepcopy(BASE)
    new["PV_ADDRESSES"]["magnet_channels"] = {"pvs": ["HCM01:SP"], "description": "magnets"}
    model.set_context_data(new)
    assert "reset" not in log.kinds()
    assert ("ins", 1, 1) in log.events
    assert model.rowCount(model.index_for_path(["PV_ADDRESSES"])) == 2


def test_new_context_type_is_inserted_at_the_top_level(model):
    log = SignalLog(model)
    new = copy.deepcopy(BASE)
    new["ARCHIVER_DATA"] = {"history": {"timestamps": [1.0, 2.0]}}
    model.set_context_data(new)
    assert log.events == [("ins", 2, 2)]


def test_changed_value_emits_data_changed_only(model):
    leaf = model.index_for_path(["PV_VALUES", "beam_values", "pv_values", "SR:DCCT", "value"])
    log = SignalLog(model)
    new = copy.deepcopy(BASE)
    new["PV_VALUES"]["beam_values"]["pv_values"]["SR:DCCT"]["value"] = 480.0
    model.set_context_data(new)
    assert log.kinds() == {"chg"}
    assert model.data(leaf.siblingAtColumn(1)) == "480"


def test_removed_key_is_removed_as_a_row(model):
    model.index_for_path(["PV_ADDRESSES", "beam_channels", "description"])
    log = SignalLog(model)
    new = copy.deepcopy(BASE)
    del new["PV_ADDRESSES"]["beam_channels"]["description"]
    model.set_context_data(new)
    assert ("rem", 1, 1) in log.events
    assert "reset" not in log.kinds()


def test_long_series_loads_in_batches(model):
    new = copy.deepcopy(BASE)
    new["ARCHIVER_DATA"] = {"history": {"timestamps": list(range(10_000))}}
    model.set_context_data(new)
    series = model.index_for_path(["ARCHIVER_DATA", "history", "timestamps"])
    assert model.rowCount(series) == 0 and model.canFetchMore(series)
    model.fetchMore(series)
    assert model.rowCount(series) == BATCH
    assert model.data(model.index(3, 1, series)) == "3"


def test_alarm_severity_is_shown_next_to_the_value(model):
    new = copy.deepcopy(BASE)
    new["PV_VALUES"]["beam_values"]["pv_values"]["SR:DCCT"]["alarm_severity"] = "MAJOR"
    model.set_context_data(new)
    channel = model.index_for_path(["PV_VALUES", "beam_values", "pv_values", "SR:DCCT"])
    assert model.data(channel.siblingAtColumn(1)).endswith("MAJOR")
    assert model.data(channel, Qt.ItemDataRole.ForegroundRole) is not None


def test_collapsed_entry_shows_the_worst_alarm_inside_it(model):
    entry = model.index_for_path(["PV_VALUES", "beam_values"])
    assert "⚠" not in model.data(entry.siblingAtColumn(1))
    log = SignalLog(model)
    new = copy.deepcopy(BASE)
    readings = new["PV_VALUES"]["beam_values"]["pv_values"]
    readings["SR:DCCT"]["alarm_severity"] = "MINOR"
    readings["SR:LIFETIME"] = {"value": 2.0, "units": "h", "alarm_severity": "MAJOR"}
    model.set_context_data(new)
    assert model.data(entry.siblingAtColumn(1)) == "{1 field}  ⚠ MAJOR"
    assert ("chg", entry.row()) in log.events


def test_expansion_and_selection_survive_an_update(model, qtbot):
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.show()
    keys = model.index_for_path(["PV_VALUES", "beam_values"])
    view.expand(model.index_for_path(["PV_VALUES"]))
    view.expand(keys)
    field = model.index_for_path(["PV_VALUES", "beam_values", "pv_values"])
    view.setCurrentIndex(field)
    new = copy.deepcopy(BASE)
    new["PV_VALUES"]["beam_values"]["pv_values"]["SR:DCCT"]["value"] = 1.0
    new["PV_VALUES"]["other_values"] = {"pv_values": {}}
    new["ARCHIVER_DATA"] = {"history": {"timestamps": [1.0]}}
    model.set_context_data(new)
    assert view.isExpanded(model.index_for_path(["PV_VALUES"]))
    assert view.isExpanded(model.index_for_path(["PV_VALUES", "beam_values"]))
    assert model.path(view.currentIndex()) == ("PV_VALUES", "beam_values", "pv_values")
    assert model.rowCount(model.index_for_path(["PV_VALUES"])) == 2


def test_empty_state_gives_an_empty_tree(qapp):
    m = ContextTreeModel()
    m.set_context_data(None)
    assert m.rowCount(QModelIndex()) == 0
    assert not m.index_for_path(["PV_VALUES"]).isValid()
