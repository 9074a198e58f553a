"""Approval decisions: asking through ``interrupt()`` and reading whatever the client resumes with.

``Command(resume=...)`` may carry a bool, a word ("yes", "no"), or a dict
``{"approved": bool, "interrupt_id"?: str, "resume_payload"?: {...}}``. Anything unclear is
a rejection: nothing runs without a clear yes.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from osprey_desktop.approval.answers import parse_approval_answer
from osprey_desktop.approval.payloads import create_approval_payload
from osprey_desktop.events import ApprovalReceived, ApprovalRequired, emit

APPROVAL_CLOCK_KEY = "limit_clock_restarted_at"
"""``runtime_info`` key: when the last approval was answered (the time limit restarts)."""


@dataclass
class ApprovalDecision:
    """The operator's answer, with the payload that was approved (None when rejected)."""

    approved: bool
    payload: dict[str, Any] | None
    interrupt_id: str | None = None
    reason: str = ""
    raw: Any = field(default=None, repr=False)

    def state_update(self, state: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ``approval_approved`` / ``approved_payload`` fields for the node's return.

        With ``state``, also restarts the turn's time-limit clock in ``runtime_info``: the
        minutes the operator took to answer are not execution time.
        """
        update: dict[str, Any] = {
            "approval_approved": self.approved,
            "approved_payload": self.payload if self.approved else None,
        }
        if state is not None:
            runtime = dict(state.get("runtime_info") or {})
            runtime[APPROVAL_CLOCK_KEY] = time.time()
            update["runtime_info"] = runtime
        return update

    def to_dict(self) -> dict[str, Any]:
        """A resume value that round-trips through ``normalize_decision``."""
        data: dict[str, Any] = {"approved": self.approved}
        if self.interrupt_id:
            data["interrupt_id"] = self.interrupt_id
        if self.payload is not None:
            data["resume_payload"] = self.payload
        return data


def _bool_of(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return parse_approval_answer(value)
    return None


def normalize_decision(value: Any, requested: Mapping[str, Any]) -> ApprovalDecision:
    """Turn a resume value into a decision about ``requested`` (the ``resume_payload`` asked).

    When the resume value carries a ``resume_payload`` of the same approval type, that is
    the approved payload (what the operator saw); otherwise the requested one is.
    """
    if hasattr(value, "to_dict") and not isinstance(value, Mapping):
        value = value.to_dict()
    interrupt_id = None
    payload: Any = None
    if isinstance(value, Mapping):
        approved = _bool_of(value.get("approved", value.get("decision")))
        interrupt_id = value.get("interrupt_id")
        payload = value.get("resume_payload", value.get("payload"))
    else:
        approved = _bool_of(value)
    if approved is None:
        return ApprovalDecision(
            approved=False,
            payload=None,
            interrupt_id=interrupt_id,
            raw=value,
            reason=f"unclear answer {value!r} treated as a rejection",
        )
    chosen = dict(requested)
    if isinstance(payload, Mapping) and payload.get("approval_type") == requested.get(
        "approval_type"
    ):
        chosen = dict(payload)
    return ApprovalDecision(
        approved=approved,
        payload=chosen if approved else None,
        interrupt_id=interrupt_id,
        raw=value,
        reason="approved" if approved else "rejected by the operator",
    )


def request_approval(user_message: str, approval_type: str, **fields: Any) -> ApprovalDecision:
    """Pause the graph for approval and return the decision once resumed.

    Must run inside a graph node with a checkpointer. The first call raises LangGraph's
    ``GraphInterrupt`` (let it propagate); when resumed, the node runs again from its start
    and this call returns the decision instead.
    """
    from langgraph.errors import GraphInterrupt
    from langgraph.types import interrupt

    payload = create_approval_payload(user_message, approval_type, **fields)
    try:
        resume_value = interrupt(payload)
    except GraphInterrupt:
        emit(ApprovalRequired(approval_type=approval_type, user_message=user_message))
        raise
    decision = normalize_decision(resume_value, payload["resume_payload"])
    emit(ApprovalReceived(approval_type=approval_type, approved=decision.approved))
    return decision


def request_payload_approval(payload: Mapping[str, Any]) -> ApprovalDecision:
    """``request_approval`` for a payload built beforehand (e.g. by the plan helpers)."""
    resume_payload = dict(payload["resume_payload"])
    approval_type = resume_payload.pop("approval_type")
    return request_approval(str(payload["user_message"]), approval_type, **resume_payload)


__all__ = [
    "APPROVAL_CLOCK_KEY",
    "ApprovalDecision",
    "normalize_decision",
    "request_approval",
    "request_payload_approval",
]
