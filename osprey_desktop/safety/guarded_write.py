"""The last step of an approved write: re-check, record the intent, send, verify, record.

``channel_write`` calls ``perform_guarded_write`` once per approved operation, after the
approval interrupt has returned and the approval ledger has given this process the write, and
``record_rejected_write`` for each operation the operator rejected. The order is the safety
property:

1. the write policy is checked again right before the put (``blocked`` if it says no);
2. the *intent* (approval id, operator, channel, value before, value to send) is appended to
   the audit log; if it cannot be stored the put is not sent (``not_sent``) and the message
   says why (locked, read-only, damaged, full);
3. ``before_put`` runs (the ledger marks the approval as sending), then the put;
4. the outcome, in the words of ``connectors.base.WRITE_OUTCOMES``, is appended.

The function never raises for a machine-side failure: the outcome says it. Because LangGraph
re-runs an interrupted node from its start, call this only after ``interrupt()`` has
returned, never before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from osprey_desktop.config.posture import read_only_in_effect
from osprey_desktop.connectors.base import (
    ChannelNotFoundError,
    ChannelWriteResult,
    ConnectorError,
    ControlSystemConnector,
    Verification,
    jsonable,
)
from osprey_desktop.safety.audit import AuditError, AuditLog
from osprey_desktop.safety.limits import WriteCheck
from osprey_desktop.safety.write_policy import READ_ONLY_MESSAGE, WritePolicy


@dataclass(frozen=True)
class GuardedWriteOutcome:
    """What happened to one operation: the policy verdict, the write result, the audit rows."""

    outcome: str  # one of connectors.base.WRITE_OUTCOMES
    check: WriteCheck
    result: ChannelWriteResult
    audit_id: int | None
    sent_at: float | None = None
    audit_problem: str | None = None

    @property
    def success(self) -> bool:
        return self.result.success

    @property
    def sent(self) -> bool:
        return self.result.sent

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "sent": self.sent,
            "success": self.success,
            "check": self.check.to_dict(),
            "result": self.result.to_dict(),
            "audit_id": self.audit_id,
            "sent_at": self.sent_at,
            "audit_problem": self.audit_problem,
        }


async def perform_guarded_write(
    connector: ControlSystemConnector,
    policy: WritePolicy,
    audit: AuditLog,
    channel: str,
    value: Any,
    *,
    thread_id: str | None = None,
    approval_id: str | None = None,
    verification: Verification = "readback",
    tolerance: float | None = None,
    before_put: Callable[[float], Awaitable[None]] | None = None,
) -> GuardedWriteOutcome:
    """Re-check, record the intent, write, verify and record the outcome (see the module)."""
    check = await policy.evaluate(connector, channel, value)
    if not check.allowed:
        result = ChannelWriteResult(
            channel=channel,
            outcome="blocked",
            value_written=None,
            verification=verification,
            message=f"Not written: {check.violation}",
            timestamp=connector.clock(),
        )
        audit_id, problem = await _try_record(
            audit,
            channel=check.channel,
            outcome="blocked",
            requested_value=check.requested_value,
            value_before=check.current_value,
            thread_id=thread_id,
            approval_id=approval_id,
            message=check.violation,
            connector=connector.kind,
        )
        return GuardedWriteOutcome("blocked", check, result, audit_id, audit_problem=problem)
    try:
        await record_intent(
            audit,
            channel,
            value,
            value_before=check.current_value,
            thread_id=thread_id,
            approval_id=approval_id,
            connector=connector.kind,
        )
    except (AuditError, OSError) as exc:
        result = ChannelWriteResult.refused(
            channel,
            value,
            verification,
            f"Nothing was sent to {channel}: the write could not be recorded first. {exc}",
            connector.clock(),
        )
        return GuardedWriteOutcome("not_sent", check, result, None, audit_problem=str(exc))
    sent_at = time.time()
    if before_put is not None:
        await before_put(sent_at)
    result, audit_id, problem = await send_and_record(
        connector,
        audit,
        channel,
        value,
        value_before=check.current_value,
        thread_id=thread_id,
        approval_id=approval_id,
        verification=verification,
        tolerance=tolerance,
    )
    return GuardedWriteOutcome(
        result.outcome,
        check,
        result,
        audit_id,
        sent_at=sent_at if result.sent else None,
        audit_problem=problem,
    )


async def record_intent(
    audit: AuditLog,
    channel: str,
    value: Any,
    *,
    value_before: Any = None,
    thread_id: str | None = None,
    approval_id: str | None = None,
    connector: str | None = None,
) -> int:
    """Append the ``intent`` entry of a put about to be sent; raises ``AuditError``."""
    return await audit.arecord(
        channel=channel,
        outcome="intent",
        requested_value=value,
        value_before=value_before,
        thread_id=thread_id,
        approval_id=approval_id,
        message="about to send",
        connector=connector,
    )


async def send_and_record(
    connector: ControlSystemConnector,
    audit: AuditLog,
    channel: str,
    value: Any,
    *,
    value_before: Any = None,
    thread_id: str | None = None,
    approval_id: str | None = None,
    verification: Verification = "readback",
    tolerance: float | None = None,
) -> tuple[ChannelWriteResult, int | None, str | None]:
    """Send one put whose intent is recorded, then append its outcome.

    Returns the result, the outcome entry's id and, when that entry could not be stored,
    why (the put happened either way, so the outcome is still reported).
    """
    result = await _put(connector, channel, value, verification, tolerance)
    audit_id, problem = await _try_record(
        audit,
        channel=channel,
        outcome=result.outcome,
        requested_value=value,
        value_before=value_before,
        readback_after=jsonable(result.readback),
        thread_id=thread_id,
        approval_id=approval_id,
        message=result.message,
        connector=connector.kind,
    )
    return result, audit_id, problem


async def _put(
    connector: ControlSystemConnector,
    channel: str,
    value: Any,
    verification: Verification,
    tolerance: float | None,
) -> ChannelWriteResult:
    """The put itself; an exception from the connector becomes an outcome, never a raise.

    A channel the connector cannot find was never sent to; any other failure may have come
    after the put left, so it is in doubt, not a failure to retry.
    """
    if read_only_in_effect():
        # The policy has refused already; this is the last line, right at the put.
        return ChannelWriteResult.refused(
            channel,
            value,
            verification,
            f"Nothing was sent: {READ_ONLY_MESSAGE}",
            connector.clock(),
        )
    try:
        return await connector.write_channel(
            channel, value, verification=verification, tolerance=tolerance
        )
    except ChannelNotFoundError as exc:
        return ChannelWriteResult.refused(
            channel, value, verification, f"Nothing was sent: {exc}", connector.clock()
        )
    except (ConnectorError, TimeoutError, OSError) as exc:
        return ChannelWriteResult(
            channel=channel,
            outcome="in_doubt",
            value_written=value,
            verification=verification,
            message=f"The write of {value!r} to '{channel}' may or may not have reached the "
            f"machine ({exc}); read the channel to check before doing anything else.",
            timestamp=connector.clock(),
        )


async def _try_record(audit: AuditLog, **fields: Any) -> tuple[int | None, str | None]:
    """Record an entry; a failure is returned (and shown), since the outcome is already fact,
    and the entry is kept on this computer until the log can take it (``audit_spool``)."""
    from osprey_desktop.safety.audit_spool import keep

    fields.setdefault("when", time.time())
    try:
        return await audit.arecord(**fields), None
    except (AuditError, OSError) as exc:
        try:
            kept = await asyncio.to_thread(keep, fields)
        except OSError as lost:
            return None, f"{exc}; it could not be kept locally either ({lost})"
        return None, f"{exc}; kept in {kept} until the audit log can take it"


async def record_rejected_write(
    audit: AuditLog,
    channel: str,
    value: Any,
    *,
    value_before: Any = None,
    thread_id: str | None = None,
    approval_id: str | None = None,
    connector: str | None = None,
    message: str = "The operator rejected the write; nothing was written.",
) -> int:
    """Audit an operation the operator rejected (nothing is written)."""
    return await audit.arecord(
        channel=channel,
        outcome="rejected",
        requested_value=value,
        value_before=value_before,
        thread_id=thread_id,
        approval_id=approval_id,
        message=message,
        connector=connector,
    )


async def record_refused_write(
    audit: AuditLog,
    check: WriteCheck,
    *,
    thread_id: str | None = None,
    approval_id: str | None = None,
    connector: str | None = None,
) -> int:
    """Audit an operation the policy refused before approval was even asked."""
    return await audit.arecord(
        channel=check.channel,
        outcome="blocked",
        requested_value=check.requested_value,
        value_before=check.current_value,
        thread_id=thread_id,
        approval_id=approval_id,
        message=check.violation,
        connector=connector,
    )
