"""Typed progress events, written to LangGraph's custom stream so a UI can follow a turn live.

Every event becomes a plain dict with ``type`` and ``timestamp`` (see docs/architecture.md);
a UI reads them from ``astream(stream_mode=["custom", ...])``. Emitting outside a graph run,
or in a run that does not stream custom events, is a silent no-op.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

logger = logging.getLogger(__name__)


@dataclass
class ProgressEvent:
    """Base of all events; subclasses set ``TYPE`` and add their fields."""

    TYPE: ClassVar[str] = ""
    timestamp: float = field(default_factory=time.time, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {"type": self.TYPE, **data}


@dataclass
class PhaseStart(ProgressEvent):
    TYPE: ClassVar[str] = "phase_start"
    phase: str
    message: str


@dataclass
class PhaseComplete(ProgressEvent):
    TYPE: ClassVar[str] = "phase_complete"
    phase: str
    message: str
    duration: float | None = None
    success: bool = True


@dataclass
class TaskExtracted(ProgressEvent):
    TYPE: ClassVar[str] = "task_extracted"
    task: str
    depends_on_chat_history: bool


@dataclass
class CapabilitiesSelected(ProgressEvent):
    TYPE: ClassVar[str] = "capabilities_selected"
    capabilities: list[str]


@dataclass
class PlanCreated(ProgressEvent):
    TYPE: ClassVar[str] = "plan_created"
    plan: dict[str, Any]


@dataclass
class CapabilityStart(ProgressEvent):
    TYPE: ClassVar[str] = "capability_start"
    capability: str
    step_index: int
    total_steps: int
    context_key: str
    task_objective: str


@dataclass
class CapabilityComplete(ProgressEvent):
    TYPE: ClassVar[str] = "capability_complete"
    capability: str
    step_index: int
    total_steps: int
    context_key: str
    task_objective: str
    success: bool
    duration: float
    error: str | None = None


@dataclass
class ClarificationEvent(ProgressEvent):
    """A step stopped to ask the operator (``ClarificationRequired``): not done, not failed.

    Emitted instead of ``capability_complete`` for that step; the clarify step that asks
    the question follows with its own start/complete events.
    """

    TYPE: ClassVar[str] = "clarification"
    capability: str
    step_index: int
    total_steps: int
    context_key: str
    task_objective: str
    question: str
    suggestions: list[str] = field(default_factory=list)
    duration: float | None = None


@dataclass
class ApprovalRequired(ProgressEvent):
    TYPE: ClassVar[str] = "approval_required"
    approval_type: str
    user_message: str


@dataclass
class ApprovalReceived(ProgressEvent):
    TYPE: ClassVar[str] = "approval_received"
    approval_type: str
    approved: bool


@dataclass
class Result(ProgressEvent):
    TYPE: ClassVar[str] = "result"
    response: str


@dataclass
class ErrorEvent(ProgressEvent):
    TYPE: ClassVar[str] = "error"
    message: str
    capability: str | None = None
    severity: str | None = None


EVENT_TYPES: dict[str, type[ProgressEvent]] = {
    cls.TYPE: cls
    for cls in (
        PhaseStart,
        PhaseComplete,
        TaskExtracted,
        CapabilitiesSelected,
        PlanCreated,
        CapabilityStart,
        CapabilityComplete,
        ClarificationEvent,
        ApprovalRequired,
        ApprovalReceived,
        Result,
        ErrorEvent,
    )
}
"""Event ``type`` string -> dataclass, for readers that want typed events back."""


def emit(event: ProgressEvent | dict[str, Any]) -> bool:
    """Write one event to the running graph's custom stream; True when a writer took it.

    Outside a graph run there is no writer; that is normal (unit tests, direct calls), so it
    is not an error. A failing writer is logged and never breaks the node that emitted.
    """
    payload = event.to_dict() if isinstance(event, ProgressEvent) else dict(event)
    payload.setdefault("timestamp", time.time())
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except (RuntimeError, KeyError, ImportError):
        return False
    try:
        writer(payload)
    except Exception:  # a UI callback bug must not fail the turn
        logger.exception("progress event %s could not be written", payload.get("type"))
        return False
    return True


def event_from_dict(data: dict[str, Any]) -> ProgressEvent | None:
    """Rebuild a typed event from its dict form; None for unknown types or fields."""
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        return None
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        return cls(**fields)
    except TypeError:
        return None


__all__ = [
    "EVENT_TYPES",
    "ApprovalReceived",
    "ApprovalRequired",
    "CapabilitiesSelected",
    "CapabilityComplete",
    "CapabilityStart",
    "ClarificationEvent",
    "ErrorEvent",
    "PhaseComplete",
    "PhaseStart",
    "PlanCreated",
    "ProgressEvent",
    "Result",
    "TaskExtracted",
    "emit",
    "event_from_dict",
]
