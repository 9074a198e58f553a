"""What a step that raised ``ClarificationRequired`` leaves in the state, and how it is asked.

Not a failure, so nothing here touches the error fields the router reads for retries: the
plan is cut after the asking step and ends in one ``clarify`` step that carries the
capability's own question. The router then dispatches that step like any other (plan-first
and react alike), and clarify ends the turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.catalog import built_catalog

CLARIFY = "clarify"


def clarify_available() -> bool:
    """True when the running graph has a clarify node to hand the question to."""
    try:
        catalog = built_catalog()
        return catalog is not None and catalog.get_node(CLARIFY) is not None
    except Exception:  # noqa: BLE001 - no registry means no clarify: report as an error
        return False


def clarify_step(request: ClarificationRequired, asked_by: str, context_key: str) -> dict[str, Any]:
    """The plan step that asks ``request.question`` for the capability ``asked_by``."""
    return {
        "context_key": f"{context_key}_clarify",
        "capability": CLARIFY,
        "task_objective": request.question,
        "success_criteria": "the operator knows what to add to the request",
        "expected_output": None,
        "parameters": {**request.to_dict(), "asked_by": asked_by},
        "inputs": [],
    }


def clarification_plan_updates(
    state: Mapping[str, Any],
    request: ClarificationRequired,
    asked_by: str,
    step: Mapping[str, Any],
    index: int,
    from_plan: bool,
) -> dict[str, Any]:
    """Plan updates that make the clarify step the next and last one.

    From a plan, the steps after the asking one are dropped (they would run on a guess).
    Outside a plan (respond past its end, a direct call) the clarify step is appended, so
    the plan the operator saw stays in the state.
    """
    plan = state.get("planning_execution_plan") or {}
    plan = dict(plan) if isinstance(plan, Mapping) else {}
    steps = list(plan.get("steps") or [])
    kept = steps[: index + 1] if from_plan else steps
    context_key = str(step.get("context_key") or asked_by)
    return {
        "planning_execution_plan": {
            **plan,
            "steps": [*kept, clarify_step(request, asked_by, context_key)],
        },
        "planning_current_step_index": len(kept),
    }


def format_clarification(question: str, suggestions: Sequence[str] | None = None) -> str:
    """The message the operator reads: the question as written, then the suggestions."""
    text = question.strip()
    shown = [str(s).strip() for s in suggestions or () if str(s).strip()]
    if shown:
        text += "\n\nYou could say:\n" + "\n".join(f"- “{s}”" for s in shown)
    return text


__all__ = [
    "CLARIFY",
    "clarification_plan_updates",
    "clarify_available",
    "clarify_step",
    "format_clarification",
]
