"""Conversation threads as the operator sees them: list, look up, delete.

Reads the saver's tables with plain SQL so listing never deserializes a checkpoint: a thread
holding 10,000 contexts costs the same to list as an empty one. Titles come from the checkpoint
metadata the session writes on each turn (``REQUEST_METADATA_KEY``). A SQLite saver and a
PostgreSQL one (shared consoles) are asked the same questions, each in its own SQL.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from osprey_desktop.persistence.checkpointer import describe_sqlite_error
from osprey_desktop.persistence.chunked_saver import first_requests
from osprey_desktop.persistence.postgres import fetchall as postgres_fetchall
from osprey_desktop.persistence.postgres import is_postgres_saver

REQUEST_METADATA_KEY = "osprey_request"
"""Checkpoint metadata key holding the request that started a run (the thread title source)."""
TURN_STARTED_METADATA_KEY = "osprey_turn_started"
"""Checkpoint metadata key holding the run's start time (seconds since the epoch)."""
_UUID_EPOCH_OFFSET = 0x01B21DD213814000  # 100 ns ticks between 1582-10-15 and 1970-01-01
_NO_TITLE = "(no request yet)"
_TITLE_LENGTH = 80


@dataclass(frozen=True)
class ThreadInfo:
    """One row of the thread list."""

    thread_id: str
    title: str
    last_activity: datetime | None
    pending_approval: bool
    pending_message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["last_activity"] = self.last_activity.isoformat() if self.last_activity else None
        return data


def checkpoint_time(checkpoint_id: str) -> datetime | None:
    """When LangGraph wrote a checkpoint, read from its UUIDv6 id (no blob to load)."""
    try:
        value = UUID(checkpoint_id)
    except ValueError:
        return None
    if value.version != 6:
        return None
    ticks = ((value.int >> 80) << 12) | ((value.int >> 64) & 0x0FFF)
    return datetime.fromtimestamp((ticks - _UUID_EPOCH_OFFSET) / 1e7, tz=UTC)


def _title(request: str | None) -> str:
    if not request:
        return _NO_TITLE
    one_line = " ".join(request.split())
    if len(one_line) <= _TITLE_LENGTH:
        return one_line
    return one_line[: _TITLE_LENGTH - 1] + "…"


_LATEST_SQL = """
SELECT c.thread_id, c.checkpoint_id, CAST(c.metadata AS TEXT)
FROM checkpoints c
WHERE c.checkpoint_ns = '' AND c.checkpoint_id = (
    SELECT MAX(checkpoint_id) FROM checkpoints
    WHERE thread_id = c.thread_id AND checkpoint_ns = ''
)
"""
_FIRST_REQUEST_SQL = f"""
SELECT thread_id, json_extract(CAST(metadata AS TEXT), '$.{REQUEST_METADATA_KEY}') AS request
FROM checkpoints
WHERE checkpoint_ns = '' AND request IS NOT NULL
ORDER BY checkpoint_id ASC
"""
_INTERRUPTS_SQL = """
SELECT w.task_id, w.type, w.value FROM writes w
WHERE w.thread_id = ? AND w.checkpoint_ns = '' AND w.checkpoint_id = ?
  AND w.channel = '__interrupt__'
  AND NOT EXISTS (
      SELECT 1 FROM writes e
      WHERE e.thread_id = w.thread_id AND e.checkpoint_ns = w.checkpoint_ns
        AND e.checkpoint_id = w.checkpoint_id AND e.task_id = w.task_id
        AND e.channel = '__error__'
  )
"""


# The same questions of a PostgreSQL saver's tables (metadata is JSONB there, pending writes
# are ``checkpoint_writes``); ``%s`` placeholders.
_PG_LATEST_SQL = """
SELECT DISTINCT ON (thread_id) thread_id, checkpoint_id, metadata::text
FROM checkpoints
WHERE checkpoint_ns = ''
ORDER BY thread_id, checkpoint_id DESC
"""
_PG_FIRST_REQUEST_SQL = f"""
SELECT thread_id, metadata->>'{REQUEST_METADATA_KEY}' AS request
FROM checkpoints
WHERE checkpoint_ns = '' AND metadata->>'{REQUEST_METADATA_KEY}' IS NOT NULL
ORDER BY checkpoint_id ASC
"""
_PG_INTERRUPTS_SQL = """
SELECT w.task_id, w.type, w.blob FROM checkpoint_writes w
WHERE w.thread_id = %s AND w.checkpoint_ns = '' AND w.checkpoint_id = %s
  AND w.channel = '__interrupt__'
  AND NOT EXISTS (
      SELECT 1 FROM checkpoint_writes e
      WHERE e.thread_id = w.thread_id AND e.checkpoint_ns = w.checkpoint_ns
        AND e.checkpoint_id = w.checkpoint_id AND e.task_id = w.task_id
        AND e.channel = '__error__'
  )
"""
_PG_EXISTS_SQL = "SELECT 1 FROM checkpoints WHERE thread_id = %s LIMIT 1"
_SQLITE_EXISTS_SQL = "SELECT 1 FROM checkpoints WHERE thread_id = ? LIMIT 1"


