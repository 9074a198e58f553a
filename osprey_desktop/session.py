"""AgentSession: the Gateway, the compiled graph and the SQLite checkpointer behind one API.

The command line and the window both drive the agent through this class, so a turn behaves
the same wherever it was typed. Everything is async and uses only LangGraph's async API; open
the session inside the coroutine of the loop that will run it (qasync in the window).

Turns stream with ``durability="exit"``: the checkpoint is written once when the run ends, is
interrupted or is cancelled, instead of after every step. With the SQLite saver each
checkpoint stores every channel in full, so per-step writes made a thread holding 10,000
contexts pay for the whole context at each step (see ``bench/turn.py`` and the README).

A run that resumes an approval streams with ``durability="sync"`` instead: approved steps act
on the machine, and each finished step must be on disk before the next one starts, so a crash
after an approved write can never leave that approval pending (and approvable a second time).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langgraph.errors import GraphRecursionError

from osprey_desktop.approval import ApprovalDecision
from osprey_desktop.infrastructure.gateway import (
    Gateway,
    GatewayResult,
    interrupt_payload,
    pending_interrupts,
)
from osprey_desktop.infrastructure.slash_commands import build_slash_command_registry
from osprey_desktop.persistence import (
    CheckpointDatabaseError,
    ThreadInfo,
    delete_thread,
    list_threads,
    open_checkpointer,
    thread_exists,
)
from osprey_desktop.persistence.chunked_saver import keeps_transcript, whole_conversation_of
from osprey_desktop.persistence.threads import REQUEST_METADATA_KEY, TURN_STARTED_METADATA_KEY
from osprey_desktop.persistence.transcript import RECENT_MESSAGES

logger = logging.getLogger(__name__)

STREAM_MODES = ("custom", "updates", "messages")
EventCallback = Callable[[str, Any], Awaitable[None] | None]
GraphFactory = Callable[[Any], Any]
Durability = Literal["exit", "async", "sync"]


def new_thread_id() -> str:
    """A short random thread id an operator can retype (48 random bits)."""
    return uuid.uuid4().hex[:12]


@dataclass
class TurnResult:
    """The outcome of one ``submit`` or ``resume``."""

    thread_id: str
    response: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    pending_approval: dict[str, Any] | None = None
    error: str | None = None
    exit_requested: bool = False
    is_state_only_update: bool = False
    message: str | None = None
    slash_commands_processed: list[str] = field(default_factory=list)
    approved: bool | None = None
    already_answered: dict[str, Any] | None = None

    @property
    def plan(self) -> dict[str, Any] | None:
        plan = self.state.get("planning_execution_plan")
        return plan if isinstance(plan, dict) else None

    @property
    def context_keys(self) -> list[str]:
        """Every stored context as ``"TYPE.key"``."""
        data = self.state.get("capability_context_data") or {}
        return [f"{ctype}.{key}" for ctype, entries in data.items() for key in entries]

    @property
    def launchable_commands(self) -> list[dict[str, Any]]:
        return list(self.state.get("ui_launchable_commands") or [])

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``osprey-desktop ask --json``."""
        return {
            "thread_id": self.thread_id,
            "response": self.response,
            "plan": self.plan,
            "context_keys": self.context_keys,
            "launchable_commands": self.launchable_commands,
            "pending_approval": self.pending_approval,
            "error": self.error,
            "message": self.message,
            "slash_commands": self.slash_commands_processed,
            "already_answered": self.already_answered,
        }


def _message_text(message: Any) -> tuple[str, str]:
    """(role, text) of a LangChain message or a plain dict message."""
    if isinstance(message, Mapping):
        role, content = (
            str(message.get("type") or message.get("role") or ""),
            message.get("content"),
        )
    else:
        role, content = str(getattr(message, "type", "")), getattr(message, "content", "")
    if isinstance(content, list):
        content = "".join(p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content)
    return role, str(content or "")


def response_of_turn(values: Mapping[str, Any]) -> str | None:
    """The last AI message after the last human message: this turn's answer, if any."""
    for message in reversed(values.get("messages") or []):
        role, text = _message_text(message)
        if role in ("human", "user"):
            return None
        if role in ("ai", "assistant") and text:
            return text
    return None


