"""``respond``: the turn's answer, written by the planner from this turn's context summaries."""

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
        text = await get_planner().write_response(task, state, summaries)
        if not isinstance(text, str) or not text.strip():
            raise PlannerError("the planner wrote an empty response")
        emit(Result(response=text))
        updates: dict[str, Any] = {"messages": [AIMessage(content=text)]}
        started = state.get("execution_start_time")
        if started:
            updates["execution_total_time"] = time.time() - float(started)
        return updates


__all__ = ["RespondCapability"]
