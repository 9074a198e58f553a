"""Status and progress records returned as state updates (``status_updates``, ``progress_events``).

These are the spec's state-level records; live UI progress goes through
``osprey_desktop.events`` and LangGraph's stream writer instead.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from osprey_desktop.state.agent_state import StateUpdate

_RESERVED_STATUS = frozenset({"message", "progress", "complete", "timestamp"})
_RESERVED_PROGRESS = frozenset({"current", "total", "progress", "operation", "timestamp"})


def _now_iso() -> str:
    """Local time with its UTC offset: what an operator reads, unambiguous in a log."""
    return datetime.now().astimezone().isoformat()


def _check_metadata(metadata: dict[str, Any], reserved: frozenset[str], what: str) -> None:
    clash = sorted(reserved & metadata.keys())
    if clash:
        raise ValueError(
            f"{what} metadata may not redefine {clash}: they are set from the arguments"
        )


def create_status_update(
    message: str, progress: float, complete: bool = False, **metadata: Any
) -> StateUpdate:
    """A ``{"status_updates": [event]}`` update with a timestamp and any extra metadata."""
    if not 0.0 <= float(progress) <= 1.0:
        raise ValueError(f"status progress must be between 0.0 and 1.0, got {progress!r}")
    _check_metadata(metadata, _RESERVED_STATUS, "status update")
    event = {
        "message": message,
        "progress": float(progress),
        "complete": bool(complete),
        "timestamp": _now_iso(),
        **metadata,
    }
    return {"status_updates": [event]}


def create_progress_event(current: int, total: int, operation: str, **metadata: Any) -> StateUpdate:
    """A ``{"progress_events": [event]}`` update; ``current`` is 1-based, progress = current/total.

    A total of zero gives progress 0.0 rather than a ZeroDivisionError.
    """
    if current < 0 or total < 0:
        raise ValueError(
            f"progress counts must not be negative, got current={current}, total={total}"
        )
    _check_metadata(metadata, _RESERVED_PROGRESS, "progress event")
    event = {
        "current": current,
        "total": total,
        "progress": current / total if total else 0.0,
        "operation": operation,
        "timestamp": _now_iso(),
        **metadata,
    }
    return {"progress_events": [event]}


__all__ = ["create_progress_event", "create_status_update"]
