"""Fixtures for the agent-graph tests: the lab registry, a graph on an in-memory checkpointer,
and a helper that runs one turn the way the Gateway does (fresh state over the thread's)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from osprey_desktop.graph import create_graph
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import RegistryManager, reset_registry, set_registry
from osprey_desktop.state import StateManager
from tests.graph.lab import build_lab_registry, reset_lab

RunTurn = Callable[..., Awaitable[dict[str, Any]]]


@pytest.fixture(autouse=True)
def clean_framework() -> Iterator[None]:
    reset_lab()
    reset_planner()
    reset_registry()
    yield
    reset_planner()
    reset_registry()


@pytest.fixture
def lab_registry() -> RegistryManager:
    registry = build_lab_registry()
    set_registry(registry)
    return registry


@pytest.fixture
def graph(lab_registry: RegistryManager) -> Any:
    return create_graph(lab_registry, checkpointer=InMemorySaver())


def thread(thread_id: str = "t1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": 60}


@pytest.fixture
def run_turn(graph: Any) -> RunTurn:
    """``await run_turn("read pump1", thread_id="t1", planning_mode_enabled=True)``."""

    async def _run(text: str, thread_id: str = "t1", **control: Any) -> dict[str, Any]:
        config = thread(thread_id)
        snapshot = await graph.aget_state(config)
        state = StateManager.create_fresh_state(text, snapshot.values or None)
        state["agent_control"].update({"retry_backoff_seconds": 0.0, **control})
        return await graph.ainvoke(state, config)

    return _run
