"""Writes of a batch that the write policy blocks, asked beside the ones it allows.

The rule: when some operations of one request are blocked (a limit, a read-only channel, a
value that cannot be checked) and others are not, the operator is asked about the allowed ones
only. The blocked ones travel in the same approval (``blocked_operations`` in the ledger and
in the payload, each with its ``violation``) so the dialog and ``ask`` show them as *will not
be sent*; they are never among the operations a yes sends, whatever the answer. Each blocked
operation is audited as ``blocked`` under the approval's id, once. A request whose every
operation is blocked asks nothing (``channel_write._refuse_all``). A device the request itself
refused ("set every HCM in sector 1 to 0, but don't touch HCM 3") is blocked the same way
(``refused_in_words``), whatever found it.

Why not refuse the whole batch, as before: "set every vertical corrector to 0 A" with one
corrector beyond its step limit would otherwise leave the operator nothing to approve and the
other 35 writes to type one by one; showing the blocked row first, with its reason, lets the
operator decide with the whole picture (a no still leaves the machine unchanged).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from osprey_desktop.capabilities.control_room.contexts import WriteOperationResult
from osprey_desktop.channels.addresses import channel_key
from osprey_desktop.language.clauses import named_devices, refused_devices
from osprey_desktop.safety.audit import AuditError, AuditLog

logger = logging.getLogger(__name__)

#: What the operator reads beside a blocked operation in an approval.
WILL_NOT_BE_SENT = "will not be sent"


def refused_in_words(operations: Sequence[dict[str, Any]], request: str) -> None:
    """Marks each operation on a device ``request`` refuses in words ("don't touch HCM 3",
    "leave QF 5 alone") as blocked, with that reason: never asked, never sent."""
    refused = refused_devices(request)
    if not refused:
        return
    for op in operations:
        devices = named_devices(" ".join(re.split(r"[:._/]", str(op.get("channel")))))
        if devices & refused and not op.get("violation"):
            op["violation"] = (
                f"the request said not to touch {', '.join(sorted(devices & refused))}"
            )


def split_blocked(
    operations: Sequence[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(operations the policy allows, operations it blocks), each in the planned order."""
    allowed = [op for op in operations if not op.get("violation")]
    blocked = [op for op in operations if op.get("violation")]
    return allowed, blocked


def blocked_results(
    blocked: Sequence[Mapping[str, Any]], approval_id: str | None
) -> list[WriteOperationResult]:
    """The outcome rows of the blocked operations of an answered approval."""
    return [
        WriteOperationResult(
            channel=str(op.get("channel")),
            requested_value=op.get("new_value"),
            previous_value=op.get("current_value"),
            units=str(op.get("units") or ""),
            outcome="blocked",
            message=f"{_reason(op)}; not sent (blocked when the approval was asked)",
            approval_id=approval_id,
        )
        for op in blocked
    ]


async def audit_blocked(
    audit: AuditLog,
    blocked: Sequence[Mapping[str, Any]],
    *,
    approval_id: str,
    thread_id: str | None,
    connector_kind: str,
) -> None:
    """Record each blocked operation as ``blocked`` under ``approval_id``, once: a step run
    again (a crash before the question was stored) finds its earlier entries and adds none.

    A log that cannot take the entry is logged, not raised: nothing is sent for these
    operations anyway, and the allowed ones still need their intents stored before any put.
    """
    if not blocked:
        return
    try:
        seen = {e.key for e in await audit.aapproval_entries(approval_id) if e.outcome == "blocked"}
    except (AuditError, OSError):
        seen = set()
    for op in blocked:
        channel = str(op.get("channel"))
        if channel_key(channel) in seen:
            continue
        try:
            await audit.arecord(
                channel=channel,
                outcome="blocked",
                requested_value=op.get("new_value"),
                value_before=op.get("current_value"),
                thread_id=thread_id,
                approval_id=approval_id,
                message=f"{_reason(op)}; asked without it ({WILL_NOT_BE_SENT})",
                connector=connector_kind,
            )
        except (AuditError, OSError):
            logger.warning("blocked write of %s not audited", channel, exc_info=True)


def replay_witnesses(entries: Sequence[Any], operations: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The audit entries of an approval that show it was acted on before: every entry but a
    blocked operation's own ``blocked`` entry (written when it was asked, for a channel the
    approval never sends)."""
    sent = {channel_key(str(op.get("channel"))) for op in operations}
    return [e for e in entries if e.outcome != "blocked" or e.key in sent]


def _reason(op: Mapping[str, Any]) -> str:
    return str(op.get("violation") or "blocked").rstrip(". ")


__all__ = [
    "WILL_NOT_BE_SENT",
    "audit_blocked",
    "blocked_results",
    "replay_witnesses",
    "split_blocked",
]
