"""Execution plan types shared by the planner, the router and every capability.

Defined with the agent state that holds them (the state sits below `osprey_desktop.base`);
`osprey_desktop.base.planning` is their public name, as in the framework.

Plans live in the agent state, which LangGraph checkpoints, so they are plain TypedDicts
(JSON-able dicts at run time) rather than classes.
"""

from __future__ import annotations

from typing import Any, TypedDict


class PlannedStep(TypedDict, total=False):
    """One step of an execution plan: which capability runs, on what, and where it stores.

    ``inputs`` names the contexts the step reads as ``[{context_type: context_key}, ...]``;
    the capability stores its result under ``expected_output`` / ``context_key``.
    """

    context_key: str
    capability: str
    task_objective: str
    success_criteria: str
    expected_output: str | None
    parameters: dict[str, str | int | float] | None
    inputs: list[dict[str, str]] | None


class ExecutionPlan(TypedDict, total=False):
    """An ordered list of planned steps, executed one at a time by the router."""

    steps: list[PlannedStep]


_STEP_TEXT_FIELDS = ("context_key", "capability", "task_objective", "success_criteria")


def execution_plan_problems(plan: Any) -> list[str]:
    """Every reason ``plan`` is not a usable ExecutionPlan; an empty list means it is.

    Planners parse plans from model output, and the router must never index into a
    malformed one, so the checks name the step and field at fault.
    """
    if not isinstance(plan, dict):
        return [f"the plan must be a dict with a 'steps' list, got {type(plan).__name__}"]
    steps = plan.get("steps")
    if not isinstance(steps, list):
        return [f"the plan's 'steps' must be a list, got {type(steps).__name__}"]
    problems: list[str] = []
    for index, step in enumerate(steps):
        where = f"step {index + 1}"
        if not isinstance(step, dict):
            problems.append(f"{where} must be a dict, got {type(step).__name__}")
            continue
        for field in ("context_key", "capability"):
            if not isinstance(step.get(field), str) or not step.get(field):
                problems.append(f"{where} needs a non-empty string '{field}'")
        for field in _STEP_TEXT_FIELDS[2:]:
            if field in step and not isinstance(step[field], str):
                problems.append(f"{where} field '{field}' must be a string")
        expected = step.get("expected_output")
        if expected is not None and not isinstance(expected, str):
            problems.append(f"{where} field 'expected_output' must be a string or null")
        parameters = step.get("parameters")
        if parameters is not None and not isinstance(parameters, dict):
            problems.append(f"{where} field 'parameters' must be a dict or null")
        problems.extend(_input_problems(where, step.get("inputs")))
    return problems


def _input_problems(where: str, inputs: Any) -> list[str]:
    if inputs is None:
        return []
    if not isinstance(inputs, list):
        return [f"{where} field 'inputs' must be a list of {{context_type: context_key}} dicts"]
    problems = []
    for item in inputs:
        if not isinstance(item, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in item.items()
        ):
            problems.append(
                f"{where} input {item!r} must be a {{context_type: context_key}} dict of strings"
            )
    return problems


def validate_execution_plan(plan: Any) -> ExecutionPlan:
    """Return ``plan`` unchanged when it is well formed; otherwise raise ValueError listing why."""
    problems = execution_plan_problems(plan)
    if problems:
        raise ValueError("Invalid execution plan: " + "; ".join(problems))
    return plan


__all__ = ["ExecutionPlan", "PlannedStep", "execution_plan_problems", "validate_execution_plan"]
