"""``create_graph``: the router-controlled StateGraph, compiled.

Every node returns to the router, except the three that end a turn: respond and clarify
(which go to END unless they failed, in which case the router decides: retry or error) and
the error node (always END). Each node runs with the graph's registry in scope.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from langgraph.graph import END, StateGraph

from osprey_desktop.infrastructure.router_node import router_conditional_edge
from osprey_desktop.registry import RegistryManager, get_registry, registry_scope
from osprey_desktop.state import AgentState

TERMINAL_NODES = ("respond", "clarify")


def terminal_edge(state: Mapping[str, Any]) -> str:
    """After respond/clarify: END, or back to the router when they failed."""
    return "router" if state.get("control_has_error") else END


def _scoped(node: Callable[..., Any], registry: RegistryManager) -> Callable[..., Any]:
    @functools.wraps(node)
    async def run(state: dict[str, Any]) -> Any:
        with registry_scope(registry):
            return await node(state)

    return run


def create_graph(registry: RegistryManager | None = None, checkpointer: Any = None) -> Any:
    """Build and compile the agent graph (pass a checkpointer for interrupts and threads)."""
    registry = registry if registry is not None else get_registry()
    nodes = registry.get_all_nodes()
    for required in ("router", "respond", "error"):
        if required not in nodes:
            raise ValueError(f"the registry has no {required!r} node; the graph cannot be built")
    workflow = StateGraph(AgentState)
    for name, node in nodes.items():
        workflow.add_node(name, _scoped(node, registry))
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
