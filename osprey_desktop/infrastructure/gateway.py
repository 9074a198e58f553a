"""The Gateway: the single entry point that turns what the operator typed into graph input.

It decides between three flows, reading the thread only through the async graph API:

* an approval is pending: the text must be an exact yes/no word (``Command(resume=...)``),
  anything else is refused and nothing runs;
* slash commands alone: the thread's settings change (``aupdate_state``), no turn runs;
* a request: a fresh state for a new turn, with the thread's settings and the request's own
  toggles applied over the configured ``agent_control`` defaults.

The window sends structured decisions through ``process_decision``, which shares the checks
and the resume value with the typed answers.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.messages import RemoveMessage
from langgraph.errors import InvalidUpdateError
from langgraph.types import Command, Interrupt

from osprey_desktop.approval import ApprovalDecision
from osprey_desktop.approval.answers import (
    APPROVAL_WORDS,
    REJECTION_WORDS,
    normalize_answer,
    parse_approval_answer,
)
from osprey_desktop.infrastructure.slash_commands import (
    SESSION_CONTROL_KEY,
    ParsedSlashCommand,
    SlashCommandError,
    SlashCommandRegistry,
    build_slash_command_registry,
    describe_overrides,
    merge_control_overrides,
)
from osprey_desktop.language.request_length import MAX_REQUEST_CHARS, too_long_message

logger = logging.getLogger(__name__)

PENDING_APPROVAL_ERROR = "an approval is pending: answer yes or no"


class CompiledGraph(Protocol):
    """The part of a compiled LangGraph graph the Gateway uses (async only)."""

    async def aget_state(self, config: Any, *, subgraphs: bool = False) -> Any: ...

    async def aupdate_state(self, config: Any, values: Any, as_node: str | None = None) -> Any: ...


@dataclass
class GatewayResult:
    """What to run next (``agent_state`` or ``resume_command``), or why nothing runs."""

    agent_state: dict[str, Any] | None = None
    resume_command: Command | None = None
    slash_commands_processed: list[str] | None = None
    """The slash commands a message carried (``[]`` for a request without any); None when
    the message was not parsed for commands (an approval answer, an error)."""
    approval_detected: bool = False
    is_interrupt_resume: bool = False
    error: str | None = None
    is_state_only_update: bool = False
    exit_requested: bool = False
    message: str | None = None
    approved: bool | None = None
    interrupt: dict[str, Any] | None = None
    already_answered: dict[str, Any] | None = None
    verify_requested: bool = False

    @property
    def runs_graph(self) -> bool:
        return self.error is None and (
            self.resume_command is not None or self.agent_state is not None
        )


def pending_interrupts(snapshot: Any) -> list[Interrupt]:
    """Interrupts still waiting for an answer.

    A task whose resumed run failed keeps its interrupt *and* the stored answer, so LangGraph
    would replay the old answer; such an approval is spent, not pending.
    """
    if snapshot is None:
        return []
    pending: list[Interrupt] = []
    for task in getattr(snapshot, "tasks", ()) or ():
        if getattr(task, "error", None) is None:
            pending.extend(getattr(task, "interrupts", ()) or ())
    return pending


def interrupt_payload(interrupt: Interrupt) -> dict[str, Any]:
    """The interrupt's value plus its id (the window needs the id to answer it)."""
    value = interrupt.value if isinstance(interrupt.value, Mapping) else {"value": interrupt.value}
    return {**value, "interrupt_id": interrupt.id}


def approval_id_of(interrupt: Interrupt) -> str:
    """The id an answer is claimed under: the payload's own ``approval_id`` (write approvals
    carry one that stays the same when the node runs again), else LangGraph's interrupt id."""
    value = interrupt.value if isinstance(interrupt.value, Mapping) else {}
    payload = value.get("resume_payload")
    own = payload.get("approval_id") if isinstance(payload, Mapping) else None
    return str(own) if own else str(interrupt.id)


