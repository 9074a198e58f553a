"""Agent state: the LangGraph state type, its reducers, StateManager and event helpers."""

from osprey_desktop.state.agent_state import PERSISTENT_FIELDS, AgentState, StateUpdate
from osprey_desktop.state.events import create_progress_event, create_status_update
from osprey_desktop.state.execution_summary import get_execution_steps_summary
from osprey_desktop.state.reducers import merge_capability_context_data, merge_session_state
from osprey_desktop.state.state_manager import StateManager

__all__ = [
    "PERSISTENT_FIELDS",
    "AgentState",
    "StateManager",
    "StateUpdate",
    "create_progress_event",
    "create_status_update",
    "get_execution_steps_summary",
    "merge_capability_context_data",
    "merge_session_state",
]
