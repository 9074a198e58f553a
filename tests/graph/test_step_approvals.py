"""The approval policy applied by the framework before a capability step runs: every mode,
plan_first and react, approve and reject, and a machine write that is asked whatever the mode."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from osprey_desktop.approval import STEP_REJECTED_AFTER_STEPS, STEP_REJECTED_NOTHING_RUN
from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.decorators import capability_node
from osprey_desktop.graph import create_graph
from osprey_desktop.registry import set_registry
from tests.graph import lab
from tests.graph.conftest import thread


@capability_node
class HeaterResetCapability(BaseCapability):
    """Writes to the lab machine and builds no approval of its own: the framework must ask."""

    name = "heater_reset"
    description = "Reset the lab heater to its default temperature"
    provides = ["LAB_WRITE"]
    keywords = ["reset", "heater"]
    examples = ["reset the heater"]
    writes = True

    async def execute(self) -> dict[str, Any]:
        lab.CALLS.append(self.name)
        lab.MACHINE["heater1"] = lab.MACHINE_DEFAULTS["heater1"]
        return self.store_output_context(lab.WriteResult(device="heater1", value=21.5))


def pending(result: dict[str, Any]) -> dict[str, Any]:
    interrupts = result.get("__interrupt__") or []
    assert len(interrupts) == 1, f"expected one pending approval, got {interrupts}"
    return interrupts[0].value["resume_payload"]


async def test_all_capabilities_asks_before_each_read_step_and_runs_it_once_approved(
    graph, run_turn
) -> None:
    first = await run_turn("read the pump pressure", approval_global_mode="all_capabilities")
    asked = pending(first)
    assert asked["approval_type"] == "step"
    assert asked["step"]["capability"] == "device_lookup"
    assert (asked["step_index"], asked["total_steps"]) == (0, 3)
    assert lab.CALLS == [], "nothing runs while the approval is pending"

    second = await graph.ainvoke(Command(resume=True), thread())
    assert lab.CALLS == ["device_lookup"]
    assert pending(second)["step"]["capability"] == "device_read"

    final = await graph.ainvoke(Command(resume=True), thread())
    assert lab.CALLS == ["device_lookup", "device_read"], "each step ran exactly once"
    assert "4.5 bar" in final["messages"][-1].content  # respond needs no approval
    assert final["approved_payload"]["step"]["capability"] == "device_read"


async def test_rejected_first_step_ends_the_turn_with_nothing_executed(graph, run_turn) -> None:
    await run_turn("read the pump pressure", approval_global_mode="all_capabilities")

    final = await graph.ainvoke(Command(resume="no"), thread())

    assert lab.CALLS == []
    assert final["messages"][-1].content == STEP_REJECTED_NOTHING_RUN
    assert final["control_is_killed"] is True and final["control_has_error"] is False
    assert final["approval_approved"] is False and final["approved_payload"] is None
    assert "LAB_DEVICES" not in (final.get("capability_context_data") or {})
    snapshot = await graph.aget_state(thread())
    assert snapshot.next == () and not snapshot.interrupts


async def test_rejected_later_step_keeps_what_already_ran(graph, run_turn) -> None:
    await run_turn("read the pump pressure", approval_global_mode="all_capabilities")
    await graph.ainvoke(Command(resume=True), thread())

    final = await graph.ainvoke(Command(resume=False), thread())

    assert lab.CALLS == ["device_lookup"]
    assert final["messages"][-1].content == STEP_REJECTED_AFTER_STEPS
    assert "LAB_READINGS" not in final["capability_context_data"]


async def test_selective_mode_reads_without_asking(run_turn) -> None:
    final = await run_turn("read the pump pressure", approval_global_mode="selective")
    assert "__interrupt__" not in final
    assert lab.CALLS == ["device_lookup", "device_read"]


async def test_next_turn_after_a_rejected_step_runs_normally(graph, run_turn) -> None:
    await run_turn("read the pump pressure", approval_global_mode="all_capabilities")
    await graph.ainvoke(Command(resume=False), thread())

    final = await run_turn("read the pump pressure", approval_global_mode="selective")

    assert final["control_is_killed"] is False
    assert lab.CALLS == ["device_lookup", "device_read"]


async def test_a_retried_step_is_not_asked_again(graph, run_turn) -> None:
    lab.FlakyReadCapability.failures_left = 1
    first = await run_turn("check the vacuum gauge", approval_global_mode="all_capabilities")
    assert pending(first)["step"]["capability"] == "flaky_read"

    final = await graph.ainvoke(Command(resume=True), thread())

    assert "__interrupt__" not in final
    assert lab.CALLS == ["flaky_read", "flaky_read"]


async def test_react_without_planning_mode_asks_through_the_policy(graph, run_turn) -> None:
    first = await run_turn(
        "read the pump pressure",
        orchestration_mode="react",
        approval_global_mode="all_capabilities",
    )
    assert pending(first)["approval_type"] == "step"
    second = await graph.ainvoke(Command(resume=True), thread())
    assert pending(second)["step"]["capability"] == "device_read"
    final = await graph.ainvoke(Command(resume=True), thread())
    assert lab.CALLS == ["device_lookup", "device_read"]
    assert "4.5 bar" in final["messages"][-1].content


async def test_react_planning_mode_with_all_capabilities_asks_once_per_step(
    graph, run_turn
) -> None:
    first = await run_turn(
        "read the pump pressure",
        orchestration_mode="react",
        planning_mode_enabled=True,
        approval_global_mode="all_capabilities",
    )
    asked = [pending(first)]
    result = await graph.ainvoke(Command(resume=True), thread())
    while "__interrupt__" in result:
        asked.append(pending(result))
        result = await graph.ainvoke(Command(resume=True), thread())

    assert [(a["approval_type"], a["step"]["capability"]) for a in asked] == [
        ("reactive_step", "device_lookup"),
        ("reactive_step", "device_read"),
    ]
    assert lab.CALLS == ["device_lookup", "device_read"]


@pytest.fixture
def reset_graph(lab_registry) -> Any:
    lab_registry.register_capability(HeaterResetCapability)
    set_registry(lab_registry)
    return create_graph(lab_registry, checkpointer=InMemorySaver())


@pytest.mark.parametrize("mode", ["disabled", "selective", "all_capabilities"])
async def test_a_machine_write_is_asked_in_every_mode(reset_graph, mode) -> None:
    from osprey_desktop.state import StateManager

    lab.MACHINE["heater1"] = 30.0
    state = StateManager.create_fresh_state("reset the heater")
    state["agent_control"].update(
        approval_global_mode=mode, approval_capabilities={"heater_reset": {"enabled": False}}
    )

    first = await reset_graph.ainvoke(state, thread("hr"))

    asked = pending(first)
    assert (asked["approval_type"], asked["capability"]) == ("step", "heater_reset")
    assert lab.MACHINE["heater1"] == 30.0 and lab.CALLS == []
    final = await reset_graph.ainvoke(Command(resume=True), thread("hr"))
    assert lab.CALLS == ["heater_reset"] and lab.MACHINE["heater1"] == 21.5
    assert final["approval_approved"] is True


async def test_a_capability_that_asks_itself_is_asked_once(graph, run_turn) -> None:
    first = await run_turn("set pump1 to 5", approval_global_mode="all_capabilities")
    assert pending(first)["approval_type"] == "step"  # device_lookup, a read
    second = await graph.ainvoke(Command(resume=True), thread())
    assert pending(second)["approval_type"] == "channel_write"  # device_write's own payload
    final = await graph.ainvoke(Command(resume=True), thread())
    assert "__interrupt__" not in final and lab.MACHINE["pump1"] == 5.0
