"""The chat-model planner against a real OpenAI-compatible HTTP server on 127.0.0.1.

Nothing of ours is mocked: the planner builds langchain's ChatOpenAI, which speaks HTTP to
``tests.support.openai_stub``; the stub's scripted replies and recorded requests are the
only test doubles.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.config import build_config
from osprey_desktop.context.base import CapabilityContext
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.planners.chat_model import LOCAL_ENDPOINT_KEY, ChatModelPlanner
from tests.support.openai_stub import (
    OpenAIStub,
    StubRequest,
    http_error,
    json_reply,
    text_reply,
    tool_call_reply,
)

REPO = Path(__file__).resolve().parents[2]


# ---- capabilities and contexts the prompts describe ------------------------------------
class ChannelFindingCapability(BaseCapability):
    name = "channel_finding"
    description = "Find control-system channel addresses from a plain-English description."
    provides = ["CHANNEL_ADDRESSES"]
    requires = []
    examples = ["find the beam current channel"]

    async def execute(self) -> dict[str, Any]:
        return {}


class ChannelReadCapability(BaseCapability):
    name = "channel_read"
    description = "Read the current values of channels."
    provides = ["CHANNEL_VALUES"]
    requires = [("CHANNEL_ADDRESSES", "single")]
    examples = ["what is the beam current now"]

    async def execute(self) -> dict[str, Any]:
        return {}


CAPABILITIES = [ChannelFindingCapability(), ChannelReadCapability()]


class PlannerTestReadings(CapabilityContext):
    CONTEXT_TYPE = "PLANNER_TEST_READINGS"
    CONTEXT_CATEGORY = "COMPUTATIONAL_DATA"
    values: dict[str, float]

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "access": f"context.{self.CONTEXT_TYPE}.{key}.values",
            "channels": list(self.values),
        }


def _state(**fields: Any) -> dict[str, Any]:
    return {"messages": [], "capability_context_data": {}, "execution_step_results": {}, **fields}


GOOD_PLAN = {
    "steps": [
        {
            "context_key": "beam_current_channels",
            "capability": "channel_finding",
            "task_objective": "Find the beam current channel",
            "success_criteria": "At least one channel found",
            "expected_output": "CHANNEL_ADDRESSES",
            "parameters": [],
            "inputs": [],
        },
        {
            "context_key": "beam_current_values",
            "capability": "channel_read",
            "task_objective": "Read the beam current",
            "success_criteria": "A value was read",
            "expected_output": "CHANNEL_VALUES",
            "parameters": [{"name": "samples", "value": 3}],
            "inputs": [
                {"context_type": "CHANNEL_ADDRESSES", "context_key": "beam_current_channels"}
            ],
        },
    ]
}


# ---- fixtures ---------------------------------------------------------------------------
@pytest.fixture
def stub():
    with OpenAIStub() as server:
        yield server


def _planner(base_url: str, **chat_model: Any) -> ChatModelPlanner:
    settings = {"base_url": base_url, "model": "stub-model", "max_retries": 2, **chat_model}
    config = build_config(
        {
            "models": {"planner": "chat_model", "chat_model": settings},
            "execution_control": {"limits": {"retry_backoff_seconds": 0}},
        }
    )
    return ChatModelPlanner(config)


@pytest.fixture
def planner(stub: OpenAIStub) -> ChatModelPlanner:
    return _planner(stub.base_url)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---- good replies for each method ------------------------------------------------------
async def test_extract_task_returns_the_models_task_and_sends_the_conversation(stub, planner):
    stub.queue(
        json_reply(
            {
                "task": "Read the beam current of SR:DCCT",
                "depends_on_chat_history": True,
                "depends_on_user_memory": False,
            }
        )
    )
    messages = [
        HumanMessage("which channel is the ring's beam current?"),
        AIMessage("It is SR:DCCT."),
        HumanMessage("read it"),
    ]

    extracted = await planner.extract_task(messages, _state(messages=messages))

    assert extracted.task == "Read the beam current of SR:DCCT"
    assert extracted.depends_on_chat_history is True
    assert extracted.depends_on_user_memory is False
    (request,) = stub.requests
    assert request.response_schema["name"] == "TaskReply"
    assert "It is SR:DCCT." in request.prompt_text
    assert "User: read it" in request.prompt_text
    assert request.body["model"] == "stub-model"


async def test_select_capabilities_prompt_names_every_capability_and_the_task(stub, planner):
    stub.queue(
        json_reply(
            {
                "capabilities": ["channel_read", "channel_finding", "channel_read", "archiver"],
                "reasoning": "need the address first",
            }
        )
    )

    selected = await planner.select_capabilities("Read the beam current", CAPABILITIES, _state())

    # duplicates dropped, order kept, unknown names passed on for the classifier to judge
    assert selected == ["channel_read", "channel_finding", "archiver"]
    prompt = stub.requests[0].prompt_text
    assert "Read the beam current" in prompt
    for capability in CAPABILITIES:
        assert f"name: {capability.name}" in prompt
        assert capability.description in prompt
    assert "CHANNEL_ADDRESSES (single)" in prompt
    assert "what is the beam current now" in prompt


async def test_create_plan_converts_the_reply_into_planned_steps(stub, planner):
    stub.queue(json_reply(GOOD_PLAN))

    plan = await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    first, second = plan["steps"]
    assert first["capability"] == "channel_finding"
    assert first["inputs"] == [] and first["parameters"] is None
    assert second["inputs"] == [{"CHANNEL_ADDRESSES": "beam_current_channels"}]
    assert second["parameters"] == {"samples": 3}
    assert second["expected_output"] == "CHANNEL_VALUES"
    request = stub.requests[0]
    assert request.response_schema["name"] == "PlanReply"
    assert request.response_schema["strict"] is True
    step_schema = request.response_schema["schema"]["$defs"]["StepReply"]
    assert set(step_schema["required"]) == set(GOOD_PLAN["steps"][0])


async def test_plan_prompt_lists_stored_contexts_with_their_access_details(stub, planner):
    stub.queue(json_reply(GOOD_PLAN))
    readings = PlannerTestReadings(values={"SR:DCCT": 301.5})
    state = _state(
        capability_context_data={
            "PLANNER_TEST_READINGS": {"morning_read": readings.model_dump(mode="json")}
        }
    )

    await planner.create_plan("Compare with this morning", CAPABILITIES, state)

    prompt = stub.requests[0].prompt_text
    assert "PLANNER_TEST_READINGS: morning_read" in prompt
    assert "context.PLANNER_TEST_READINGS.morning_read.values" in prompt


async def test_plan_prompt_stays_bounded_with_thousands_of_contexts(stub, planner):
    stub.queue(json_reply(GOOD_PLAN))
    branch = {
        f"read_{i}": PlannerTestReadings(values={"SR:DCCT": float(i)}).model_dump(mode="json")
        for i in range(5000)
    }
    state = _state(capability_context_data={"PLANNER_TEST_READINGS": branch})

    await planner.create_plan("Read the beam current", CAPABILITIES, state)

    prompt = stub.requests[0].prompt_text
    assert "read_4999" in prompt and "(and 4990 older)" in prompt
    assert "read_17," not in prompt
    assert len(prompt) < 20_000


async def test_choose_next_step_sends_the_steps_already_run(stub, planner):
    stub.queue(json_reply({"step": GOOD_PLAN["steps"][1]}))
    state = _state(
        execution_step_results={
            "beam_current_channels": {
                "step_index": 0,
                "capability": "channel_finding",
                "task_objective": "Find the beam current channel",
                "success": True,
                "context_key": "beam_current_channels",
            }
        }
    )

    step = await planner.choose_next_step("Read the beam current", CAPABILITIES, state)

    assert step["capability"] == "channel_read"
    assert step["inputs"] == [{"CHANNEL_ADDRESSES": "beam_current_channels"}]
    request = stub.requests[0]
    assert request.response_schema["name"] == "NextStepReply"
    assert "Step 1: Find the beam current channel [channel_finding, succeeded" in (
        request.prompt_text
    )


async def test_next_step_prompt_reports_observations_and_the_failed_step(stub, planner):
    stub.queue(json_reply({"step": GOOD_PLAN["steps"][0]}))
    failure = {"node": "channel_read", "user_message": "channel SR:DCCT did not answer"}
    state = _state(
        react_messages=[
            {
                "type": "observation",
                "capability": "channel_finding",
                "success": True,
                "context_key": "beam_current_channels",
            },
            {
                "type": "observation",
                "capability": "channel_read",
                "success": False,
                "error": "channel SR:DCCT did not answer",
            },
        ],
        control_has_error=True,
        control_error_info=failure,
    )

    await planner.choose_next_step("Read the beam current", CAPABILITIES, state)

    prompt = stub.requests[0].prompt_text
    assert "- channel_finding succeeded: beam_current_channels" in prompt
    assert "- channel_read failed: channel SR:DCCT did not answer" in prompt
    assert "The last step failed: channel SR:DCCT did not answer (in channel_read)" in prompt


async def test_write_response_returns_the_text_and_sends_the_context_summaries(stub, planner):
    stub.queue(text_reply("The beam current is **301.5 mA**."))
    summaries = {"beam_current_values": {"SR:DCCT": "301.5 mA"}}

    answer = await planner.write_response("Read the beam current", _state(), summaries)

    assert answer == "The beam current is **301.5 mA**."
    request = stub.requests[0]
    assert request.response_schema is None
    assert "301.5 mA" in request.prompt_text and "Read the beam current" in request.prompt_text


async def test_ask_clarification_returns_the_question_and_sends_the_reason(stub, planner):
    stub.queue(text_reply("Which corrector magnet do you mean?"))

    question = await planner.ask_clarification("Set the corrector", _state(), "no corrector named")

    assert question == "Which corrector magnet do you mean?"
    assert "What is unclear: no corrector named" in stub.requests[0].prompt_text


# ---- invalid replies: retried, then a clear error --------------------------------------
async def test_malformed_reply_is_retried_with_the_reason_and_the_good_one_is_used(stub, planner):
    stub.queue(text_reply("Sure! Here is the plan: step 1 ..."), json_reply(GOOD_PLAN))

    plan = await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    assert [s["capability"] for s in plan["steps"]] == ["channel_finding", "channel_read"]
    first, retry = stub.requests
    assert "rejected" not in first.prompt_text
    assert "Your previous reply was rejected: the reply is not valid JSON" in retry.prompt_text


async def test_schema_violation_every_time_raises_a_planner_error_naming_the_endpoint(
    stub, planner
):
    broken = {"steps": [{"capability": "channel_read"}]}  # most required fields missing
    stub.queue(json_reply(broken), json_reply(broken), json_reply(broken))

    with pytest.raises(PlannerError) as caught:
        await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    message = str(caught.value)
    assert message.startswith(
        f"the language model at {stub.base_url} returned an invalid plan 3 times: "
    )
    assert "steps.0.context_key: Field required" in message
    assert "pydantic" not in message and "\n" not in message
    assert len(stub.requests) == 3


async def test_max_retries_zero_means_a_single_attempt(stub):
    planner = _planner(stub.base_url, max_retries=0)
    stub.queue(text_reply("not json"), json_reply(GOOD_PLAN))

    with pytest.raises(PlannerError, match="returned an invalid plan 1 times"):
        await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    assert len(stub.requests) == 1 and stub.pending_replies == 1


async def test_empty_structured_reply_is_reported_as_empty(stub, planner):
    stub.queue(text_reply(""), text_reply(""), text_reply(""))

    with pytest.raises(PlannerError, match="invalid capability selection 3 times: .*empty"):
        await planner.select_capabilities("Read the beam current", CAPABILITIES, _state())


async def test_tool_call_instead_of_json_is_retried(stub, planner):
    stub.queue(
        tool_call_reply("PlanReply", GOOD_PLAN),
        json_reply(
            {"task": "Read it", "depends_on_chat_history": False, "depends_on_user_memory": False}
        ),
    )

    extracted = await planner.extract_task([HumanMessage("read it")], _state())

    assert extracted.task == "Read it"
    assert "a tool call instead of a JSON message" in stub.requests[1].prompt_text


async def test_empty_text_answer_is_retried_then_fails_clearly(stub, planner):
    stub.queue(text_reply("   "), text_reply(""), text_reply("\n"))

    with pytest.raises(
        PlannerError, match="returned an invalid response 3 times: the reply was empty"
    ):
        await planner.write_response("Read the beam current", _state(), {})


async def test_blank_task_is_refused(stub, planner):
    stub.queue(
        json_reply(
            {"task": "  ", "depends_on_chat_history": False, "depends_on_user_memory": False}
        )
    )

    with pytest.raises(PlannerError, match="extracted an empty task"):
        await planner.extract_task([HumanMessage("hm")], _state())


# ---- transport failures -----------------------------------------------------------------
async def test_http_500_is_retried_and_a_later_good_reply_is_used(stub, planner):
    stub.queue(http_error(500, "model is loading"), json_reply(GOOD_PLAN))

    plan = await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    assert len(plan["steps"]) == 2 and len(stub.requests) == 2


async def test_http_500_every_time_raises_a_planner_error_with_the_servers_message(stub, planner):
    stub.queue(*[http_error(500, "CUDA out of memory")] * 3)

    with pytest.raises(PlannerError) as caught:
        await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    message = str(caught.value)
    assert f"the language model at {stub.base_url} failed 3 times" in message
    assert "HTTP 500: CUDA out of memory" in message
    assert len(stub.requests) == 3


async def test_connection_refused_raises_a_planner_error_naming_the_url():
    url = f"http://127.0.0.1:{_free_port()}/v1"
    planner = _planner(url)

    with pytest.raises(PlannerError) as caught:
        await planner.extract_task([HumanMessage("read the beam current")], _state())

    assert str(caught.value).startswith(
        f"cannot reach the language model at {url} (connection refused)"
    )


async def test_rejected_key_names_the_environment_variable(stub, planner):
    stub.queue(http_error(401, "Incorrect API key provided"))

    with pytest.raises(PlannerError, match="refused the API key .*OPENAI_API_KEY"):
        await planner.select_capabilities("Read the beam current", CAPABILITIES, _state())

    assert len(stub.requests) == 1  # a bad key is not retried


async def test_unsupported_response_format_is_not_retried_and_says_why(stub, planner):
    stub.queue(http_error(400, "response_format json_schema is not supported"))

    with pytest.raises(PlannerError, match=r"rejected the request for a plan \(HTTP 400"):
        await planner.create_plan("Read the beam current", CAPABILITIES, _state())

    assert len(stub.requests) == 1


async def test_slow_server_raises_a_timeout_error_naming_the_setting(stub):
    release = threading.Event()

    def slow(request: StubRequest):
        release.wait(5)
        return json_reply(GOOD_PLAN)

    stub.set_responder(slow)
    planner = _planner(stub.base_url, timeout_seconds=0.3)
    try:
        with pytest.raises(PlannerError, match=r"did not answer within 0.3 s .*timeout_seconds"):
            await planner.create_plan("Read the beam current", CAPABILITIES, _state())
    finally:
        release.set()


# ---- API key ----------------------------------------------------------------------------
async def test_key_from_the_named_environment_variable_is_sent(stub, monkeypatch):
    monkeypatch.setenv("PLANNER_TEST_KEY", "sk-test-123")
    planner = _planner(stub.base_url, api_key_env="PLANNER_TEST_KEY")
    stub.queue(text_reply("Done."))

    await planner.write_response("Read the beam current", _state(), {})

    assert stub.requests[0].headers["authorization"] == "Bearer sk-test-123"


async def test_local_endpoint_without_a_key_gets_the_placeholder(stub, monkeypatch):
    monkeypatch.delenv("PLANNER_TEST_KEY", raising=False)
    planner = _planner(stub.base_url, api_key_env="PLANNER_TEST_KEY")
    stub.queue(text_reply("Done."))

    await planner.write_response("Read the beam current", _state(), {})

    assert stub.requests[0].headers["authorization"] == f"Bearer {LOCAL_ENDPOINT_KEY}"


def test_remote_endpoint_without_its_key_is_refused_naming_the_variable(monkeypatch):
    monkeypatch.delenv("PLANNER_TEST_KEY", raising=False)

    with pytest.raises(PlannerError, match="environment variable PLANNER_TEST_KEY .* is not set"):
        _planner("https://api.openai.com/v1", api_key_env="PLANNER_TEST_KEY")


def test_base_url_without_a_scheme_is_refused():
    with pytest.raises(PlannerError, match="is not an http\\(s\\) URL"):
        _planner("127.0.0.1:8000/v1")


# ---- import cost ------------------------------------------------------------------------
def test_langchain_openai_is_imported_only_when_the_model_is_first_used():
    code = (
        "import sys\n"
        "from osprey_desktop.config import build_config\n"
        "from osprey_desktop.planners.chat_model import ChatModelPlanner\n"
        "ChatModelPlanner(build_config({'models': {'planner': 'chat_model'}}))\n"
        "print('langchain_openai' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


# ---- the stub itself ----------------------------------------------------------------------
async def test_stub_streams_text_replies_over_server_sent_events(stub):
    from langchain_openai import ChatOpenAI

    stub.queue(text_reply("The beam current is 301.5 mA, steady for an hour."))
    model = ChatOpenAI(base_url=stub.base_url, model="stub-model", api_key="x", max_retries=0)

    pieces = [chunk.content async for chunk in model.astream("read the beam current")]

    assert len(pieces) > 3
    assert "".join(pieces) == "The beam current is 301.5 mA, steady for an hour."
    assert stub.requests[0].body["stream"] is True


async def test_stub_unscripted_request_fails_loudly(stub):
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(base_url=stub.base_url, model="stub-model", api_key="x", max_retries=0)

    with pytest.raises(Exception, match="no reply scripted"):
        await model.ainvoke("hello")


def test_stub_releases_its_port_when_stopped():
    with OpenAIStub() as server:
        port = server.port
        assert json.loads(_get(f"{server.base_url}/models"))["data"][0]["id"] == "stub-model"
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError):
        sock.connect(("127.0.0.1", port))


def _get(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


# ---- inside a LangGraph node --------------------------------------------------------------
async def test_inside_a_graph_only_the_answer_text_streams_to_the_messages_channel(stub, planner):
    from langgraph.graph import END, START, MessagesState, StateGraph

    async def plan_and_answer(state: MessagesState) -> dict[str, Any]:
        plan = await planner.create_plan("Read the beam current", CAPABILITIES, _state())
        answer = await planner.write_response("Read the beam current", _state(), {"plan": plan})
        return {"messages": [AIMessage(answer)]}

    builder = StateGraph(MessagesState)
    builder.add_node("respond", plan_and_answer)
    builder.add_edge(START, "respond")
    builder.add_edge("respond", END)
    graph = builder.compile()
    stub.queue(json_reply(GOOD_PLAN), text_reply("The beam current is 301.5 mA right now."))

    streamed = [
        chunk.content
        async for chunk, _meta in graph.astream(
            {"messages": [HumanMessage("read the beam current")]}, stream_mode="messages"
        )
        if chunk.content
    ]

    plan_request, answer_request = stub.requests
    assert plan_request.body["stream"] is False  # a plan is never streamed
    assert answer_request.body["stream"] is True
    answer = "The beam current is 301.5 mA right now."
    assert len(streamed[0]) < len(answer)  # token by token, not only the finished message
    assert "".join(streamed).startswith(answer)
    assert not any("channel_finding" in piece for piece in streamed)
