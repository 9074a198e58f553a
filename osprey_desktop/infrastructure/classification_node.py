"""Classification: which capabilities may appear in this turn's plan.

The planner names the capabilities the task needs; respond and clarify are always active, and
the providers of every required context type are added transitively (write-type providers
excepted: a change is never pulled in as a dependency). With
``capability_selection_bypass_enabled`` every capability is active.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import infrastructure_node
from osprey_desktop.events import CapabilitiesSelected, emit
from osprey_desktop.infrastructure.planner_deadline import StoppedByTurnLimit, call_planner
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.registry import get_registry
from osprey_desktop.state.control_settings import control_setting

logger = logging.getLogger(__name__)

ALWAYS_ACTIVE = ("respond", "clarify")


def add_required_providers(
    selected: Sequence[str], capabilities: Sequence[BaseCapability]
) -> list[str]:
    """``selected`` plus, transitively, the capabilities providing what they require."""
    by_name = {cap.name: cap for cap in capabilities}
    active = [name for name in selected if name in by_name]
    queue = list(active)
    while queue:
        cap = by_name[queue.pop(0)]
        for context_type in cap.required_context_types():
            for provider in capabilities:
                if provider.writes or provider.name in active:
                    continue
                if context_type in provider.provides:
                    active.append(provider.name)
                    queue.append(provider.name)
    return active


async def select_capabilities(
    task: str, available_capabilities: Sequence[BaseCapability], state: dict[str, Any]
) -> list[str]:
    """The active capability names for ``task`` (spec function name kept)."""
    names = [cap.name for cap in available_capabilities]
    if control_setting(state, "capability_selection_bypass_enabled"):
        return names
    chosen = await call_planner(
        state, "select_capabilities", task, list(available_capabilities), state
    )
    if not isinstance(chosen, list | tuple):
        raise PlannerError(
            f"select_capabilities returned {type(chosen).__name__}; expected a list of names"
        )
    unknown = [name for name in chosen if name not in names]
    if unknown:
        logger.warning("planner selected unknown capabilities %s; ignoring them", unknown)
    selected = [name for name in chosen if name in names]
    active = add_required_providers(selected, available_capabilities)
    for name in ALWAYS_ACTIVE:
        if name in names and name not in active:
            active.append(name)
    return active


@infrastructure_node
class ClassificationNode(StoppedByTurnLimit, BaseInfrastructureNode):
    name = "classifier"
    description = "Task Classification and Capability Selection"

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        task = state.get("task_current_task") or ""
        capabilities = get_registry().get_all_capabilities()
        active = await select_capabilities(task, capabilities, state)
        if not active:
            raise PlannerError(
                "no capability is registered, not even respond; check the registry setup"
            )
        emit(CapabilitiesSelected(capabilities=list(active)))
        return {
            "planning_active_capabilities": active,
            "planning_execution_plan": None,
            "planning_current_step_index": 0,
        }


__all__ = ["ALWAYS_ACTIVE", "ClassificationNode", "add_required_providers", "select_capabilities"]
