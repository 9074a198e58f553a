"""``create_graph``: the router-controlled StateGraph, compiled.

Every node returns to the router, except the three that end a turn: respond and clarify
(which go to END unless they failed, in which case the router decides: retry or error) and
the error node (always END). Each node runs with the graph's registry (and, when given, its
planner and configuration) in scope.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping
from typing import Any

from langgraph.graph import END, StateGraph

from osprey_desktop.config.models import AppConfig
from osprey_desktop.config.runtime import config_scope
from osprey_desktop.infrastructure.router_node import router_conditional_edge
from osprey_desktop.persistence.chunked_saver import DEFAULT_HISTORY_LIMIT, with_context_chunks
from osprey_desktop.planners.selection import as_planner, default_planner, planner_scope
from osprey_desktop.registry import RegistryManager, get_registry, registry_scope
from osprey_desktop.state import AgentState

TERMINAL_NODES = ("respond", "clarify")


def terminal_edge(state: Mapping[str, Any]) -> str:
    """After respond/clarify: END, or back to the router when they failed."""
    return "router" if state.get("control_has_error") else END


def _scoped(
    node: Callable[..., Any], registry: RegistryManager, planner: Any, config: Any
) -> Callable[..., Any]:
    @functools.wraps(node)
    async def run(state: dict[str, Any]) -> Any:
        with contextlib.ExitStack() as scopes:
            scopes.enter_context(registry_scope(registry))
            if config is not None:
                scopes.enter_context(config_scope(config))
            if planner is not None:
                scopes.enter_context(planner_scope(planner))
            return await node(state)

    return run


def create_graph(
    registry: RegistryManager | None = None,
    checkpointer: Any = None,
    planner: Any = None,
    config: AppConfig | None = None,
    *,
    context_chunks: bool = True,
    history_limit: int | None = DEFAULT_HISTORY_LIMIT,
) -> Any:
    """Build and compile the agent graph (pass a checkpointer for interrupts and threads).

    Each part may be given explicitly; while a node runs, ``get_registry()``,
    ``get_planner()`` and ``get_config()`` return this graph's. Defaults: the process
    registry, the configured planner and the process configuration (a ``config`` without a
    ``registry`` builds a registry from that config; a ``planner`` may implement only some
    methods, the configured planner answering the rest).

    With ``context_chunks`` a checkpointer whose database has a chunk store saves
    ``capability_context_data`` as shared chunks and keeps ``history_limit`` checkpoints per
    thread (``persistence.chunked_saver``); the compiled graph's ``checkpointer`` is then that
    chunking saver.
    """
    if config is not None and not isinstance(config, AppConfig):
        raise TypeError(f"create_graph(config=...) needs an AppConfig, got {type(config).__name__}")
    if registry is None:
        registry = RegistryManager.build(config=config) if config is not None else get_registry()
    if config is None:
        config = registry.config
    if planner is not None:
        planner = as_planner(planner, fallback=lambda: default_planner(config))
    nodes = registry.get_all_nodes()
    for required in ("router", "respond", "error"):
        if required not in nodes:
            raise ValueError(f"the registry has no {required!r} node; the graph cannot be built")
    if context_chunks:
        checkpointer = with_context_chunks(checkpointer, history_limit=history_limit)
    workflow = StateGraph(AgentState)
    for name, node in nodes.items():
        workflow.add_node(name, _scoped(node, registry, planner, config))
    workflow.set_entry_point("router")
    targets = [name for name in nodes if name != "router"] + [END]
    workflow.add_conditional_edges("router", router_conditional_edge, targets)
    for name in nodes:
        if name == "router":
            continue
        if name in TERMINAL_NODES:
            workflow.add_conditional_edges(name, terminal_edge, ["router", END])
        elif name == "error":
            workflow.add_edge(name, END)
        else:
            workflow.add_edge(name, "router")
    return workflow.compile(checkpointer=checkpointer)


__all__ = ["TERMINAL_NODES", "create_graph", "terminal_edge"]
