"""What every control-room capability shares: the text it reads, its thread, launchers.

A capability that cannot act without the operator's help (no channel matches, the time range
is ambiguous, a write has no value) raises the framework's ``ClarificationRequired`` with its
question instead of failing or guessing; ``capability_node`` then ends the turn with a
``clarify`` step that asks exactly that question (plan-first and react alike).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.planners.builtin import split_task


class ControlRoomCapability(BaseCapability):
    """Base of the control-room capabilities: the request text and the thread it runs on."""

    def request_text(self) -> str:
        """The words this step works from: the ``query`` parameter, else the step objective.

        A follow-up task ('for the last hour (follow-up to: "plot the lifetime")') is cut to
        the operator's new words; ``candidate_texts`` also offers the earlier request.
        """
        query = self.get_parameters().get("query")
        return str(query) if query else split_task(self.get_task_objective())[0]

    def candidate_texts(self) -> list[str]:
        """Where to look for this step's words, in order: the step, the turn's task, and the
        request a follow-up refers to (for "do it again")."""
        task, previous = split_task(str(self._state.get("task_current_task") or ""))
        texts = [self.request_text(), task, previous or ""]
        return [t for i, t in enumerate(texts) if t and t not in texts[:i]]

    def agent_control(self) -> Mapping[str, Any]:
        return self._state.get("agent_control") or {}

    def thread_id(self) -> str | None:
        """The LangGraph thread this node runs on (None outside a graph)."""
        return current_thread_id()


def current_thread_id() -> str | None:
    """The LangGraph thread the running node belongs to (None outside a graph)."""
    try:
        from langgraph.config import get_config
    except ImportError:  # pragma: no cover - langgraph is a dependency
        return None
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:
        return None
    thread = configurable.get("thread_id")
    return str(thread) if thread is not None else None


def command_updates(
    state: Mapping[str, Any], capability: str, commands: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Register several launchable commands in one state update (they accumulate)."""
    from osprey_desktop.state import StateManager

    current = list(state.get("ui_launchable_commands") or [])
    update: dict[str, Any] = {}
    for command in commands:
        update = StateManager.register_command(
            dict(state), capability, current_commands=current, **dict(command)
        )
        current = update["ui_launchable_commands"]
    return update


def display_tool_command(channel: str) -> dict[str, Any] | None:
    """The configured display tool for one channel, or None when none is configured."""
    from osprey_desktop.config import get_config_value

    launchers = get_config_value("launchers", {}) or {}
    template = launchers.get("display_tool") if isinstance(launchers, Mapping) else None
    if template is None:
        return None
    shown = getattr(template, "display_name", None)
    if isinstance(template, Mapping):
        shown = template.get("display_name")
    name = str(shown or "Open display for {channel}")
    return {
        "launch_uri": f"osprey-desktop://launch/display_tool?channel={quote(channel, safe=':')}",
        "display_name": name.replace("{channel}", channel),
        "command_type": "desktop_app",
        "metadata": {"launcher": "display_tool", "channel": channel},
    }


def stripchart_command(channels: Sequence[str]) -> dict[str, Any]:
    """A live strip chart of ``channels`` inside the window."""
    joined = ",".join(channels)
    shown = (
        joined if len(channels) <= 3 else f"{', '.join(channels[:3])} and {len(channels) - 3} more"
    )
    return {
        "launch_uri": f"osprey-desktop://stripchart?channels={quote(joined, safe=':,')}",
        "display_name": f"Live strip chart: {shown}",
        "command_type": "stripchart",
        "metadata": {"channels": list(channels)},
    }


__all__ = [
    "ControlRoomCapability",
    "command_updates",
    "display_tool_command",
    "stripchart_command",
]
