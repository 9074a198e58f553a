"""The router's decision table, plan-first and react, on hand-made states (no graph run)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.graph import END

from osprey_desktop.infrastructure.router_node import router_conditional_edge


def state(mode: str = "plan_first", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "agent_control": {"orchestration_mode": mode, "max_react_iterations": 5},
        "task_current_task": "read pump1",
        "planning_active_capabilities": ["device_read", "respond", "clarify"],
        "planning_execution_plan": {
            "steps": [
                {"context_key": "device_lookup_1", "capability": "device_lookup"},
                {"context_key": "device_read_1", "capability": "device_read"},
                {"context_key": "respond", "capability": "respond"},
            ]
        },
        "planning_current_step_index": 0,
        "control_has_error": False,
        "control_error_info": None,
        "control_current_step_retry_count": 0,
        "react_step_count": 0,
    }
    base.update(fields)
    return base


def retriable(node: str, attempt: int, max_attempts: int = 3) -> dict[str, Any]:
    return {
        "control_has_error": True,
        "control_current_step_retry_count": attempt,
        "control_error_info": {
            "node": node,
            "severity": "retriable",
            "can_retry": attempt < max_attempts,
            "max_attempts": max_attempts,
        },
    }


PLAN_FIRST_TABLE = [
    ("killed turn ends", {"control_is_killed": True, "control_has_error": True}, END),
    (
        "critical error goes to error node",
        {
            "control_has_error": True,
            "control_error_info": {"node": "device_read", "severity": "critical"},
        },
        "error",
    ),
    ("retriable error reruns the failed node", retriable("device_read", 1), "device_read"),
    ("retriable infrastructure error reruns it", retriable("orchestrator", 2), "orchestrator"),
    ("exhausted retries go to error node", retriable("device_read", 3), "error"),
    ("no task -> task extraction", {"task_current_task": None}, "task_extraction"),
    ("no capabilities -> classifier", {"planning_active_capabilities": []}, "classifier"),
    ("no plan -> orchestrator", {"planning_execution_plan": None}, "orchestrator"),
    (
        "plan awaiting approval -> orchestrator",
        {"control_is_awaiting_validation": True},
        "orchestrator",
    ),
    ("first step dispatched", {}, "device_lookup"),
    ("second step dispatched", {"planning_current_step_index": 1}, "device_read"),
    ("past the last step -> respond", {"planning_current_step_index": 7}, "respond"),
]


@pytest.mark.parametrize(
    ("label", "fields", "expected"), PLAN_FIRST_TABLE, ids=[row[0] for row in PLAN_FIRST_TABLE]
)
def test_plan_first_routing(label: str, fields: dict[str, Any], expected: str) -> None:
    assert router_conditional_edge(state("plan_first", **fields)) == expected


def one_step(capability: str) -> dict[str, Any]:
    return {"steps": [{"context_key": f"{capability}_1", "capability": capability}]}


REACT_TABLE = [
    ("killed turn ends", {"control_is_killed": True}, END),
    ("no task -> task extraction", {"task_current_task": None}, "task_extraction"),
    ("no capabilities -> classifier", {"planning_active_capabilities": []}, "classifier"),
    (
        "no step -> reactive orchestrator",
        {"planning_execution_plan": None},
        "reactive_orchestrator",
    ),
    ("chosen step dispatched", {"planning_execution_plan": one_step("device_read")}, "device_read"),
    ("respond step dispatched", {"planning_execution_plan": one_step("respond")}, "respond"),
    ("clarify step dispatched", {"planning_execution_plan": one_step("clarify")}, "clarify"),
    (
        "step done -> back to the orchestrator",
        {"planning_execution_plan": one_step("device_read"), "planning_current_step_index": 1},
        "reactive_orchestrator",
    ),
    (
        "critical capability error is re-evaluated",
        {
            "control_has_error": True,
            "control_error_info": {"node": "device_read", "severity": "critical"},
        },
        "reactive_orchestrator",
    ),
    ("retriable error reruns the capability", retriable("device_read", 1), "device_read"),
    (
        "fatal error goes to error node",
        {"control_has_error": True, "control_error_info": {"node": "router", "severity": "fatal"}},
        "error",
    ),
    (
        "error already re-evaluated goes to error node",
        {
            "control_has_error": True,
            "control_error_info": {
                "node": "device_read",
                "severity": "critical",
                "reevaluated": True,
            },
        },
        "error",
    ),
    (
        "orchestrator's own error goes to error node",
        {
            "control_has_error": True,
            "control_error_info": {"node": "reactive_orchestrator", "severity": "critical"},
        },
        "error",
    ),
    (
        "error with spent iterations goes to error node",
        {
            "control_has_error": True,
            "react_step_count": 5,
            "control_error_info": {"node": "device_read", "severity": "critical"},
        },
        "error",
    ),
    (
        "step awaiting approval -> orchestrator asks",
        {"control_is_awaiting_validation": True},
        "reactive_orchestrator",
    ),
    (
        "budget reached: orchestrator reports it",
        {"planning_execution_plan": None, "react_step_count": 5},
        "reactive_orchestrator",
    ),
    ("budget overrun: error", {"planning_execution_plan": None, "react_step_count": 6}, "error"),
]


@pytest.mark.parametrize(
    ("label", "fields", "expected"), REACT_TABLE, ids=[row[0] for row in REACT_TABLE]
)
def test_react_routing(label: str, fields: dict[str, Any], expected: str) -> None:
    fields.setdefault("planning_execution_plan", one_step("device_lookup"))
    assert router_conditional_edge(state("react", **fields)) == expected


def test_mode_comes_from_thread_settings_before_config(configure) -> None:
    configure({"execution_control": {"agent_control": {"orchestration_mode": "react"}}})
    plan_first = state("plan_first", planning_execution_plan=None)
    assert router_conditional_edge(plan_first) == "orchestrator"
    no_setting = state(planning_execution_plan=None)
    no_setting["agent_control"] = {}
    assert router_conditional_edge(no_setting) == "reactive_orchestrator"


def test_edge_does_not_mutate_state() -> None:
    current = state("plan_first", **retriable("device_read", 1))
    before = repr(current)
    router_conditional_edge(current)
    router_conditional_edge({**current, "agent_control": {"orchestration_mode": "react"}})
    assert repr(current) == before