def _interrupt_message(saver: AsyncSqliteSaver, type_: str, value: bytes) -> str | None:
    try:
        interrupts = saver.serde.loads_typed((type_, value))
    except Exception:  # an unreadable payload still means "pending"; the message is optional
        return None
    for item in interrupts if isinstance(interrupts, list | tuple) else [interrupts]:
        payload = getattr(item, "value", item)
        if isinstance(payload, dict) and payload.get("user_message"):
            return str(payload["user_message"])
    return None


async def _fetchall(
    saver: AsyncSqliteSaver, sql: str, params: tuple = (), postgres_sql: str | None = None
) -> list[tuple]:
    """Rows of ``sql`` (SQLite) or, on a PostgreSQL saver, of ``postgres_sql``."""
    if is_postgres_saver(saver):
        assert postgres_sql is not None, "no PostgreSQL form of this query"
        return await postgres_fetchall(saver, postgres_sql, params)
    await saver.setup()
    try:
        async with saver.conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
    except sqlite3.Error as exc:
        raise describe_sqlite_error(_db_path(saver), exc) from exc


def _db_path(saver: AsyncSqliteSaver) -> str:
    path = (
        getattr(saver, "db_path", None)
        or getattr(saver.conn, "_database", None)
        or getattr(saver.conn, "database", None)
    )
    return str(path or "?")


async def _pending(
    saver: AsyncSqliteSaver, thread_id: str, checkpoint_id: str
) -> tuple[bool, str | None]:
    rows = await _fetchall(saver, _INTERRUPTS_SQL, (thread_id, checkpoint_id), _PG_INTERRUPTS_SQL)
    if not rows:
        return False, None
    messages = [_interrupt_message(saver, type_, bytes(value)) for _, type_, value in rows]
    return True, next((m for m in messages if m), None)


async def list_threads(saver: AsyncSqliteSaver) -> list[ThreadInfo]:
    """Every thread, most recent activity first."""
    latest = await _fetchall(saver, _LATEST_SQL, postgres_sql=_PG_LATEST_SQL)
    titles: dict[str, str] = await first_requests(saver)  # the transcript's, then metadata
    for thread_id, request in await _fetchall(
        saver, _FIRST_REQUEST_SQL, postgres_sql=_PG_FIRST_REQUEST_SQL
    ):
        titles.setdefault(thread_id, request)
    threads = []
    for thread_id, checkpoint_id, metadata_text in latest:
        pending, message = await _pending(saver, thread_id, checkpoint_id)
        when = checkpoint_time(checkpoint_id) or _metadata_time(metadata_text)
        threads.append(
            ThreadInfo(
                thread_id=thread_id,
                title=_title(titles.get(thread_id)),
                last_activity=when,
                pending_approval=pending,
                pending_message=message,
            )
        )
    oldest = datetime.min.replace(tzinfo=UTC)
    threads.sort(key=lambda t: t.last_activity or oldest, reverse=True)
    return threads


def _metadata_time(metadata_text: str | None) -> datetime | None:
    try:
        started = json.loads(metadata_text or "{}").get(TURN_STARTED_METADATA_KEY)
    except (ValueError, AttributeError):
        return None
    return datetime.fromtimestamp(float(started), tz=UTC) if started else None


async def thread_exists(saver: AsyncSqliteSaver, thread_id: str) -> bool:
    """True when the database holds at least one checkpoint of ``thread_id``."""
    rows = await _fetchall(saver, _SQLITE_EXISTS_SQL, (thread_id,), _PG_EXISTS_SQL)
    return bool(rows)


async def delete_thread(saver: AsyncSqliteSaver, thread_id: str) -> bool:
    """Remove a thread with all its checkpoints; False when there was no such thread."""
    if not await thread_exists(saver, thread_id):
        return False
    try:
        await saver.adelete_thread(thread_id)
    except sqlite3.Error as exc:
        raise describe_sqlite_error(_db_path(saver), exc) from exc
    return True


__all__ = [
    "REQUEST_METADATA_KEY",
    "TURN_STARTED_METADATA_KEY",
    "ThreadInfo",
    "checkpoint_time",
    "delete_thread",
    "list_threads",
    "thread_exists",
]
