"""Carrying out an approved write exactly once, with the approval ledger as the referee.

``channel_write`` asks for approval through a LangGraph interrupt, and LangGraph runs the
node again from its start when the answer arrives (and again after a crash, and again when a
second console resumes the same checkpoint). What happens on each run is decided by the
approval's row in the ledger (``persistence.approvals``), never by the resumed value:

* the operations are the ones stored when the approval was asked; a resumed payload is
  ignored, so a forged resume cannot change what is written;
* an answer is claimed once; the process that moves the row from ``approved`` to
  ``executing`` is the only one that may send;
* before sending, every channel is read again: a value that moved beyond its precision, or
  an approval older than ``approval.expiry_minutes``, supersedes the approval and asks again
  with fresh values (nothing is sent); a derived value (copy, restore, condition) is derived
  again from fresh reads (``write_rederivation``), and a changed fact supersedes it the same way;
* the audit log is asked for the approval id before the first put: an id it already holds
  was acted on before (a thread database restored from a copy replays it) and is refused;
* the intent of every put is in the audit log before the first put; if it cannot be stored,
  nothing is sent;
* a row left ``sending`` by a process that is gone is a write *in doubt*: it is reported with
  what the channel reads now and never sent again by itself (``resolve_in_doubt`` records
  what the operator found when reading it back).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.capabilities.control_room.contexts import WriteOperationResult
from osprey_desktop.capabilities.control_room.write_blocked import replay_witnesses
from osprey_desktop.capabilities.control_room.write_operations import (
    moved_beyond_precision,
    show_reading,
)
from osprey_desktop.capabilities.control_room.write_rederivation import changed_facts
from osprey_desktop.connectors.base import ConnectorError, to_float
from osprey_desktop.persistence.approvals import ApprovalLedger, ApprovalRecord, heartbeat_seconds
from osprey_desktop.safety.audit import AuditError, AuditLog
from osprey_desktop.safety.guarded_write import record_intent, send_and_record

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Superseded:
    """Nothing was sent and the operator must be asked again, for this reason."""

    reason: str


def operation_result(
    op: Mapping[str, Any],
    outcome: str,
    message: str,
    approval_id: str | None,
    **fields: Any,
) -> WriteOperationResult:
    """The result of one stored operation (``fields``: readback, sent_at ...)."""
    return WriteOperationResult(
        channel=str(op.get("channel")),
        requested_value=op.get("new_value"),
        previous_value=op.get("current_value"),
        units=str(op.get("units") or ""),
        outcome=outcome,  # type: ignore[arg-type]
        message=message,
        approval_id=approval_id,
        **fields,
    )


def _moved_text(op: Mapping[str, Any], now: Any) -> str:
    units, precision = str(op.get("units") or ""), op.get("precision")
    return (
        f"{op['channel']} now reads {show_reading(now, units, precision)}, not "
        f"{show_reading(op.get('current_value'), units, precision)} as shown"
    )


def _clock(when: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(when or 0))


class WriteExecution:
    """One approval's operations, carried out (or not) as its ledger row allows."""

    def __init__(
        self,
        ledger: ApprovalLedger,
        record: ApprovalRecord,
        *,
        connector: Any,
        policy: Any,
        audit: AuditLog,
        thread_id: str | None,
        verification: str,
        tolerance: float | None,
    ) -> None:
        self.ledger = ledger
        self.record = record
        self.connector = connector
        self.policy = policy
        self.audit = audit
        self.thread_id = thread_id
        self.verification = verification
        self.tolerance = tolerance

    @property
    def approval_id(self) -> str:
        return self.record.approval_id

    @property
    def operations(self) -> list[dict[str, Any]]:
        return list((self.record.payload or {}).get("operations") or [])

    async def run(self) -> list[WriteOperationResult] | Superseded:
        """Do what the row's state calls for; re-reads the row whenever another process won."""
        for _ in range(8):  # each pass follows a transition another process made
            record = self.record
            status = record.status
            if status == "rejected":
                return await self._rejected()
            if status == "superseded":
                return Superseded(record.note or "the approval was superseded")
            if status in ("done", "resolved"):
                return self._stored()
            if status == "sending":
                return await self._in_doubt()
            if status == "executing":
                if record.owner_alive():
                    return self._elsewhere()
                if await self.ledger.transition(
                    self.approval_id,
                    ["executing"],
                    "superseded",
                    note="the console carrying it out stopped before sending anything",
                ):
                    return Superseded(
                        f"the approval {record.describe_answer()} was not carried out (its "
                        "console stopped before sending anything)"
                    )
            elif status == "approved":
                if await self.ledger.transition(
                    self.approval_id, ["approved"], "executing", take_ownership=True
                ):
                    return await self._execute()
            else:
                raise RuntimeError(f"approval {self.approval_id} is still {status}")
            refreshed = await self.ledger.get(self.approval_id)
            if refreshed is None:
                raise RuntimeError(f"approval {self.approval_id} vanished from the ledger")
            self.record = refreshed
        raise RuntimeError(f"approval {self.approval_id} kept changing; nothing was sent")

    # -- the one process that carries it out --------------------------------------------

    async def _execute(self) -> list[WriteOperationResult] | Superseded:
        record = self.record
        if record.expires_at is not None and time.time() > record.expires_at:
            minutes = (record.expires_at - record.asked_at) / 60.0
            return await self._supersede(
                f"the approval expired (older than {minutes:g} min) before it was carried out"
            )
        async with self._heartbeat():
            checks = [
                await self.policy.evaluate(self.connector, str(op["channel"]), op["new_value"])
                for op in self.operations
            ]
            # a copy, restore or condition: its facts derived again from fresh reads
            changed = await changed_facts(self.operations, self.connector)
        blocked = [(op, c) for op, c in zip(self.operations, checks, strict=True) if not c.allowed]
        if blocked:
            return await self._blocked(checks)
        moved = [
            _moved_text(op, check.current_value)
            for op, check in zip(self.operations, checks, strict=True)
            if moved_beyond_precision(
                op.get("current_value"), check.current_value, op.get("precision")
            )
        ]
        if moved:
            return await self._supersede("; ".join(moved) + "; nothing was sent")
        if changed:
            return await self._supersede("; ".join(changed) + "; nothing was sent")
        # From here on the sequence must finish even if the turn is stopped: it either sends
        # nothing or leaves a complete record (intents, outcomes, the ledger row).
        task = asyncio.ensure_future(self._send_all(checks))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            logger.warning("stop pressed during approved write %s: finishing it", self.approval_id)
            await asyncio.wait({task})
            raise

    @contextlib.asynccontextmanager
    async def _heartbeat(self) -> AsyncIterator[None]:
        """While this console works on the approval, its claim is refreshed every
        ``approval.heartbeat_seconds``: consoles on other hosts then know it is alive however
        long the batch takes (and never verify or take over a write it may still send)."""
        interval = heartbeat_seconds()

        async def beat() -> None:
            while True:
                await asyncio.sleep(interval)
                try:
                    await self.ledger.touch(self.approval_id)
                except Exception:  # noqa: BLE001 - a missed beat is logged; the write goes on
                    logger.warning("heartbeat of approval %s not stored", self.approval_id)

        task = asyncio.ensure_future(beat())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _send_all(self, checks: Sequence[Any]) -> list[WriteOperationResult] | Superseded:
        async with self._heartbeat():
            return await self._send_all_alive(checks)

    async def _send_all_alive(
        self, checks: Sequence[Any]
    ) -> list[WriteOperationResult] | Superseded:
        kind = self.connector.kind
        await _flush_spool(self.audit)
        try:
            # The audit log is the durable witness: a thread database restored from a copy
            # can make a carried-out approval look unanswered, the log cannot.
            seen = replay_witnesses(
                await self.audit.aapproval_entries(self.approval_id), self.operations
            )
        except (AuditError, OSError) as exc:
            message = f"nothing was sent: the audit log could not be checked first. {exc}"
            return await self._not_sent(message)
        if seen:
            first = seen[0]
            message = (
                f"nothing was sent: the audit log already holds approval {self.approval_id} "
                f"({first.outcome} of {first.channel} at {_clock(first.time)} by "
                f"{first.operator}), so it was acted on before; this is a replay (was the "
                "thread database restored from a copy?). Ask again for a new write."
            )
            logger.error("approval %s replayed: %s", self.approval_id, message)
            return await self._not_sent(message, audit=True)
        try:
            for op, check in zip(self.operations, checks, strict=True):
                await record_intent(
                    self.audit,
                    str(op["channel"]),
                    op["new_value"],
                    value_before=check.current_value,
                    thread_id=self.thread_id,
                    approval_id=self.approval_id,
                    connector=kind,
                )
        except (AuditError, OSError) as exc:
            message = f"nothing was sent: the write could not be recorded first. {exc}"
            return await self._not_sent(message)
        sent_at = time.time()
        if not await self.ledger.transition(
            self.approval_id, ["executing"], "sending", sent_at=sent_at
        ):
            raise RuntimeError(f"approval {self.approval_id} was taken over; nothing was sent")
        results: list[WriteOperationResult] = []
        for index, (op, check) in enumerate(zip(self.operations, checks, strict=True)):
            # a derived value's fact, once more right before its own put: the machine (or
            # an earlier put of this batch) may have moved it since the check above
            changed = await changed_facts([op], self.connector) if op.get("derived_from") else []
            if changed:
                return await self._stop_batch(index, results, "; ".join(changed))
            result, _, problem = await send_and_record(
                self.connector,
                self.audit,
                str(op["channel"]),
                op["new_value"],
                value_before=check.current_value,
                thread_id=self.thread_id,
                approval_id=self.approval_id,
                verification=self.verification,  # type: ignore[arg-type]
                tolerance=self.tolerance,
            )
            message = result.message
            if problem:
                message += f" (the outcome could not be added to the audit log: {problem})"
            results.append(
                WriteOperationResult(
                    channel=str(op["channel"]),
                    requested_value=op["new_value"],
                    previous_value=check.current_value,
                    readback=result.readback,
                    units=str(op.get("units") or ""),
                    outcome=result.outcome,  # type: ignore[arg-type]
                    verified=bool(result.verified),
                    message=message,
                    approval_id=self.approval_id,
                    sent_at=sent_at if result.sent else None,
                )
            )
            if len(results) < len(checks):
                await self._progress(results)
        await self._finish("sending", "done", results)
        return results

    async def _stop_batch(
        self, index: int, results: list[WriteOperationResult], reason: str
    ) -> list[WriteOperationResult] | Superseded:
        """A fact changed right before the put of operation ``index``: it and the ones after
        it are not sent (their intents get a ``not_sent`` outcome). Before the first put,
        the operator is asked again with the new facts, as for any change before sending."""
        message = f"not sent: {reason} (found right before its put)"
        for op in self.operations[index:]:
            await _record_quietly(
                self.audit,
                channel=str(op["channel"]),
                outcome="not_sent",
                requested_value=op.get("new_value"),
                value_before=op.get("current_value"),
                thread_id=self.thread_id,
                approval_id=self.approval_id,
                message=message,
                connector=self.connector.kind,
            )
        if index == 0:
            await self.ledger.transition(
                self.approval_id, ["sending"], "superseded", note=f"{reason}; nothing was sent"
            )
            return Superseded(f"{reason}; nothing was sent")
        results += [
            operation_result(op, "not_sent", message, self.approval_id)
            for op in self.operations[index:]
        ]
        await self._finish("sending", "done", results)
        return results

    async def _progress(self, results: Sequence[WriteOperationResult]) -> None:
        """The outcomes so far, stored as the batch goes: the puts are sequential, so after a
        crash the channel after the last stored outcome is the one in doubt and the ones after
        it were never sent (never reported as "sent at")."""
        dumped = [r.model_dump(mode="json") for r in results]
        try:
            await self.ledger.transition(self.approval_id, ["sending"], "sending", results=dumped)
        except Exception:  # noqa: BLE001 - the audit log has the outcome; the batch goes on
            logger.warning("progress of approval %s not stored", self.approval_id)

    async def _not_sent(self, message: str, audit: bool = False) -> list[WriteOperationResult]:
        """Close the approval with nothing sent (``audit``: and say so in the audit log)."""
        results = [
            operation_result(op, "not_sent", message, self.approval_id) for op in self.operations
        ]
        if audit:
            for op in self.operations:
                await _record_quietly(
                    self.audit,
                    channel=str(op["channel"]),
                    outcome="not_sent",
                    requested_value=op.get("new_value"),
                    value_before=op.get("current_value"),
                    thread_id=self.thread_id,
                    approval_id=self.approval_id,
                    message=message,
                    connector=self.connector.kind,
                )
        await self._finish("executing", "done", results)
        return results

    async def _finish(
        self, from_status: str, to_status: str, results: Sequence[WriteOperationResult]
    ) -> None:
        dumped = [r.model_dump(mode="json") for r in results]
        try:
            await self.ledger.transition(self.approval_id, [from_status], to_status, results=dumped)
        except Exception:  # the outcome is in the audit log; the row stays "sending" (in doubt)
            logger.exception("could not record the outcome of approval %s", self.approval_id)

    async def _supersede(self, reason: str) -> Superseded:
        await self.ledger.transition(self.approval_id, ["executing"], "superseded", note=reason)
        return Superseded(reason)

    async def _blocked(self, checks: Sequence[Any]) -> list[WriteOperationResult]:
        """The policy refused an operation right before sending: nothing is sent."""
        first = next(c.violation for c in checks if not c.allowed)
        results = []
        for op, check in zip(self.operations, checks, strict=True):
            if check.allowed:
                reason = f"not sent because another write of this approval was blocked: {first}"
                outcome = "not_sent"
            else:
                reason, outcome = str(check.violation), "blocked"
            await _record_quietly(
                self.audit,
                channel=str(op["channel"]),
                outcome=outcome,
                requested_value=op.get("new_value"),
                value_before=check.current_value,
                thread_id=self.thread_id,
                approval_id=self.approval_id,
                message=reason,
                connector=self.connector.kind,
            )
            results.append(operation_result(op, outcome, reason, self.approval_id))
        await self._finish("executing", "done", results)
        return results

    # -- every other process, and every later run ---------------------------------------

    async def _rejected(self) -> list[WriteOperationResult]:
        message = "rejected by the operator; nothing was written"
        results = [
            operation_result(op, "rejected", message, self.approval_id) for op in self.operations
        ]
        if await self.ledger.transition(
            self.approval_id,
            ["rejected"],
            "done",
            results=[r.model_dump(mode="json") for r in results],
        ):
            for op in self.operations:
                await _record_quietly(
                    self.audit,
                    channel=str(op["channel"]),
                    outcome="rejected",
                    requested_value=op.get("new_value"),
                    value_before=op.get("current_value"),
                    thread_id=self.thread_id,
                    approval_id=self.approval_id,
                    message=f"{message} ({self.record.describe_answer()})",
                    connector=self.connector.kind,
                )
            return results
        refreshed = await self.ledger.get(self.approval_id)
        self.record = refreshed or self.record
        return self._stored() if self.record.results else results

    def _stored(self) -> list[WriteOperationResult]:
        stored = self.record.results or []
        return [WriteOperationResult.model_validate(r) for r in stored]

    def _elsewhere(self) -> list[WriteOperationResult]:
        message = (
            f"this approval was {self.record.describe_answer()} and is being carried out by "
            "another console; this console sent nothing. Read the channel for the result."
        )
        return [
            operation_result(op, "in_doubt", message, self.approval_id) for op in self.operations
        ]

    async def _in_doubt(self) -> list[WriteOperationResult]:
        """A put may have reached the machine; report what each channel reads now."""
        if self.record.owner_alive():
            return self._elsewhere()
        await _flush_spool(self.audit)
        done, doubtful, unsent = split_progress(
            self.record, await _audited_outcomes(self.audit, self.approval_id)
        )
        readings = await _read_now(self.connector, [str(op["channel"]) for op in doubtful])
        results = [WriteOperationResult.model_validate(r) for r in done]
        for op in doubtful:
            now = readings.get(str(op["channel"]))
            units = str(op.get("units") or "")
            shown = (
                show_reading(now, units, op.get("precision"))
                if not isinstance(now, Exception)
                else f"unreadable ({now})"
            )
            message = (
                f"write in doubt — sent at {_clock(self.record.sent_at)}, the channel now reads "
                f"{shown}; it was not sent again. Verify it (read back) to record the resolution."
            )
            results.append(
                operation_result(
                    op,
                    "in_doubt",
                    message,
                    self.approval_id,
                    readback=None if isinstance(now, Exception) else now,
                    sent_at=self.record.sent_at,
                )
            )
        return results + _never_sent(unsent, self.approval_id)


