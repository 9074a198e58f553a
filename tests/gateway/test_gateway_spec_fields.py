"""GatewayResult and the fresh state as the spec documents them."""

from __future__ import annotations

from typing import Any

from osprey_desktop.infrastructure.gateway import Gateway, GatewayResult
from tests.gateway.turn_graph import thread_config


def test_slash_commands_processed_defaults_to_none() -> None:
    assert GatewayResult().slash_commands_processed is None


async def test_a_request_lists_its_slash_commands_and_an_answer_lists_none(
    graph: Any, gateway: Gateway
) -> None:
    config = thread_config("spec")
    plain = await gateway.process_message("do the thing", graph, config)
    assert plain.slash_commands_processed == []
    paused = await gateway.process_message("/planning:on do the thing", graph, config)
    assert paused.slash_commands_processed == ["/planning:on"]
    await graph.ainvoke(paused.agent_state, config)
    answer = await gateway.process_message("yes", graph, config)
    assert answer.resume_command is not None and answer.slash_commands_processed is None


async def test_fresh_state_on_a_thread_with_contexts_carries_them(
    graph: Any, gateway: Gateway
) -> None:
    config = thread_config("ctx")
    first = await gateway.process_message("first request", graph, config)
    await graph.ainvoke(first.agent_state, config)
    stored = (await graph.aget_state(config)).values["capability_context_data"]
    assert stored == {"RUN": {"run_1": {"request": "first request"}}}

    second = await gateway.process_message("second request", graph, config)
    assert second.agent_state["capability_context_data"] == stored
    await graph.ainvoke(second.agent_state, config)
    runs = (await graph.aget_state(config)).values["capability_context_data"]["RUN"]
    assert sorted(runs) == ["run_1", "run_2"]
