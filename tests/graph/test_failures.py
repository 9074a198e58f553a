"""Error classification and bounded recovery: retries, replanning, reclassification, limits,
and LangGraph interrupts passing through the decorators untouched."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest
from langgraph.errors import GraphInterrupt
from langgraph.types import Interrupt

from osprey_desktop.base.capability import BaseCapability, MissingInputContextError
from osprey_desktop.base.errors import ErrorClassification, ErrorSeverity, RetryPolicy
from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import capability_node, infrastructure_node
from osprey_desktop.graph import create_graph
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.planners.builtin import BuiltinPlanner
from osprey_desktop.planners.selection import set_planner
from osprey_desktop.state import StateManager
from tests.graph import lab
from tests.graph.lab import build_lab_registry


class ScriptedPlanner(BuiltinPlanner):
    """The built-in planner with ``create_plan`` replaced by a script (counts its calls)."""

    def __init__(self, plan: Any = None, error: BaseException | None = None) -> None:
        self.plan = plan
        self.error = error
        self.plan_calls = 0

    async def create_plan(self, task: str, capabilities: Any, state: Any) -> Any:
        self.plan_calls += 1
        if self.error is not None:
            raise self.error
        return (
            self.plan
            if self.plan is not None
            else await super().create_plan(task, capabilities, state)
        )


def step(capability: str, key: str, inputs: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {
        "context_key": key,
        "capability": capability,
        "task_objective": "read pump1",
        "expected_output": None,
        "inputs": inputs or [],
    }


async def run(graph: Any, text: str, **control: Any) -> dict[str, Any]:
    state = StateManager.create_fresh_state(text)
    state["agent_control"].update({"retry_backoff_seconds": 0.0, **control})
    return await graph.ainvoke(state, {"recursion_limit": 60})


@pytest.fixture
def lab_graph(lab_registry):
    return create_graph(lab_registry)


async def test_unknown_capability_reclassifies_once_then_reports(lab_graph) -> None:
    planner = ScriptedPlanner({"steps": [step("teleport", "t1")]})
    set_planner(planner)
    final = await run(lab_graph, "read pump1", max_reclassifications=1)
    assert planner.plan_calls == 2
    assert final["control_reclassification_count"] == 1
    text = final["messages"][-1].content
    assert "unknown capabilities: teleport" in text
    assert "after 1 reclassification" in text


async def test_dangling_input_replans_within_the_limit_then_reports(lab_graph) -> None:
    planner = ScriptedPlanner({"steps": [step("device_read", "r1", [{"LAB_DEVICES": "nowhere"}])]})
    set_planner(planner)
    final = await run(lab_graph, "read pump1", max_planning_attempts=3)
    assert planner.plan_calls == 3
    text = final["messages"][-1].content
    assert "no valid plan after 3 attempts" in text
    assert "reads LAB_DEVICES 'nowhere'" in text
    assert lab.CALLS == []


async def test_retriable_planner_failure_is_retried_a_bounded_number_of_times(lab_graph) -> None:
    planner = ScriptedPlanner(error=TimeoutError("model endpoint timed out"))
    set_planner(planner)
    final = await run(lab_graph, "read pump1", max_step_retries=2)
    assert planner.plan_calls == 3
    assert final["control_retry_count"] == 2
    text = final["messages"][-1].content
    assert "`orchestrator`" in text and "gave up after 3 attempts" in text


async def test_planner_error_is_reported_not_raised(lab_graph) -> None:
    set_planner(
        ScriptedPlanner(error=PlannerError("the model replied with malformed JSON 3 times"))
    )
    final = await run(lab_graph, "read pump1")
    assert "malformed JSON 3 times" in final["messages"][-1].content
    assert final["control_error_info"]["severity"] == "critical"


@capability_node
class AlwaysReplan(BaseCapability):
    name = "always_replan"
    description = "A step whose inputs never fit"
    keywords: ClassVar[list[str]] = ["replan"]

    async def execute(self) -> dict[str, Any]:
        lab.CALLS.append(self.name)
        raise MissingInputContextError("the inputs do not fit")


@capability_node
class AlwaysReclassify(BaseCapability):
    name = "always_reclassify"
    description = "A step that says it is the wrong capability"
    keywords: ClassVar[list[str]] = ["reclassify"]

    async def execute(self) -> dict[str, Any]:
        lab.CALLS.append(self.name)
        raise LookupError("wrong tool")

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        return ErrorClassification(ErrorSeverity.RECLASSIFICATION, f"wrong capability: {exc}")


async def test_replanning_failure_is_bounded_by_planning_attempts() -> None:
    graph = create_graph(build_lab_registry(AlwaysReplan))
    final = await run(graph, "replan please", max_planning_attempts=2)
    assert lab.CALLS == ["always_replan", "always_replan"]
    assert final["control_plans_created_count"] == 2
    assert "no workable plan after 2 planning attempts" in final["messages"][-1].content


async def test_reclassification_failure_is_bounded() -> None:
    graph = create_graph(build_lab_registry(AlwaysReclassify))
    final = await run(graph, "reclassify please", max_reclassifications=2)
    assert lab.CALLS == ["always_reclassify"] * 3
    assert final["control_reclassification_count"] == 2
    assert "still failing after 2 reclassifications" in final["messages"][-1].content


async def test_turn_over_the_time_limit_is_stopped(lab_graph) -> None:
    final = await run(lab_graph, "read the pump pressure", max_execution_time_seconds=1e-9)
    text = final["messages"][-1].content
    assert "over the 0 s limit" in text and "max_execution_time_seconds" in text
    assert final["control_error_info"]["severity"] == "fatal"


async def test_retry_backoff_waits_without_blocking_the_loop(lab_graph) -> None:
    lab.FlakyReadCapability.failures_left = 1
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        final = await run(lab_graph, "check the vacuum gauge", retry_backoff_seconds=0.2)
    finally:
        task.cancel()
    assert final["control_retry_count"] == 1
    assert ticks >= 3  # the loop kept running during the 0.2 s backoff (blocked: 0 or 1)


async def test_graph_interrupt_passes_through_capability_node() -> None:
    @capability_node
    class Asks(BaseCapability):
        name = "asks"
        description = "raises an interrupt"

        async def execute(self) -> dict[str, Any]:
            raise GraphInterrupt((Interrupt(value={"q": 1}, id="i"),))

    with pytest.raises(GraphInterrupt):
        await Asks.langgraph_node({"task_current_task": "x"})


async def test_graph_interrupt_passes_through_infrastructure_node() -> None:
    @infrastructure_node
    class AsksToo(BaseInfrastructureNode):
        name = "asks_too"
        description = "raises an interrupt"

        @staticmethod
        async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            raise GraphInterrupt(())

    with pytest.raises(GraphInterrupt):
        await AsksToo.langgraph_node({})


async def test_successful_step_is_recorded_and_advances() -> None:
    state = {
        "task_current_task": "check the vacuum gauge",
        "capability_context_data": {},
        "planning_execution_plan": {"steps": [step("flaky_read", "flaky_read_1")]},
        "planning_current_step_index": 0,
        "execution_step_results": {"older": {"success": True}},
    }
    updates = await lab.FlakyReadCapability.langgraph_node(state)
    record = updates["execution_step_results"]["flaky_read_1"]
    assert record["capability"] == "flaky_read" and record["success"] is True
    assert record["error"] is None and record["step_index"] == 0 and record["duration"] >= 0
    assert "older" in updates["execution_step_results"]
    assert updates["execution_last_result"] == record
    assert updates["planning_current_step_index"] == 1
    assert "gauge1" in str(updates["capability_context_data"]["LAB_READINGS"]["flaky_read_1"])


def test_default_classification() -> None:
    classify = BaseCapability.classify_error
    ctx = {"capability": "x"}
    assert classify(TimeoutError("t"), ctx).severity is ErrorSeverity.RETRIABLE
    assert classify(ConnectionResetError("c"), ctx).severity is ErrorSeverity.RETRIABLE
    assert classify(MissingInputContextError("m"), ctx).severity is ErrorSeverity.REPLANNING
    assert classify(KeyError("k"), ctx).severity is ErrorSeverity.CRITICAL


def test_retry_policy_backoff_and_validation() -> None:
    policy = RetryPolicy(max_attempts=3, delay_seconds=0.5, backoff_factor=2.0)
    assert [policy.delay_before_retry(n) for n in (1, 2, 3)] == [0.5, 1.0, 2.0]
    with pytest.raises(ValueError, match="max_attempts"):
        RetryPolicy(max_attempts=0)
    assert (
        BaseCapability({"agent_control": {"max_step_retries": 4}}).get_retry_policy()[
            "max_attempts"
        ]
        == 5
    )
