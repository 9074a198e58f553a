"""Plan validation: what is replanned, what is reclassified, and the appended respond step."""

from __future__ import annotations

from typing import Any

from osprey_desktop.infrastructure.plan_validation import validate_plan
from tests.graph.lab import build_lab_registry

CAPABILITIES = {c.name: c for c in build_lab_registry().get_all_capabilities()}


def step(
    capability: str,
    key: str,
    inputs: list[dict[str, str]] | None = None,
    expected: str | None = None,
) -> dict[str, Any]:
    return {
        "context_key": key,
        "capability": capability,
        "task_objective": "t",
        "expected_output": expected,
        "inputs": inputs or [],
    }


def test_valid_chain_gets_respond_appended_reading_every_output() -> None:
    plan = {
        "steps": [
            step("device_lookup", "d1", expected="LAB_DEVICES"),
            step("device_read", "r1", [{"LAB_DEVICES": "d1"}], "LAB_READINGS"),
        ]
    }
    check = validate_plan(plan, CAPABILITIES, {}, "read pumps")
    assert check.ok
    last = check.plan["steps"][-1]
    assert last["capability"] == "respond"
    assert last["inputs"] == [{"LAB_DEVICES": "d1"}, {"LAB_READINGS": "r1"}]
    assert len(plan["steps"]) == 2  # the planner's object is not modified


def test_plan_ending_in_clarify_gets_no_respond() -> None:
    check = validate_plan({"steps": [step("clarify", "c")]}, CAPABILITIES, {})
    assert [s["capability"] for s in check.plan["steps"]] == ["clarify"]


def test_empty_plan_becomes_respond_only() -> None:
    check = validate_plan({"steps": []}, CAPABILITIES, {})
    assert check.ok and [s["capability"] for s in check.plan["steps"]] == ["respond"]


def test_unknown_capability_needs_reclassification() -> None:
    check = validate_plan({"steps": [step("teleport", "t1")]}, CAPABILITIES, {})
    assert check.needs_reclassification and not check.needs_replanning
    assert "teleport" in check.describe()


def test_input_from_a_later_step_needs_replanning() -> None:
    plan = {
        "steps": [
            step("device_read", "r1", [{"LAB_DEVICES": "d1"}]),
            step("device_lookup", "d1", expected="LAB_DEVICES"),
        ]
    }
    check = validate_plan(plan, CAPABILITIES, {})
    assert check.needs_replanning
    assert "step 1 (device_read) reads LAB_DEVICES 'd1'" in check.describe()


def test_input_from_stored_context_is_valid() -> None:
    stored = {"LAB_DEVICES": {"device_lookup_1": {"devices": ["pump1"]}}}
    plan = {"steps": [step("device_read", "r1", [{"LAB_DEVICES": "device_lookup_1"}])]}
    assert validate_plan(plan, CAPABILITIES, stored).ok


def test_input_of_the_wrong_type_from_an_earlier_step_needs_replanning() -> None:
    plan = {
        "steps": [
            step("window_parse", "w1", expected="LAB_WINDOW"),
            step("device_read", "r1", [{"LAB_DEVICES": "w1"}]),
        ]
    }
    assert validate_plan(plan, CAPABILITIES, {}).needs_replanning


def test_duplicate_context_key_needs_replanning() -> None:
    plan = {"steps": [step("device_lookup", "k"), step("window_parse", "k")]}
    check = validate_plan(plan, CAPABILITIES, {})
    assert check.needs_replanning and "reuses context_key 'k'" in check.describe()


def test_malformed_plan_needs_replanning_with_reasons() -> None:
    check = validate_plan({"steps": [{"capability": "device_read"}]}, CAPABILITIES, {})
    assert check.needs_replanning
    assert "context_key" in check.describe()
    assert validate_plan("not a plan", CAPABILITIES, {}).needs_replanning


def test_respond_before_the_end_needs_replanning() -> None:
    plan = {"steps": [step("respond", "respond"), step("device_lookup", "d1")]}
    check = validate_plan(plan, CAPABILITIES, {})
    assert check.needs_replanning and "ends the turn" in check.describe()
