"""Checks a plan before the router executes it, and says what kind of fix it needs.

* malformed structure, duplicate keys, or an input naming a context key that neither exists
  nor is produced by an earlier step -> the plan is at fault: replan;
* a capability that is not registered -> the selection is at fault: reclassify;
* no final respond/clarify -> respond is appended (a turn always ends with an answer).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from osprey_desktop.base.planning import execution_plan_problems

TERMINAL_CAPABILITIES = ("respond", "clarify")


@dataclass
class PlanValidation:
    """The checked plan (respond appended) and everything wrong with it."""

    plan: dict[str, Any]
    unknown_capabilities: list[str] = field(default_factory=list)
    input_problems: list[str] = field(default_factory=list)
    structure_problems: list[str] = field(default_factory=list)

    @property
    def needs_reclassification(self) -> bool:
        return bool(self.unknown_capabilities)

    @property
    def needs_replanning(self) -> bool:
        return bool(self.structure_problems or self.input_problems)

    @property
    def ok(self) -> bool:
        return not (self.needs_reclassification or self.needs_replanning)

    def describe(self) -> str:
        parts = []
        if self.unknown_capabilities:
            parts.append("unknown capabilities: " + ", ".join(self.unknown_capabilities))
        parts += self.structure_problems + self.input_problems
        return "; ".join(parts)


def respond_step(steps: Iterable[Mapping[str, Any]], task: str | None) -> dict[str, Any]:
    """The closing respond step, reading every output produced earlier in the plan."""
    inputs = [
        {str(step["expected_output"]): str(step["context_key"])}
        for step in steps
        if step.get("expected_output") and step.get("context_key")
    ]
    return {
        "context_key": "respond",
        "capability": "respond",
        "task_objective": f"Answer the operator: {task}" if task else "Answer the operator",
        "success_criteria": "The operator gets a clear answer",
        "expected_output": None,
        "parameters": None,
        "inputs": inputs,
    }


def validate_plan(
    plan: Any,
    capabilities: Mapping[str, Any],
    context_data: Mapping[str, Mapping[str, Any]] | None,
    task: str | None = None,
    *,
    append_respond: bool = True,
) -> PlanValidation:
    """Check ``plan`` against the registered ``capabilities`` (name -> capability) and the
    stored contexts; returns a normalised copy with respond appended when missing."""
    problems = execution_plan_problems(plan)
    if problems:
        return PlanValidation(plan={"steps": []}, structure_problems=problems)
    checked = copy.deepcopy(dict(plan))
    steps: list[dict[str, Any]] = checked["steps"]
    result = PlanValidation(plan=checked)
    stored = context_data or {}
    produced: dict[str, set[str]] = {}  # context_key -> context types it provides
    for number, step in enumerate(steps, start=1):
        name = step["capability"]
        capability = capabilities.get(name)
        if capability is None:
            result.unknown_capabilities.append(name)
        for item in step.get("inputs") or []:
            for context_type, key in item.items():
                if key in produced and (not produced[key] or context_type in produced[key]):
                    continue
                if key in (stored.get(context_type) or {}):
                    continue
                result.input_problems.append(
                    f"step {number} ({name}) reads {context_type} '{key}', which no earlier "
                    "step produces and which is not stored"
                )
        if name in TERMINAL_CAPABILITIES and number < len(steps):
            result.structure_problems.append(
                f"step {number} ({name}) ends the turn, so the {len(steps) - number} step(s) "
                "after it would never run; put it last"
            )
        key = step["context_key"]
        if key in produced:
            result.structure_problems.append(f"step {number} ({name}) reuses context_key '{key}'")
        types = set(getattr(capability, "provides", []) or [])
        if step.get("expected_output"):
            types.add(str(step["expected_output"]))
        produced[key] = types
    ends_open = not steps or steps[-1]["capability"] not in TERMINAL_CAPABILITIES
    if append_respond and ends_open and "respond" in capabilities:
        steps.append(respond_step(steps, task))
    return result


__all__ = ["TERMINAL_CAPABILITIES", "PlanValidation", "respond_step", "validate_plan"]
