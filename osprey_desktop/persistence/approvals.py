"""The approval ledger: who answered which approval, and how far its write got, durably.

LangGraph keeps a pending approval as an interrupt in the thread's checkpoint, but a
checkpoint is written only when a run ends; two processes that read the same pending
interrupt can both resume it. The ledger is the one place that decides, atomically and across
processes, that an approval is answered once and carried out once. It lives in the same
storage as the threads (a table beside the checkpoints; an in-memory table beside an in-memory
saver), so consoles that share a thread database share the ledger with it.

An approval row moves through these states, each transition a single conditional ``UPDATE``
(or an upsert) that only one process can win::

    pending --answer--> approved | rejected
    approved --one process starts it--> executing --the first put leaves--> sending --> done
    executing --values moved / expired--> superseded          (nothing sent; asked again)
    sending, its process gone --operator reads back--> resolved   (the write was in doubt)
    approved | executing, its process gone --> pending            (nothing sent; ask again)

``sending`` whose owner is gone is a write *in doubt*: a put may have reached the machine and
its outcome was never recorded. It is never carried out again by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import hashlib
import json
import os
import socket
import sqlite3
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.persistence.statements import Executor, StatementResult

#: How often a console carrying out a write refreshes its claim (``approval.heartbeat_seconds``).
HEARTBEAT_SECONDS = 5.0
#: A console on another host is presumed gone only after this many heartbeats in a row were
#: missed (on this host the process table says at once whether it is alive).
MISSED_HEARTBEATS = 4
OWNER_LEASE_SECONDS = HEARTBEAT_SECONDS * MISSED_HEARTBEATS


def heartbeat_seconds() -> float:
    """The configured heartbeat interval of a console carrying out a write."""
    from osprey_desktop.config import get_config_value

    try:
        value = float(get_config_value("approval.heartbeat_seconds", HEARTBEAT_SECONDS))
    except (TypeError, ValueError):
        value = HEARTBEAT_SECONDS
    return value if value > 0 else HEARTBEAT_SECONDS


def owner_lease_seconds() -> float:
    """How long a console on another host may be silent before its write counts as abandoned."""
    return heartbeat_seconds() * MISSED_HEARTBEATS


STATUSES = (
    "pending",
    "approved",
    "rejected",
    "executing",
    "sending",
    "done",
    "superseded",
    "resolved",
)

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS osprey_approvals (
        approval_id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        payload TEXT,
        asked_at REAL NOT NULL,
        expires_at REAL,
        answer INTEGER,
        answered_at REAL,
        answered_by TEXT,
        owner TEXT,
        sent_at REAL,
        results TEXT,
        note TEXT,
        updated_at REAL NOT NULL
    )
    """,
    "CREATE INDEX IF NOT EXISTS osprey_approvals_thread ON osprey_approvals (thread_id)",
    """
    CREATE TABLE IF NOT EXISTS osprey_deleted_threads (
        thread_id TEXT PRIMARY KEY,
        deleted_at REAL NOT NULL
    )
    """,
)
_COLUMNS = (
    "approval_id, thread_id, kind, status, payload, asked_at, expires_at, answer, answered_at,"
    " answered_by, owner, sent_at, results, note, updated_at"
)


