"""Backward chaining for the built-in planner: goal capabilities pull in their providers.

For each goal (in the order the request names them), every required context type is taken
from a step earlier in this plan, from a stored context (when the request refers to earlier
results, or when nothing can produce it), or from a provider capability planned first. Keys
are ``<capability>_<n>``, unique across the thread so earlier turns' contexts survive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from osprey_desktop.base.capability import requirement_type


@dataclass
class PlanDraft:
    steps: list[dict[str, Any]] = field(default_factory=list)
    reused: list[dict[str, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def _provider_rank(capability: Any, context_type: str) -> tuple[bool, int]:
    """Providers of a type, best first: those whose main product it is, then the simplest."""
    provides = list(capability.provides or [])
    return (provides[:1] != [context_type], len(capability.requires or []))


class _Builder:
    def __init__(
        self,
        task: str,
        available: Sequence[Any],
        fallback: Sequence[Any],
        state: Mapping[str, Any],
        allow_reuse: bool,
        produced: Mapping[str, str] | None,
        fresh_types: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        self.task = task
        self.available = list(available)
        self.fallback = [c for c in fallback if c.name not in {a.name for a in available}]
        self.stored: Mapping[str, Mapping[str, Any]] = state.get("capability_context_data") or {}
        self.allow_reuse = allow_reuse
        self.fresh_types = set(fresh_types)
        self.produced: dict[str, str] = dict(produced or {})
        # stored keys are looked up where they are (new_key), not copied: a thread may hold
        # 100,000 contexts
        self.taken: set[str] = set((state.get("execution_step_results") or {}).keys())
        self.draft = PlanDraft()
        self.planned: set[str] = set()

    def new_key(self, capability: str) -> str:
        n = 1
        while f"{capability}_{n}" in self.taken or any(
            f"{capability}_{n}" in entries for entries in self.stored.values()
        ):
            n += 1
        key = f"{capability}_{n}"
        self.taken.add(key)
        return key

    def latest_stored(self, context_type: str) -> str | None:
        return next(reversed((self.stored.get(context_type) or {}).keys()), None)

    def provider_for(self, context_type: str, stack: Sequence[str]) -> Any | None:
        for pool in (self.available, self.fallback):
            candidates = [
                c
                for c in pool
                if context_type in (c.provides or []) and not c.writes and c.name not in stack
            ]
            if candidates:
                # archive data from the archive retrieval, not from an investigation that
                # also yields it
                return min(candidates, key=lambda c: _provider_rank(c, context_type))
        return None

    def ensure(self, context_type: str, stack: list[str]) -> str | None:
        if context_type in self.produced:
            return self.produced[context_type]
        stored_key = self.latest_stored(context_type)
        if self.allow_reuse and stored_key and context_type not in self.fresh_types:
            self.draft.reused.append({context_type: stored_key})
            return stored_key
        provider = self.provider_for(context_type, stack)
        if provider is not None and self.add(provider, stack, goal=False):
            return self.produced.get(context_type)
        if stored_key:  # nothing can produce it again: use what is stored
            self.draft.reused.append({context_type: stored_key})
            return stored_key
        return None

    def add(self, capability: Any, stack: list[str], goal: bool) -> bool:
        if capability.name in self.planned and not goal:
            return True
        inputs = []
        for requirement in capability.requires or []:
            context_type = requirement_type(requirement)
            key = self.ensure(context_type, [*stack, capability.name])
            if key is None:
                self.draft.missing.append(
                    f"`{capability.name}` needs {context_type}, which nothing stored holds and "
                    "no available capability provides"
                )
                return False
            inputs.append({context_type: key})
        extra = getattr(capability, "inputs_for", None)
        for context_type in extra(self.task) if callable(extra) else []:
            # what this request needs on top (a source channel's value, an archived one): read
            # now, never an earlier turn's (a copied value must be the present one)
            if all(context_type not in item for item in inputs):
                self.fresh_types.add(context_type)
                key = self.ensure(context_type, [*stack, capability.name])
                if key is not None:
                    inputs.append({context_type: key})
        key = self.new_key(capability.name)
        provides = list(capability.provides or [])
        # Every step gets the operator's words: capabilities parse their own part of them
        # (a channel name, a time range, a value); a paraphrase would lose it.
        objective = self.task
        self.draft.steps.append(
            {
                "context_key": key,
                "capability": capability.name,
                "task_objective": objective,
                "success_criteria": (
                    capability.description if goal else f"{capability.description} (needed next)"
                ),
                "expected_output": provides[0] if provides else None,
                "parameters": None,
                "inputs": inputs,
            }
        )
        self.planned.add(capability.name)
        for context_type in provides:
            self.produced[context_type] = key
        return True


def build_steps(
    task: str,
    goals: Sequence[Any],
    available: Sequence[Any],
    state: Mapping[str, Any],
    *,
    allow_reuse: bool,
    fallback: Sequence[Any] = (),
    produced: Mapping[str, str] | None = None,
    done: Sequence[str] = (),
    fresh_types: set[str] | frozenset[str] = frozenset(),
) -> PlanDraft:
    """Steps that achieve ``goals`` (skipping those in ``done``), providers first.

    ``produced`` maps context types already produced this turn to their keys (react mode).
    ``fresh_types`` are never reused from storage even when ``allow_reuse`` is on: the
    request itself names them again (a new time range, other channels).
    """
    builder = _Builder(task, available, fallback, state, allow_reuse, produced, fresh_types)
    for goal in goals:
        if goal.name in done or goal.name in builder.planned:
            continue
        builder.add(goal, [], goal=True)
    return builder.draft


def closing_step(
    capability: str, task: str, draft: PlanDraft, reason: str | None = None
) -> dict[str, Any]:
    """The respond (or clarify) step that ends a plan, reading what the plan produced."""
    inputs = [
        {str(step["expected_output"]): str(step["context_key"])}
        for step in draft.steps
        if step.get("expected_output")
    ]
    for item in draft.reused:
        if item not in inputs:
            inputs.append(item)
    if capability == "clarify":
        return {
            "context_key": "clarify",
            "capability": "clarify",
            "task_objective": f"Ask the operator for what is missing to: {task}",
            "success_criteria": "The operator knows what to add",
            "expected_output": None,
            "parameters": {"reason": reason or "the request is incomplete"},
            "inputs": [],
        }
    return {
        "context_key": "respond",
        "capability": "respond",
        "task_objective": f"Answer the operator: {task}",
        "success_criteria": "The operator gets a clear answer",
        "expected_output": None,
        "parameters": None,
        "inputs": inputs,
    }


__all__ = ["PlanDraft", "build_steps", "closing_step"]
