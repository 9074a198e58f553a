"""Whole turns through the real graph and session with ``models.planner: chat_model``.

The model is the OpenAI-compatible stub on 127.0.0.1; the graph, the nodes, the registry, the
SQLite checkpointer and the planner are the real ones.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.config import build_config
from osprey_desktop.context.base import CapabilityContext
from osprey_desktop.planners import reset_planner
from osprey_desktop.registry import RegistryManager
from osprey_desktop.session import AgentSession
from tests.support.openai_stub import OpenAIStub, StubRequest, json_reply, text_reply


class TurnTestBeamCurrent(CapabilityContext):
    CONTEXT_TYPE = "TURN_TEST_BEAM_CURRENT"
    CONTEXT_CATEGORY = "LIVE_DATA"
    milliamps: float

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access": f"context.{self.CONTEXT_TYPE}.{key}.milliamps"}

    def get_summary(self) -> dict[str, Any]:
        return {"type": "Beam current", "value": f"{self.milliamps} mA"}


class BeamCurrentReadCapability(BaseCapability):
    name = "beam_current_read"
    description = "Read the stored beam current of the ring in mA."
    provides = ["TURN_TEST_BEAM_CURRENT"]
    requires = []
    examples = ["what is the beam current"]

    async def execute(self) -> dict[str, Any]:
        return self.store_output_context(TurnTestBeamCurrent(milliamps=301.5))


def _registry() -> RegistryManager:
    registry = RegistryManager.build(modules=[], include_defaults=False, include_entry_points=False)
    registry.register_context_class(TurnTestBeamCurrent)
    registry.register_capability(BeamCurrentReadCapability)
    return registry


PLAN = {
    "steps": [
        {
            "context_key": "ring_current",
            "capability": "beam_current_read",
            "task_objective": "Read the beam current",
            "success_criteria": "A value in mA",
            "expected_output": "TURN_TEST_BEAM_CURRENT",
            "parameters": [],
            "inputs": [],
        },
        {
            "context_key": "answer",
            "capability": "respond",
            "task_objective": "Tell the operator the beam current",
            "success_criteria": "The value is stated",
            "expected_output": None,
            "parameters": [],
            "inputs": [{"context_type": "TURN_TEST_BEAM_CURRENT", "context_key": "ring_current"}],
        },
    ]
}


def _model(request: StubRequest):
    """The scripted model: one answer per decision, chosen by the schema it is asked for."""
    schema = (request.response_schema or {}).get("name")
    if schema == "TaskReply":
        return json_reply(
            {
                "task": "Report the ring's beam current",
                "depends_on_chat_history": False,
                "depends_on_user_memory": False,
            }
        )
    if schema == "CapabilitySelectionReply":
        return json_reply({"capabilities": ["beam_current_read"], "reasoning": "a reading"})
    if schema == "PlanReply":
        return json_reply(PLAN)
    if schema is None and "301.5 mA" in request.prompt_text:
        return text_reply("The beam current is 301.5 mA.")
    return text_reply("I could not find the beam current.")


@pytest.fixture
def fresh_planner() -> Iterator[None]:
    reset_planner()
    yield
    reset_planner()


def _config(base_url: str, fallback: bool = True) -> Any:
    return build_config(
        {
            "models": {
                "planner": "chat_model",
                "chat_model": {"base_url": base_url, "fallback_to_builtin": fallback},
            },
            "execution_control": {"limits": {"retry_backoff_seconds": 0}},
        }
    )


async def test_a_whole_turn_plans_runs_and_answers_through_the_chat_model(
    tmp_path: Path, fresh_planner: None
):
    events: list[tuple[str, Any]] = []
    with OpenAIStub(_model) as stub:
        async with AgentSession.open(
            _config(stub.base_url), tmp_path / "threads.sqlite", registry=_registry()
        ) as session:
            result = await session.submit(
                "what's the beam current?", on_event=lambda mode, p: events.append((mode, p))
            )

    assert result.error is None
    assert result.response == "The beam current is 301.5 mA."
    assert result.state["capability_context_data"]["TURN_TEST_BEAM_CURRENT"]["ring_current"] == {
        "milliamps": 301.5
    }
    asked = [(r.response_schema or {}).get("name", "text") for r in stub.requests]
    assert asked == ["TaskReply", "CapabilitySelectionReply", "PlanReply", "text"]
    assert "what's the beam current?" in stub.requests[0].prompt_text
    assert "name: beam_current_read" in stub.requests[1].prompt_text
    assert "Report the ring's beam current" in stub.requests[2].prompt_text
    plans = [p["plan"] for mode, p in events if mode == "custom" and p["type"] == "plan_created"]
    assert [s["capability"] for s in plans[0]["steps"]] == ["beam_current_read", "respond"]
    streamed = [p[0].content for mode, p in events if mode == "messages" and p[0].content]
    assert "".join(streamed).startswith("The beam current is 301.5 mA.")


async def test_a_turn_with_the_model_server_down_ends_with_a_clear_error(
    tmp_path: Path, fresh_planner: None
):
    """With the fallback off: an error that names the connection and advises checking it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    async with AgentSession.open(
        _config(url, fallback=False), tmp_path / "threads.sqlite", registry=_registry()
    ) as session:
        result = await session.submit("what's the beam current?")

    # the error node reports it as the turn's answer; nothing crashed
    assert result.error is None
    assert f"cannot reach the language model at {url} (connection refused)" in result.response
    assert "task_extraction" in result.response
    assert "Check that it is reachable" in result.response
    assert "Check the names, values and time ranges" not in result.response


def _react_model(request: StubRequest):
    """React mode: read first, then respond once the reading is in the observations."""
    if (request.response_schema or {}).get("name") != "NextStepReply":
        return _model(request)
    done = "beam_current_read succeeded" in request.prompt_text
    return json_reply({"step": PLAN["steps"][1 if done else 0]})


async def test_a_react_turn_asks_the_model_for_one_step_at_a_time(
    tmp_path: Path, fresh_planner: None
):
    with OpenAIStub(_react_model) as stub:
        config = build_config(
            {
                "models": {"planner": "chat_model", "chat_model": {"base_url": stub.base_url}},
                "execution_control": {"agent_control": {"orchestration_mode": "react"}},
            }
        )
        async with AgentSession.open(
            config, tmp_path / "threads.sqlite", registry=_registry()
        ) as session:
            result = await session.submit("what's the beam current?")

    assert result.error is None
    assert result.response == "The beam current is 301.5 mA."
    asked = [(r.response_schema or {}).get("name", "text") for r in stub.requests]
    assert asked.count("NextStepReply") == 2
    assert asked[-1] == "text"
    second_step_prompt = [
        r for r in stub.requests if (r.response_schema or {}).get("name") == "NextStepReply"
    ][1].prompt_text
    assert "Step 1: Read the beam current [beam_current_read, succeeded" in second_step_prompt