def approval_type_of(interrupt: Interrupt) -> str:
    value = interrupt.value if isinstance(interrupt.value, Mapping) else {}
    payload = value.get("resume_payload")
    kind = payload.get("approval_type") if isinstance(payload, Mapping) else None
    return str(kind or "approval")


def resume_value(approved: bool, interrupt: Interrupt) -> dict[str, Any]:
    """The value ``interrupt()`` returns in the paused node (``ApprovalDecision.to_dict`` shape).

    It carries the ``resume_payload`` the operator was shown, so the re-run node executes
    exactly that payload instead of one derived again.
    """
    value: dict[str, Any] = {"approved": bool(approved), "interrupt_id": interrupt.id}
    payload = interrupt.value if isinstance(interrupt.value, Mapping) else {}
    if approved and isinstance(payload.get("resume_payload"), Mapping):
        value["resume_payload"] = dict(payload["resume_payload"])
    return value


class Gateway:
    """Preprocesses every message of every interface (CLI, window, bench).

    ``recent_messages``: how many of the thread's messages a new request keeps in the state
    (older ones leave it through ``RemoveMessage``, ``add_messages``' own way); None keeps
    them all. Set it only when the checkpointer keeps the whole conversation beside the
    state (``persistence.chunked_saver.keeps_transcript``).
    """

    def __init__(
        self,
        slash_commands: SlashCommandRegistry | None = None,
        *,
        recent_messages: int | None = None,
    ) -> None:
        if recent_messages is not None and recent_messages < 1:
            raise ValueError(f"recent_messages must keep at least 1 message, got {recent_messages}")
        self.slash_commands = slash_commands or build_slash_command_registry()
        self.recent_messages = recent_messages

    # -- entry points ------------------------------------------------------------------------

    async def process_message(
        self,
        user_input: str,
        compiled_graph: CompiledGraph,
        config: dict[str, Any],
        *,
        snapshot: Any = None,
    ) -> GatewayResult:
        """Classify ``user_input`` and prepare what the graph should run (if anything).

        ``snapshot``: the thread's state as the caller has just read it (``aget_state``), so a
        turn reads the thread once; without it the Gateway reads it.
        """
        if not isinstance(user_input, str):
            return GatewayResult(error=f"a message must be text, got {type(user_input).__name__}")
        if len(user_input) > MAX_REQUEST_CHARS:
            return GatewayResult(error=f"not planned: {too_long_message(len(user_input))}")
        if snapshot is None:
            snapshot = await _read_state(compiled_graph, config)
        pending = pending_interrupts(snapshot)
        if pending:
            return await self._handle_interrupt_flow(user_input, pending, compiled_graph, config)
        return await self._handle_new_message_flow(user_input, compiled_graph, config, snapshot)

    async def process_decision(
        self,
        decision: bool | ApprovalDecision,
        compiled_graph: CompiledGraph,
        config: dict[str, Any],
    ) -> GatewayResult:
        """Answer a pending approval with a structured decision (a bool or an ApprovalDecision).

        ``decision.interrupt_id`` names the interrupt answered; a stale id is refused. The
        decision's own payload is not used: the node gets the payload the operator was shown.
        """
        approved = decision if isinstance(decision, bool) else getattr(decision, "approved", None)
        if not isinstance(approved, bool):
            return GatewayResult(error=f"a decision needs approved=True/False, got {decision!r}")
        wanted = None if isinstance(decision, bool) else getattr(decision, "interrupt_id", None)
        pending = pending_interrupts(await _read_state(compiled_graph, config))
        if not pending:
            answered = await _last_answer(compiled_graph, config)
            return answered or GatewayResult(
                error=f"no approval is pending on thread {_thread_id(config)}; nothing was run"
            )
        if wanted is not None:
            match = [item for item in pending if item.id == wanted]
            if not match:
                answered = await _last_answer(compiled_graph, config)
                return answered or GatewayResult(
                    error=f"approval {wanted} is no longer pending on thread "
                    f"{_thread_id(config)} (answered or superseded); nothing was run"
                )
            return await self._resume(approved, match[0], len(pending) == 1, compiled_graph, config)
        return await self._resume(approved, pending[0], len(pending) == 1, compiled_graph, config)

    # -- flows --------------------------------------------------------------------------------

    async def _handle_interrupt_flow(
        self,
        user_input: str,
        pending: list[Interrupt],
        compiled_graph: CompiledGraph,
        config: dict[str, Any],
    ) -> GatewayResult:
        stripped = user_input.strip()
        if stripped.startswith("/"):
            result = self._actions_only(stripped)
            if result is not None:
                return result
        approved = parse_approval_answer(user_input)
        if approved is None:
            return GatewayResult(
                error=PENDING_APPROVAL_ERROR, interrupt=interrupt_payload(pending[0])
            )
        return await self._resume(approved, pending[0], len(pending) == 1, compiled_graph, config)

    def _actions_only(self, text: str) -> GatewayResult | None:
        """``/help`` and ``/exit`` stay usable while an approval waits; they run nothing."""
        try:
            commands, rest = self.slash_commands.parse(text)
        except SlashCommandError:
            return None
        if rest or any(c.command.kind != "action" for c in commands):
            return None
        result = GatewayResult(slash_commands_processed=[c.typed for c in commands])
        return self._apply_actions(commands, result) or result

    async def _resume(
        self,
        approved: bool,
        interrupt: Interrupt,
        single: bool,
        compiled_graph: Any,
        config: dict[str, Any],
    ) -> GatewayResult:
        """Claim the answer in the approval ledger, then resume; a second answer is refused.

        The claim is one atomic statement in the thread database, so of two consoles (or two
        ``approve`` processes) answering the same approval only one resumes the graph.
        """
        from osprey_desktop.persistence.approvals import approval_ledger_for

        ledger = approval_ledger_for(getattr(compiled_graph, "checkpointer", None))
        if ledger is not None:
            thread = _thread_id(config)
            if await ledger.thread_deleted(thread):
                return GatewayResult(error=f"thread {thread} was deleted; nothing was run")
            claim = await ledger.claim_answer(
                approval_id_of(interrupt), thread, approval_type_of(interrupt), approved
            )
            if not claim.won:
                record = claim.record
                return GatewayResult(
                    error=f"this approval was already {record.describe_answer()}; "
                    "this answer was not used and nothing more was run",
                    already_answered=record.to_dict(),
                    interrupt=interrupt_payload(interrupt),
                )
        value = resume_value(approved, interrupt)
        resume = value if single else {interrupt.id: value}
        return GatewayResult(
            resume_command=Command(resume=resume),
            approval_detected=True,
            is_interrupt_resume=True,
            approved=approved,
            interrupt=interrupt_payload(interrupt),
        )

    async def _handle_new_message_flow(
        self,
        user_input: str,
        compiled_graph: CompiledGraph,
        config: dict[str, Any],
        snapshot: Any,
    ) -> GatewayResult:
        try:
            commands, request = self.slash_commands.parse(user_input)
        except SlashCommandError as exc:
            return GatewayResult(error=str(exc))
        if not commands and not request:
            return GatewayResult(error="the message is empty: type a request, or /help")
        result = GatewayResult(slash_commands_processed=[c.typed for c in commands])
        action_result = self._apply_actions(commands, result)
        if action_result is not None:
            return action_result

        overrides = _overrides(commands)
        values = dict(getattr(snapshot, "values", None) or {})
        session_state = dict(values.get("session_state") or {})
        session_overrides = dict(session_state.get(SESSION_CONTROL_KEY) or {})

        if not request:
            updated = merge_control_overrides(session_overrides, overrides)
            if not _has_checkpointer(compiled_graph):
                return GatewayResult(
                    error="thread settings need a conversation database: compile the graph with "
                    "a checkpointer, or put the command in front of a request"
                )
            await _update_session_state(compiled_graph, config, {SESSION_CONTROL_KEY: updated})
            result.is_state_only_update = True
            result.message = f"thread settings: {describe_overrides(overrides)}"
            return result

        from osprey_desktop.state import StateManager

        fresh = dict(StateManager.create_fresh_state(request, values))
        control = merge_control_overrides(fresh.get("agent_control") or {}, session_overrides)
        fresh["agent_control"] = merge_control_overrides(control, overrides)
        fresh["execution_start_time"] = time.time()
        if self.recent_messages is not None:
            stale = list(values.get("messages") or [])[: -self.recent_messages]
            dropped = [RemoveMessage(id=m.id) for m in stale if getattr(m, "id", None)]
            fresh["messages"] = [*dropped, *fresh["messages"]]
        # The fresh state carries the thread's contexts, as the spec's does. Sending them back
        # costs little: the reducer keeps the stored entries it is handed back equal, and the
        # chunking saver writes only chunks that changed.
        result.agent_state = fresh
        if overrides:
            result.message = f"for this request: {describe_overrides(overrides)}"
        return result

    def _apply_actions(
        self, commands: Sequence[ParsedSlashCommand], result: GatewayResult
    ) -> GatewayResult | None:
        """``/exit`` and ``/help`` end processing here (a request next to them is not run)."""
        actions = [c for c in commands if c.command.kind == "action"]
        if not actions:
            return None
        for parsed in actions:
            if parsed.name == "exit":
                result.exit_requested = True
            elif parsed.name == "verify":
                result.verify_requested = True
            elif parsed.name == "help":
                topic = parsed.value if isinstance(parsed.value, str) else None
                try:
                    result.message = self.slash_commands.help_text(topic)
                except SlashCommandError as exc:
                    result.error = str(exc)
        return result


