"""``respond``: the turn's answer, written by the planner from this turn's context summaries.

A summary may carry ``facts``: lines that state an outcome (what a write did). They open the
answer word for word and are not handed to the planner, so a chat model can add words about
the rest of the turn but can never state an outcome ("Done.") that did not happen.
"""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.decorators import capability_node
from osprey_desktop.events import Result, emit
from osprey_desktop.infrastructure.context_summaries import turn_context_summaries
from osprey_desktop.infrastructure.task_extraction_node import latest_user_text
from osprey_desktop.planners.base import PlannerError, get_planner


@capability_node
class RespondCapability(BaseCapability):
    name = "respond"
    description = "Answer the operator from the results of this turn"
    provides: list[str] = []
    requires: list[Any] = []

    async def execute(self) -> dict[str, Any]:
        state = self._state
        task = state.get("task_current_task") or latest_user_text(list(state.get("messages") or []))
        summaries = turn_context_summaries(state, self.get_step_inputs())
        facts = [
            str(line)
            for summary in summaries.values()
            for line in (summary.get("facts") or [])
            if isinstance(summary.get("facts"), list)
        ]
        rest = {label: s for label, s in summaries.items() if not s.get("facts")}
        if facts:
            # what only fed the steps that stated facts (the channels a write found) is said
            # by those facts already
            for label in _inputs_of_fact_steps(state, summaries):
                rest.pop(label, None)
        text = ""
        if rest or not facts:
            text = await get_planner().write_response(task, state, rest)
            if not isinstance(text, str) or not text.strip():
                raise PlannerError("the planner wrote an empty response")
        if facts:
            text = "\n".join(facts) + (f"\n\n{text}" if text.strip() else "")
        emit(Result(response=text))
        updates: dict[str, Any] = {"messages": [AIMessage(content=text)]}
        started = state.get("execution_start_time")
        if started:
            updates["execution_total_time"] = time.time() - float(started)
        return updates


def _inputs_of_fact_steps(state: dict[str, Any], summaries: dict[str, dict[str, Any]]) -> set[str]:
    """``TYPE.key`` of every input of a planned step whose output states facts."""
    fact_keys = {label.partition(".")[2] for label, s in summaries.items() if s.get("facts")}
    plan = state.get("planning_execution_plan") or {}
    inputs: set[str] = set()
    for step in plan.get("steps") or []:
        if step.get("context_key") in fact_keys:
            for item in step.get("inputs") or []:
                inputs.update(f"{ctype}.{key}" for ctype, key in item.items())
    return inputs


__all__ = ["RespondCapability"]
