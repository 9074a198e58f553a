"""How a write is put to the operator: recorded in the approval ledger first, then asked.

A write approval and an undo ask the same way: the operations go into the ledger under the
approval's id before the interrupt (so a restart asks the very same question, never a newly
derived one), and the question shows what the ledger holds. Only the text of the question and
the extra fields of the payload differ.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from osprey_desktop.persistence.approvals import ApprovalLedger, ApprovalRecord

#: The kind of approval every machine write is asked as.
WRITE_APPROVAL = "channel_write"


async def record_question(
    ledger: Any,
    approval_id: str,
    thread: str | None,
    operations: list[dict[str, Any]],
    *,
    request: str,
    asked_again: str | None,
    expiry_minutes: float,
    blocked: list[dict[str, Any]] | None = None,
) -> Any:
    """Store the question of ``approval_id`` in the ledger; returns its record.

    ``blocked``: operations of the same request the write policy blocks, kept beside the
    question so it shows them as not sent (``write_blocked``); a yes never sends them."""
    asked_at = time.time()
    question: dict[str, Any] = {
        "operations": operations,
        "request": request,
        "asked_again": asked_again,
    }
    if blocked:
        question["blocked_operations"] = blocked
    return await ledger.ask(
        approval_id,
        thread or "-",
        WRITE_APPROVAL,
        question,
        asked_at=asked_at,
        expires_at=asked_at + 60.0 * expiry_minutes,
    )


def ask_operator(
    capability: Any,
    record: Any,
    approval_id: str,
    thread: str | None,
    describe: Callable[..., str],
    **extra: Any,
) -> tuple[list[dict[str, Any]], Any]:
    """Interrupt with the recorded question; ``(operations asked, decision)`` once answered.

    ``describe(operations, request=..., asked_again=...)`` words the question (with
    ``blocked=...`` when the ledger holds blocked operations beside it); ``extra`` fields go
    into the approval payload beside the standard ones.
    """
    payload: Mapping[str, Any] = record.payload or {}
    operations = list(payload.get("operations") or [])
    blocked = list(payload.get("blocked_operations") or [])
    if blocked:
        extra = {"blocked_operations": blocked, **extra}
        words = {"blocked": blocked}
    else:
        words = {}
    decision = capability.request_approval(
        describe(
            operations,
            request=payload.get("request"),
            asked_again=payload.get("asked_again"),
            **words,
        ),
        WRITE_APPROVAL,
        operations=operations,
        channels=[op["channel"] for op in operations],
        thread_id=thread,
        blocked=False,
        request=payload.get("request") or "",
        approval_id=approval_id,
        asked_at=record.asked_at,
        expires_at=record.expires_at,
        **extra,
    )
    return operations, decision


async def answered(
    ledger: ApprovalLedger, record: ApprovalRecord, approved: bool
) -> ApprovalRecord:
    """The approval's row after the answer; claims it when the graph was resumed directly.

    A console answers through the Gateway, which claims the row before resuming the graph.
    A client that resumes the graph itself reaches here with the row still pending: its
    answer is claimed now, under the same rule (first answer wins).
    """
    from osprey_desktop.persistence.approvals import operator_label

    current = await ledger.get(record.approval_id) or record
    if current.status != "pending":
        return current
    claim = await ledger.claim_answer(
        record.approval_id,
        record.thread_id,
        record.kind,
        approved,
        answered_by=f"{operator_label()}, graph resumed directly",
    )
    return claim.record


__all__ = ["WRITE_APPROVAL", "answered", "ask_operator", "record_question"]