def _process_start() -> str:
    """This process's start time in clock ticks (Linux), so a reused pid is not mistaken."""
    try:
        with open(f"/proc/{os.getpid()}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return str(int(time.time()))


_HOST = socket.gethostname()
_START = _process_start()


def console_id() -> str:
    """Which process holds a claim: ``host|pid|start``."""
    return f"{_HOST}|{os.getpid()}|{_START}"


def operator_label() -> str:
    """Who answered, as the audit log and "already answered" messages name them."""
    try:
        user = getpass.getuser()
    except Exception:  # no passwd entry (containers)
        user = "unknown"
    return f"{user}@{_HOST} (pid {os.getpid()})"


def owner_alive(owner: str | None, updated_at: float, now: float | None = None) -> bool:
    """Whether the process named by ``owner`` may still be working on its claim."""
    if not owner:
        return False
    host, _, rest = owner.partition("|")
    pid_text, _, start = rest.partition("|")
    if host != _HOST:
        return (now or time.time()) - updated_at < owner_lease_seconds()
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return start == _START
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return fields[0] not in ("Z", "X") and fields[19] == start


def write_approval_id(thread_id: str, checkpoint_ns: str, slot: int) -> str:
    """A stable id for the ``slot``-th approval a write step asks (the same on every re-run)."""
    text = f"{thread_id}\x1f{checkpoint_ns}\x1f{slot}"
    return "w-" + hashlib.sha256(text.encode()).hexdigest()[:20]


@dataclass(frozen=True)
class ApprovalRecord:
    """One row of the ledger."""

    approval_id: str
    thread_id: str
    kind: str
    status: str
    payload: dict[str, Any] | None
    asked_at: float
    expires_at: float | None
    answer: bool | None
    answered_at: float | None
    answered_by: str | None
    owner: str | None
    sent_at: float | None
    results: list[dict[str, Any]] | None
    note: str | None
    updated_at: float

    @property
    def answer_word(self) -> str:
        return {True: "yes", False: "no"}.get(self.answer, "?")  # type: ignore[arg-type]

    def owner_alive(self, now: float | None = None) -> bool:
        return owner_alive(self.owner, self.updated_at, now)

    @property
    def in_doubt(self) -> bool:
        """A put may have reached the machine and its process is gone without an outcome."""
        return self.status == "sending" and not self.owner_alive()

    def describe_answer(self) -> str:
        """``answered yes at 14:03:07 by ops@console2 (pid 4242)``."""
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.answered_at or 0))
        by = f" by {self.answered_by}" if self.answered_by else ""
        return f"answered {self.answer_word} at {when}{by}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "approval_id": self.approval_id,
            "thread_id": self.thread_id,
            "kind": self.kind,
            "status": "in_doubt" if self.in_doubt else self.status,
            "answer": self.answer_word if self.answer is not None else None,
            "answered_at": self.answered_at,
            "answered_by": self.answered_by,
            "asked_at": self.asked_at,
            "expires_at": self.expires_at,
            "sent_at": self.sent_at,
            "note": self.note,
        }


@dataclass(frozen=True)
class Claim:
    """The result of trying to answer an approval: ``won`` or the answer that came first."""

    won: bool
    record: ApprovalRecord


