"""Plan-first orchestration: the planner writes the whole plan, validated before anything runs.

Planning mode is two-phased so the operator approves a plan that is already in the state:
the first visit stores the validated plan and sets ``control_is_awaiting_validation``; the
router sends the turn back here, where the stored plan is put to the operator through an
interrupt. Re-running this node on resume re-derives nothing. A rejected plan ends the turn
("Plan rejected, nothing executed.") and is not replanned.
"""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.approval import create_plan_approval_payload, request_payload_approval
from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import infrastructure_node
from osprey_desktop.events import PlanCreated, Result, emit
from osprey_desktop.infrastructure.plan_validation import validate_plan
from osprey_desktop.infrastructure.planner_deadline import StoppedByTurnLimit, call_planner
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.registry import get_registry
from osprey_desktop.state.control_settings import get_limit, is_planning_mode_enabled

PLAN_REJECTED_MESSAGE = "Plan rejected, nothing executed."


def _active_capabilities(state: dict[str, Any]) -> list[Any]:
    registry = get_registry()
    names = state.get("planning_active_capabilities") or []
    return [cap for name in names if (cap := registry.get_capability(name)) is not None]


def _capability_table() -> dict[str, Any]:
    return {cap.name: cap for cap in get_registry().get_all_capabilities()}


async def create_execution_plan(task: str, state: dict[str, Any]) -> dict[str, Any]:
    """Ask the planner for a plan over the active capabilities (spec helper name); off the
    event loop and within the turn limit (see planner_deadline)."""
    plan = await call_planner(state, "create_plan", task, _active_capabilities(state), state)
    return dict(plan) if isinstance(plan, dict) else plan


def _approval_phase(state: dict[str, Any]) -> dict[str, Any]:
    plan = state["planning_execution_plan"]
    task = state.get("task_current_task")
    decision = request_payload_approval(create_plan_approval_payload(plan, task))
    cleared = {
        "control_is_awaiting_validation": False,
        "control_validation_context": None,
        **decision.state_update(state),
    }
    if not decision.approved:
        emit(Result(response=PLAN_REJECTED_MESSAGE))
        return {
            **cleared,
            "control_is_killed": True,
            "control_kill_reason": "plan rejected by the operator",
            "messages": [AIMessage(content=PLAN_REJECTED_MESSAGE)],
        }
    approved_plan = (decision.payload or {}).get("execution_plan", plan)
    check = validate_plan(
        approved_plan, _capability_table(), state.get("capability_context_data"), task
    )
    if not check.ok:
        raise PlannerError(f"the approved plan cannot run: {check.describe()}")
    return {**cleared, "planning_execution_plan": check.plan, "planning_current_step_index": 0}


@infrastructure_node
class OrchestrationNode(StoppedByTurnLimit, BaseInfrastructureNode):
    name = "orchestrator"
    description = "Execution Planning and Orchestration"

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if state.get("control_is_awaiting_validation") and state.get("planning_execution_plan"):
            return _approval_phase(state)

        task = state.get("task_current_task") or ""
        attempts = int(state.get("control_plans_created_count") or 0) + 1
        plan = await create_execution_plan(task, state)
        check = validate_plan(plan, _capability_table(), state.get("capability_context_data"), task)

        if check.needs_reclassification:
            count = int(state.get("control_reclassification_count") or 0)
            if count >= int(get_limit(state, "max_reclassifications")):
                raise PlannerError(
                    f"the plan still uses capabilities that do not exist ({check.describe()}) "
                    f"after {count} reclassification{'s' if count != 1 else ''}"
                )
            return {
                "planning_active_capabilities": [],
                "planning_execution_plan": None,
                "planning_current_step_index": 0,
                "control_reclassification_count": count + 1,
                "control_reclassification_reason": check.describe(),
                "control_plans_created_count": attempts,
            }
        if check.needs_replanning:
            if attempts >= int(get_limit(state, "max_planning_attempts")):
                raise PlannerError(
                    f"no valid plan after {attempts} attempt{'s' if attempts != 1 else ''}: "
                    f"{check.describe()}"
                )
            return {
                "planning_execution_plan": None,
                "planning_current_step_index": 0,
                "control_plans_created_count": attempts,
                "control_last_error": {
                    "node": "orchestrator",
                    "severity": "replanning",
                    "user_message": f"the plan was invalid: {check.describe()}",
                    "timestamp": time.time(),
                },
            }

        emit(PlanCreated(plan=check.plan))
        updates: dict[str, Any] = {
            "planning_execution_plan": check.plan,
            "planning_current_step_index": 0,
            "control_plans_created_count": attempts,
        }
        if is_planning_mode_enabled(state):
            updates.update(
                control_is_awaiting_validation=True,
                control_validation_context={"approval_type": "plan"},
                control_validation_timestamp=time.time(),
            )
        return updates


__all__ = ["PLAN_REJECTED_MESSAGE", "OrchestrationNode", "create_execution_plan"]
