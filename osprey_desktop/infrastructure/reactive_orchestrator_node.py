"""React mode: the planner picks one step at a time, after seeing every result so far.

The chosen step becomes a one-step plan the router dispatches; after it (or after a failure)
the turn comes back here. ``react_messages`` keeps the decisions and observations for the
planner. Bounded by ``max_react_iterations``; a capability that failed and is chosen again
straight away goes to the error node instead of looping. In planning mode each step except
respond/clarify is approved first (stored, then asked, like plan-first planning mode).
"""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.approval import create_step_approval_payload, request_payload_approval
from osprey_desktop.base.errors import ErrorSeverity
from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import infrastructure_node
from osprey_desktop.events import PlanCreated, Result, emit
from osprey_desktop.infrastructure.plan_validation import TERMINAL_CAPABILITIES, validate_plan
from osprey_desktop.infrastructure.planner_deadline import StoppedByTurnLimit, call_planner
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.registry import get_registry
from osprey_desktop.state.control_settings import get_limit, is_planning_mode_enabled

STEP_REJECTED_MESSAGE = "Step rejected, nothing further executed."


def _unique_key(step: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """Keep this turn's earlier outputs: a reused context_key gets a numeric suffix."""
    taken = set((state.get("execution_step_results") or {}).keys())
    for entries in (state.get("capability_context_data") or {}).values():
        taken.update(entries.keys())
    key = str(step.get("context_key") or step.get("capability"))
    if step.get("capability") in TERMINAL_CAPABILITIES or key not in taken:
        return step
    n = 2
    while f"{key}_{n}" in taken:
        n += 1
    return {**step, "context_key": f"{key}_{n}"}


def _approval_phase(state: dict[str, Any]) -> dict[str, Any]:
    plan = state["planning_execution_plan"]
    step = (plan.get("steps") or [{}])[0]
    iteration = int(state.get("react_step_count") or 0)
    decision = request_payload_approval(
        create_step_approval_payload(step, state.get("task_current_task"), iteration)
    )
    cleared = {
        "control_is_awaiting_validation": False,
        "control_validation_context": None,
        **decision.state_update(state),
    }
    if not decision.approved:
        emit(Result(response=STEP_REJECTED_MESSAGE))
        return {
            **cleared,
            "control_is_killed": True,
            "control_kill_reason": "reactive step rejected by the operator",
            "messages": [AIMessage(content=STEP_REJECTED_MESSAGE)],
        }
    approved = (decision.payload or {}).get("step", step)
    return {
        **cleared,
        "planning_execution_plan": {"steps": [approved]},
        "planning_current_step_index": 0,
    }


def _limit_error(iterations: int) -> dict[str, Any]:
    info = {
        "node": "reactive_orchestrator",
        "capability_name": None,
        "severity": ErrorSeverity.FATAL.value,
        "user_message": (
            f"Stopped after {iterations} reactive steps without reaching an answer "
            "(execution_control.limits.max_react_iterations)"
        ),
        "error_type": "ReactIterationLimit",
        "can_retry": False,
        "timestamp": time.time(),
    }
    return {"control_has_error": True, "control_error_info": info, "control_last_error": info}


@infrastructure_node
class ReactiveOrchestratorNode(StoppedByTurnLimit, BaseInfrastructureNode):
    name = "reactive_orchestrator"
    description = "Reactive Orchestration (one step at a time)"

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if state.get("control_is_awaiting_validation") and state.get("planning_execution_plan"):
            return _approval_phase(state)

        iterations = int(state.get("react_step_count") or 0)
        if iterations >= int(get_limit(state, "max_react_iterations")):
            return _limit_error(iterations)

        messages = list(state.get("react_messages") or [])
        failed = state.get("control_error_info") if state.get("control_has_error") else None
        if failed:
            messages.append(
                {
                    "type": "observation",
                    "capability": failed.get("node"),
                    "success": False,
                    "error": failed.get("user_message"),
                    "severity": failed.get("severity"),
                }
            )
        elif state.get("execution_last_result"):
            last = state["execution_last_result"]
            messages.append(
                {
                    "type": "observation",
                    "capability": last.get("capability"),
                    "success": bool(last.get("success")),
                    "context_key": last.get("context_key"),
                }
            )
        view = {**state, "react_messages": messages}

        registry = get_registry()
        names = state.get("planning_active_capabilities") or []
        active = [cap for name in names if (cap := registry.get_capability(name)) is not None]
        task = state.get("task_current_task") or ""
        step = await call_planner(state, "choose_next_step", task, active, view)
        table = {cap.name: cap for cap in registry.get_all_capabilities()}
        check = validate_plan(
            {"steps": [step]},
            table,
            state.get("capability_context_data"),
            task,
            append_respond=False,
        )
        if not check.ok:
            raise PlannerError(f"the planner chose a step that cannot run: {check.describe()}")
        step = _unique_key(check.plan["steps"][0], state)

        if failed and step["capability"] == failed.get("node"):
            # The same failing capability again: re-evaluation found no other way.
            return {
                "control_error_info": {**failed, "reevaluated": True},
                "react_messages": messages,
            }

        messages.append({"type": "decision", "step": step})
        emit(PlanCreated(plan={"steps": [step]}))
        updates: dict[str, Any] = {
            "planning_execution_plan": {"steps": [step]},
            "planning_current_step_index": 0,
            "react_step_count": iterations + 1,
            "react_messages": messages,
            "control_plans_created_count": int(state.get("control_plans_created_count") or 0) + 1,
            "control_has_error": False,
            "control_error_info": None,
            "control_current_step_retry_count": 0,
        }
        if is_planning_mode_enabled(state) and step["capability"] not in TERMINAL_CAPABILITIES:
            updates.update(
                control_is_awaiting_validation=True,
                control_validation_context={"approval_type": "reactive_step"},
                control_validation_timestamp=time.time(),
            )
        return updates


__all__ = ["STEP_REJECTED_MESSAGE", "ReactiveOrchestratorNode"]
