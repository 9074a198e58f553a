"""``clarify``: ask the operator for what the request is missing, then end the turn."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.decorators import capability_node
from osprey_desktop.events import Result, emit
from osprey_desktop.infrastructure.task_extraction_node import latest_user_text
from osprey_desktop.planners.base import PlannerError, get_planner


@capability_node
class ClarifyCapability(BaseCapability):
    name = "clarify"
    description = "Ask the operator a question when the request is ambiguous or incomplete"
    provides: list[str] = []
    requires: list[Any] = []
    parameters = {"reason": "what is missing or ambiguous"}

    async def execute(self) -> dict[str, Any]:
        state = self._state
        task = state.get("task_current_task") or latest_user_text(list(state.get("messages") or []))
        reason = self.get_parameters().get("reason")
        question = await get_planner().ask_clarification(
            task, state, str(reason) if reason else None
        )
        if not isinstance(question, str) or not question.strip():
            raise PlannerError("the planner wrote an empty clarification question")
        emit(Result(response=question))
        return {"messages": [AIMessage(content=question)]}


__all__ = ["ClarifyCapability"]
