"""Approvals through LangGraph interrupts on an in-memory checkpointer: plans, reactive steps,
and a capability's own write approval; approve, reject, and what the state records."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.types import Command

from osprey_desktop.approval import (
    normalize_decision,
    parse_approval_answer,
    requires_approval,
)
from osprey_desktop.infrastructure.orchestration_node import PLAN_REJECTED_MESSAGE
from osprey_desktop.infrastructure.reactive_orchestrator_node import STEP_REJECTED_MESSAGE
from tests.graph import lab
from tests.graph.conftest import thread


def pending(result: dict[str, Any]) -> dict[str, Any]:
    interrupts = result.get("__interrupt__") or []
    assert len(interrupts) == 1, f"expected one pending approval, got {interrupts}"
    return interrupts[0].value


async def test_planning_mode_approved_plan_runs_exactly_that_plan(graph, run_turn) -> None:
    first = await run_turn("read the pump pressure", thread_id="p1", planning_mode_enabled=True)
    payload = pending(first)
    assert payload["resume_payload"]["approval_type"] == "plan"
    assert (
        "`device_lookup`" in payload["user_message"] and "`device_read`" in payload["user_message"]
    )
    assert lab.CALLS == []  # nothing ran before the approval
    final = await graph.ainvoke(Command(resume=True), thread("p1"))
    assert lab.CALLS == ["device_lookup", "device_read"]
    assert final["planning_execution_plan"] == payload["resume_payload"]["execution_plan"]
    assert final["approval_approved"] is True
    assert final["approved_payload"]["approval_type"] == "plan"
    assert "4.5 bar" in final["messages"][-1].content


async def test_rejected_plan_ends_the_turn_without_executing_or_replanning(graph, run_turn) -> None:
    first = await run_turn("read the pump pressure", thread_id="p2", planning_mode_enabled=True)
    pending(first)
    final = await graph.ainvoke(Command(resume={"approved": False}), thread("p2"))
    assert lab.CALLS == []
    assert final["messages"][-1].content == PLAN_REJECTED_MESSAGE
    assert final["approval_approved"] is False and final["approved_payload"] is None
    assert final["control_plans_created_count"] == 1
    snapshot = await graph.aget_state(thread("p2"))
    assert snapshot.next == () and not snapshot.interrupts


async def test_next_turn_after_a_rejection_plans_afresh(graph, run_turn) -> None:
    await run_turn("read the pump pressure", thread_id="p3", planning_mode_enabled=True)
    await graph.ainvoke(Command(resume="no"), thread("p3"))
    final = await run_turn("read pump1", thread_id="p3")
    assert final["control_is_killed"] is False
    assert lab.CALLS == ["device_lookup", "device_read"]


async def test_write_approved_changes_the_device_with_the_approved_values(graph, run_turn) -> None:
    first = await run_turn("set pump1 to 5", thread_id="w1")
    payload = pending(first)
    assert payload["resume_payload"] == {
        "approval_type": "channel_write",
        "capability": "device_write",
        "step": payload["resume_payload"]["step"],
        "device": "pump1",
        "value": 5.0,
    }
    assert lab.MACHINE["pump1"] == 3.0
    final = await graph.ainvoke(Command(resume={"approved": True}), thread("w1"))
    assert lab.MACHINE["pump1"] == 5.0
    assert lab.CALLS.count("device_write") == 1  # the side effect ran once, after approval
    assert final["approved_payload"]["value"] == 5.0
    assert final["capability_context_data"]["LAB_WRITE"]["device_write_1"]["value"] == 5.0


async def test_write_executes_the_payload_the_client_sends_back(graph, run_turn) -> None:
    first = await run_turn("set pump1 to 5", thread_id="w2")
    shown = dict(pending(first)["resume_payload"])
    shown["value"] = 4.0  # what the operator saw (e.g. edited in the dialog) is what runs
    await graph.ainvoke(Command(resume={"approved": True, "resume_payload": shown}), thread("w2"))
    assert lab.MACHINE["pump1"] == 4.0


async def test_rejected_write_leaves_device_unchanged(graph, run_turn) -> None:
    first = await run_turn("set pump1 to 5", thread_id="w3")
    pending(first)
    final = await graph.ainvoke(Command(resume="no"), thread("w3"))
    assert lab.MACHINE["pump1"] == 3.0
    assert final["approval_approved"] is False
    assert "LAB_WRITE" not in final["capability_context_data"]


async def test_questions_about_settings_never_plan_a_write(run_turn) -> None:
    final = await run_turn("what is the set value of pump1")
    capabilities = [s["capability"] for s in final["planning_execution_plan"]["steps"]]
    assert "device_write" not in capabilities
    assert lab.MACHINE["pump1"] == 3.0


async def test_react_planning_mode_asks_before_each_step(graph, run_turn) -> None:
    first = await run_turn(
        "read the pump pressure",
        thread_id="r1",
        orchestration_mode="react",
        planning_mode_enabled=True,
    )
    assert pending(first)["resume_payload"]["step"]["capability"] == "device_lookup"
    second = await graph.ainvoke(Command(resume=True), thread("r1"))
    assert lab.CALLS == ["device_lookup"]
    assert pending(second)["resume_payload"]["step"]["capability"] == "device_read"
    final = await graph.ainvoke(Command(resume=True), thread("r1"))
    assert lab.CALLS == ["device_lookup", "device_read"]
    assert "4.5 bar" in final["messages"][-1].content  # respond needs no approval


async def test_react_rejected_step_stops_the_turn(graph, run_turn) -> None:
    await run_turn(
        "read the pump pressure",
        thread_id="r2",
        orchestration_mode="react",
        planning_mode_enabled=True,
    )
    final = await graph.ainvoke(Command(resume=False), thread("r2"))
    assert final["messages"][-1].content == STEP_REJECTED_MESSAGE
    assert lab.CALLS == []


@pytest.mark.parametrize(
    ("value", "approved"),
    [
        (True, True),
        (False, False),
        ("yes", True),
        ("Y!", True),
        ("No.", False),
        ({"approved": True, "interrupt_id": "abc"}, True),
        ({"approved": "ok"}, True),
        ({"approved": False}, False),
        ("maybe later", False),
        (None, False),
        ({}, False),
    ],
)
def test_decision_normalisation(value: Any, approved: bool) -> None:
    decision = normalize_decision(value, {"approval_type": "plan", "x": 1})
    assert decision.approved is approved
    assert decision.payload == ({"approval_type": "plan", "x": 1} if approved else None)


def test_payload_of_another_approval_type_is_ignored() -> None:
    decision = normalize_decision(
        {"approved": True, "resume_payload": {"approval_type": "plan", "x": 2}},
        {"approval_type": "channel_write", "x": 1},
    )
    assert decision.payload == {"approval_type": "channel_write", "x": 1}


def test_unclear_text_is_not_an_answer() -> None:
    assert parse_approval_answer("yes but use 4 A") is None
    assert parse_approval_answer(" CANCEL ") is False


@pytest.mark.parametrize(
    ("control", "expected"),
    [
        # device_write writes to the machine: asked in every mode, whatever its own setting.
        ({"approval_global_mode": "disabled"}, {"device_write": True, "device_read": False}),
        ({"approval_global_mode": "all_capabilities"}, {"device_write": True, "device_read": True}),
        (
            {
                "approval_global_mode": "selective",
                "approval_capabilities": {"device_write": {"enabled": True}},
            },
            {"device_write": True, "device_read": False},
        ),
        (
            {
                "approval_global_mode": "selective",
                "approval_capabilities": {"device_write": {"enabled": False}},
            },
            {"device_write": True, "device_read": False},
        ),
        ({"approval_global_mode": "bogus"}, {"device_write": True, "device_read": True}),
    ],
)
def test_approval_policy(lab_registry, control: dict[str, Any], expected: dict[str, bool]) -> None:
    state = {"agent_control": control}
    assert {name: requires_approval(name, state) for name in expected} == expected
    by_class = {
        name: requires_approval(type(lab_registry.get_capability(name)), state) for name in expected
    }
    assert by_class == expected
    assert requires_approval("respond", state) is False


def test_config_cannot_switch_off_the_approval_of_a_write(lab_registry, configure) -> None:
    configure(
        {
            "approval": {
                "global_mode": "disabled",
                "capabilities": {"device_write": {"enabled": False}},
            }
        }
    )
    assert requires_approval("device_write", {}) is True
    assert requires_approval(lab.DeviceWriteCapability, {}) is True
    assert requires_approval("device_read", {}) is False


def test_approval_policy_falls_back_to_config(lab_registry, configure) -> None:
    configure(
        {
            "approval": {
                "global_mode": "selective",
                "capabilities": {"device_write": {"enabled": True}},
            }
        }
    )
    assert requires_approval("device_write", {}) is True
    assert requires_approval("device_read", {}) is False


async def test_approval_events_are_streamed(graph) -> None:
    from osprey_desktop.state import StateManager

    state = StateManager.create_fresh_state("read pump1")
    state["agent_control"]["planning_mode_enabled"] = True
    config = thread("ev1")
    asked = [
        c
        async for m, c in graph.astream(state, config, stream_mode=["custom", "updates"])
        if m == "custom" and c["type"].startswith("approval")
    ]
    assert [(e["type"], e["approval_type"]) for e in asked] == [("approval_required", "plan")]
    assert "Approve this plan" in asked[0]["user_message"]
    received = [
        c
        async for m, c in graph.astream(Command(resume=True), config, stream_mode=["custom"])
        if m == "custom" and c["type"] == "approval_received"
    ]
    assert [(e["approval_type"], e["approved"]) for e in received] == [("plan", True)]


async def test_time_waiting_for_approval_does_not_count_against_the_limit(graph, run_turn) -> None:
    import asyncio

    first = await run_turn(
        "read pump1",
        thread_id="clock",
        planning_mode_enabled=True,
        max_execution_time_seconds=0.5,
    )
    pending(first)
    await asyncio.sleep(0.6)  # the operator thinks longer than the whole turn may take
    final = await graph.ainvoke(Command(resume=True), thread("clock"))
    assert final["control_has_error"] is False
    assert lab.CALLS == ["device_lookup", "device_read"]