class ApprovalLedger:
    """Atomic approval bookkeeping over a SQL store (see the module docstring).

    ``executor(sql, params)`` runs one statement in its own transaction and returns its rows
    and row count. Every state change is one statement, so atomicity is the database's; the
    SQL is plain enough for SQLite and PostgreSQL alike (``?`` placeholders are the
    executor's to translate). ``prepare()``, when given, creates the tables instead of the
    SQLite ``_SCHEMA`` (PostgreSQL's types and locking differ: ``persistence.postgres``).
    """

    def __init__(
        self,
        executor: Executor,
        *,
        where: str,
        prepare: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._execute = executor
        self.where = where
        self._prepare = prepare
        self._ready = False

    async def _sql(self, sql: str, params: tuple[Any, ...] = ()) -> StatementResult:
        if not self._ready:
            if self._prepare is not None:  # the store makes its own tables (PostgreSQL)
                await self._prepare()
            else:
                for statement in _SCHEMA:
                    await self._execute(statement, ())
            self._ready = True
        return await self._execute(sql, params)

    # -- reading -------------------------------------------------------------------------

    async def get(self, approval_id: str) -> ApprovalRecord | None:
        result = await self._sql(
            f"SELECT {_COLUMNS} FROM osprey_approvals WHERE approval_id = ?", (approval_id,)
        )
        return _record(result.rows[0]) if result.rows else None

    async def for_thread(self, thread_id: str) -> list[ApprovalRecord]:
        result = await self._sql(
            f"SELECT {_COLUMNS} FROM osprey_approvals WHERE thread_id = ? ORDER BY asked_at",
            (thread_id,),
        )
        return [_record(r) for r in result.rows]

    async def in_doubt(self, thread_id: str | None = None) -> list[ApprovalRecord]:
        """Writes that may have reached the machine with no recorded outcome."""
        sql = f"SELECT {_COLUMNS} FROM osprey_approvals WHERE status = 'sending'"
        params: tuple[Any, ...] = ()
        if thread_id is not None:
            sql += " AND thread_id = ?"
            params = (thread_id,)
        result = await self._sql(sql, params)
        return [r for r in map(_record, result.rows) if r.in_doubt]

    # -- asking and answering ------------------------------------------------------------

    async def ask(
        self,
        approval_id: str,
        thread_id: str,
        kind: str,
        payload: Mapping[str, Any] | None,
        *,
        asked_at: float | None = None,
        expires_at: float | None = None,
    ) -> ApprovalRecord:
        """Record what is asked; an approval asked before keeps what it first stored."""
        now = time.time()
        row = (
            approval_id,
            thread_id,
            kind,
            None if payload is None else json.dumps(payload, default=str),
            asked_at or now,
            expires_at,
            now,
        )
        await self._sql(
            "INSERT INTO osprey_approvals (approval_id, thread_id, kind, status, payload,"
            " asked_at, expires_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)"
            " ON CONFLICT (approval_id) DO NOTHING",
            row,
        )
        record = await self.get(approval_id)
        assert record is not None
        return record

    async def claim_answer(
        self,
        approval_id: str,
        thread_id: str,
        kind: str,
        approved: bool,
        *,
        answered_by: str | None = None,
    ) -> Claim:
        """Answer an approval, unless it was answered already (then ``won`` is False)."""
        now = time.time()
        status = "approved" if approved else "rejected"
        params = (
            approval_id,
            thread_id,
            kind,
            status,
            now,
            int(approved),
            now,
            answered_by or operator_label(),
            console_id(),
            now,
        )

        result = await self._sql(
            "INSERT INTO osprey_approvals (approval_id, thread_id, kind, status, asked_at,"
            " answer, answered_at, answered_by, owner, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (approval_id) DO UPDATE SET status = excluded.status,"
            " answer = excluded.answer, answered_at = excluded.answered_at,"
            " answered_by = excluded.answered_by, owner = excluded.owner,"
            " updated_at = excluded.updated_at"
            " WHERE osprey_approvals.status = 'pending'",
            params,
        )
        won = result.rowcount == 1
        record = await self.get(approval_id)
        assert record is not None
        return Claim(won=won, record=record)

    # -- carrying out ----------------------------------------------------------------------

    async def transition(
        self,
        approval_id: str,
        from_statuses: Sequence[str],
        to_status: str,
        *,
        take_ownership: bool = False,
        sent_at: float | None = None,
        results: Sequence[Mapping[str, Any]] | None = None,
        note: str | None = None,
    ) -> bool:
        """Move one approval on, if it is in one of ``from_statuses``; True when this call did."""
        if to_status not in STATUSES:
            raise ValueError(f"unknown approval status {to_status!r}")
        sets = ["status = ?", "updated_at = ?"]
        params: list[Any] = [to_status, time.time()]
        if take_ownership:
            sets.append("owner = ?")
            params.append(console_id())
        if sent_at is not None:
            sets.append("sent_at = ?")
            params.append(sent_at)
        if results is not None:
            sets.append("results = ?")
            params.append(json.dumps(list(results), default=str))
        if note is not None:
            sets.append("note = ?")
            params.append(note)
        marks = ", ".join("?" for _ in from_statuses)
        sql = (
            f"UPDATE osprey_approvals SET {', '.join(sets)}"
            f" WHERE approval_id = ? AND status IN ({marks})"
        )
        params += [approval_id, *from_statuses]
        return (await self._sql(sql, tuple(params))).rowcount == 1

    async def touch(self, approval_id: str) -> bool:
        """The heartbeat of the console carrying out an approval: its claim is refreshed
        (only while this console owns it and it is executing or sending)."""
        sql = (
            "UPDATE osprey_approvals SET updated_at = ? WHERE approval_id = ? AND owner = ?"
            " AND status IN ('executing', 'sending')"
        )
        return (await self._sql(sql, (time.time(), approval_id, console_id()))).rowcount == 1

    async def reopen_abandoned(self, record: ApprovalRecord) -> bool:
        """Make an answered approval pending again when its console stopped before sending.

        Only ``approved``/``executing`` rows whose owner is gone: nothing reached the machine,
        so the operator is simply asked again. The row must still be as ``record`` shows it.
        """
        if record.status not in ("approved", "executing") or record.owner_alive():
            return False
        sql = (
            "UPDATE osprey_approvals SET status = 'pending', answer = NULL, answered_at = NULL,"
            " answered_by = NULL, owner = NULL, note = ?, updated_at = ?"
            " WHERE approval_id = ? AND status = ? AND updated_at = ?"
        )
        note = (
            f"{record.describe_answer()}, but that console stopped before sending anything; "
            "asked again"
        )
        params = (note, time.time(), record.approval_id, record.status, record.updated_at)
        return (await self._sql(sql, params)).rowcount == 1

    # -- deleted threads -------------------------------------------------------------------

    async def mark_thread_deleted(self, thread_id: str) -> None:
        await self._sql(
            "INSERT INTO osprey_deleted_threads (thread_id, deleted_at) VALUES (?, ?)"
            " ON CONFLICT (thread_id) DO NOTHING",
            (thread_id, time.time()),
        )

    async def thread_deleted(self, thread_id: str) -> bool:
        result = await self._sql(
            "SELECT 1 FROM osprey_deleted_threads WHERE thread_id = ?", (thread_id,)
        )
        return bool(result.rows)

    async def deleted_threads(self) -> set[str]:
        result = await self._sql("SELECT thread_id FROM osprey_deleted_threads")
        return {r[0] for r in result.rows}


def _json(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _record(row: Sequence[Any]) -> ApprovalRecord:
    payload = _json(row[4])
    results = _json(row[12])
    return ApprovalRecord(
        approval_id=row[0],
        thread_id=row[1],
        kind=row[2],
        status=row[3],
        payload=payload if isinstance(payload, dict) else None,
        asked_at=float(row[5]),
        expires_at=None if row[6] is None else float(row[6]),
        answer=None if row[7] is None else bool(row[7]),
        answered_at=None if row[8] is None else float(row[8]),
        answered_by=row[9],
        owner=row[10],
        sent_at=None if row[11] is None else float(row[11]),
        results=results if isinstance(results, list) else None,
        note=row[13],
        updated_at=float(row[14]),
    )


# -- one ledger per thread store -----------------------------------------------------------

_LEDGERS: weakref.WeakKeyDictionary[Any, ApprovalLedger] = weakref.WeakKeyDictionary()


def approval_ledger_for(checkpointer: Any) -> ApprovalLedger | None:
    """The ledger stored with ``checkpointer``'s threads; None when there is no durable store.

    A SQLite saver gets a table in its own file, reached through its own connection and lock
    (so the ledger and the checkpoints share one transaction discipline); a PostgreSQL saver
    gets tables in its database, on its connection, so every console sharing that database
    shares the ledger; an in-memory saver gets an in-memory table that lives as long as the
    saver.
    """
    if checkpointer is None or checkpointer is False:
        return None
    try:
        return _LEDGERS[checkpointer]
    except (KeyError, TypeError):
        pass
    ledger = _make_ledger(checkpointer)
    if ledger is not None:
        with contextlib.suppress(TypeError):  # not weak-referenceable: no caching
            _LEDGERS[checkpointer] = ledger
    return ledger


def _make_ledger(checkpointer: Any) -> ApprovalLedger | None:
    from langgraph.checkpoint.memory import InMemorySaver

    if isinstance(checkpointer, InMemorySaver):
        return _memory_ledger()
    try:
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    except ImportError:  # pragma: no cover - the package is a dependency
        AsyncSqliteSaver = None  # type: ignore[assignment,misc]  # noqa: N806
    if AsyncSqliteSaver is not None and isinstance(checkpointer, AsyncSqliteSaver):
        return _aiosqlite_ledger(checkpointer)
    from osprey_desktop.persistence.postgres import is_postgres_saver, postgres_statements

    if is_postgres_saver(checkpointer):
        run, prepare = postgres_statements(checkpointer)
        return ApprovalLedger(run, where="postgresql", prepare=prepare)
    return None


def _memory_ledger() -> ApprovalLedger:
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    lock = asyncio.Lock()

    async def execute(sql: str, params: tuple[Any, ...]) -> StatementResult:
        async with lock:
            with conn:
                cursor = conn.execute(sql, params)
                return StatementResult(cursor.fetchall(), cursor.rowcount)

    return ApprovalLedger(execute, where="memory")


def _aiosqlite_ledger(saver: Any) -> ApprovalLedger:
    """Statements go through the saver's aiosqlite connection, under the saver's lock."""
    conn = saver.conn

    async def execute(sql: str, params: tuple[Any, ...]) -> StatementResult:
        async with saver.lock:
            try:
                async with conn.execute(sql, params) as cursor:
                    rows = list(await cursor.fetchall())
                    count = cursor.rowcount
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
        return StatementResult([tuple(r) for r in rows], count)

    return ApprovalLedger(execute, where="sqlite")


def ledger_of_running_graph() -> tuple[ApprovalLedger | None, str]:
    """Inside a graph node: the ledger of the run's checkpointer and the task's namespace.

    The namespace names the task (node and task id) and stays the same when the node runs
    again after a resume, so ids derived from it are stable across re-runs.
    """
    from langgraph.config import get_config

    configurable = get_config().get("configurable") or {}
    checkpointer = configurable.get("__pregel_checkpointer")
    return approval_ledger_for(checkpointer), str(configurable.get("checkpoint_ns") or "")


__all__ = [
    "HEARTBEAT_SECONDS",
    "MISSED_HEARTBEATS",
    "OWNER_LEASE_SECONDS",
    "STATUSES",
    "ApprovalLedger",
    "ApprovalRecord",
    "Claim",
    "StatementResult",
    "approval_ledger_for",
    "console_id",
    "heartbeat_seconds",
    "ledger_of_running_graph",
    "operator_label",
    "owner_alive",
    "owner_lease_seconds",
    "write_approval_id",
]
