"""A thread's whole conversation, kept beside its checkpoints.

The graph state holds only the recent conversation (``RECENT_MESSAGES``, trimmed by the
Gateway with ``RemoveMessage``, as ``MessagesState`` allows), so a turn at age 1,000 costs what
it costs at age 10: LangGraph walks every message of the state at each node start when it
streams messages, and the reducer copies the list at each append. Every message that ever
reaches a checkpoint is appended here first (``osprey_transcript``, in the same database: a
row per message, written once), and the window and ``threads`` read the whole conversation
from here.

Order is the order messages reached checkpoints: the id of the first checkpoint that held a
message, then its position there. A message is identified by its id (``add_messages`` gives
every message one), so a message seen again (a later checkpoint, another console) is not
appended twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

RECENT_MESSAGES = 40
"""Messages the graph state keeps before a new request: twice what the chat-model prompts
show (``planners.prompts.MAX_CHAT_MESSAGES``), and many turns for the built-in planner's
follow-ups, which look one request back."""

SQLITE_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS osprey_transcript (
        thread_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        type TEXT NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (thread_id, message_id)
    )
    """,
    "CREATE INDEX IF NOT EXISTS osprey_transcript_order "
    "ON osprey_transcript (thread_id, checkpoint_id, position)",
)
POSTGRES_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS osprey_transcript (
        thread_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        type TEXT NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (thread_id, message_id)
    )
    """,
    "CREATE INDEX IF NOT EXISTS osprey_transcript_order "
    "ON osprey_transcript (thread_id, checkpoint_id, position)",
)

_INSERT = (
    "INSERT INTO osprey_transcript (thread_id, message_id, checkpoint_id, position, role, "
    "type, data) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (thread_id, message_id) DO NOTHING"
)
_SELECT = (
    "SELECT type, data FROM osprey_transcript WHERE thread_id = ? ORDER BY checkpoint_id, position"
)
_FIRST_REQUESTS = """
SELECT t.thread_id, t.type, t.data FROM osprey_transcript t
WHERE t.role = 'human' AND NOT EXISTS (
    SELECT 1 FROM osprey_transcript e
    WHERE e.thread_id = t.thread_id AND e.role = 'human'
      AND (e.checkpoint_id < t.checkpoint_id
           OR (e.checkpoint_id = t.checkpoint_id AND e.position < t.position))
)
"""
_DELETE = "DELETE FROM osprey_transcript WHERE thread_id = ?"
_SIZES = "SELECT thread_id, sum(length(data)) FROM osprey_transcript GROUP BY thread_id"


class Transcript:
    """The transcript table on a chunk store's connection and lock (SQLite or PostgreSQL)."""

    def __init__(self, store: Any, serde: Any) -> None:
        self.store = store
        self.serde = serde
        self.postgres = hasattr(store, "_cursor")
        self._ready = False
        self._known: dict[str, set[str]] = {}  # thread -> ids of its last checkpoint's messages

    async def _run(
        self, sql: str, params: Sequence[Any] = (), *, many: bool = False
    ) -> list[tuple[Any, ...]]:
        if not self._ready:
            await self._setup()
        if self.postgres:
            sql = sql.replace("?", "%s")
            async with self.store._cursor(transaction=many) as cur:
                if many:
                    await cur.executemany(sql, params)
                    return []
                await cur.execute(sql, tuple(params))
                return list(await cur.fetchall()) if cur.description is not None else []
        conn = self.store.conn
        async with self.store.lock:
            try:
                if many:
                    await conn.executemany(sql, params)
                    rows: list[tuple[Any, ...]] = []
                else:
                    async with conn.execute(sql, tuple(params)) as cursor:
                        rows = [tuple(r) for r in await cursor.fetchall()]
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
        return rows

    async def _setup(self) -> None:
        await self.store.setup()  # PostgreSQL: the table is part of persistence.postgres.SCHEMA
        if not self.postgres:
            async with self.store.lock:
                for statement in SQLITE_SCHEMA:
                    await self.store.conn.execute(statement)
                await self.store.conn.commit()
        self._ready = True

    async def record(self, thread_id: str, checkpoint_id: str, messages: Sequence[Any]) -> int:
        """Append the messages of a checkpoint not recorded yet; returns how many were new.

        Only messages the thread's previous checkpoint (in this process) did not hold are
        written, so a turn writes its own two or three messages whatever the thread's age.
        """
        known = self._known.get(thread_id, set())
        rows = []
        ids = set()
        for position, message in enumerate(messages):
            message_id = getattr(message, "id", None)
            if message_id is None:
                continue  # not added through add_messages: nothing to identify it by
            ids.add(str(message_id))
            if str(message_id) in known:
                continue
            type_, data = self.serde.dumps_typed(message)
            role = str(getattr(message, "type", "") or "")
            rows.append((thread_id, str(message_id), checkpoint_id, position, role, type_, data))
        if rows:
            await self._run(_INSERT, rows, many=True)
        self._known[thread_id] = ids
        while len(self._known) > 256:
            self._known.pop(next(iter(self._known)))
        return len(rows)

    async def messages(self, thread_id: str) -> list[Any]:
        """The whole conversation of a thread, oldest first (empty when none was recorded)."""
        rows = await self._run(_SELECT, (thread_id,))
        loaded = await asyncio.to_thread(
            lambda: [self.serde.loads_typed((str(t), bytes(d))) for t, d in rows]
        )
        return loaded

    async def first_requests(self) -> dict[str, str]:
        """Each thread's first request (the text of its first human message)."""
        found: dict[str, str] = {}
        for thread_id, type_, data in await self._run(_FIRST_REQUESTS):
            try:
                message = self.serde.loads_typed((str(type_), bytes(data)))
            except Exception:  # a title is optional: an unreadable row leaves the old one
                continue
            found[str(thread_id)] = message_text(message)
        return found

    async def forget_thread(self, thread_id: str) -> None:
        self._known.pop(thread_id, None)
        await self._run(_DELETE, (thread_id,))

    async def sizes(self) -> dict[str, int]:
        return {str(t): int(size or 0) for t, size in await self._run(_SIZES)}


def message_text(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, list):
        content = " ".join(
            str(part.get("text", "")) if isinstance(part, dict) else str(part) for part in content
        )
    return str(content or "")


def whole_conversation(recorded: Sequence[Any], recent: Sequence[Any]) -> list[Any]:
    """The recorded conversation, then any message of the state's recent window it lacks."""
    seen = {getattr(m, "id", None) for m in recorded}
    return [*recorded, *(m for m in recent if getattr(m, "id", None) not in seen)]


__all__ = [
    "POSTGRES_SCHEMA",
    "RECENT_MESSAGES",
    "SQLITE_SCHEMA",
    "Transcript",
    "message_text",
    "whole_conversation",
]
