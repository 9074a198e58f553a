"""A capability that raises ``ClarificationRequired``: its own question ends the turn, in
plan-first and react mode, without a retry, an error or the planner rewording it."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import pytest
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from osprey_desktop.base import BaseCapability, ClarificationRequired
from osprey_desktop.base.clarification import format_clarification
from osprey_desktop.decorators import capability_node
from osprey_desktop.graph import create_graph
from osprey_desktop.planners.builtin import BuiltinPlanner
from osprey_desktop.planners.selection import set_planner
from osprey_desktop.registry import set_registry
from osprey_desktop.state import StateManager
from tests.graph import lab
from tests.graph.conftest import thread
from tests.graph.lab import build_lab_registry

QUESTION = "Which resolution should the scan of pump1 use?"
SUGGESTIONS = ["scan pump1 at 5 um", "scan pump1 at 20 um"]


@capability_node
class SampleScanCapability(BaseCapability):
    """Needs a resolution the request may not give; asks for it instead of guessing."""

    name = "sample_scan"
    description = "Scan a lab device at a chosen resolution"
    requires: ClassVar[list[Any]] = [("LAB_DEVICES", "single")]
    keywords = ["scan"]
    examples = ["scan pump1 at 5 um"]
    link_failures: ClassVar[int] = 0

    async def execute(self) -> dict[str, Any]:
        lab.CALLS.append(self.name)
        if SampleScanCapability.link_failures > 0:
            SampleScanCapability.link_failures -= 1
            raise ConnectionError("scanner link dropped")
        (devices,) = self.get_required_contexts()
        if not re.search(r"\bat \d+ ?um\b", self.get_task_objective()):
            raise ClarificationRequired(QUESTION, SUGGESTIONS)
        return {}


class NoRewordingPlanner(BuiltinPlanner):
    """The built-in planner, but asking it for a clarification is a test failure."""

    async def ask_clarification(self, task: str, state: Any, reason: str | None) -> str:
        raise AssertionError("a capability's own question must not go through the planner")


@pytest.fixture
def scan_graph() -> Any:
    SampleScanCapability.link_failures = 0
    registry = build_lab_registry(SampleScanCapability)
    set_registry(registry)
    set_planner(NoRewordingPlanner())
    return create_graph(registry, checkpointer=InMemorySaver())


async def run_streamed(
    graph: Any, text: str, thread_id: str = "c1", **control: Any
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """One turn: (final state, nodes in the order they ran, progress events)."""
    state = StateManager.create_fresh_state(text)
    state["agent_control"].update({"retry_backoff_seconds": 0.0, **control})
    nodes: list[str] = []
    events: list[dict[str, Any]] = []
    async for mode, chunk in graph.astream(
        state, thread(thread_id), stream_mode=["custom", "updates"]
    ):
        if mode == "custom":
            events.append(chunk)
        else:
            nodes.extend(name for name in chunk if name != "router")
    final = (await graph.aget_state(thread(thread_id))).values
    return final, nodes, events


def last_answer(final: dict[str, Any]) -> str:
    message = final["messages"][-1]
    assert isinstance(message, AIMessage)
    return str(message.content)


@pytest.mark.parametrize("mode", ["plan_first", "react"])
async def test_the_capabilitys_question_is_the_final_answer_word_for_word(scan_graph, mode):
    final, nodes, _ = await run_streamed(scan_graph, "scan pump1", orchestration_mode=mode)

    assert last_answer(final) == format_clarification(QUESTION, SUGGESTIONS)
    assert last_answer(final).startswith(QUESTION)
    assert all(f"“{s}”" in last_answer(final) for s in SUGGESTIONS)
    assert nodes[-2:] == ["sample_scan", "clarify"], "clarify runs straight after the step"
    assert "error" not in nodes and "respond" not in nodes


@pytest.mark.parametrize("mode", ["plan_first", "react"])
async def test_a_clarification_is_neither_retried_nor_an_error(scan_graph, mode):
    final, _, _ = await run_streamed(scan_graph, "scan pump1", orchestration_mode=mode)

    assert lab.CALLS == ["device_lookup", "sample_scan"], "asked once, never retried"
    assert final["control_has_error"] is False and final["control_error_info"] is None
    assert final["control_retry_count"] == 0
    (record,) = [
        r for r in final["execution_step_results"].values() if r["capability"] == "sample_scan"
    ]
    assert record["needs_clarification"] is True and record["success"] is False
    assert record["question"] == QUESTION and record["suggestions"] == SUGGESTIONS


async def test_the_rest_of_the_plan_is_replaced_by_one_clarify_step(scan_graph):
    final, _, _ = await run_streamed(scan_graph, "scan pump1")

    steps = final["planning_execution_plan"]["steps"]
    assert [s["capability"] for s in steps] == ["device_lookup", "sample_scan", "clarify"]
    assert steps[-1]["parameters"]["asked_by"] == "sample_scan"
    assert steps[-1]["context_key"] == f"{steps[1]['context_key']}_clarify"


async def test_a_clarification_after_a_retry_clears_the_pending_error(scan_graph):
    SampleScanCapability.link_failures = 1

    final, nodes, _ = await run_streamed(scan_graph, "scan pump1")

    assert lab.CALLS == ["device_lookup", "sample_scan", "sample_scan"]
    assert final["control_has_error"] is False and "error" not in nodes
    assert last_answer(final).startswith(QUESTION)


async def test_the_step_reports_a_clarification_event_not_a_failure(scan_graph):
    _, _, events = await run_streamed(scan_graph, "scan pump1")

    (asked,) = [e for e in events if e["type"] == "clarification"]
    assert asked["capability"] == "sample_scan" and asked["step_index"] == 1
    assert asked["question"] == QUESTION and asked["suggestions"] == SUGGESTIONS
    completes = [e for e in events if e["type"] == "capability_complete"]
    assert [(e["capability"], e["success"]) for e in completes] == [
        ("device_lookup", True),
        ("clarify", True),
    ]
    assert not [e for e in events if e["type"] == "error"]
    assert events[-1]["type"] == "capability_complete"
    assert [e["response"] for e in events if e["type"] == "result"] == [
        format_clarification(QUESTION, SUGGESTIONS)
    ]


async def test_a_request_that_gives_what_was_asked_runs_through(scan_graph):
    final, nodes, _ = await run_streamed(scan_graph, "scan pump1 at 5 um")

    assert nodes[-2:] == ["sample_scan", "respond"]
    assert "clarify" not in nodes and final["control_has_error"] is False


async def test_the_follow_up_turn_on_the_same_thread_plans_afresh(scan_graph):
    await run_streamed(scan_graph, "scan pump1", thread_id="c2")

    final, nodes, _ = await run_streamed(scan_graph, "scan pump1 at 20 um", thread_id="c2")

    assert "clarify" not in nodes and nodes[-1] == "respond"
    assert not any(r.get("needs_clarification") for r in final["execution_step_results"].values())


async def test_without_a_clarify_node_the_question_is_reported_by_the_error_node():
    registry = build_lab_registry(SampleScanCapability)
    registry._capabilities.pop("clarify")
    set_registry(registry)
    graph = create_graph(registry, checkpointer=InMemorySaver())

    final, nodes, _ = await run_streamed(graph, "scan pump1")

    assert nodes[-1] == "error" and lab.CALLS == ["device_lookup", "sample_scan"]
    assert QUESTION in last_answer(final)
    assert final["control_error_info"]["metadata"]["clarification"] is True


def test_a_clarification_needs_a_question():
    with pytest.raises(ValueError, match="needs the question"):
        ClarificationRequired("  ")


def test_suggestions_are_trimmed_and_deduplicated():
    asked = ClarificationRequired(" Which one? ", ["a ", "a", "", "b"])
    assert (asked.question, asked.suggestions) == ("Which one?", ["a", "b"])
    assert str(asked) == "Which one?"
    assert not isinstance(asked, ValueError), "a capability's except ValueError must not eat it"
