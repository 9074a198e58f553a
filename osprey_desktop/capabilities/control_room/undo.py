"""``write_undo``: undo writes from the audit log, through the same approval and write path.

"undo the last write", "revert the last three writes", "put HCM01 back to where it was before
my change": the values come from the audit log (the value each write replaced), never from a
guess. The approval names where each comes from (*from audit entry 42, 10:14:03, you set
1.5 A (it was 1.2 A)*); after a yes, ``write_execution.WriteExecution`` carries it out like
any write: claimed once in the ledger, each channel read again and checked against the
policy, the intent audited before the put and the outcome after.

Refused, with the reason, before anything is asked: a write that was not verified (what the
machine took is unknown), a channel someone else wrote after "my" change, or one that no
longer reads what the write left (it moved since). Each undo and refusal is also recorded in
the logbook's audit, naming the audit entries it undid.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import ChannelWriteResultsContext
from osprey_desktop.capabilities.control_room.logbook_search import named_channels
from osprey_desktop.capabilities.control_room.write_asking import (
    answered,
    ask_operator,
    record_question,
)
from osprey_desktop.capabilities.control_room.write_execution import (
    Superseded,
    WriteExecution,
    operation_result,
)
from osprey_desktop.capabilities.control_room.write_operations import (
    OperationError,
    describe_limits,
    plan_operation,
    show_reading,
    show_value,
)
from osprey_desktop.connectors.base import to_float
from osprey_desktop.language.write_parsing import ValueSpec
from osprey_desktop.logbook.history import (
    UndoRefused,
    UndoTarget,
    describe_origin,
    moved_since,
    undo_targets,
)
from osprey_desktop.logbook.requests import is_undo_request, parse_undo
from osprey_desktop.safety.audit import AuditError
from osprey_desktop.state import StateManager

_MAX_ASKS = 5


def undo_message(
    operations: Sequence[Mapping[str, Any]], *, request: str | None, asked_again: str | None
) -> str:
    """What the operator approves: each value to restore, where it comes from, the limits."""
    count = len(operations)
    lines = [f"**Approve undoing {count} write{'s' if count != 1 else ''} to the machine?**", ""]
    if asked_again:
        lines += [f"Asked again: {asked_again}", ""]
    if request:
        lines += [f"You asked: \u201c{request.strip()}\u201d", ""]
    for op in operations:
        units = str(op.get("units") or "")
        now = show_reading(op.get("current_value"), units, op.get("precision"))
        origin = describe_origin(op.get("undo_of") or {}, units)
        lines.append(
            f"- write **{show_value(op['new_value'], units)}** to `{op['channel']}` "
            f"(now {now}; {origin}; limits: {describe_limits(op.get('limits') or {}, units)})"
        )
    lines += [
        "",
        "Answer **yes** to restore exactly these values (each channel is read again first: if "
        "one moved, or the approval expired, nothing is sent and you are asked again) or "
        "**no** to leave the machine unchanged.",
    ]
    return "\n".join(lines)


class UndoWriteCapability(ControlRoomCapability):
    """Restore the values that earlier writes replaced, from the audit log, after approval."""

    name = "write_undo"
    description = (
        "Undo earlier writes from the audit log (the last write, the last N writes, a named "
        "channel's last change): restores the value each replaced; needs approval"
    )
    provides = ["CHANNEL_WRITE_RESULTS"]
    requires = []
    writes = True
    handles_own_approval = True
    keywords = ["undo", "revert", "roll back"]
    examples = [
        "undo the last write",
        "revert the last three writes",
        "put HCM01 back to where it was before my change",
    ]

    @classmethod
    def claims(cls, text: str) -> bool:
        return is_undo_request(text)

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        return is_undo_request(text)

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.config import get_config
        from osprey_desktop.connectors import get_control_system_connector
        from osprey_desktop.persistence.approvals import (
            ledger_of_running_graph,
            write_approval_id,
        )
        from osprey_desktop.safety import WritePolicy
        from osprey_desktop.safety.audit import audit_log_of_running_graph

        ledger, namespace = ledger_of_running_graph()
        if ledger is None:
            raise OperationError(
                "an undo needs a thread database that records approvals; nothing was written"
            )
        connector = await get_control_system_connector()
        policy = await asyncio.to_thread(
            WritePolicy.from_config, writes_enabled=self.agent_control().get("writes_enabled")
        )
        config = get_config()
        cs = config.control_system
        audit = audit_log_of_running_graph()
        thread = self.thread_id()
        request = StateManager.get_user_query(self._state) or self.request_text()
        asked_again: str | None = None
        for slot in range(_MAX_ASKS):
            approval_id = write_approval_id(thread or "-", namespace, slot)
            record = await ledger.get(approval_id)
            if record is None:
                try:
                    operations = await self._plan(connector, policy, audit, request)
                except UndoRefused as exc:
                    return await self._refused(exc, audit, connector.kind)
                if any(op["violation"] for op in operations):
                    return await self._blocked(operations, audit, connector.kind)
                record = await record_question(
                    ledger,
                    approval_id,
                    thread,
                    operations,
                    request=request,
                    asked_again=asked_again,
                    expiry_minutes=config.approval.expiry_minutes,
                )
            asked = list((record.payload or {}).get("operations") or [])
            operations, decision = ask_operator(
                self,
                record,
                approval_id,
                thread,
                undo_message,
                undo_of=[(op.get("undo_of") or {}).get("audit_id") for op in asked],
            )
            # -- only after the operator answered ----------------------------------------
            record = await answered(ledger, record, decision.approved)
            outcome = await WriteExecution(
                ledger,
                record,
                connector=connector,
                policy=policy,
                audit=audit,
                thread_id=thread,
                verification=cs.write_verification,
                tolerance=cs.verification_tolerance,
            ).run()
            if isinstance(outcome, Superseded):
                asked_again = outcome.reason
                continue
            await self._record_undo(approval_id, operations, outcome)
            origins = {
                str(op["channel"]): describe_origin(op.get("undo_of") or {}, str(op.get("units")))
                for op in operations
            }
            return self.store_output_context(
                ChannelWriteResultsContext(results=outcome, value_origins=origins)
            )
        raise OperationError(
            f"the values kept changing while waiting for approval ({asked_again}); nothing "
            "was written"
        )

    async def _plan(
        self, connector: Any, policy: Any, audit: Any, request: str
    ) -> list[dict[str, Any]]:
        """The operations that restore the targets' values, or ``UndoRefused``."""
        from osprey_desktop.safety.audit import current_operator

        wanted = parse_undo(request) or parse_undo(self.request_text())
        if wanted is None:
            raise UndoRefused(f"“{request}” does not say which writes to undo")
        channels = named_channels(wanted.target) if wanted.target else []
        if wanted.target and not channels:
            raise UndoRefused(
                f"'{wanted.target}' names no channel of the list; say which channel's write "
                "to undo (e.g. 'put HCM01 back to where it was before my change')"
            )
        try:
            entries = await asyncio.to_thread(audit.entries, None)
        except AuditError as exc:
            raise UndoRefused(
                f"the audit log cannot be read, so nothing can be undone: {exc}"
            ) from exc
        me = current_operator()
        targets = undo_targets(
            entries, count=wanted.count, channels=channels, operator=me if wanted.mine else None
        )
        operations = []
        for target in targets:
            operations.append(await self._operation(connector, policy, target, me))
        return operations

    async def _operation(
        self, connector: Any, policy: Any, target: UndoTarget, me: str
    ) -> dict[str, Any]:
        value = to_float(target.restore)
        if value is None:
            raise UndoRefused(
                f"audit entry {target.entry.id} recorded {target.restore!r} as the value of "
                f"{target.channel} before the write; only numbers can be restored",
                target.entry,
            )
        spec = ValueSpec("", "absolute", value, None, f"undo of audit entry {target.entry.id}")
        operation = await plan_operation(connector, policy, target.channel, spec)
        if operation.get("violation") is None:
            moved = moved_since(target, operation.get("current_value"), operation.get("precision"))
            if moved:
                raise UndoRefused(moved, target.entry)
        origin = target.origin(me)
        operation["value_source"] = "undo"
        operation["undo_of"] = origin
        operation["requested"] = describe_origin(origin, str(operation.get("units") or ""))
        return operation

    # -- refusals and the record -----------------------------------------------------------

    async def _refused(self, exc: UndoRefused, audit: Any, connector_kind: str) -> dict[str, Any]:
        """Nothing is asked or sent; a refusal about a channel is in its results and audited."""
        await self._event(f"undo refused: {exc}", "refused", [])
        entry = exc.entry
        if entry is None:
            raise OperationError(f"the undo was refused: {exc}")
        # no value is shown as "to write": nothing was planned, only refused
        op = {"channel": entry.channel, "new_value": None, "current_value": None, "units": ""}
        reason = f"undo refused: {exc}"
        await _record_quietly(
            audit,
            channel=entry.channel,
            outcome="not_sent",
            requested_value=entry.value_before,
            thread_id=self.thread_id(),
            message=reason,
            connector=connector_kind,
        )
        return self.store_output_context(
            ChannelWriteResultsContext(results=[operation_result(op, "not_sent", reason, None)])
        )

    async def _blocked(
        self, operations: Sequence[Mapping[str, Any]], audit: Any, connector_kind: str
    ) -> dict[str, Any]:
        """The write policy refuses a restored value: nothing is asked, every one is audited."""
        blocking = next((op["violation"] for op in operations if op.get("violation")), "")
        results = []
        for op in operations:
            outcome = "blocked" if op.get("violation") else "not_sent"
            reason = op.get("violation") or (
                f"not written because another value of this undo was blocked: {blocking}"
            )
            await _record_quietly(
                audit,
                channel=str(op.get("channel")),
                outcome=outcome,
                requested_value=op.get("new_value"),
                value_before=op.get("current_value"),
                thread_id=self.thread_id(),
                message=f"undo: {reason}",
                connector=connector_kind,
            )
            results.append(operation_result(op, outcome, reason, None))
        await self._event(f"undo blocked: {blocking}", "blocked", operations)
        return self.store_output_context(ChannelWriteResultsContext(results=results))

    async def _record_undo(
        self, approval_id: str, operations: Sequence[Mapping[str, Any]], results: Sequence[Any]
    ) -> None:
        """One logbook-audit event per undo approval (a re-run of the step adds none)."""
        from osprey_desktop.logbook.publishing import logbook_of_running_graph

        store = logbook_of_running_graph()
        tag = f"approval {approval_id}"
        try:
            seen = await asyncio.to_thread(store.events, 500)
        except Exception:  # noqa: BLE001 - the write's own audit already has the outcome
            seen = []
        if any(e.kind == "undo" and tag in (e.detail or "") for e in seen):
            return
        outcomes = sorted({str(r.outcome) for r in results})
        await self._event(
            f"{tag}: "
            + "; ".join(f"{r.channel} → {r.requested_value} ({r.outcome})" for r in results),
            ", ".join(outcomes),
            operations,
        )

    async def _event(
        self, detail: str, outcome: str, operations: Sequence[Mapping[str, Any]]
    ) -> None:
        from osprey_desktop.logbook.publishing import logbook_of_running_graph
        from osprey_desktop.safety.audit import current_operator

        ids = [str((op.get("undo_of") or {}).get("audit_id")) for op in operations]
        what = (
            f"undo of audit entr{'ies' if len(ids) != 1 else 'y'} {', '.join(ids)}"
            if ids
            else ("undo")
        )
        try:
            await asyncio.to_thread(
                logbook_of_running_graph().record_event,
                kind="undo",
                what=what,
                outcome=outcome,
                operator=current_operator(),
                thread_id=self.thread_id(),
                detail=detail,
            )
        except Exception:  # noqa: BLE001 - the write audit log holds the write itself
            import logging

            logging.getLogger(__name__).exception("could not record an undo in the logbook")


async def _record_quietly(audit: Any, **fields: Any) -> None:
    try:
        await audit.arecord(**fields)
    except (AuditError, OSError):
        import logging

        logging.getLogger(__name__).exception("could not audit an undo refusal")


__all__ = ["UndoWriteCapability", "undo_message"]
