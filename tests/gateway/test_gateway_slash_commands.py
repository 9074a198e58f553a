"""Slash commands through the Gateway: thread settings, per-request toggles, help and errors."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from osprey_desktop.infrastructure.gateway import Gateway
from osprey_desktop.infrastructure.slash_commands import (
    CAPABILITY_COMMANDS_KEY,
    SlashCommandError,
    build_slash_command_registry,
)
from tests.gateway.turn_graph import thread_config


async def _run(graph: Any, gateway: Gateway, text: str, thread: str = "t1"):
    config = thread_config(thread)
    result = await gateway.process_message(text, graph, config)
    if result.agent_state is not None:
        await graph.ainvoke(result.agent_state, config)
    return result


async def _session_control(graph: Any, thread: str = "t1") -> dict[str, Any]:
    values = (await graph.aget_state(thread_config(thread))).values
    return (values.get("session_state") or {}).get("agent_control") or {}


@pytest.mark.parametrize(
    ("command", "key", "value"),
    [
        ("/planning", "planning_mode_enabled", True),
        ("/planning:on", "planning_mode_enabled", True),
        ("/planning:off", "planning_mode_enabled", False),
        ("/approval", "approval_global_mode", "all_capabilities"),
        ("/approval:all", "approval_global_mode", "all_capabilities"),
        ("/approval:selective", "approval_global_mode", "selective"),
        ("/approval:disabled", "approval_global_mode", "disabled"),
        ("/task:off", "task_extraction_bypass_enabled", True),
        ("/task:on", "task_extraction_bypass_enabled", False),
        ("/caps:off", "capability_selection_bypass_enabled", True),
        ("/capabilities:on", "capability_selection_bypass_enabled", False),
        ("/mode:react", "orchestration_mode", "react"),
        ("/mode:plan_first", "orchestration_mode", "plan_first"),
        ("/PLANNING:ON", "planning_mode_enabled", True),
    ],
)
async def test_bare_toggle_changes_thread_settings_and_runs_no_turn(
    graph, gateway, command, key, value
):
    result = await gateway.process_message(command, graph, thread_config())

    assert result.error is None
    assert result.is_state_only_update and result.agent_state is None
    assert result.resume_command is None
    assert result.slash_commands_processed == [command]
    assert (await _session_control(graph))[key] == value
    values = (await graph.aget_state(thread_config())).values
    assert not values.get("messages"), "a settings change must not run a turn"


async def test_thread_setting_is_reapplied_on_every_later_turn(graph, gateway):
    await gateway.process_message("/planning:off", graph, thread_config())
    await gateway.process_message("/mode:react", graph, thread_config())

    for request in ("first request", "second request"):
        result = await _run(graph, gateway, request)
        assert result.agent_state["agent_control"]["orchestration_mode"] == "react"
        assert result.agent_state["agent_control"]["planning_mode_enabled"] is False
    assert await _session_control(graph) == {
        "planning_mode_enabled": False,
        "orchestration_mode": "react",
    }


async def test_toggle_in_front_of_request_applies_to_that_request_only(graph, gateway):
    first = await _run(graph, gateway, "/mode:react /approval:disabled read the current")
    second = await _run(graph, gateway, "read the current again")

    assert first.agent_state["agent_control"]["orchestration_mode"] == "react"
    assert first.agent_state["agent_control"]["approval_global_mode"] == "disabled"
    assert first.slash_commands_processed == ["/mode:react", "/approval:disabled"]
    assert not first.is_state_only_update
    assert second.agent_state["agent_control"]["orchestration_mode"] == "plan_first"
    assert second.agent_state["agent_control"]["approval_global_mode"] == "selective"
    assert await _session_control(graph) == {}
    messages = (await graph.aget_state(thread_config())).values["messages"]
    assert messages[0].content == "read the current", "the toggle is not part of the request"


async def test_per_request_toggle_wins_over_thread_setting(graph, gateway):
    await gateway.process_message("/mode:react", graph, thread_config())
    result = await _run(graph, gateway, "/mode:plan_first do it")
    assert result.agent_state["agent_control"]["orchestration_mode"] == "plan_first"


async def test_fresh_turn_starts_from_config_defaults(graph, gateway, configure):
    configure({"approval": {"global_mode": "all_capabilities"}})
    result = await _run(graph, gateway, "hello")
    assert result.agent_state["agent_control"]["approval_global_mode"] == "all_capabilities"
    assert result.agent_state["task_current_task"] is None


async def test_settings_of_one_thread_do_not_leak_into_another(graph, gateway):
    await gateway.process_message("/planning:on", graph, thread_config("a"))
    result = await _run(graph, gateway, "hello", thread="b")
    assert result.agent_state["agent_control"]["planning_mode_enabled"] is False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/frobnicate", "unknown command '/frobnicate'"),
        ("/planning:maybe", "/planning does not accept 'maybe'; valid options: on, off"),
        ("/approval:some", "valid options: disabled, selective, all"),
        ("/task", "/task needs an option: on, off"),
        ("/mode:fast do it", "valid options: plan_first, react"),
    ],
)
async def test_bad_command_is_refused_with_the_valid_choices(graph, gateway, text, expected):
    result = await gateway.process_message(text, graph, thread_config())

    assert expected in result.error
    assert result.agent_state is None and result.resume_command is None
    assert (await graph.aget_state(thread_config())).values == {}


async def test_unknown_command_error_lists_every_valid_command(graph, gateway):
    result = await gateway.process_message("/nope hello", graph, thread_config())
    for name in ("/planning", "/approval", "/task", "/caps", "/mode", "/help", "/exit"):
        assert name in result.error


async def test_help_lists_every_command_and_runs_nothing(graph, gateway):
    result = await gateway.process_message("/help", graph, thread_config())

    assert result.error is None and not result.runs_graph
    for syntax in (
        "/planning[:on|off]",
        "/approval[:disabled|selective|all]",
        "/task:on|off",
        "/caps:on|off",
        "/mode:plan_first|react",
        "/exit",
    ):
        assert syntax in result.message


async def test_help_on_one_command_shows_its_aliases(graph, gateway):
    result = await gateway.process_message("/help:caps", graph, thread_config())
    assert "/caps:on|off" in result.message and "/capabilities" in result.message


async def test_exit_requests_the_end_of_the_session_without_running(graph, gateway):
    result = await gateway.process_message("/quit", graph, thread_config())
    assert result.exit_requested and not result.runs_graph and result.error is None


async def test_empty_message_is_refused(graph, gateway):
    result = await gateway.process_message("   ", graph, thread_config())
    assert "empty" in result.error


class _VerboseCapability:
    name = "channel_read"
    slash_commands: ClassVar[dict[str, str]] = {"verbose": "include raw records in the answer"}


async def test_capability_command_is_stored_for_capabilities_to_read(graph):
    gateway = Gateway(build_slash_command_registry([_VerboseCapability]))

    await gateway.process_message("/verbose", graph, thread_config())
    thread_level = await _session_control(graph)
    request = await _run(graph, gateway, "/verbose:raw read HCM01")

    assert thread_level[CAPABILITY_COMMANDS_KEY] == {"verbose": True}
    assert request.agent_state["agent_control"][CAPABILITY_COMMANDS_KEY] == {"verbose": "raw"}
    help_text = (await gateway.process_message("/help", graph, thread_config())).message
    assert "/verbose[:value]" in help_text and "capability channel_read" in help_text


def test_capability_command_clashing_with_a_builtin_is_skipped():
    class Clash:
        name = "clash"
        slash_commands: ClassVar[dict[str, str]] = {"planning": "not allowed"}

    registry = build_slash_command_registry([Clash])
    assert registry.get("planning").kind == "setting"


def test_parse_keeps_slash_words_after_the_request_as_text():
    registry = build_slash_command_registry()
    commands, rest = registry.parse("/mode:react plot SR:C01/BPM1 and /planning")
    assert [c.typed for c in commands] == ["/mode:react"]
    assert rest == "plot SR:C01/BPM1 and /planning"


def test_help_for_unknown_command_is_an_error():
    registry = build_slash_command_registry()
    with pytest.raises(SlashCommandError, match="valid commands"):
        registry.help_text("nope")


async def test_graph_without_checkpointer_runs_requests_but_cannot_keep_settings(gateway):
    from tests.gateway.turn_graph import build_turn_graph

    graph = build_turn_graph(None)
    request = await gateway.process_message("/mode:react hello", graph, thread_config())
    setting = await gateway.process_message("/mode:react", graph, thread_config())

    assert request.error is None
    assert request.agent_state["agent_control"]["orchestration_mode"] == "react"
    assert "need a conversation database" in setting.error
    final = await graph.ainvoke(request.agent_state, thread_config())
    assert final["messages"][-1].content.startswith("done: hello")
