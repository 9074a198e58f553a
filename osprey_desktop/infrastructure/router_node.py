"""The router: one node that keeps routing metadata, and the edge that decides what runs next.

``router_conditional_edge`` only reads the state (edges never mutate it). Plan-first order,
per spec: killed -> errors -> task extraction -> classification -> orchestration -> the
current plan step -> respond. React mode delegates to ``_reactive_routing``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

from langgraph.graph import END

from osprey_desktop.base.errors import ErrorSeverity
from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import infrastructure_node
from osprey_desktop.infrastructure.planner_deadline import seconds_text, turn_started
from osprey_desktop.state.control_settings import get_limit, get_orchestration_mode

logger = logging.getLogger(__name__)


@infrastructure_node(quiet=True)
class RouterNode(BaseInfrastructureNode):
    """Central routing authority; as a node it only updates metadata and waits out backoffs."""

    name = "router"
    description = "Central routing decision authority"

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        updates: dict[str, Any] = {}
        now = time.time()
        # time spent waiting for the operator's approval does not count against the limit
        started = turn_started(state)
        if started is None:
            updates["execution_start_time"] = now
        elif not state.get("control_has_error") and not state.get("control_is_killed"):
            limit = float(get_limit(state, "max_execution_time_seconds"))
            if now - float(started) > limit:
                updates.update(_timeout_error(now - float(started), limit))
        info = state.get("control_error_info") or {}
        if state.get("control_has_error") and info.get("can_retry"):
            delay = float(info.get("retry_delay") or 0.0)
            if delay > 0:
                # Async backoff: the loop (and a Qt window on it) stays responsive.
                await asyncio.sleep(delay)
        return updates


def _timeout_error(elapsed: float, limit: float) -> dict[str, Any]:
    info = {
        "node": "router",
        "capability_name": None,
        "severity": ErrorSeverity.FATAL.value,
        "user_message": (
            f"The request was stopped after {seconds_text(elapsed)} s, over the "
            f"{seconds_text(limit)} s limit (execution_control.limits.max_execution_time_seconds)"
        ),
        "error_type": "TimeoutError",
        "technical_details": None,
        "can_retry": False,
        "timestamp": time.time(),
    }
    return {"control_has_error": True, "control_error_info": info, "control_last_error": info}


def _retry_target(state: Mapping[str, Any]) -> str | None:
    """The node to run again for a pending retriable error, if its budget allows."""
    info = state.get("control_error_info") or {}
    if info.get("severity") != ErrorSeverity.RETRIABLE.value or not info.get("can_retry"):
        return None
    attempt = int(state.get("control_current_step_retry_count") or 0)
    max_attempts = int(info.get("max_attempts") or 1)
    target = info.get("node")
    if target and attempt < max_attempts:
        return str(target)
    return None


def _current_plan_step(state: Mapping[str, Any]) -> Mapping[str, Any] | None:
    plan = state.get("planning_execution_plan") or {}
    steps = plan.get("steps") or [] if isinstance(plan, Mapping) else []
    index = int(state.get("planning_current_step_index") or 0)
    if 0 <= index < len(steps):
        return steps[index]
    return None


def router_conditional_edge(state: Mapping[str, Any]) -> str:
    """Name of the next node (or END); reads the state, never changes it."""
    if state.get("control_is_killed"):
        return END
    if get_orchestration_mode(state) == "react":
        return _reactive_routing(state, logger)

    if state.get("control_has_error"):
        return _retry_target(state) or "error"
    if not state.get("task_current_task"):
        return "task_extraction"
    if not state.get("planning_active_capabilities"):
        return "classifier"
    if not state.get("planning_execution_plan"):
        return "orchestrator"
    if state.get("control_is_awaiting_validation"):
        return "orchestrator"  # planning mode: the stored plan waits for the operator
    step = _current_plan_step(state)
    if step is not None:
        return str(step.get("capability") or "respond")
    return "respond"


def _reactive_routing(state: Mapping[str, Any], log: logging.Logger) -> str:
    """React mode: dispatch the single planned step, re-evaluate after each step or error.

    Errors go back to the reactive orchestrator (which sees them and decides again) unless
    they are retried, fatal, already re-evaluated, or the iteration budget is spent.
    """
    max_iterations = int(get_limit(state, "max_react_iterations"))
    iterations = int(state.get("react_step_count") or 0)
    if state.get("control_has_error"):
        target = _retry_target(state)
        if target:
            return target
        info = state.get("control_error_info") or {}
        if (
            info.get("severity") == ErrorSeverity.FATAL.value
            or info.get("reevaluated")
            or info.get("node") in ("reactive_orchestrator", "task_extraction", "classifier")
            or iterations >= max_iterations
        ):
            return "error"
        log.debug("react: %s failed, returning to the orchestrator", info.get("node"))
        return "reactive_orchestrator"
    if not state.get("task_current_task"):
        return "task_extraction"
    if not state.get("planning_active_capabilities"):
        return "classifier"
    if state.get("control_is_awaiting_validation"):
        return "reactive_orchestrator"
    step = _current_plan_step(state)
    if step is not None:
        return str(step.get("capability") or "respond")
    if iterations >= max_iterations:
        # The orchestrator reports the exhausted budget itself; this guard only stops a
        # loop if it somehow did not.
        return "reactive_orchestrator" if iterations == max_iterations else "error"
    return "reactive_orchestrator"


__all__ = ["RouterNode", "router_conditional_edge"]
