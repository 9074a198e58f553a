"""``StateManager``: the one place that builds fresh states and shapes common state updates."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from osprey_desktop.context.base import CapabilityContext
from osprey_desktop.context.context_manager import ContextManager
from osprey_desktop.state.agent_state import AgentState, StateUpdate
from osprey_desktop.state.events import _now_iso
from osprey_desktop.state.planning import ExecutionPlan, PlannedStep

logger = logging.getLogger(__name__)

_DEFAULT_MAX_RETRIES = 3


def _message_text(content: Any) -> str:
    """Text of a message content, which may be a string or a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
        return "".join(parts)
    return str(content)


def _is_user_message(message: Any) -> bool:
    if isinstance(message, BaseMessage):
        return message.type == "human"
    if isinstance(message, Mapping):
        return message.get("role") in ("user", "human") or message.get("type") == "human"
    return False


class StateManager:
    """Static helpers for state creation, reads of the current plan and step, and updates."""

    @staticmethod
    def create_fresh_state(user_input: str, current_state: AgentState | None = None) -> AgentState:
        """A complete state for a new turn: persistent fields kept, everything else reset.

        Only ``capability_context_data`` and ``session_state`` survive from ``current_state``;
        ``messages`` holds the new human message (LangGraph appends it to the history) and
        ``agent_control`` comes from the configured defaults.
        """
        if not isinstance(user_input, str):
            raise TypeError(f"user_input must be a string, got {type(user_input).__name__}")
        # Imported here: the config package loads YAML and pydantic models on first use.
        from osprey_desktop.config import get_agent_control_defaults

        agent_control = dict(get_agent_control_defaults())
        previous = current_state or {}
        context_data = previous.get("capability_context_data") or {}
        session_state = previous.get("session_state") or {}
        max_retries = agent_control.get("max_step_retries", _DEFAULT_MAX_RETRIES)

        return AgentState(
            messages=[HumanMessage(content=user_input)],
            capability_context_data=context_data,
            session_state=session_state,
            agent_control=agent_control,
            status_updates=[],
            progress_events=[],
            task_current_task=None,
            task_depends_on_chat_history=False,
            task_depends_on_user_memory=False,
            task_custom_message=None,
            planning_active_capabilities=[],
            planning_execution_plan=None,
            planning_current_step_index=0,
            execution_step_results={},
            execution_last_result=None,
            execution_pending_approvals={},
            execution_start_time=None,
            execution_total_time=None,
            approval_approved=None,
            approved_payload=None,
            control_needs_reclassification=False,
            control_reclassification_reason=None,
            control_reclassification_count=0,
            control_plans_created_count=0,
            control_current_step_retry_count=0,
            control_retry_count=0,
            control_has_error=False,
            control_error_info=None,
            control_last_error=None,
            control_max_retries=int(max_retries),
            control_is_killed=False,
            control_kill_reason=None,
            control_is_awaiting_validation=False,
            control_validation_context=None,
            control_validation_timestamp=None,
            ui_captured_notebooks=[],
            ui_captured_figures=[],
            ui_launchable_commands=[],
            ui_agent_context=None,
            runtime_checkpoint_metadata=None,
            runtime_info=None,
            react_messages=[],
            react_step_count=0,
        )

    # ----- reads --------------------------------------------------------------------

    @staticmethod
    def get_current_task(state: AgentState) -> str | None:
        """The extracted task of this turn, or None before task extraction ran."""
        return state.get("task_current_task")

    @staticmethod
    def get_user_query(state: AgentState) -> str | None:
        """Text of the most recent user message, or None when there is none."""
        for message in reversed(state.get("messages") or []):
            if _is_user_message(message):
                content = (
                    message.content if isinstance(message, BaseMessage) else message.get("content")
                )
                return _message_text(content)
        return None

    @staticmethod
    def get_messages(state: AgentState) -> list[BaseMessage]:
        """The conversation messages (an empty list when the state has none)."""
        return list(state.get("messages") or [])

    @staticmethod
    def get_execution_plan(state: AgentState) -> ExecutionPlan | None:
        """The current plan when it is a dict with a list of step dicts; None otherwise."""
        plan = state.get("planning_execution_plan")
        if not isinstance(plan, Mapping):
            return None
        steps = plan.get("steps")
        if not isinstance(steps, list) or not all(isinstance(s, Mapping) for s in steps):
            return None
        return plan  # type: ignore[return-value]

    @staticmethod
    def get_current_step_index(state: AgentState) -> int:
        """Index of the step being executed (0 when unset)."""
        index = state.get("planning_current_step_index")
        return index if isinstance(index, int) and not isinstance(index, bool) else 0

    @staticmethod
    def get_current_step(state: AgentState) -> PlannedStep:
        """The step at the current index; RuntimeError when there is no plan or no such step."""
        plan = StateManager.get_execution_plan(state)
        if plan is None:
            raise RuntimeError(
                "No execution plan in the state (planning_execution_plan is missing or "
                "malformed): run the orchestrator before executing a step"
            )
        steps = plan["steps"]
        index = StateManager.get_current_step_index(state)
        if not 0 <= index < len(steps):
            raise RuntimeError(
                f"Current step index {index} is outside the plan, which has {len(steps)} "
                "step(s): the plan is finished or the index was not reset"
            )
        return steps[index]

    # ----- updates ------------------------------------------------------------------

    @staticmethod
    def store_context(
        state: AgentState,
        context_type: str,
        context_key: str,
        context_object: CapabilityContext,
    ) -> StateUpdate:
        """Validate and serialise one context; return the update that stores it.

        The update carries only the new entry; the ``capability_context_data`` reducer merges
        it into the thread's context. To store several contexts from one node, merge their
        updates with ``merge_capability_context_data`` (a plain ``{**a, **b}`` keeps only b).
        """
        manager = ContextManager({"capability_context_data": {}})
        manager.set_context(context_type, context_key, context_object)
        return {"capability_context_data": manager.get_raw_data()}

    @staticmethod
    def create_response_update(response: str) -> StateUpdate:
        """An update that appends the assistant's ``response`` to the conversation."""
        return {"messages": [AIMessage(content=response)]}

    @staticmethod
    def register_figure(
        state: AgentState,
        capability: str,
        figure_path: str,
        display_name: str | None = None,
        metadata: dict[str, Any] | None = None,
        current_figures: list[dict[str, Any]] | None = None,
    ) -> StateUpdate:
        """Add a figure to ``ui_captured_figures`` (after ``current_figures`` or the state's)."""
        entry = {
            "capability": capability,
            "figure_path": str(figure_path),
            "display_name": display_name,
            "metadata": dict(metadata or {}),
            "created_at": _now_iso(),
        }
        existing = (
            current_figures if current_figures is not None else state.get("ui_captured_figures")
        )
        return {"ui_captured_figures": [*(existing or []), entry]}

    @staticmethod
    def register_notebook(
        state: AgentState,
        capability: str,
        notebook_path: str,
        notebook_link: str,
        display_name: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> StateUpdate:
        """Add a notebook entry to ``ui_captured_notebooks`` after the state's current ones."""
        entry = {
            "capability": capability,
            "notebook_path": str(notebook_path),
            "notebook_link": notebook_link,
            "display_name": display_name,
            "metadata": dict(metadata or {}),
            "created_at": _now_iso(),
        }
        return {"ui_captured_notebooks": [*(state.get("ui_captured_notebooks") or []), entry]}

    @staticmethod
    def register_command(
        state: AgentState,
        capability: str,
        launch_uri: str,
        display_name: str | None = None,
        command_type: str | None = None,
        metadata: dict[str, Any] | None = None,
        current_commands: list[dict[str, Any]] | None = None,
    ) -> StateUpdate:
        """Add a launchable command to ``ui_launchable_commands`` (the UI makes it an action)."""
        entry = {
            "capability": capability,
            "launch_uri": launch_uri,
            "display_name": display_name,
            "command_type": command_type,
            "metadata": dict(metadata or {}),
            "created_at": _now_iso(),
        }
        existing = (
            current_commands
            if current_commands is not None
            else state.get("ui_launchable_commands")
        )
        return {"ui_launchable_commands": [*(existing or []), entry]}


__all__ = ["StateManager"]
