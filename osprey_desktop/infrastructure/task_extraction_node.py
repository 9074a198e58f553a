"""Task extraction: the conversation becomes this turn's actionable task (asked of the planner).

With ``task_extraction_bypass_enabled`` the latest request is used as is and marked as
depending on the chat history, so earlier results may be reused.
"""

from __future__ import annotations

from typing import Any

from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import infrastructure_node
from osprey_desktop.events import TaskExtracted, emit
from osprey_desktop.infrastructure.planner_deadline import StoppedByTurnLimit, call_planner
from osprey_desktop.planners.base import ExtractedTask, PlannerError
from osprey_desktop.state import StateManager
from osprey_desktop.state.control_settings import control_setting


@infrastructure_node
class TaskExtractionNode(StoppedByTurnLimit, BaseInfrastructureNode):
    name = "task_extraction"
    description = "Task Extraction and Processing"

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        if control_setting(state, "task_extraction_bypass_enabled"):
            text = (StateManager.get_user_query(state) or "").strip()
            extracted = ExtractedTask(task=text, depends_on_chat_history=True)
        else:
            # off the event loop and within the turn limit (see planner_deadline)
            extracted = await call_planner(state, "extract_task", messages, state)
        if not isinstance(extracted, ExtractedTask):
            raise PlannerError(
                f"the planner returned {type(extracted).__name__} from extract_task; "
                "expected an ExtractedTask"
            )
        task = extracted.task.strip()
        if not task:
            raise PlannerError(
                "there is no request to work on: the conversation has no user message"
            )
        emit(TaskExtracted(task=task, depends_on_chat_history=extracted.depends_on_chat_history))
        return {
            "task_current_task": task,
            "task_depends_on_chat_history": extracted.depends_on_chat_history,
            "task_depends_on_user_memory": extracted.depends_on_user_memory,
        }


__all__ = ["TaskExtractionNode"]
