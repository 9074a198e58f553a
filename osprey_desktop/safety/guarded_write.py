"""The last step of an approved write: re-check, write, verify, and record it in the audit log.

``channel_write`` calls ``perform_guarded_write`` once per approved operation, after the
approval interrupt has returned, and ``record_rejected_write`` for each operation the operator
rejected. Whatever happens (refused by the re-check, written, failed), exactly one audit entry
is made, and the function never raises for a machine-side failure: the outcome says it.

Because LangGraph re-runs an interrupted node from its start, call this only after
``interrupt()`` has returned, never before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from osprey_desktop.connectors.base import (
    ChannelWriteResult,
    ConnectorError,
    ControlSystemConnector,
    Verification,
    jsonable,
)
from osprey_desktop.safety.audit import AuditLog
from osprey_desktop.safety.limits import WriteCheck
from osprey_desktop.safety.write_policy import WritePolicy


@dataclass(frozen=True)
class GuardedWriteOutcome:
    """What happened to one operation: the policy verdict, the write result, the audit row."""

    outcome: str  # written | refused | failed
    check: WriteCheck
    result: ChannelWriteResult
    audit_id: int

    @property
    def success(self) -> bool:
        return self.outcome == "written" and self.result.success

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "success": self.success,
            "check": self.check.to_dict(),
            "result": self.result.to_dict(),
            "audit_id": self.audit_id,
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
) -> GuardedWriteOutcome:
    """Re-check the write right before doing it, then write, verify and audit."""
    check = await policy.evaluate(connector, channel, value)
    if not check.allowed:
        result = ChannelWriteResult.refused(
            channel, None, verification, f"Not written: {check.violation}", connector.clock()
        )
        audit_id = await record_refused_write(
            audit, check, thread_id=thread_id, approval_id=approval_id, connector=connector.kind
        )
        return GuardedWriteOutcome("refused", check, result, audit_id)
    try:
        result = await connector.write_channel(
            channel, value, verification=verification, tolerance=tolerance
        )
    except ConnectorError as exc:
        result = ChannelWriteResult.refused(
            channel,
            value,
            verification,
            f"The write to '{channel}' failed: {exc}",
            connector.clock(),
        )
    outcome = "written" if result.success else "failed"
    audit_id = await audit.arecord(
        channel=channel,
        outcome=outcome,
        requested_value=value,
        value_before=check.current_value,
        readback_after=jsonable(result.readback),
        thread_id=thread_id,
        approval_id=approval_id,
        message=result.message,
        connector=connector.kind,
    )
    return GuardedWriteOutcome(outcome, check, result, audit_id)


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
        outcome="refused",
        requested_value=check.requested_value,
        value_before=check.current_value,
        thread_id=thread_id,
        approval_id=approval_id,
        message=check.violation,
        connector=connector,
    )
