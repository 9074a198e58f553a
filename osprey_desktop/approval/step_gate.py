"""The framework's approval before a capability step runs, for capabilities that do not ask
themselves.

``capability_node`` calls ``step_needs_approval`` and, when it says so, ``ask_before_step``
BEFORE the capability is even instantiated: the node re-runs from its start on resume, so
nothing may happen before the interrupt. A capability that builds its own approval payload
(what will be written, where) sets ``handles_own_approval = True`` and calls
``requires_approval`` itself (channel_write). A rejection ends the turn like a rejected plan.

A step already approved in this turn is not asked again: react's planning mode approves each
step in the orchestrator (``reactive_step``), and a retried step keeps its approval.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.approval.decisions import ApprovalDecision, request_payload_approval
from osprey_desktop.approval.payloads import create_capability_step_approval_payload
from osprey_desktop.approval.policy import requires_approval
from osprey_desktop.events import Result, emit

STEP_REJECTED_NOTHING_RUN = "Step rejected, nothing executed."
STEP_REJECTED_AFTER_STEPS = "Step rejected, nothing further executed."
_STEP_APPROVAL_TYPES = ("step", "reactive_step")


def _canonical(step: Mapping[str, Any]) -> str:
    return json.dumps(dict(step), sort_keys=True, default=str)


def _same_step(a: Any, b: Mapping[str, Any]) -> bool:
    """Equal as JSON: a step read back from the checkpoint may hold lists for tuples."""
    return isinstance(a, Mapping) and _canonical(a) == _canonical(b)


def already_approved(state: Mapping[str, Any], step: Mapping[str, Any]) -> bool:
    """True when this turn's last approval was a yes to exactly this step."""
    payload = state.get("approved_payload")
    return (
        state.get("approval_approved") is True
        and isinstance(payload, Mapping)
        and payload.get("approval_type") in _STEP_APPROVAL_TYPES
        and _same_step(payload.get("step"), step)
    )


def step_needs_approval(capability: Any, state: Mapping[str, Any], step: Mapping[str, Any]) -> bool:
    """Whether the framework must ask before ``capability`` runs ``step`` in this turn."""
    if getattr(capability, "handles_own_approval", False) is True:
        return False
    return requires_approval(capability, state) and not already_approved(state, step)


def ask_before_step(
    state: Mapping[str, Any], step: Mapping[str, Any], index: int, total: int
) -> ApprovalDecision:
    """Interrupt with the step approval; returns the decision once resumed.

    An approval is a yes or no to the step shown: the step runs as planned, so the recorded
    payload is the one asked (not an edited copy sent back by a client).
    """
    payload = create_capability_step_approval_payload(
        step, state.get("task_current_task"), index, total
    )
    decision = request_payload_approval(payload)
    if decision.approved:
        decision.payload = dict(payload["resume_payload"])
    return decision


def _ran_before(state: Mapping[str, Any]) -> bool:
    results = (state.get("execution_step_results") or {}).values()
    return any(
        isinstance(r, Mapping)
        and r.get("success")
        and r.get("capability") not in ("respond", "clarify")
        for r in results
    )


def rejected_step_updates(
    state: Mapping[str, Any], capability: str, decision: ApprovalDecision
) -> dict[str, Any]:
    """End the turn cleanly: the step is not run, the operator reads why, nothing replans."""
    message = STEP_REJECTED_AFTER_STEPS if _ran_before(state) else STEP_REJECTED_NOTHING_RUN
    emit(Result(response=message))
    return {
        **decision.state_update(state),
        "control_is_killed": True,
        "control_kill_reason": f"step '{capability}' rejected by the operator",
        "messages": [AIMessage(content=message)],
    }


__all__ = [
    "STEP_REJECTED_AFTER_STEPS",
    "STEP_REJECTED_NOTHING_RUN",
    "already_approved",
    "ask_before_step",
    "rejected_step_updates",
    "step_needs_approval",
]
