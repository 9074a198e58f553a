"""Approval answers through the Gateway: exact words, pending detection, structured decisions."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.types import Command

from osprey_desktop.approval import ApprovalDecision
from osprey_desktop.infrastructure.gateway import (
    PENDING_APPROVAL_ERROR,
    Gateway,
    parse_approval_answer,
)
from tests.gateway.turn_graph import thread_config


async def _pause_for_approval(graph: Any, gateway: Gateway, thread: str = "t1") -> str:
    """Run a planning-mode turn up to its approval; returns the interrupt id."""
    config = thread_config(thread)
    result = await gateway.process_message("/planning:on move HCM01 to 1.5 A", graph, config)
    await graph.ainvoke(result.agent_state, config)
    snapshot = await graph.aget_state(config)
    assert snapshot.interrupts, "the turn graph should pause for the plan approval"
    return snapshot.interrupts[0].id


async def _runs(graph: Any, thread: str = "t1") -> list[str]:
    values = (await graph.aget_state(thread_config(thread))).values
    return sorted((values.get("capability_context_data") or {}).get("RUN", {}))


@pytest.mark.parametrize(
    "answer",
    [
        "yes",
        "Y",
        "Yes!",
        " ok. ",
        "OKAY",
        "approve",
        "Approved.",
        "confirm",
        "Go ahead!",
        "go  ahead",
        "proceed",
        "yes, please",
    ],
)
async def test_approval_word_resumes_and_executes(graph, gateway, answer):
    interrupt_id = await _pause_for_approval(graph, gateway)

    result = await gateway.process_message(answer, graph, thread_config())

    assert result.error is None
    assert result.approval_detected and result.is_interrupt_resume and result.approved is True
    assert result.resume_command.resume["approved"] is True
    assert result.resume_command.resume["interrupt_id"] == interrupt_id
    assert result.resume_command.resume["resume_payload"]["approval_type"] == "plan"
    await graph.ainvoke(result.resume_command, thread_config())
    assert await _runs(graph) == ["run_1"]


@pytest.mark.parametrize(
    "answer", ["no", "N", "No.", "nope", "CANCEL", "reject", "deny!", "stop", "Abort.", "don't"]
)
async def test_rejection_word_resumes_without_executing(graph, gateway, answer):
    await _pause_for_approval(graph, gateway)

    result = await gateway.process_message(answer, graph, thread_config())

    assert result.error is None and result.approved is False
    assert result.resume_command.resume["approved"] is False
    await graph.ainvoke(result.resume_command, thread_config())
    assert await _runs(graph) == []
    values = (await graph.aget_state(thread_config())).values
    assert values["messages"][-1].content == "plan rejected, nothing executed"


@pytest.mark.parametrize(
    "answer",
    [
        "maybe",
        "yes do it now",
        "sure thing",
        "read the current instead",
        "/planning:off",
        "yess",
        "",
        "/mode:react yes",
    ],
)
async def test_anything_else_while_pending_is_refused_and_nothing_runs(graph, gateway, answer):
    interrupt_id = await _pause_for_approval(graph, gateway)
    before = await graph.aget_state(thread_config())

    result = await gateway.process_message(answer, graph, thread_config())

    assert result.error == PENDING_APPROVAL_ERROR
    assert result.resume_command is None and result.agent_state is None
    assert result.interrupt["interrupt_id"] == interrupt_id
    after = await graph.aget_state(thread_config())
    assert after.config == before.config, "no checkpoint may be written"
    assert [i.id for i in after.interrupts] == [interrupt_id]


async def test_help_stays_available_while_an_approval_is_pending(graph, gateway):
    await _pause_for_approval(graph, gateway)
    result = await gateway.process_message("/help", graph, thread_config())
    assert result.error is None and "/planning" in result.message and not result.runs_graph


def test_answer_words_are_exact_after_normalisation():
    assert parse_approval_answer("Go ahead.") is True
    assert parse_approval_answer("don\u2019t") is False
    assert parse_approval_answer("yes no") is None
    assert parse_approval_answer("okay then") is None


async def test_no_pending_approval_means_a_yes_is_a_new_request(graph, gateway):
    result = await gateway.process_message("yes", graph, thread_config())
    assert not result.is_interrupt_resume
    assert result.agent_state["messages"][0].content == "yes"


async def test_structured_decision_answers_the_named_interrupt(graph, gateway):
    interrupt_id = await _pause_for_approval(graph, gateway)

    result = await gateway.process_decision(
        ApprovalDecision(approved=True, payload=None, interrupt_id=interrupt_id),
        graph,
        thread_config(),
    )

    assert result.error is None and result.is_interrupt_resume and result.approved is True
    await graph.ainvoke(result.resume_command, thread_config())
    assert await _runs(graph) == ["run_1"]


async def test_structured_decision_for_a_stale_interrupt_is_refused(graph, gateway):
    await _pause_for_approval(graph, gateway)

    result = await gateway.process_decision(
        ApprovalDecision(approved=True, payload=None, interrupt_id="0" * 32), graph, thread_config()
    )

    assert "no longer pending" in result.error and result.resume_command is None


async def test_structured_decision_without_pending_approval_is_refused(graph, gateway):
    result = await gateway.process_decision(True, graph, thread_config("empty"))
    assert "no approval is pending on thread empty" in result.error


async def test_structured_decision_needs_a_boolean(graph, gateway):
    await _pause_for_approval(graph, gateway)
    result = await gateway.process_decision("yes", graph, thread_config())
    assert "approved=True/False" in result.error


async def test_approval_whose_execution_failed_is_not_pending_any_more(graph, gateway):
    await _pause_for_approval(graph, gateway)
    with pytest.raises(RuntimeError):
        await graph.ainvoke(Command(resume={"approved": True, "boom": True}), thread_config())

    result = await gateway.process_message("read the current", graph, thread_config())

    assert result.error is None and not result.is_interrupt_resume
    await graph.ainvoke(result.agent_state, thread_config())
    assert (
        (await graph.aget_state(thread_config()))
        .values["messages"][-1]
        .content.startswith("done: read the current")
    )
