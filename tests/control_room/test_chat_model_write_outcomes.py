"""With the chat-model planner, the answer about a write comes from the write results, and the
approval quotes the operator and marks a value the model supplied (the model is the
OpenAI-compatible stub on 127.0.0.1; graph, registry, capabilities and ring are real)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from osprey_desktop.config import build_config, set_config
from osprey_desktop.planners import reset_planner
from osprey_desktop.session import AgentSession
from tests.support.openai_stub import OpenAIStub, StubRequest, json_reply, text_reply

HCM01 = "SR01C:HCM01:Current:SP"


def _plan(value: float) -> dict:
    return {
        "steps": [
            {
                "context_key": "target",
                "capability": "channel_finding",
                "task_objective": "Find HCM01",
                "success_criteria": "the setpoint",
                "expected_output": "CHANNEL_ADDRESSES",
                "parameters": [{"name": "query", "value": "HCM01"}],
                "inputs": [],
            },
            {
                "context_key": "write",
                "capability": "channel_write",
                "task_objective": "Set HCM01",
                "success_criteria": "written",
                "expected_output": "CHANNEL_WRITE_RESULTS",
                "parameters": [{"name": "value", "value": str(value)}],
                "inputs": [{"context_type": "CHANNEL_ADDRESSES", "context_key": "target"}],
            },
            {
                "context_key": "answer",
                "capability": "respond",
                "task_objective": "Report",
                "success_criteria": "stated",
                "expected_output": None,
                "parameters": [],
                "inputs": [{"context_type": "CHANNEL_WRITE_RESULTS", "context_key": "write"}],
            },
        ]
    }


def _model(value: float):
    def reply(request: StubRequest):
        schema = (request.response_schema or {}).get("name")
        if schema == "TaskReply":
            return json_reply(
                {
                    "task": "Set HCM01",
                    "depends_on_chat_history": False,
                    "depends_on_user_memory": False,
                }
            )
        if schema == "CapabilitySelectionReply":
            return json_reply({"capabilities": ["channel_write"], "reasoning": "a write"})
        if schema == "PlanReply":
            return json_reply(_plan(value))
        return text_reply("Done.")  # whatever happened: the model must not be the one who says

    return reply


@pytest.fixture
def fresh_planner() -> Iterator[None]:
    reset_planner()
    yield
    reset_planner()


async def _session_turn(stub: OpenAIStub, tmp_path: Path, answer: bool | None):
    set_config(
        build_config(
            {"models": {"planner": "chat_model", "chat_model": {"base_url": stub.base_url}}}
        )
    )
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        asked = await session.submit("set HCM01 to 1.5 A", "t1")
        if answer is None:
            return asked, asked
        return asked, await session.resume("t1", answer)


async def test_a_rejected_write_is_reported_from_the_results_not_the_model(
    connectors, machine, tmp_path, fresh_planner
):
    with OpenAIStub(_model(1.9)) as stub:
        asked, done = await _session_turn(stub, tmp_path, False)

    message = asked.pending_approval["user_message"]
    assert "You asked: \u201cset HCM01 to 1.5 A\u201d" in message
    assert "write **1.9 A**" in message and "value proposed by the planner" in message
    assert "asked: to 1.9" not in message
    assert done.response.startswith("**Nothing was written** (1 rejected by you).")
    assert "Done." not in done.response
    assert machine.value(HCM01) == 0.0


async def test_a_blocked_write_is_reported_from_the_results_not_the_model(
    connectors, machine, tmp_path, fresh_planner
):
    with OpenAIStub(_model(9.0)) as stub:
        _, result = await _session_turn(stub, tmp_path, None)

    assert result.pending_approval is None
    assert result.response.startswith("**Nothing was written** (1 blocked by the write policy).")
    assert "above the maximum of 5.0 A" in result.response and "Done." not in result.response
    assert machine.value(HCM01) == 0.0


def _copy_plan() -> dict:
    """What a model is told to plan for a copy: find both, read them, write with the values."""

    def step(key, capability, output, inputs):
        return {
            "context_key": key,
            "capability": capability,
            "task_objective": "make VCM08 the same as VCM07",
            "success_criteria": "done",
            "expected_output": output,
            "parameters": [],
            "inputs": [{"context_type": t, "context_key": k} for t, k in inputs],
        }

    return {
        "steps": [
            step("found", "channel_finding", "CHANNEL_ADDRESSES", []),
            step("read", "channel_read", "CHANNEL_VALUES", [("CHANNEL_ADDRESSES", "found")]),
            step(
                "write",
                "channel_write",
                "CHANNEL_WRITE_RESULTS",
                [("CHANNEL_ADDRESSES", "found"), ("CHANNEL_VALUES", "read")],
            ),
            step("answer", "respond", None, [("CHANNEL_WRITE_RESULTS", "write")]),
        ]
    }


async def test_a_copy_planned_by_a_model_writes_the_read_value_and_says_so(
    connectors, machine, tmp_path, fresh_planner
):
    machine.set_setpoint("SR03C:VCM07:Current:SP", -0.42)
    seen: list[StubRequest] = []

    def reply(request: StubRequest):
        seen.append(request)
        schema = (request.response_schema or {}).get("name")
        if schema == "TaskReply":
            return json_reply(
                {
                    "task": "make VCM08 the same as VCM07",
                    "depends_on_chat_history": False,
                    "depends_on_user_memory": False,
                }
            )
        if schema == "CapabilitySelectionReply":
            return json_reply({"capabilities": ["channel_read", "channel_write"], "reasoning": "."})
        if schema == "PlanReply":
            return json_reply(_copy_plan())
        return text_reply("Done.")

    with OpenAIStub(reply) as stub:
        set_config(
            build_config(
                {"models": {"planner": "chat_model", "chat_model": {"base_url": stub.base_url}}}
            )
        )
        async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
            asked = await session.submit("make VCM08 the same as VCM07", "t1")

    (op,) = asked.pending_approval["resume_payload"]["operations"]
    assert op["channel"] == "SR03C:VCM08:Current:SP" and op["new_value"] == -0.42
    assert "copied from `SR03C:VCM07:Current:SP`" in asked.pending_approval["user_message"]
    plan_prompt = next(r for r in seen if (r.response_schema or {}).get("name") == "PlanReply")
    assert "reads that channel before the write step" in plan_prompt.prompt_text


async def test_a_write_the_request_does_not_ask_for_is_not_planned_from_a_model(
    connectors, machine, tmp_path, fresh_planner
):
    def reply(request: StubRequest):
        schema = (request.response_schema or {}).get("name")
        if schema == "TaskReply":
            return json_reply(
                {
                    "task": "what is HCM01?",
                    "depends_on_chat_history": False,
                    "depends_on_user_memory": False,
                }
            )
        if schema == "CapabilitySelectionReply":
            return json_reply({"capabilities": ["channel_write"], "reasoning": "."})
        if schema == "PlanReply":
            return json_reply(_plan(1.9))  # the model over-reaches: a write for a question
        return text_reply("I need more information.")

    with OpenAIStub(reply) as stub:
        set_config(
            build_config(
                {"models": {"planner": "chat_model", "chat_model": {"base_url": stub.base_url}}}
            )
        )
        async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
            result = await session.submit("what is HCM01?", "t1")

    assert result.pending_approval is None
    assert [s["capability"] for s in result.plan["steps"]] == ["clarify"]
    assert machine.value(HCM01) == 0.0
