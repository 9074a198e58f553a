"""Reading a turn's result in tests: the plan's capabilities, the operations of an approval."""

from __future__ import annotations

from typing import Any


def steps(result: Any) -> list[str]:
    """The capabilities of the turn's plan, in order."""
    return [s["capability"] for s in result.plan["steps"]]


def operations(result: Any) -> list[dict[str, Any]]:
    """The write operations of the approval a turn waits for."""
    return result.pending_approval["resume_payload"]["operations"]


def proposed(result: Any) -> dict[str, float]:
    """What the approval a turn waits for would write, channel by channel (empty: none)."""
    payload = (result.pending_approval or {}).get("resume_payload") or {}
    return {op["channel"]: op["new_value"] for op in payload.get("operations") or []}
