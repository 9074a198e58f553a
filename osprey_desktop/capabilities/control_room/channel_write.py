"""``channel_write``: CHANNEL_ADDRESSES + the value(s) in the request -> CHANNEL_WRITE_RESULTS.

Order of events, each one a safety property:

1. the values come from the request ("set HCM01 to 1.5 A", "increase ... by 0.2"), converted
   to each channel's units; a request without a value asks for one;
2. the write policy (master switch, limits, fail closed) is checked for every operation
   *before* approval is asked, so a violation is shown to the operator and blocks the whole
   request: nothing is asked, nothing is written, every operation is audited as refused;
3. the approval interrupt lists every operation (channel, current value, new value, units,
   limits, violation);
4. on approval exactly the operations of the approved payload are written (not re-derived),
   each re-checked right before the write and verified by readback; a rejection writes
   nothing; every outcome is in the audit log with the thread id and the approval id.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from osprey_desktop.base.errors import ClarificationRequired, ErrorClassification, ErrorSeverity
from osprey_desktop.capabilities.control_room.channel_read import channels_of
from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import (
    ChannelWriteResultsContext,
    WriteOperationResult,
)
from osprey_desktop.capabilities.control_room.write_operations import (
    OperationError,
    approval_message,
    assign_values,
    plan_operation,
    specs_from_parameters,
)
from osprey_desktop.capabilities.control_room.write_parsing import (
    MissingWriteValue,
    ValueSpec,
    WriteRequestError,
    parse_write_request,
)
from osprey_desktop.connectors.base import ConnectorError, to_float

if TYPE_CHECKING:
    from osprey_desktop.safety import AuditLog


class ChannelWriteCapability(ControlRoomCapability):
    """Write values to setpoint channels, after the operator approves exactly what is written."""

    name = "channel_write"
    description = (
        "Write (set, change, increase, decrease) the value of control-system setpoints such as "
        "corrector or quadrupole currents, RF settings or undulator gaps; needs approval"
    )
    provides = ["CHANNEL_WRITE_RESULTS"]
    requires = ["CHANNEL_ADDRESSES"]
    writes = True
    handles_own_approval = True  # the approval lists every operation; see execute()
    keywords = [
        "set",
        "write",
        "change",
        "put",
        "adjust",
        "increase",
        "decrease",
        "raise",
        "lower",
        "ramp",
        "bump",
        "zero",
        "open",
        "close",
        "move",
    ]
    examples = [
        "set a corrector to 1.5 A",
        "increase a magnet current by 0.2 A",
        "decrease an undulator gap by 1 mm",
        "change a setpoint to a new value",
    ]
    parameters = {
        "value": "absolute value to write (default: read from the request)",
        "delta": "change to apply to the current value instead of an absolute value",
        "unit": "unit of value/delta (default: the channel's unit)",
    }

    def missing_information(self, request: str, state: Mapping[str, Any]) -> str | None:
        """What a write request lacks before it can be planned: a value, or a target.

        The built-in planner asks this, so "set HCM01" becomes a question at once instead of
        a plan that stops half-way.
        """
        from osprey_desktop.capabilities.control_room.channel_finding import channel_phrase
        from osprey_desktop.connectors.channel_database import STOPWORDS

        try:
            parse_write_request(request)
        except MissingWriteValue as exc:
            return f"What value should I write? {exc}."
        except WriteRequestError as exc:
            return f"I cannot read the value to write: {exc}."
        named = [w for w in channel_phrase(request).replace(",", " ").split() if w not in STOPWORDS]
        stored = (state.get("capability_context_data") or {}).get("CHANNEL_ADDRESSES")
        if not named and not stored:
            return (
                "Which channel should I change? Name it (e.g. SR01C:HCM01:Current:SP) or "
                "describe it (e.g. 'corrector HCM01', 'the ID04 gap')."
            )
        return None

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.connectors import get_control_system_connector
        from osprey_desktop.safety import WritePolicy

        (addresses,) = self.get_required_contexts()
        channels = writable_targets(channels_of(addresses))
        try:
            specs = self._value_specs()
            assignments = assign_values(channels, specs)
        except WriteRequestError as exc:
            raise _missing_value_question(exc, channels) from exc
        connector = await get_control_system_connector()
        # reads limits.yaml: off the event loop (the UI's loop in the desktop app)
        policy = await asyncio.to_thread(
            WritePolicy.from_config, writes_enabled=self.agent_control().get("writes_enabled")
        )
        operations = [
            await plan_operation(connector, policy, channel, spec) for channel, spec in assignments
        ]
        if any(op["violation"] for op in operations):
            return await self._refuse_all(operations, connector.kind, approval_id=None)
        # Machine writes always ask (house rule): there is no path to _write without a decision.
        decision = self.request_approval(
            approval_message(operations),
            "channel_write",
            operations=operations,
            channels=[op["channel"] for op in operations],
            thread_id=self.thread_id(),
            blocked=False,
            request=self.request_text(),
        )
        # -- only after the operator answered: from here on, side effects are allowed --------
        approved_payload = decision.payload or {}
        approval_id = decision.interrupt_id or _payload_id(approved_payload or operations)
        if not decision.approved:
            return await self._reject_all(operations, connector.kind, approval_id)
        approved = approved_payload.get("operations")
        problem = _approved_operations_problem(approved, channels, approved_payload)
        if problem is not None:
            refused = [
                {**op, "violation": problem}
                for op in (approved if _is_operation_list(approved) else operations)
            ]
            return await self._refuse_all(refused, connector.kind, approval_id)
        return await self._write(list(approved), connector, policy, approval_id)

    # -- values ---------------------------------------------------------------------------

    def _value_specs(self) -> list[ValueSpec]:
        """Values from the step parameters, else from the request's words (see ``_parse``
        of time_range_parsing for the order of the texts tried)."""
        from_parameters = specs_from_parameters(self.get_parameters())
        if from_parameters:
            return from_parameters
        texts = self.candidate_texts()
        for text in texts[:-1]:
            try:
                return parse_write_request(text)
            except MissingWriteValue:
                continue
        return parse_write_request(texts[-1] if texts else "")

    # -- outcomes -------------------------------------------------------------------------

    async def _write(
        self,
        operations: Sequence[Mapping[str, Any]],
        connector: Any,
        policy: Any,
        approval_id: str | None,
    ) -> dict[str, Any]:
        from osprey_desktop.config import get_config
        from osprey_desktop.safety import perform_guarded_write

        cs = get_config().control_system
        audit = _audit_log()
        results = []
        for op in operations:
            outcome = await perform_guarded_write(
                connector,
                policy,
                audit,
                str(op["channel"]),
                op["new_value"],
                thread_id=self.thread_id(),
                approval_id=approval_id,
                verification=cs.write_verification,
                tolerance=cs.verification_tolerance,
            )
            result = outcome.result
            results.append(
                WriteOperationResult(
                    channel=str(op["channel"]),
                    requested_value=op["new_value"],
                    previous_value=outcome.check.current_value,
                    readback=result.readback,
                    units=str(op.get("units") or ""),
                    outcome=outcome.outcome,  # type: ignore[arg-type]
                    verified=bool(result.verified),
                    message=(outcome.check.violation or result.message or ""),
                    approval_id=approval_id,
                )
            )
        return self.store_output_context(ChannelWriteResultsContext(results=results))

    async def _refuse_all(
        self, operations: Sequence[Mapping[str, Any]], connector_kind: str, approval_id: str | None
    ) -> dict[str, Any]:
        """Nothing is written: each operation is audited as refused, with its own reason."""
        audit = _audit_log()
        blocking = next((op["violation"] for op in operations if op.get("violation")), "")
        results = []
        for op in operations:
            reason = op.get("violation") or (
                f"not written because another operation of this request was refused: {blocking}"
            )
            await audit.arecord(
                channel=str(op.get("channel")),
                outcome="refused",
                requested_value=op.get("new_value"),
                value_before=op.get("current_value"),
                thread_id=self.thread_id(),
                approval_id=approval_id,
                message=reason,
                connector=connector_kind,
            )
            results.append(_result(op, "refused", reason, approval_id))
        return self.store_output_context(ChannelWriteResultsContext(results=results))

    async def _reject_all(
        self, operations: Sequence[Mapping[str, Any]], connector_kind: str, approval_id: str | None
    ) -> dict[str, Any]:
        from osprey_desktop.safety import record_rejected_write

        audit = _audit_log()
        results = []
        for op in operations:
            await record_rejected_write(
                audit,
                str(op["channel"]),
                op.get("new_value"),
                value_before=op.get("current_value"),
                thread_id=self.thread_id(),
                approval_id=approval_id,
                connector=connector_kind,
            )
            message = "rejected by the operator; nothing was written"
            results.append(_result(op, "rejected", message, approval_id))
        return self.store_output_context(ChannelWriteResultsContext(results=results))

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        """A failed write is never retried blindly: the operator decides what to do next."""
        if isinstance(exc, ConnectorError | OperationError):
            return ErrorClassification(
                severity=ErrorSeverity.CRITICAL,
                user_message=f"The write did not happen: {exc}",
                technical_details=f"{type(exc).__name__}: {exc}",
            )
        if isinstance(exc, TimeoutError | ConnectionError):
            return ErrorClassification(
                severity=ErrorSeverity.CRITICAL,
                user_message=f"The control system did not answer during the write ({exc}); "
                "check the channel's value before trying again",
                technical_details=f"{type(exc).__name__}: {exc}",
            )
        return ControlRoomCapability.classify_error(exc, context)


def writable_targets(channels: Sequence[str]) -> list[str]:
    """The channels to write: "HCM01" found as setpoint and readback means its setpoint.

    Read-only channels are dropped when writable ones were found with them; when none is
    writable all are kept, so the write policy refuses them with its reason.
    """
    from osprey_desktop.connectors import get_configured_channel_database

    database = get_configured_channel_database()
    writable = [c for c in channels if (r := database.get(c)) is not None and r.writable]
    return writable or list(channels)


def _audit_log() -> AuditLog:
    """The configured audit log (cheap: nothing is opened until an entry is recorded)."""
    from osprey_desktop.config import get_audit_db_path
    from osprey_desktop.safety import AuditLog

    return AuditLog(get_audit_db_path())


def _result(
    op: Mapping[str, Any], outcome: str, message: str, approval_id: str | None
) -> WriteOperationResult:
    return WriteOperationResult(
        channel=str(op.get("channel")),
        requested_value=op.get("new_value"),
        previous_value=op.get("current_value"),
        units=str(op.get("units") or ""),
        outcome=outcome,  # type: ignore[arg-type]
        message=message,
        approval_id=approval_id,
    )


def _is_operation_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(op, Mapping) for op in value)


def _approved_operations_problem(
    approved: Any, channels: Sequence[str], payload: Mapping[str, Any]
) -> str | None:
    """Why the approved payload cannot be executed as it stands, or None."""
    if not _is_operation_list(approved) or not approved:
        return "the approval did not carry the list of operations; nothing is written"
    if payload.get("blocked"):
        return "the approval request was marked as blocked by a limit violation"
    for op in approved:
        if op.get("violation"):
            return f"the approved request contains a violation: {op['violation']}"
        if op.get("channel") not in channels:
            return (
                f"the approved operation names '{op.get('channel')}', which this step did not "
                "find; nothing is written"
            )
        if to_float(op.get("new_value")) is None:
            return f"the approved value {op.get('new_value')!r} is not a number"
    return None


def _payload_id(payload: Any) -> str:
    """A stable id for an approval that came without an interrupt id."""
    text = json.dumps(payload, sort_keys=True, default=str)
    return "write-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def _missing_value_question(
    exc: WriteRequestError, channels: Sequence[str]
) -> ClarificationRequired:
    """The question for a write whose value is missing or unreadable (nothing is guessed)."""
    shown = ", ".join(channels[:3]) + (" ..." if len(channels) > 3 else "")
    examples = ["set it to 1.5 A", "increase it by 0.1 A"]
    if isinstance(exc, MissingWriteValue):
        return ClarificationRequired(f"What value should I write to {shown}?", examples)
    return ClarificationRequired(
        f"I cannot work out what to write to {shown}: {str(exc).rstrip('.')}. What value "
        "should I write?",
        examples,
    )


__all__ = ["ChannelWriteCapability", "writable_targets"]
