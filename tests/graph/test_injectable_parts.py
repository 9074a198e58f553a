"""A graph built from an explicit registry, planner and configuration; partial planners."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from osprey_desktop.config import build_config, get_config
from osprey_desktop.graph import create_graph
from osprey_desktop.planners.builtin import BuiltinPlanner
from osprey_desktop.planners.selection import PartialPlanner, get_planner, set_planner
from osprey_desktop.registry import RegistryManager
from osprey_desktop.state import StateManager
from tests.graph.conftest import thread
from tests.graph.lab import build_lab_registry


class ResponseOnly:
    """Implements one of the six planner methods; remembers the config it ran under."""

    def __init__(self) -> None:
        self.seen_config: Any = None

    async def write_response(
        self, task: str, state: dict[str, Any], context_summaries: dict[str, Any]
    ) -> str:
        self.seen_config = get_config()
        return f"custom answer to: {task}"


async def _turn(graph: Any, text: str, thread_id: str = "t1") -> dict[str, Any]:
    state = StateManager.create_fresh_state(text)
    state["agent_control"]["retry_backoff_seconds"] = 0.0
    return await graph.ainvoke(state, thread(thread_id))


async def test_graph_uses_the_planner_and_config_it_was_built_with() -> None:
    registry = build_lab_registry()
    planner = ResponseOnly()
    config = build_config({"execution_control": {"limits": {"max_step_retries": 7}}})
    graph = create_graph(
        registry=registry, checkpointer=InMemorySaver(), planner=planner, config=config
    )
    result = await _turn(graph, "read pump1")
    assert result["messages"][-1].content.startswith("custom answer to:")
    assert planner.seen_config is config  # inside the node: the graph's own config
    assert get_config() is not config  # outside: the process's, untouched
    # the other decisions came from the configured (built-in) planner
    steps = [s["capability"] for s in result["planning_execution_plan"]["steps"]]
    assert steps[-1] == "respond" and "device_read" in steps


async def test_two_graphs_with_different_planners_do_not_mix() -> None:
    registry = build_lab_registry()
    custom = create_graph(registry=registry, checkpointer=InMemorySaver(), planner=ResponseOnly())
    default = create_graph(registry=registry, checkpointer=InMemorySaver())
    assert (await _turn(custom, "read pump1"))["messages"][-1].content.startswith("custom")
    assert not (await _turn(default, "read pump1"))["messages"][-1].content.startswith("custom")


def test_set_planner_accepts_a_planner_with_only_some_methods() -> None:
    set_planner(ResponseOnly())
    planner = get_planner()
    assert isinstance(planner, PartialPlanner)
    assert planner.implemented == {"write_response"}
    assert isinstance(planner._target("create_plan"), BuiltinPlanner)


def test_set_planner_refuses_an_object_with_no_planner_method() -> None:
    with pytest.raises(TypeError, match="implements none of the planner methods"):
        set_planner(object())


def test_registry_takes_its_modules_from_an_explicit_config() -> None:
    config = build_config({"registry": {"modules": ["osprey_no_such_module_for_tests"]}})
    registry = RegistryManager.build(config=config, include_entry_points=False)
    assert registry.config is config
    assert any("osprey_no_such_module_for_tests" in e for e in registry.load_errors)
    with pytest.raises(TypeError, match="AppConfig"):
        RegistryManager.build(config={"registry": {}})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="AppConfig"):
        create_graph(registry=registry, config={"models": {}})  # type: ignore[arg-type]
