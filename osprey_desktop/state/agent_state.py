"""The agent state: one flat TypedDict that LangGraph checkpoints per conversation thread.

Only ``capability_context_data`` (the spec's persistent field) and ``session_state`` (a
thread's own settings) carry over between turns, through their reducers. Every other field
is execution-scoped: ``StateManager.create_fresh_state`` resets it at the start of each turn,
and because those fields have no reducer, the fresh values overwrite the checkpointed ones.
Everything stored here is plain JSON-able data so the SQLite checkpointer needs no custom types.
"""

from __future__ import annotations

from typing import Annotated, Any

from langgraph.graph import MessagesState

from osprey_desktop.state.planning import ExecutionPlan
from osprey_desktop.state.reducers import merge_capability_context_data, merge_session_state

StateUpdate = dict[str, Any]
"""A partial state returned by a node; LangGraph merges it into the thread's state."""


class AgentState(MessagesState):
    """Conversation state with the spec's field prefixes (task_, planning_, execution_, ...).

    TypedDicts cannot hold defaults: build states with ``StateManager.create_fresh_state``.
    ``messages`` comes from ``MessagesState`` and accumulates through ``add_messages``.
    """

    # Persistent: {context_type: {context_key: {field: value}}}
    capability_context_data: Annotated[
        dict[str, dict[str, dict[str, Any]]], merge_capability_context_data
    ]
    # Persistent: a thread's own settings (merged shallowly)
    session_state: Annotated[dict[str, Any], merge_session_state]

    # Agent control (from the configured defaults, adjusted per turn by slash commands)
    agent_control: dict[str, Any]

    # Event accumulation
    status_updates: list[dict[str, Any]]
    progress_events: list[dict[str, Any]]

    # Task extraction
    task_current_task: str | None
    task_depends_on_chat_history: bool
    task_depends_on_user_memory: bool
    task_custom_message: str | None

    # Classification and orchestration
    planning_active_capabilities: list[str]
    planning_execution_plan: ExecutionPlan | None
    planning_current_step_index: int

    # Step execution
    execution_step_results: dict[str, Any]
    execution_last_result: dict[str, Any] | None
    execution_pending_approvals: dict[str, dict[str, Any]]
    execution_start_time: float | None
    execution_total_time: float | None

    # Approval
    approval_approved: bool | None
    approved_payload: dict[str, Any] | None

    # Control flow, retries and errors
    control_needs_reclassification: bool
    control_reclassification_reason: str | None
    control_reclassification_count: int
    control_plans_created_count: int
    control_current_step_retry_count: int
    control_retry_count: int
    control_has_error: bool
    control_error_info: dict[str, Any] | None
    control_last_error: dict[str, Any] | None
    control_max_retries: int
    control_is_killed: bool
    control_kill_reason: str | None
    control_is_awaiting_validation: bool
    control_validation_context: dict[str, Any] | None
    control_validation_timestamp: float | None

    # UI results
    ui_captured_notebooks: list[dict[str, Any]]
    ui_captured_figures: list[dict[str, Any]]
    ui_launchable_commands: list[dict[str, Any]]
    ui_agent_context: dict[str, Any] | None

    # Runtime metadata
    runtime_checkpoint_metadata: dict[str, Any] | None
    runtime_info: dict[str, Any] | None

    # Reactive orchestration (react mode only)
    react_messages: list[dict[str, Any]]
    react_step_count: int


PERSISTENT_FIELDS: frozenset[str] = frozenset({"capability_context_data", "session_state"})
"""The fields that survive ``create_fresh_state``; everything else is execution-scoped."""


__all__ = ["PERSISTENT_FIELDS", "AgentState", "StateUpdate"]