def split_progress(
    record: ApprovalRecord, audited: Mapping[str, dict[str, Any]] | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(known outcomes, operations in doubt, operations never sent) of a ``sending`` row.

    The puts of a batch are sequential and each outcome is recorded before the next put, in
    the ledger or, when the ledger could not take it, in the audit log (``audited``: its
    outcome per channel, the local spool flushed first): the operation right after the known
    ones may have left, the later ones never did.
    """
    operations = list((record.payload or {}).get("operations") or [])
    stored = list(record.results or []) if record.status == "sending" else []
    audited = audited or {}
    done: list[dict[str, Any]] = []
    for index, op in enumerate(operations):
        if index < len(stored):
            done.append(stored[index])
        elif str(op.get("channel")) in audited:
            done.append(audited[str(op.get("channel"))])
        else:
            return done, operations[index : index + 1], operations[index + 1 :]
    return done, [], []


async def _audited_outcomes(audit: AuditLog, approval_id: str) -> dict[str, dict[str, Any]]:
    """The outcome the audit log holds for each channel of an approval (as a stored result)."""
    from osprey_desktop.connectors.base import WRITE_OUTCOMES

    try:
        entries = await audit.aapproval_entries(approval_id)
    except (AuditError, OSError):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if entry.outcome in WRITE_OUTCOMES:
            out[entry.channel] = WriteOperationResult(
                channel=entry.channel,
                requested_value=entry.requested_value,
                previous_value=entry.value_before,
                readback=entry.readback_after,
                outcome=entry.outcome,  # type: ignore[arg-type]
                message=f"{entry.message or entry.outcome} (from the audit log)",
                approval_id=approval_id,
            ).model_dump(mode="json")
    return out


def _never_sent(operations: Sequence[Mapping[str, Any]], approval_id: str) -> list[Any]:
    message = "not sent: the console carrying out the batch stopped before this channel's turn"
    return [operation_result(op, "not_sent", message, approval_id) for op in operations]


async def _read_now(connector: Any, channels: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    try:
        readings = await connector.read_multiple_channels(list(channels))
    except ConnectorError as exc:
        return {c: exc for c in channels}
    for name, reading in readings.items():
        out[name] = reading if isinstance(reading, Exception) else reading.value
    return out


async def _flush_spool(audit: AuditLog) -> None:
    """Outcomes kept locally while the audit log was unreachable go into it first."""
    from osprey_desktop.safety.audit_spool import aflush_into

    try:
        await aflush_into(audit)
    except Exception:  # noqa: BLE001 - they stay kept for the next time; the write goes on
        logger.warning("audit entries kept locally could not be added yet", exc_info=True)


async def _record_quietly(audit: AuditLog, **fields: Any) -> None:
    """Audit something that sends nothing; a failure is logged (there is nothing to stop)."""
    try:
        await audit.arecord(**fields)
    except (AuditError, OSError):
        logger.exception("could not add a %s entry to the audit log", fields.get("outcome"))


async def resolve_in_doubt(
    ledger: ApprovalLedger, record: ApprovalRecord, connector: Any, audit: AuditLog
) -> list[WriteOperationResult]:
    """Read back a write in doubt and record what was found (audit ``resolved``, ledger).

    Sends nothing. Each channel either reads the value that was sent (within its precision)
    or it does not; either way the finding is recorded and the approval is closed.
    """
    operations = list((record.payload or {}).get("operations") or [])
    await _flush_spool(audit)
    if record.status in ("executing", "sending") and record.owner_alive():
        # never "not on the machine" for a channel a live console may still write
        message = f"not verified: {describe_owner(record)} is still carrying out this write"
        return [operation_result(op, "in_doubt", message, record.approval_id) for op in operations]
    kept: list[dict[str, Any]] = []
    unsent: list[dict[str, Any]] = []
    if record.status == "sending":  # its console is gone: only the put that may have left
        kept, operations, unsent = split_progress(
            record, await _audited_outcomes(audit, record.approval_id)
        )
    if record.status == "done":  # a write reported in doubt when it ran (a reset connection)
        doubtful = {
            str(r.get("channel")) for r in record.results or [] if r.get("outcome") == "in_doubt"
        }
        kept = [r for r in record.results or [] if str(r.get("channel")) not in doubtful]
        operations = [op for op in operations if str(op.get("channel")) in doubtful]
    readings = await _read_now(connector, [str(op["channel"]) for op in operations])
    results = []
    for op in operations:
        now = readings.get(str(op["channel"]))
        units = str(op.get("units") or "")
        if isinstance(now, Exception):
            outcome, finding = "in_doubt", f"still in doubt: the channel cannot be read ({now})"
            readback = None
        else:
            readback = now
            sent = to_float(op.get("new_value"))
            took = sent is not None and not moved_beyond_precision(sent, now, op.get("precision"))
            shown = show_reading(now, units, op.get("precision"))
            if took:
                outcome, finding = "verified", f"read back {shown}: the value sent was applied"
            else:
                outcome = "verification_failed"
                finding = f"read back {shown}: the value sent is not on the machine"
        await audit.arecord(
            channel=str(op["channel"]),
            outcome="resolved",
            requested_value=op.get("new_value"),
            value_before=op.get("current_value"),
            readback_after=readback,
            thread_id=record.thread_id,
            approval_id=record.approval_id,
            message=f"write in doubt (sent at {_clock(record.sent_at)}) {finding}",
            connector=getattr(connector, "kind", None),
        )
        results.append(
            operation_result(
                op, outcome, finding, record.approval_id, readback=readback, sent_at=record.sent_at
            )
        )
    unsent_results = _never_sent(unsent, record.approval_id)
    if results and all(r.outcome != "in_doubt" for r in results):
        await ledger.transition(
            record.approval_id,
            [record.status],
            "resolved",
            results=kept + [r.model_dump(mode="json") for r in results + unsent_results],
            note="resolved by reading back",
        )
    return results + unsent_results


def describe_owner(record: ApprovalRecord) -> str:
    """``the console on host2 (pid 4242), last heard 3 s ago``."""
    host, _, rest = (record.owner or "?").partition("|")
    pid = rest.partition("|")[0] or "?"
    heard = max(0.0, time.time() - record.updated_at)
    return f"the console on {host} (pid {pid}), last heard {heard:.0f} s ago"


def doubtful_outcomes(record: ApprovalRecord) -> bool:
    """Whether a finished approval holds a write reported in doubt, not yet read back."""
    return record.status == "done" and any(
        r.get("outcome") == "in_doubt" for r in record.results or []
    )


__all__ = [
    "Superseded",
    "WriteExecution",
    "describe_owner",
    "doubtful_outcomes",
    "operation_result",
    "resolve_in_doubt",
    "split_progress",
]
