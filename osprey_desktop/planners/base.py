"""The ``Planner`` protocol: every decision the graph's nodes delegate to "the model".

Nodes never call an LLM; they ask the configured planner (``planners.selection.get_planner``).
This module holds only what every planner shares (the protocol, ``ExtractedTask``,
``PlannerError``), so the planners import it without importing one another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from osprey_desktop.base.capability import BaseCapability
    from osprey_desktop.base.planning import ExecutionPlan, PlannedStep


#: Key of the clarify step's mark in its message's ``additional_kwargs``: the next message the
#: operator writes answers it ("ID 9" after "which undulator do you mean?").
CLARIFICATION_KEY = "clarification"


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


PLANNER_METHODS = (
    "extract_task",
    "select_capabilities",
    "create_plan",
    "choose_next_step",
    "write_response",
    "ask_clarification",
)


__all__ = [
    "CLARIFICATION_KEY",
    "PLANNER_METHODS",
    "ExtractedTask",
    "Planner",
    "PlannerError",
]
