"""``channel_write``: CHANNEL_ADDRESSES + the value(s) in the request -> CHANNEL_WRITE_RESULTS.

Order of events, each one a safety property:

1. the values come from the request ("set HCM01 to 1.5 A", "increase ... by 0.2"), converted
   to each channel's units; a request without a value asks for one;
2. the write policy (master switch, limits, fail closed) is checked for every operation
   *before* approval is asked, so a violation is shown to the operator: the blocked operations
   are audited as ``blocked`` and shown in the approval as *will not be sent*, the allowed ones
   are asked (``write_blocked``); when every operation is blocked nothing is asked;
3. the operations are stored in the approval ledger under a stable approval id, and the
   approval interrupt lists every one (channel, current value at its precision, new value,
   units, limits, the operator's own words);
4. after the answer, ``write_execution.WriteExecution`` carries out exactly the stored
   operations once (claimed in the ledger, re-read and re-checked right before, intent audited
   before the put, outcome after), or asks again when a value moved or the approval expired.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from osprey_desktop.base.errors import (
    ClarificationRequired,
    ErrorClassification,
    ErrorSeverity,
    MissingAfterLookups,
    MissingValue,
)
from osprey_desktop.capabilities.control_room.channel_read import channels_of
from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import (
    ChannelWriteResultsContext,
)
from osprey_desktop.capabilities.control_room.derived_values import (
    ConditionNotMet,
    DerivedValues,
    checked_condition,
    copied_values,
    last_change_moment,
    period_restored_values,
    reference_values,
    restore_moment,
    restore_period,
    restored_values,
)
from osprey_desktop.capabilities.control_room.write_asking import (
    answered,
    ask_operator,
    record_question,
)
from osprey_desktop.capabilities.control_room.write_blocked import (
    audit_blocked,
    blocked_results,
    refused_in_words,
    split_blocked,
)
from osprey_desktop.capabilities.control_room.write_derivation import (
    Derivation,
    parse_derivation,
    restore_without_moment,
)
from osprey_desktop.capabilities.control_room.write_execution import (
    Superseded,
    WriteExecution,
    operation_result,
)
from osprey_desktop.capabilities.control_room.write_operations import (
    OperationError,
    approval_message,
    assign_values,
    plan_operation,
    specs_from_parameters,
)
from osprey_desktop.capabilities.control_room.write_origins import describe_origin
from osprey_desktop.connectors.base import ConnectorError
from osprey_desktop.language.write_parsing import (
    MissingWriteValue,
    ValueSpec,
    WriteRequestError,
    parse_write_request,
)
from osprey_desktop.safety.audit import AuditError
from osprey_desktop.state import StateManager

if TYPE_CHECKING:
    from osprey_desktop.safety import AuditLog

#: How many times one write step asks again (values moved, approval expired) before giving up.
_MAX_ASKS = 5


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
        from osprey_desktop.capabilities.control_room.channel_finding import (
            channel_phrase,
            reading_apart,
        )
        from osprey_desktop.channels.database import STOPWORDS

        request = reading_apart(request)[1]  # "tell me the tune, then raise QF01 by 0.5 A"
        derivation = parse_derivation(request)
        if derivation is not None and derivation.kind != "condition":
            return None  # the value comes from a read or the archive (inputs_for)
        if derivation is None and restore_without_moment(request):
            return MissingAfterLookups(
                "Back to its value at which moment? Say it as a clock time or a time ago, for "
                "example 'back to what it was at 09:30' or 'back to its value from 2 hours ago'."
            )
        if derivation is not None:
            request = derivation.write  # "if ... , set it to -1 A": the write needs a value
        try:
            specs = parse_write_request(request)
        except MissingWriteValue as exc:
            return MissingAfterLookups(f"What value should I write? {exc}.")
        except WriteRequestError as exc:
            return MissingAfterLookups(f"I cannot read the value to write: {exc}.")
        named = [w for w in channel_phrase(request).replace(",", " ").split() if w not in STOPWORDS]
        stored = (state.get("capability_context_data") or {}).get("CHANNEL_ADDRESSES")
        if not named and not stored:
            return (
                "Which channel should I change? Name it (e.g. SR01C:HCM01:Current:SP) or "
                "describe it (e.g. 'corrector HCM01', 'the ID04 gap')."
            )
        if not named:
            return None
        state = next((spec.state for spec in specs if spec.mode == "state"), None)
        return _target_question(request, state)

    @classmethod
    def inputs_for(cls, text: str) -> list[str]:
        """A copy or a condition reads the channels first; a restore looks up the archive."""
        derivation = parse_derivation(text)
        if derivation is None:
            return []
        return ["ARCHIVER_DATA"] if derivation.kind == "restore" else ["CHANNEL_VALUES"]

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.config import get_config
        from osprey_desktop.connectors import get_control_system_connector
        from osprey_desktop.persistence.approvals import (
            ledger_of_running_graph,
            write_approval_id,
        )
        from osprey_desktop.safety import WritePolicy

        (addresses,) = self.get_required_contexts()
        self._found = channels_of(addresses)  # with read-only sources of a copied value
        channels = writable_targets(self._found)
        ledger, namespace = ledger_of_running_graph()
        if ledger is None:
            raise OperationError(
                "writes need a thread database that records approvals (run the graph with a "
                "SQLite, PostgreSQL or in-memory checkpointer); nothing was written"
            )
        connector = await get_control_system_connector()
        # reads limits.yaml: off the event loop (the UI's loop in the desktop app)
        policy = await asyncio.to_thread(
            WritePolicy.from_config, writes_enabled=self.agent_control().get("writes_enabled")
        )
        config = get_config()
        cs = config.control_system
        thread = self.thread_id()
        request = StateManager.get_user_query(self._state) or self.request_text()
        asked_again: str | None = None
        for slot in range(_MAX_ASKS):
            approval_id = write_approval_id(thread or "-", namespace, slot)
            record = await ledger.get(approval_id)
            if record is None:
                try:
                    # asked again: every fact is read afresh (never the read step's values,
                    # which are what changed)
                    operations = await self._plan_operations(
                        connector, policy, channels, fresh=asked_again is not None
                    )
                except ConditionNotMet as exc:
                    return await self._condition_not_met(exc, channels, connector.kind, asked_again)
                refused_in_words(operations, request)
                allowed, blocked = split_blocked(operations)
                if not allowed:
                    return await self._refuse_all(operations, connector.kind, approval_id=None)
                # audited before the question is stored: a step run again after a crash in
                # between finds these entries and adds none
                await audit_blocked(
                    _audit_log(),
                    blocked,
                    approval_id=approval_id,
                    thread_id=thread,
                    connector_kind=connector.kind,
                )
                record = await record_question(
                    ledger,
                    approval_id,
                    thread,
                    allowed,
                    request=request,
                    asked_again=asked_again,
                    expiry_minutes=config.approval.expiry_minutes,
                    blocked=blocked,
                )
            # Machine writes always ask (house rule): there is no path to a put without an answer.
            operations, decision = ask_operator(self, record, approval_id, thread, approval_message)
            # -- only after the operator answered: from here on, side effects are allowed ---
            record = await answered(ledger, record, decision.approved)
            execution = WriteExecution(
                ledger,
                record,
                connector=connector,
                policy=policy,
                audit=_audit_log(),
                thread_id=thread,
                verification=cs.write_verification,
                tolerance=cs.verification_tolerance,
            )
            outcome = await execution.run()
            if isinstance(outcome, Superseded):
                asked_again = outcome.reason
                continue
            origins = {
                str(op["channel"]): describe_origin(op["derived_from"])
                for op in operations
                if op.get("derived_from")
            }
            # the writes the policy blocked when this was asked: never sent, listed first
            blocked = (record.payload or {}).get("blocked_operations") or []
            results = blocked_results(blocked, approval_id) + list(outcome)
            return self.store_output_context(
                ChannelWriteResultsContext(results=results, value_origins=origins)
            )
        raise OperationError(
            f"the values kept changing while waiting for approval ({asked_again}); nothing "
            "was written"
        )

    async def _plan_operations(
        self, connector: Any, policy: Any, channels: Sequence[str], *, fresh: bool = False
    ) -> list[dict[str, Any]]:
        derivation = self._derivation()
        readings = await self._readings(connector, fresh)
        if derivation is not None and derivation.kind != "condition":
            derived = await self._derived_values(derivation, channels, readings)
        else:
            try:
                specs = (
                    parse_write_request(derivation.write)
                    if derivation is not None
                    else self._value_specs()
                )
                derived = DerivedValues(assign_values(channels, specs))
            except WriteRequestError as exc:
                raise _missing_value_question(exc, channels) from exc
            if derivation is None:
                _refuse_references([c for c, _ in derived.assignments], self._said())
            if derivation is not None:
                origin = await checked_condition(
                    derivation,
                    [c for c, _ in derived.assignments],
                    readings,
                    _channel_database(),
                    connector,
                )
                derived.origins = {c: origin for c, _ in derived.assignments}
        operations = []
        said = self._said()
        for channel, spec in derived.assignments:
            operation = await plan_operation(connector, policy, channel, spec)
            if operation["violation"] and channel not in derived.origins and _sign_only(said, spec):
                # "RF f −1 kHz": a negative value alone after the name, which the channel
                # cannot take, is the change it says (asked, as every change is)
                change = replace(spec, mode="delta")
                moved = await plan_operation(connector, policy, channel, change)
                if not moved["violation"]:
                    operation = moved
            if channel in derived.origins:
                operation["value_source"] = "derived"
                operation["derived_from"] = derived.origins[channel]
            operations.append(operation)
        return operations

    def _said(self) -> str:
        """The operator's own words for this turn (the step's when there are none)."""
        from osprey_desktop.state import StateManager

        return str(StateManager.get_user_query(self._state) or self.request_text())

    def _derivation(self) -> Derivation | None:
        """A copy, restore or conditional write in the request (the step's words first)."""
        if specs_from_parameters(self.get_parameters()):
            return None  # a value given as a step parameter wins
        for text in self.candidate_texts():
            derivation = parse_derivation(text)
            if derivation is not None:
                return derivation
        return None

    async def _derived_values(
        self, derivation: Derivation, channels: Sequence[str], readings: Mapping[str, Any]
    ) -> DerivedValues:
        database = _channel_database()
        # a copy's source may be read-only ("the HCM35 readback", "its golden value"): every
        # channel found, not only the setpoints written
        found = getattr(self, "_found", None) or list(channels)
        if derivation.kind == "copy" and derivation.reference:
            return reference_values(derivation, found, readings, database)
        if derivation.kind == "copy":
            return copied_values(derivation, found, readings, database)
        from osprey_desktop.connectors import get_archiver_connector
        from osprey_desktop.language.time_parsing import names_last_change

        if names_last_change(derivation.moment):
            moment = await last_change_moment(derivation, channels)
        else:
            period = restore_period(derivation)
            if period is not None:  # "from this morning": the value held all of it
                archiver = await get_archiver_connector()
                return await period_restored_values(
                    derivation, channels, period, archiver, database
                )
            moment = restore_moment(derivation)
        archiver = await get_archiver_connector()
        return await restored_values(derivation, channels, moment, archiver, database)

    async def _readings(self, connector: Any, fresh: bool) -> dict[str, Any]:
        """The plan's readings of the channels a derived value comes from; ``fresh``: the same
        channels read again now (an approval asked again shows the facts of now)."""
        values = self._optional_input("CHANNEL_VALUES")
        readings = dict(getattr(values, "channel_values", None) or {})
        if not fresh or not readings:
            return readings
        try:
            now = await connector.read_multiple_channels(list(readings))
        except ConnectorError:
            return {}  # nothing stale stands in: the derivation then reads or asks
        return {name: r for name, r in now.items() if not isinstance(r, Exception)}

    def _optional_input(self, context_type: str) -> Any:
        """A context this step reads beyond ``requires`` (see ``inputs_for``), or None."""
        from osprey_desktop.context import ContextManager

        for item in self.get_step_inputs():
            key = item.get(context_type) if isinstance(item, dict) else None
            if key:
                return ContextManager(self._state).get_context(context_type, str(key))
        return None

    async def _condition_not_met(
        self,
        exc: ConditionNotMet,
        channels: Sequence[str],
        connector_kind: str,
        asked_again: str | None = None,
    ) -> dict[str, Any]:
        """The condition is false: nothing is asked or sent; the decision is audited. After
        an approval (``asked_again``: why it was not carried out) it says what changed."""
        read = exc.origin.get("channel")
        reason = str(exc)
        if asked_again:
            reason = f"the approved write was not sent: {asked_again}. {reason}"
        unsent = [
            (
                {
                    "channel": c,
                    "new_value": None,
                    "units": "",
                    "current_value": exc.origin.get("value") if c == read else None,
                },
                "not_sent",
                reason,
            )
            for c in channels
        ]
        return await self._nothing_sent(unsent, connector_kind, approval_id=None)

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

    async def _refuse_all(
        self, operations: Sequence[Mapping[str, Any]], connector_kind: str, approval_id: str | None
    ) -> dict[str, Any]:
        """Nothing is asked or written: each operation is audited as blocked, with its reason."""
        blocking = next((op["violation"] for op in operations if op.get("violation")), "")
        unsent = [
            (
                op,
                "blocked" if op.get("violation") else "not_sent",
                op.get("violation")
                or f"not written because another operation of this request was blocked: {blocking}",
            )
            for op in operations
        ]
        return await self._nothing_sent(unsent, connector_kind, approval_id)

    async def _nothing_sent(
        self,
        unsent: Sequence[tuple[Mapping[str, Any], str, str]],
        connector_kind: str,
        approval_id: str | None,
    ) -> dict[str, Any]:
        """Results for operations that were never sent ((operation, outcome, reason) each),
        every one audited; an audit failure is said in its reason, nothing is sent anyway."""
        audit = _audit_log()
        results = []
        for op, outcome, reason in unsent:
            try:
                await audit.arecord(
                    channel=str(op.get("channel")),
                    outcome=outcome,
                    requested_value=op.get("new_value"),
                    value_before=op.get("current_value"),
                    thread_id=self.thread_id(),
                    approval_id=approval_id,
                    message=reason,
                    connector=connector_kind,
                )
            except AuditError as exc:
                reason += f" (the audit log could not record this: {exc})"
            results.append(operation_result(op, outcome, reason, approval_id))
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


def _target_question(request: str, state: str | None = None) -> MissingAfterLookups | None:
    """A question about the target, known before any step runs: a device the list lacks,
    one device named where several fit ("the undulator gap"), too many channels, a state
    ("open") for channels the list gives units (numbers: "open the ID04 gap" needs a value).
    The plan then finds the candidates and asks; it never reaches the write."""
    from osprey_desktop.capabilities.control_room.channel_finding import (
        each_written,
        find_channels_noted,
        max_channels_per_write,
        names_with_their_separators,
    )

    try:
        database = _channel_database()
        request = names_with_their_separators(request, database)  # as the finding step reads
        # "raise the RF voltage by 0.1 MV and QF 21 by 0.5 A": each value's channels found
        # on their own, as the finding step finds them
        each = each_written(database, request)
        names, _, _ = each or find_channels_noted(
            database, request, writable=True, max_write_channels=max_channels_per_write()
        )
    except ClarificationRequired as exc:
        return MissingAfterLookups(exc.question)
    except Exception:  # noqa: BLE001 - no channel list yet: the finding step will say why
        return None
    records = [r for n in writable_targets(names) if (r := database.get(n)) is not None]
    if state is not None and records and all(r.units for r in records):
        return MissingValue(
            f"What value should I write? '{state}' names a state, but "
            f"{records[0].name} takes a number in {records[0].units}."
        )
    return None


def _channel_database() -> Any:
    from osprey_desktop.connectors import get_configured_channel_database

    return get_configured_channel_database()


def _audit_log() -> AuditLog:
    """The run's audit log: in the shared PostgreSQL database when the threads are there,
    else the configured file (cheap: nothing is opened until an entry is recorded)."""
    from osprey_desktop.safety.audit import audit_log_of_running_graph

    return audit_log_of_running_graph()


def _sign_only(said: str, spec: ValueSpec) -> bool:
    """Whether ``spec`` is a negative value typed with nothing but its sign to say what it is
    ("RF f −1 kHz", "ID 7 gap -0.5 mm"): no change verb, and no "to", "at", "=" or arrow
    before it."""
    if spec.mode != "absolute" or not spec.amount < 0:
        return False
    number = f"{abs(spec.amount):g}"
    for found in re.finditer(rf"[-−]\s?{re.escape(number)}(?![\d.])", said):
        before = said[: found.start()]
        if re.search(r"(?:\bto|\bat|=|->|→|:)\s*$", before, re.I):
            continue
        if re.search(r"\b(?:set|put|make|change|move|bring|take|go)\b", before, re.I):
            continue
        return True
    return False


def _refuse_references(channels: Sequence[str], said: str) -> None:
    """Fail closed on a write to a device the operator named only as a reference ("set QD10
    half an amp below QD12" read as a plain value would write QD12 too): asked, never sent."""
    from osprey_desktop.language.clauses import named_devices, reference_devices

    references = reference_devices(said)
    if not references:
        return
    database = _channel_database()
    for channel in channels:
        record = database.get(channel) if database is not None else None
        device = named_devices(str(getattr(record, "device", "") or ""))
        if device & references:
            (named,) = sorted(device & references)[:1]
            raise ClarificationRequired(
                f"{named} is named as what the value is measured against, not as a device to "
                "change, so nothing was asked. Say it as a copy (for example “set <device> to "
                f"the same value as {named} plus 0.5 A”) or name only the devices to change.",
                [f"set ... to the same value as {named}"],
            )


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
