"""The chat-model planner gets the parse of the request as a typed output of task extraction
(the same structure the built-in planner plans from), against a scripted server on 127.0.0.1."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.config import build_config
from osprey_desktop.planners.chat_model import ChatModelPlanner
from tests.support.openai_stub import OpenAIStub, json_reply


class _Finder(BaseCapability):
    name = "channel_finding"
    description = "Find channels."
    provides = ["CHANNEL_ADDRESSES"]
    requires = []

    async def execute(self) -> dict[str, Any]:
        return {}


class _Writer(BaseCapability):
    name = "channel_write"
    description = "Write channels."
    provides = ["WRITE_RESULTS"]
    requires = [("CHANNEL_ADDRESSES", "single")]
    writes = True

    async def execute(self) -> dict[str, Any]:
        return {}


CAPABILITIES = [_Finder(), _Writer()]
WRITE_PLAN = {
    "steps": [
        {
            "context_key": "targets",
            "capability": "channel_finding",
            "task_objective": "Find QD04",
            "success_criteria": "found",
            "expected_output": "CHANNEL_ADDRESSES",
            "parameters": [],
            "inputs": [],
        },
        {
            "context_key": "write",
            "capability": "channel_write",
            "task_objective": "Write QD04",
            "success_criteria": "written",
            "expected_output": "WRITE_RESULTS",
            "parameters": [],
            "inputs": [{"context_type": "CHANNEL_ADDRESSES", "context_key": "targets"}],
        },
    ]
}


def _parse(intent: str, **fields: Any) -> dict[str, Any]:
    return {
        "intent": intent,
        "targets": fields.get("targets", []),
        "quantity": fields.get("quantity"),
        "time": fields.get("time"),
        "reference": fields.get("reference"),
        "state": None,
        "unused_words": fields.get("unused_words", []),
    }


def _task(task: str, parse: dict[str, Any] | None) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "task": task,
        "depends_on_chat_history": False,
        "depends_on_user_memory": False,
    }
    if parse is not None:
        reply["request"] = parse
    return reply


@pytest.fixture
def stub():
    with OpenAIStub() as server:
        yield server


@pytest.fixture
def planner(stub: OpenAIStub) -> ChatModelPlanner:
    config = build_config(
        {
            "models": {
                "planner": "chat_model",
                "chat_model": {"base_url": stub.base_url, "model": "stub", "max_retries": 0},
            },
            "execution_control": {"limits": {"retry_backoff_seconds": 0}},
        }
    )
    return ChatModelPlanner(config)


def _state(text: str) -> dict[str, Any]:
    return {
        "messages": [HumanMessage(text)],
        "capability_context_data": {},
        "execution_step_results": {},
    }


async def test_the_task_schema_asks_for_the_parse_with_every_field_required(stub, planner):
    stub.queue(json_reply(_task("Read the lifetime", _parse("read", targets=["lifetime"]))))
    await planner.extract_task([HumanMessage("lifetime?")], _state("lifetime?"))
    schema = stub.requests[0].response_schema["schema"]
    assert "request" in schema["required"]
    parse = schema["$defs"]["RequestParseReply"]
    assert set(parse["required"]) == set(parse["properties"])
    assert "copy" in parse["properties"]["intent"]["enum"]


async def test_the_models_parse_becomes_the_request_structure(stub, planner):
    quantity = {"kind": "relative", "value": 0.2, "unit": "A"}
    stub.queue(
        json_reply(
            _task("Increase HCM09 by 0.2 A", _parse("write", targets=["HCM09"], quantity=quantity))
        )
    )
    extracted = await planner.extract_task([HumanMessage("HCM09 0.2 A higher")], _state("x"))
    parsed = planner.parses[extracted.task]
    assert parsed.intent == "write" and parsed.changes
    assert parsed.targets == ("HCM09",)
    assert parsed.quantity is not None
    assert (parsed.quantity.kind, parsed.quantity.value, parsed.quantity.unit) == (
        "relative",
        0.2,
        "A",
    )


async def test_a_reply_without_the_parse_still_extracts_the_task(stub, planner):
    stub.queue(json_reply(_task("Read the lifetime", None)))
    extracted = await planner.extract_task([HumanMessage("lifetime?")], _state("lifetime?"))
    assert extracted.task == "Read the lifetime"
    assert extracted.task not in planner.parses


async def test_a_write_the_models_own_parse_calls_a_read_is_asked_about_not_planned(stub, planner):
    text = "make QD04 match QD02"
    stub.queue(json_reply(_task(text, _parse("read", targets=["QD04", "QD02"]))))
    stub.queue(json_reply(WRITE_PLAN))
    await planner.extract_task([HumanMessage(text)], _state(text))
    plan = await planner.create_plan(text, CAPABILITIES, _state(text))
    assert [s["capability"] for s in plan["steps"]] == ["clarify"]


async def test_a_copy_both_parses_call_a_change_keeps_its_write(stub, planner):
    text = "make QD04 match QD02"
    reference = {"kind": "channel", "words": "QD02"}
    stub.queue(json_reply(_task(text, _parse("copy", targets=["QD04"], reference=reference))))
    stub.queue(json_reply(WRITE_PLAN))
    await planner.extract_task([HumanMessage(text)], _state(text))
    plan = await planner.create_plan(text, CAPABILITIES, _state(text))
    assert [s["capability"] for s in plan["steps"]] == ["channel_finding", "channel_write"]
