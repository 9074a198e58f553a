"""Language models that are not OpenAI: each structured-output method against the
OpenAI-compatible stub (127.0.0.1), and the built-in planner standing in, said in the answer,
while the endpoint is down or too slow."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.config import build_config
from osprey_desktop.connectors import close_connectors
from osprey_desktop.connectors.factory import reset_sim_machines
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.planners.chat_model import ChatModelPlanner
from osprey_desktop.planners.model_endpoint import (
    BuiltinFallbackPlanner,
    EndpointUnavailable,
    extract_json,
)
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.planners.structured import TaskReply
from osprey_desktop.registry import reset_registry
from osprey_desktop.session import AgentSession
from tests.support.openai_stub import (
    OpenAIStub,
    StubRequest,
    http_error,
    json_reply,
    text_reply,
    tool_call_reply,
)

TASK = {"task": "Read the beam current", "depends_on_chat_history": False,
        "depends_on_user_memory": False}  # fmt: skip


def planner_for(url: str, method: str, **chat: Any) -> ChatModelPlanner:
    config = build_config(
        {
            "models": {
                "planner": "chat_model",
                "chat_model": {"base_url": url, "structured_output": method, **chat},
            },
            "execution_control": {"limits": {"retry_backoff_seconds": 0}},
        }
    )
    return ChatModelPlanner(config)


def test_json_is_taken_from_a_plain_reply() -> None:
    assert extract_json('Sure! ```json\n{"a": 1}\n``` hope that helps') == {"a": 1}
    assert extract_json('The plan is {"a": {"b": [1, 2]}} as asked.') == {"a": {"b": [1, 2]}}
    with pytest.raises(ValueError, match="no JSON object"):
        extract_json("I cannot help with that.")


@pytest.mark.parametrize("method", ["json_object", "tool_call", "text"])
async def test_each_structured_method_gets_the_task(method: str) -> None:
    def answer(request: StubRequest):
        if method == "tool_call":
            return tool_call_reply(request.tool_names[0], TASK)
        if method == "text":
            return text_reply(f"Here it is:\n```json\n{json.dumps(TASK)}\n```")
        return json_reply(TASK)

    with OpenAIStub(answer) as stub:
        planner = planner_for(stub.base_url, method)
        task = await planner.extract_task([], {"messages": []})
        (request,) = stub.requests
    assert task.task == "Read the beam current"
    body = request.body
    if method == "json_object":
        assert body["response_format"] == {"type": "json_object"}
        assert '"depends_on_chat_history"' in request.prompt_text  # the schema is in the prompt
    elif method == "tool_call":
        assert request.tool_names == ["TaskReply"] and "response_format" not in body
    else:
        assert "response_format" not in body and "tools" not in body
        assert '"depends_on_chat_history"' in request.prompt_text
        assert request.messages[0]["role"] == "system"
        assert sum(m["role"] == "system" for m in request.messages) == 1


async def test_a_text_reply_without_json_is_retried_with_the_reason() -> None:
    with OpenAIStub() as stub:
        stub.queue(text_reply("I think the task is to read it."), json_reply(TASK))
        planner = planner_for(stub.base_url, "text")
        task = await planner.extract_task([], {"messages": []})
        assert task.task == "Read the beam current"
        assert "no JSON object" in stub.requests[1].prompt_text


async def test_a_rejected_structured_request_advises_another_method() -> None:
    with OpenAIStub() as stub:
        stub.queue(http_error(400, "response_format json_schema is not supported"))
        planner = planner_for(stub.base_url, "json_schema")
        with pytest.raises(
            PlannerError, match="structured_output to json_object, tool_call or text"
        ):
            await planner.ask_structured("task", TaskReply, [])


async def test_an_unknown_method_is_a_clear_configuration_error() -> None:
    with pytest.raises(Exception, match="structured_output"):
        build_config({"models": {"chat_model": {"structured_output": "xml"}}})


def down_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


@pytest.fixture
async def ring(configure) -> AsyncIterator[None]:
    reset_registry()
    reset_planner()
    reset_sim_machines()
    yield
    await close_connectors()
    reset_sim_machines()
    reset_registry()
    reset_planner()


async def test_the_builtin_planner_stands_in_while_the_endpoint_is_down(
    ring, configure, tmp_path: Path
) -> None:
    url = down_url()
    configure({"models": {"planner": "chat_model", "chat_model": {"base_url": url}}})
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        result = await session.submit("what is the beam current?", "t1")
    assert result.error is None
    assert "SR:DCCT:Current" in result.response and "mA" in result.response
    assert "the built-in planner planned this turn instead" in result.response
    assert f"cannot reach the language model at {url} (connection refused)" in result.response


async def test_a_slow_endpoint_is_asked_once_per_turn_then_stood_in_for(
    ring, configure, tmp_path: Path
) -> None:
    release = threading.Event()

    def slow(request: StubRequest):
        release.wait(10)  # longer than the time limit: the call is cut off
        return json_reply(TASK)

    with OpenAIStub(slow) as stub:
        configure(
            {
                "models": {
                    "planner": "chat_model",
                    "chat_model": {"base_url": stub.base_url, "timeout_seconds": 0.5},
                }
            }
        )
        try:
            async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
                result = await session.submit("what is the beam current?", "t1")
        finally:
            release.set()
        asked = len(stub.requests)
    assert "SR:DCCT:Current" in result.response
    assert "did not answer within 0.5 s" in result.response
    assert "built-in planner planned this turn instead" in result.response
    assert asked == 1, "a dead endpoint is not asked again for each decision of the turn"


async def test_other_failures_are_not_papered_over() -> None:
    class Refusing:
        async def create_plan(self, *args: Any) -> Any:
            raise PlannerError("the language model refused the API key")

    planner = BuiltinFallbackPlanner(Refusing())
    with pytest.raises(PlannerError, match="refused the API key"):
        await planner.create_plan("task", [], {})
    assert planner.turn_notice() is None
    assert not issubclass(PlannerError, EndpointUnavailable)


async def test_a_down_endpoint_is_not_asked_again_by_channel_finding_this_turn() -> None:
    calls: list[str] = []

    class Down:
        async def extract_task(self, *args: Any) -> Any:
            calls.append("extract_task")
            raise EndpointUnavailable("cannot reach the language model (connection refused)")

        async def ask_structured(self, *args: Any) -> Any:
            calls.append("ask_structured")
            raise AssertionError("asked although down")

    class Builtin:
        async def extract_task(self, *args: Any) -> str:
            return "the built-in task"

    planner = BuiltinFallbackPlanner(Down(), fallback=Builtin)
    assert await planner.extract_task([], {}) == "the built-in task"
    with pytest.raises(EndpointUnavailable, match="connection refused"):
        await planner.ask_structured("channel choice", TaskReply, [])
    assert calls == ["extract_task"]
    notice = planner.turn_notice()
    assert notice is not None and "built-in planner planned this turn" in notice
    assert planner.turn_notice() is None  # said once
