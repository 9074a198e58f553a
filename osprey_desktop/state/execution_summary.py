"""Numbered summary of the steps executed so far, for prompts, error reports and the UI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def get_execution_steps_summary(state: Mapping[str, Any]) -> list[str]:
    """``["Step 1: <objective>", ...]`` ordered by each result's ``step_index``.

    The capability name stands in for a missing objective; results without a
    ``step_index`` go last, in the order they were recorded.
    """
    results = state.get("execution_step_results") or {}
    if not isinstance(results, Mapping):
        return []
    entries = [r for r in results.values() if isinstance(r, Mapping)]

    def order(item: tuple[int, Mapping[str, Any]]) -> tuple[int, float, int]:
        position, result = item
        index = result.get("step_index")
        if isinstance(index, int | float) and not isinstance(index, bool):
            return (0, float(index), position)
        return (1, 0.0, position)

    ordered = [r for _, r in sorted(enumerate(entries), key=order)]
    summary = []
    for number, result in enumerate(ordered, start=1):
        label = result.get("task_objective") or result.get("capability") or "unknown step"
        summary.append(f"Step {number}: {label}")
    return summary


__all__ = ["get_execution_steps_summary"]
