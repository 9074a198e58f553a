"""Interrupt payloads: what the operator is asked to approve, in Markdown plus machine form.

Every payload is ``{"user_message": markdown, "resume_payload": {"approval_type": ..., ...}}``.
``resume_payload`` is what gets executed once approved, so a client resuming the graph sends
it back inside the decision and the node acts on exactly that.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

APPROVAL_TYPES = ("plan", "reactive_step", "step", "channel_write", "capability")
"""Approval types the framework and the shipped capabilities use (others are allowed)."""


def create_approval_payload(user_message: str, approval_type: str, **fields: Any) -> dict[str, Any]:
    """The interrupt value for any approval; ``fields`` go into ``resume_payload``."""
    if not isinstance(approval_type, str) or not approval_type:
        raise ValueError("an approval needs a non-empty approval_type such as 'plan'")
    if not isinstance(user_message, str) or not user_message.strip():
        raise ValueError(f"the {approval_type} approval needs a message for the operator")
    resume_payload = {"approval_type": approval_type, **copy.deepcopy(fields)}
    return {"user_message": user_message, "resume_payload": resume_payload}


def describe_step(step: Mapping[str, Any], number: int | None = None) -> str:
    """One Markdown line for a planned step: capability, objective, inputs and output."""
    prefix = f"{number}. " if number is not None else "- "
    line = f"{prefix}`{step.get('capability', '?')}`"
    objective = step.get("task_objective")
    if objective:
        line += f" — {objective}"
    inputs = step.get("inputs") or []
    used = [f"{key}" for item in inputs for key in item.values()]
    if used:
        line += f" (uses {', '.join(f'`{u}`' for u in used)})"
    output = step.get("expected_output")
    if output:
        line += f" → {output} as `{step.get('context_key', '?')}`"
    params = step.get("parameters") or {}
    if params:
        line += " with " + ", ".join(f"{k}={v!r}" for k, v in params.items())
    return line


def create_plan_approval_payload(plan: Mapping[str, Any], task: str | None) -> dict[str, Any]:
    """Planning mode: ask before any step of ``plan`` runs."""
    steps = list(plan.get("steps") or [])
    lines = ["**Approve this plan before anything runs?**", ""]
    if task:
        lines += [f"Task: {task}", ""]
    lines += [describe_step(step, i + 1) for i, step in enumerate(steps)]
    lines += ["", "Answer **yes** to run it or **no** to cancel (nothing will be executed)."]
    return create_approval_payload(
        "\n".join(lines), "plan", execution_plan=dict(plan), task=task or ""
    )


def create_step_approval_payload(
    step: Mapping[str, Any], task: str | None, iteration: int
) -> dict[str, Any]:
    """Planning mode in react: ask before the next single step runs."""
    lines = [f"**Approve reactive step {iteration}?**", ""]
    if task:
        lines += [f"Task: {task}", ""]
    lines += [describe_step(step), "", "Answer **yes** to run this step or **no** to stop here."]
    return create_approval_payload(
        "\n".join(lines), "reactive_step", step=dict(step), task=task or "", iteration=iteration
    )


def create_capability_step_approval_payload(
    step: Mapping[str, Any], task: str | None, index: int, total: int
) -> dict[str, Any]:
    """The approval policy asks before one capability step runs (any orchestration mode)."""
    where = f"step {index + 1} of {total}" if 0 <= index < total else "this step"
    lines = [f"**Approve {where} before it runs?**", ""]
    if task:
        lines += [f"Task: {task}", ""]
    lines += [describe_step(step), "", "Answer **yes** to run this step or **no** to stop here."]
    return create_approval_payload(
        "\n".join(lines),
        "step",
        step=dict(step),
        capability=str(step.get("capability") or ""),
        task=task or "",
        step_index=index,
        total_steps=total,
    )


__all__ = [
    "APPROVAL_TYPES",
    "create_approval_payload",
    "create_capability_step_approval_payload",
    "create_plan_approval_payload",
    "create_step_approval_payload",
    "describe_step",
]
