"""The ``Planner`` protocol: every decision the graph's nodes delegate to "the model".

Nodes never call an LLM; they ask the configured planner. ``BuiltinPlanner`` (deterministic,
offline) is the default; ``ChatModelPlanner`` talks to an OpenAI-compatible endpoint and is
imported only when configured, because langchain_openai takes over a second to import.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from osprey_desktop.base.capability import BaseCapability
    from osprey_desktop.base.planning import ExecutionPlan, PlannedStep


class ExtractedTask(BaseModel):
    """The actionable task distilled from the conversation (spec: task extraction)."""

    task: str = Field(description="Clear, actionable task description")
    depends_on_chat_history: bool = Field(
        default=False, description="Whether the task needs earlier turns or their results"
    )
    depends_on_user_memory: bool = Field(
        default=False, description="Whether the task needs persistent user context"
    )


class PlannerError(RuntimeError):
    """A planner could not produce a usable answer (e.g. malformed model replies after retries).

    The message says what was asked and what went wrong; nodes surface it through the error
    node instead of crashing the turn.
    """


@runtime_checkable
class Planner(Protocol):
    """What the infrastructure nodes and respond/clarify ask; all methods are async."""

    async def extract_task(
        self, messages: list[BaseMessage], state: dict[str, Any]
    ) -> ExtractedTask:
        """Turn the conversation into the task of this turn."""
        ...

    async def select_capabilities(
        self, task: str, capabilities: Sequence[BaseCapability], state: dict[str, Any]
    ) -> list[str]:
        """Names of the capabilities the task needs (respond/clarify are added by the node)."""
        ...

    async def create_plan(
        self, task: str, capabilities: Sequence[BaseCapability], state: dict[str, Any]
    ) -> ExecutionPlan:
        """A full plan (plan-first mode) using only ``capabilities``."""
        ...

    async def choose_next_step(
        self, task: str, capabilities: Sequence[BaseCapability], state: dict[str, Any]
    ) -> PlannedStep:
        """The single next step (react mode), given the results so far in ``state``."""
        ...

    async def write_response(
        self, task: str, state: dict[str, Any], context_summaries: dict[str, Any]
    ) -> str:
        """The final Markdown answer from this turn's context summaries."""
        ...

    async def ask_clarification(self, task: str, state: dict[str, Any], reason: str | None) -> str:
        """A question asking the operator for what is missing."""
        ...


_lock = threading.Lock()
_override: Planner | None = None
_cached: tuple[tuple[str, int], Planner] | None = None


def set_planner(planner: Planner | None) -> None:
    """Use ``planner`` for every node from now on (None restores the configured one)."""
    global _override
    if planner is not None and not isinstance(planner, Planner):
        raise TypeError(f"{type(planner).__name__} does not implement the Planner protocol")
    with _lock:
        _override = planner


def get_planner(config: Any = None) -> Planner:
    """The planner for ``config`` (default: the process config), built once per config.

    ``models.planner`` chooses ``builtin`` or ``chat_model``.
    """
    global _cached
    with _lock:
        if _override is not None:
            return _override
    if config is None:
        from osprey_desktop.config import get_config

        config = get_config()
    kind = str(config.models.planner)
    key = (kind, id(config))
    with _lock:
        if _cached is not None and _cached[0] == key:
            return _cached[1]
    planner: Planner
    if kind == "builtin":
        from osprey_desktop.planners.builtin import BuiltinPlanner

        planner = BuiltinPlanner()
    elif kind == "chat_model":
        from osprey_desktop.planners.chat_model import ChatModelPlanner

        planner = ChatModelPlanner(config)
    else:
        raise ValueError(f"models.planner is {kind!r}; use 'builtin' or 'chat_model'")
    with _lock:
        _cached = (key, planner)
    return planner


def reset_planner() -> None:
    """Forget the override and the cached planner (tests)."""
    global _override, _cached
    with _lock:
        _override = None
        _cached = None


__all__ = [
    "ExtractedTask",
    "Planner",
    "PlannerError",
    "get_planner",
    "reset_planner",
    "set_planner",
]
