"""The window's running copy of the state folds node updates in as the graph does, cheaply."""

from __future__ import annotations

from osprey_desktop.state.reducers import merge_capability_context_data
from osprey_desktop.ui.live_state import LiveState, merge_context_shared


def test_the_window_copy_merges_context_like_the_graph_but_shares_the_update():
    history = {"timestamps": {"A": [1.0, 2.0]}, "time_series_data": {"A": [0.5, None]}}
    existing = {"CHANNEL_VALUES": {"read_1": {"v": 1}}, "ARCHIVER_DATA": {"h_1": {"old": True}}}
    new = {"ARCHIVER_DATA": {"h_2": history}, "TIME_RANGE": {"t_1": {"start": "x"}}}
    merged = merge_context_shared(existing, new)
    assert merged == merge_capability_context_data(existing, new)
    assert merged["ARCHIVER_DATA"]["h_2"] is history  # shared: no deep copy on the loop
    assert existing == {
        "CHANNEL_VALUES": {"read_1": {"v": 1}},
        "ARCHIVER_DATA": {"h_1": {"old": True}},
    }  # the previous copy is left as it was


def test_an_update_without_context_changes_nothing():
    live = LiveState({"capability_context_data": {"A": {"k": {}}}})
    assert live.apply_updates({"node": {"capability_context_data": {}}}) == set()
    changed = live.apply_updates({"node": {"capability_context_data": {"B": {"k2": {"x": 1}}}}})
    assert changed == {"capability_context_data"}
    assert set(live.values["capability_context_data"]) == {"A", "B"}
    # a malformed update is skipped (the graph refuses it itself)
    assert live.apply_updates({"node": {"capability_context_data": {"C": [1, 2]}}}) == set()