def _overrides(commands: Sequence[ParsedSlashCommand]) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    for parsed in commands:
        if parsed.command.kind != "action" and parsed.value is not None:
            overrides = merge_control_overrides(overrides, parsed.command.overrides(parsed.value))
    return overrides


def _has_checkpointer(graph: Any) -> bool:
    return getattr(graph, "checkpointer", None) not in (None, False)


async def _read_state(graph: Any, config: dict[str, Any]) -> Any:
    """The thread's snapshot; None for a graph compiled without a checkpointer (no threads)."""
    if not _has_checkpointer(graph):
        return None
    return await graph.aget_state(config)


async def _update_session_state(
    graph: CompiledGraph, config: dict[str, Any], update: dict[str, Any]
) -> None:
    """Store settings without running a turn.

    LangGraph attributes the update to the node that wrote last; when it cannot tell (a fresh
    thread, or several nodes in the last step) the update is attributed to the input instead.
    A later request starts its own run from the entry point either way.
    """
    try:
        await graph.aupdate_state(config, {"session_state": update})
    except InvalidUpdateError:
        await graph.aupdate_state(config, {"session_state": update}, as_node="__start__")


async def _last_answer(graph: Any, config: dict[str, Any]) -> GatewayResult | None:
    """The "already answered" result when the thread's latest approval was answered (by
    another console that has finished with it); None when the ledger knows of no answer."""
    from osprey_desktop.persistence.approvals import approval_ledger_for

    ledger = approval_ledger_for(getattr(graph, "checkpointer", None))
    if ledger is None:
        return None
    answered = [r for r in await ledger.for_thread(_thread_id(config)) if r.answered_at]
    if not answered:
        return None
    record = max(answered, key=lambda r: r.answered_at or 0.0)
    return GatewayResult(
        error=f"this approval was already {record.describe_answer()}; this answer was not used "
        "and nothing more was run",
        already_answered=record.to_dict(),
    )


def _thread_id(config: Mapping[str, Any]) -> str:
    return str((config.get("configurable") or {}).get("thread_id", "?"))


__all__ = [
    "APPROVAL_WORDS",
    "PENDING_APPROVAL_ERROR",
    "REJECTION_WORDS",
    "Gateway",
    "GatewayResult",
    "approval_id_of",
    "approval_type_of",
    "interrupt_payload",
    "normalize_answer",
    "parse_approval_answer",
    "pending_interrupts",
    "resume_value",
]
