"""merge_capability_context_data and merge_session_state: spec examples, sharing, no mutation."""

import copy

import pytest

from osprey_desktop.state import merge_capability_context_data, merge_session_state


def test_spec_example_entries_of_one_type_accumulate():
    existing = {"PV_ADDRESSES": {"step1": {"pvs": ["SR:C01:MAG:1"]}}}
    new = {"PV_ADDRESSES": {"step2": {"pvs": ["SR:C02:MAG:1"]}}}
    result = merge_capability_context_data(existing, new)
    assert len(result["PV_ADDRESSES"]) == 2
    assert result["PV_ADDRESSES"]["step1"] == {"pvs": ["SR:C01:MAG:1"]}


def test_spec_example_new_entry_replaces_old_entry_with_same_key():
    existing = {"DATA": {"key1": {"value": "old"}}}
    new = {"DATA": {"key1": {"value": "new", "extra": "data"}}}
    result = merge_capability_context_data(existing, new)
    assert result["DATA"]["key1"]["value"] == "new"
    assert result["DATA"]["key1"] == {"value": "new", "extra": "data"}


def test_replacement_is_whole_entry_not_field_merge():
    existing = {"DATA": {"key1": {"value": "old", "stale": True}}}
    result = merge_capability_context_data(existing, {"DATA": {"key1": {"value": "new"}}})
    assert "stale" not in result["DATA"]["key1"]


def test_other_types_and_keys_are_kept():
    existing = {"A": {"a1": {"x": 1}}, "B": {"b1": {"y": 2}}}
    result = merge_capability_context_data(existing, {"C": {"c1": {"z": 3}}})
    assert result == {"A": {"a1": {"x": 1}}, "B": {"b1": {"y": 2}}, "C": {"c1": {"z": 3}}}


def test_inputs_are_never_mutated():
    existing = {"A": {"a1": {"x": [1, 2]}}, "B": {"b1": {"y": 2}}}
    new = {"A": {"a2": {"x": [3]}}, "C": {"c1": {}}}
    before_existing, before_new = copy.deepcopy(existing), copy.deepcopy(new)
    result = merge_capability_context_data(existing, new)
    result["A"]["a3"] = {"late": True}  # even a careless writer of the result
    assert existing == before_existing
    assert new == before_new


def test_untouched_branches_are_shared_and_touched_ones_copied():
    untouched = {"b1": {"y": 2}}
    existing = {"A": {"a1": {"x": 1}}, "B": untouched}
    new_entry = {"x": 5}
    result = merge_capability_context_data(existing, {"A": {"a2": new_entry}})
    assert result is not existing
    assert result["B"] is untouched  # shared, not copied
    assert result["A"] is not existing["A"]  # the changed branch is a new dict
    assert result["A"]["a1"] is existing["A"]["a1"]  # entries of existing are never copied
    assert result["A"]["a2"] == new_entry and result["A"]["a2"] is not new_entry  # new's are


def test_none_existing_is_treated_as_empty():
    assert merge_capability_context_data(None, {"A": {"k": {"v": 1}}}) == {"A": {"k": {"v": 1}}}
    assert merge_capability_context_data(None, None) == {}


def test_empty_update_returns_existing_content():
    existing = {"A": {"k": {"v": 1}}}
    assert merge_capability_context_data(existing, {}) == existing
    assert merge_capability_context_data(existing, None) == existing


def test_same_branch_handed_back_is_not_copied_again():
    branch = {"k": {"v": 1}}
    existing = {"A": branch}
    result = merge_capability_context_data(existing, {"A": branch, "B": {"j": {}}})
    assert result["A"] is branch


def test_update_with_a_non_dict_branch_is_refused_with_a_clear_message():
    with pytest.raises(TypeError, match=r"capability_context_data\['A'\] must be a dict"):
        merge_capability_context_data({}, {"A": ["not", "a", "dict"]})


def test_session_state_merges_shallowly_and_keeps_other_keys():
    existing = {"theme": "dark", "limits": {"a": 1, "b": 2}}
    result = merge_session_state(existing, {"limits": {"a": 9}})
    assert result == {"theme": "dark", "limits": {"a": 9}}
    assert existing == {"theme": "dark", "limits": {"a": 1, "b": 2}}


def test_session_state_accepts_none_and_empty_updates():
    assert merge_session_state(None, {"x": 1}) == {"x": 1}
    assert merge_session_state({"x": 1}, None) == {"x": 1}
    assert merge_session_state(None, None) == {}


def test_session_state_update_must_be_a_dict():
    with pytest.raises(TypeError, match="session_state updates must be a dict"):
        merge_session_state({}, [("x", 1)])
