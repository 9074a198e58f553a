"""``clarify``: ask the operator for what the request is missing, then end the turn.

Two sources of a question. A capability that raised ``ClarificationRequired`` put its own
question (and suggestions) in this step's parameters: it is asked word for word, because the
capability knows exactly what it lacks and a planner rewording it could lose that. Otherwise
the planner planned this step with a ``reason`` and words the question itself.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.base.clarification import format_clarification
from osprey_desktop.decorators import capability_node
from osprey_desktop.events import Result, emit
from osprey_desktop.planners.base import CLARIFICATION_KEY, PlannerError
from osprey_desktop.planners.selection import get_planner
from osprey_desktop.state import StateManager


@capability_node
class ClarifyCapability(BaseCapability):
    name = "clarify"
    description = "Ask the operator a question when the request is ambiguous or incomplete"
    provides: list[str] = []
    requires: list[Any] = []
    parameters = {
        "reason": "what is missing or ambiguous (the planner words the question)",
        "question": "a capability's own question, asked word for word",
        "suggestions": "things the operator could say instead, listed under the question",
    }

    async def execute(self) -> dict[str, Any]:
        params = self.get_parameters()
        question = params.get("question")
        if isinstance(question, str) and question.strip():
            suggestions = params.get("suggestions")
            if isinstance(suggestions, str):
                suggestions = [suggestions]
            text = format_clarification(
                question, suggestions if isinstance(suggestions, list) else None
            )
        else:
            text = await self._planner_question(params.get("reason"))
        emit(Result(response=text))
        # marked, so the planner reads the operator's next message as the answer ("ID 9")
        asked = {"asked_by": str(params.get("asked_by") or "planner")}
        return {"messages": [AIMessage(content=text, additional_kwargs={CLARIFICATION_KEY: asked})]}

    async def _planner_question(self, reason: Any) -> str:
        state = self._state
        task = state.get("task_current_task") or (StateManager.get_user_query(state) or "").strip()
        question = await get_planner().ask_clarification(
            task, state, str(reason) if reason else None
        )
        if not isinstance(question, str) or not question.strip():
            raise PlannerError("the planner wrote an empty clarification question")
        return question


__all__ = ["ClarifyCapability"]