def _request_text(agent_state: Mapping[str, Any] | None) -> str | None:
    messages = (agent_state or {}).get("messages") or []
    return _message_text(messages[-1])[1] if messages else None


class AgentSession:
    """One open conversation database with its graph; many threads."""

    def __init__(
        self,
        graph: Any,
        checkpointer: Any,
        *,
        gateway: Gateway | None = None,
        db_path: Path | Any = None,
        recursion_limit: int = 100,
        durability: Durability = "exit",
        resume_durability: Durability = "sync",
    ) -> None:
        self.graph = graph
        self.checkpointer = checkpointer
        self.gateway = gateway or Gateway()
        self.db_path = db_path
        self.recursion_limit = recursion_limit
        self.durability: Durability = durability
        self.resume_durability: Durability = resume_durability

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        config: Any = None,
        db_path: str | Path | None = None,
        *,
        registry: Any = None,
        graph_factory: GraphFactory | None = None,
        durability: Durability = "exit",
    ) -> AsyncIterator[AgentSession]:
        """Open the database (``db_path`` or ``file_paths.checkpoint_db``: a SQLite file or a
        ``postgresql://`` URL) and compile the graph.

        A ``config`` given here becomes the process-wide one, because the nodes read theirs
        through ``get_config()``. ``graph_factory(checkpointer)`` replaces ``create_graph``.
        """
        from osprey_desktop.config import get_config, set_config
        from osprey_desktop.persistence.postgres import conversation_database

        if config is not None:
            set_config(config)
        cfg = get_config()
        # a file, or a postgresql:// URL that consoles share (persistence.postgres)
        path = conversation_database(db_path, cfg)
        async with open_checkpointer(path) as saver:
            if graph_factory is not None:
                graph = graph_factory(saver)
                capabilities = _capabilities(registry) if registry is not None else []
            else:
                from osprey_desktop.graph import create_graph
                from osprey_desktop.registry import get_registry

                registry = registry if registry is not None else get_registry()
                graph = create_graph(registry, checkpointer=saver)
                capabilities = _capabilities(registry)
            # the state keeps the recent conversation when the whole one is kept beside it
            recent = (
                RECENT_MESSAGES if keeps_transcript(getattr(graph, "checkpointer", None)) else None
            )
            gateway = Gateway(build_slash_command_registry(capabilities), recent_messages=recent)
            yield cls(
                graph,
                saver,
                gateway=gateway,
                db_path=path,
                recursion_limit=cfg.execution_control.limits.graph_recursion_limit,
                durability=durability,
            )

    # -- turns ---------------------------------------------------------------------------------

    def run_config(self, thread_id: str, request: str | None = None) -> dict[str, Any]:
        config: dict[str, Any] = {
            "configurable": {"thread_id": thread_id},
            "recursion_limit": self.recursion_limit,
        }
        if request:
            config["metadata"] = {
                REQUEST_METADATA_KEY: request[:500],
                TURN_STARTED_METADATA_KEY: time.time(),
            }
        return config

    async def submit(
        self, text: str, thread_id: str | None = None, on_event: EventCallback | None = None
    ) -> TurnResult:
        """Send what the operator typed to a thread (a new one when ``thread_id`` is None)."""
        thread_id = thread_id or new_thread_id()
        deleted = await self._deleted_error(thread_id)
        if deleted is not None:
            return deleted
        config = self.run_config(thread_id)
        # the thread is read once here, for settling and for the Gateway (not once each)
        snapshot = await self._read_snapshot(thread_id)
        settled = await self._settle(thread_id, snapshot, on_event)
        gateway_result = await self._guard(
            self.gateway.process_message(
                text, self.graph, config, snapshot=snapshot if settled is None else None
            )
        )
        result = await self._execute(gateway_result, thread_id, on_event)
        if settled is not None and settled.response:
            # the earlier approval's outcome, brought up to date, comes first
            result.response = f"{settled.response}\n\n{result.response or ''}".rstrip()
        return result

    async def resume(
        self,
        thread_id: str,
        decision: bool | ApprovalDecision,
        on_event: EventCallback | None = None,
    ) -> TurnResult:
        """Answer the pending approval of ``thread_id`` (True/False or a structured decision).

        An approval answered already (by another console, or before a crash) is not answered
        again: the result carries ``already_answered`` and the thread is brought up to date.
        """
        deleted = await self._deleted_error(thread_id)
        if deleted is not None:
            return deleted
        config = self.run_config(thread_id)
        gateway_result = await self._guard(
            self.gateway.process_decision(decision, self.graph, config)
        )
        result = await self._execute(gateway_result, thread_id, on_event)
        if result.already_answered is not None:
            settled = await self.settle(thread_id, on_event)
            if settled is not None:
                result.state, result.response = settled.state, settled.response
                result.pending_approval = settled.pending_approval
        return result

    # -- approvals answered elsewhere, writes in doubt, deleted threads ----------------------

    @property
    def ledger(self) -> Any:
        """The approval ledger stored with this session's threads (None without one)."""
        from osprey_desktop.persistence.approvals import approval_ledger_for

        return approval_ledger_for(self.checkpointer)

    async def settle(
        self, thread_id: str, on_event: EventCallback | None = None
    ) -> TurnResult | None:
        """Bring a thread whose approval was answered, but whose graph still waits, up to date.

        That happens when the console that answered stopped (crash, kill, Stop) before the
        step's checkpoint was written. What the ledger says decides, and nothing is ever sent
        again: an answer given but not acted on (``approved``/``executing``) is withdrawn and
        the approval is pending again; a rejection, a finished write, or a write in doubt is
        replayed into the thread, whose step then reports it. Returns the replayed turn (or
        None: nothing to do, or the approval is pending again). A console still working on the
        approval is left alone.
        """
        ledger = self.ledger
        if ledger is None:
            return None
        snapshot = await self._guard(self.graph.aget_state(self.run_config(thread_id)))
        return await self._settle(thread_id, snapshot, on_event)

    async def _read_snapshot(self, thread_id: str) -> Any:
        """The thread's state snapshot, or None when the graph keeps no threads."""
        if getattr(self.graph, "checkpointer", None) in (None, False):
            return None
        return await self._guard(self.graph.aget_state(self.run_config(thread_id)))

    async def _settle(
        self, thread_id: str, snapshot: Any, on_event: EventCallback | None = None
    ) -> TurnResult | None:
        """``settle`` on a snapshot already read."""
        from langgraph.types import Command

        from osprey_desktop.infrastructure.gateway import approval_id_of

        ledger = self.ledger
        if ledger is None or snapshot is None:
            return None
        waiting = [
            (task, interrupt)
            for task in getattr(snapshot, "tasks", ()) or ()
            for interrupt in getattr(task, "interrupts", ()) or ()
        ]
        if not waiting:
            return None
        task, interrupt = waiting[0]
        record = await self._guard(ledger.get(approval_id_of(interrupt)))
        if record is None or record.status == "pending":
            return None
        if record.status in ("approved", "executing", "sending") and record.owner_alive():
            return None
        if record.status in ("approved", "executing"):
            await self._guard(ledger.reopen_abandoned(record))
            return None
        if getattr(task, "error", None) is not None:
            # the answered run was stopped (Stop, a crash of the node): run the step again with
            # the answer it already has; the ledger makes it report, never send again
            return await self._execute(GatewayResult(), thread_id, on_event, rerun=True)
        resume = {"approved": bool(record.answer), "interrupt_id": interrupt.id}
        settling = GatewayResult(
            resume_command=Command(resume=resume),
            approval_detected=True,
            is_interrupt_resume=True,
            approved=bool(record.answer),
        )
        return await self._execute(settling, thread_id, on_event)

    async def writes_in_doubt(self, thread_id: str | None = None) -> list[Any]:
        """Approved writes that may have reached the machine with no recorded outcome."""
        ledger = self.ledger
        return [] if ledger is None else list(await self._guard(ledger.in_doubt(thread_id)))

    async def verify_writes(self, thread_id: str) -> list[Any]:
        """Read back every write in doubt on ``thread_id`` and record what was found.

        Sends nothing. Returns the ``WriteOperationResult`` of every channel read back.
        """
        from osprey_desktop.capabilities.control_room.write_execution import resolve_in_doubt
        from osprey_desktop.connectors import get_control_system_connector
        from osprey_desktop.safety.audit import audit_log_for

        await self.settle(thread_id)
        connector = await get_control_system_connector()
        audit = audit_log_for(self.checkpointer)
        results: list[Any] = []
        for record in await self.writes_in_doubt(thread_id):
            results += await resolve_in_doubt(self.ledger, record, connector, audit)
        return results

    async def _verify_answer(self, thread_id: str) -> str:
        """``/verify``: the findings of reading back this thread's writes in doubt."""
        from osprey_desktop.capabilities.control_room.contexts import ChannelWriteResultsContext

        results = await self.verify_writes(thread_id)
        if not results:
            return "No write is in doubt on this thread; nothing to verify (nothing was sent)."
        facts = ChannelWriteResultsContext(results=results).get_summary()["facts"]
        return "Read back (nothing was sent):\n" + "\n".join(facts)

    async def _deleted_error(self, thread_id: str) -> TurnResult | None:
        ledger = self.ledger
        if ledger is not None and await self._guard(ledger.thread_deleted(thread_id)):
            return TurnResult(
                thread_id=thread_id,
                error=f"thread {thread_id} was deleted; start a new thread instead",
            )
        return None

    async def _execute(
        self,
        gateway_result: GatewayResult,
        thread_id: str,
        on_event: EventCallback | None,
        *,
        rerun: bool = False,
    ) -> TurnResult:
        """Run what the Gateway prepared (``rerun``: the thread's interrupted step again)."""
        result = TurnResult(
            thread_id=thread_id,
            already_answered=gateway_result.already_answered,
            error=gateway_result.error,
            exit_requested=gateway_result.exit_requested,
            is_state_only_update=gateway_result.is_state_only_update,
            message=gateway_result.message,
            slash_commands_processed=list(gateway_result.slash_commands_processed or []),
            approved=gateway_result.approved,
        )
        if not gateway_result.runs_graph and not rerun:
            if gateway_result.error and gateway_result.interrupt is not None:
                result.pending_approval = gateway_result.interrupt
            if gateway_result.verify_requested and not gateway_result.error:
                result.response = await self._verify_answer(thread_id)
            return result
        graph_input = gateway_result.resume_command
        if graph_input is None:
            graph_input = gateway_result.agent_state
        config = self.run_config(thread_id, _request_text(gateway_result.agent_state))
        final: dict[str, Any] | None = None
        try:
            async for mode, payload in self.graph.astream(
                graph_input,
                config,
                stream_mode=[*STREAM_MODES, "values"],
                durability=(
                    self.resume_durability
                    if gateway_result.is_interrupt_resume or rerun
                    else self.durability
                ),
            ):
                if mode == "values":
                    final = payload  # kept, not delivered: the callers' contract is 3 modes
                else:
                    await _deliver(on_event, mode, payload)
        except (asyncio.CancelledError, CheckpointDatabaseError):
            raise
        except sqlite3.Error as exc:
            raise self._database_error(exc) from exc
        except GraphRecursionError:
            final = None
            result.error = (
                f"the turn stopped after {self.recursion_limit} graph steps "
                "(execution_control.limits.graph_recursion_limit); try a simpler request"
            )
        except Exception as exc:  # a node bug must not kill the window or the CLI
            final = None
            logger.warning("turn on thread %s failed", thread_id, exc_info=True)
            result.error = f"the turn failed: {type(exc).__name__}: {exc}"
        if final is not None:
            # The last "values" item is the state the run ended with (plus the interrupt that
            # paused it): the same as aget_state, without loading the checkpoint again.
            values = dict(final)
            interrupts = list(values.pop("__interrupt__", None) or ())
        else:
            snapshot = await self._guard(self.graph.aget_state(self.run_config(thread_id)))
            values = dict(snapshot.values or {})
            interrupts = pending_interrupts(snapshot)
        result.state = values
        if interrupts:
            result.pending_approval = interrupt_payload(interrupts[0])
        else:
            result.response = response_of_turn(values)
        ledger = self.ledger
        if ledger is not None and await self._guard(ledger.thread_deleted(thread_id)):
            # deleted while this run was going: what the run just stored goes too
            await delete_thread(self._thread_saver, thread_id)
            result.error = result.error or f"thread {thread_id} was deleted during this turn"
        return result

    # -- thread queries -------------------------------------------------------------------------

    async def pending_approval(self, thread_id: str) -> dict[str, Any] | None:
        """The payload of the approval ``thread_id`` waits for (with ``interrupt_id``), or None."""
        snapshot = await self._guard(self.graph.aget_state(self.run_config(thread_id)))
        if await self._settle(thread_id, snapshot) is not None:
            snapshot = await self._guard(self.graph.aget_state(self.run_config(thread_id)))
        pending = pending_interrupts(snapshot)
        return interrupt_payload(pending[0]) if pending else None

    async def get_state_values(self, thread_id: str) -> dict[str, Any]:
        """The thread's state, ``messages`` holding its whole conversation (the state itself
        keeps the recent part; the rest comes from the transcript beside it)."""
        snapshot = await self._guard(self.graph.aget_state(self.run_config(thread_id)))
        values = dict(snapshot.values or {})
        if "messages" in values:
            saver = getattr(self.graph, "checkpointer", None)
            values["messages"] = await self._guard(
                whole_conversation_of(saver, thread_id, list(values["messages"] or []))
            )
        return values

    async def list_threads(self) -> list[ThreadInfo]:
        threads = await list_threads(self.checkpointer)
        ledger = self.ledger
        if ledger is None:
            return threads
        deleted = await self._guard(ledger.deleted_threads())
        return [t for t in threads if t.thread_id not in deleted]

    async def thread_exists(self, thread_id: str) -> bool:
        ledger = self.ledger
        if ledger is not None and await self._guard(ledger.thread_deleted(thread_id)):
            return False
        return await thread_exists(self.checkpointer, thread_id)

    async def delete_thread(self, thread_id: str) -> bool:
        """Delete a thread for good: a turn or an approval still running on it cannot bring it
        back (the ledger remembers the deletion; the audit log keeps its writes)."""
        ledger = self.ledger
        existed = await thread_exists(self.checkpointer, thread_id)
        if ledger is not None:
            await self._guard(ledger.mark_thread_deleted(thread_id))
        await delete_thread(self._thread_saver, thread_id)
        return existed

    # -- helpers ----------------------------------------------------------------------------------

    @property
    def _thread_saver(self) -> Any:
        """The saver a thread is deleted through: the graph's (its chunks and transcript go
        with it), else the one the session opened."""
        graph_saver = getattr(self.graph, "checkpointer", None)
        return graph_saver if keeps_transcript(graph_saver) else self.checkpointer

    async def _guard(self, awaitable: Awaitable[Any]) -> Any:
        """Await, turning SQLite failures into one clear database error."""
        try:
            return await awaitable
        except sqlite3.Error as exc:
            raise self._database_error(exc) from exc

    def _database_error(self, exc: sqlite3.Error) -> CheckpointDatabaseError:
        """Locked, full, damaged or unwritable: each says what the operator can do."""
        from osprey_desktop.persistence.checkpointer import describe_sqlite_error

        return describe_sqlite_error(self.db_path or "?", exc)


async def _deliver(on_event: EventCallback | None, mode: str, payload: Any) -> None:
    """Hand one stream item to the caller; a failing callback is logged, the turn goes on."""
    if on_event is None:
        return
    try:
        outcome = on_event(mode, payload)
        if inspect.isawaitable(outcome):
            await outcome
    except asyncio.CancelledError:
        raise
    except Exception:
        logger.exception("on_event callback failed for a %s event", mode)


def _capabilities(registry: Any) -> list[Any]:
    getter = getattr(registry, "get_all_capabilities", None)
    if getter is None:
        return []
    capabilities = getter()
    return list(capabilities.values() if isinstance(capabilities, Mapping) else capabilities)


__all__ = [
    "STREAM_MODES",
    "AgentSession",
    "TurnResult",
    "new_thread_id",
    "response_of_turn",
]
