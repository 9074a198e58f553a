"""Where context chunks live: a small store interface and its SQLite implementation.

The chunks sit in two tables of the conversation database itself, beside the saver's
``checkpoints`` and ``writes``:

* ``osprey_context_chunks`` — one row per chunk, named by its digest (written once, shared by
  every checkpoint and thread whose context contains it);
* ``osprey_context_roots`` — which checkpoint (or pending write) refers to which root chunk.

A root row and the chunks it needs are committed in one transaction *before* the checkpoint
that names them, so a crash in between leaves only garbage, never a checkpoint without its
chunks. Garbage collection (``collect_garbage``) drops the root rows of checkpoints that are
gone (threads deleted through any saver, history pruned), older than a grace period so a put
in progress elsewhere is never robbed, then every chunk no root reaches.

``context_chunks_postgres.PostgresChunkStore`` provides the same methods over the same two
tables in a PostgreSQL database (``BYTEA`` digests and data, times in ``DOUBLE PRECISION``),
with an advisory lock in place of SQLite's ``BEGIN IMMEDIATE`` between puts and collections.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import aiosqlite

from osprey_desktop.persistence.context_tree import Chunk, ChunkEncoder, child_names

GRACE_SECONDS = 300.0
"""A root row younger than this is kept even without its checkpoint (its put may be running)."""
_BATCH = 500  # names per IN (...) list: far below SQLite's bound on bound parameters

SQLITE_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS osprey_context_chunks (
        hash BLOB PRIMARY KEY,
        kind INTEGER NOT NULL,
        type TEXT NOT NULL,
        data BLOB NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS osprey_context_roots (
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        root BLOB NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    )
    """,
)


@dataclass(frozen=True)
class RootRef:
    """Who refers to a root: a checkpoint (``task_id=""``, ``idx=-1``) or one pending write."""

    thread_id: str
    checkpoint_ns: str
    checkpoint_id: str
    task_id: str = ""
    idx: int = -1


class BaseRootGone(LookupError):
    """The tree a put built on has no root row any more: its chunks may have been collected."""


@dataclass(frozen=True)
class GarbageReport:
    """What one collection removed."""

    roots_removed: int
    chunks_removed: int
    bytes_removed: int


@runtime_checkable
class ContextChunkStore(Protocol):
    """What the chunked saver needs from a database.

    A store whose saver keeps each channel value per version (PostgreSQL's) also has
    ``versioned_channels = True`` and ``copy_root(parent, ref)``: see ``chunked_saver``.
    """

    async def setup(self) -> None:
        """Create the two tables when they are missing."""

    async def put_tree(
        self,
        ref: RootRef,
        root: bytes,
        chunks: Mapping[bytes, Chunk],
        *,
        base: tuple[RootRef, bytes] | None = None,
    ) -> int:
        """Store the chunks the database lacks and the root row, in one transaction.

        ``base``: ``chunks`` leaves out those of the tree ``(its root row, its root)``; the
        put raises ``BaseRootGone`` (storing nothing) when that row is not there any more.
        Returns the bytes of chunk data actually written.
        """

    async def get_chunks(self, names: Sequence[bytes]) -> dict[bytes, Chunk]:
        """The stored chunks among ``names`` (a missing one is simply absent)."""

    async def forget_thread(self, thread_id: str) -> None:
        """Drop the root rows of a deleted thread (its chunks go at the next collection)."""

    async def prune_history(self, thread_id: str, checkpoint_ns: str, keep: int) -> int:
        """Delete all but the newest ``keep`` checkpoints of a thread; return how many went."""

    async def collect_garbage(self, encoder: ChunkEncoder, grace_seconds: float) -> GarbageReport:
        """Remove orphaned root rows and every chunk no remaining root reaches."""

    async def thread_sizes(self, encoder: ChunkEncoder) -> dict[str, int]:
        """Bytes each thread occupies: its checkpoints, its writes and the chunks it reaches."""


class SqliteChunkStore:
    """The store on the saver's own aiosqlite connection, under the saver's lock.

    Sharing the connection and lock keeps one transaction discipline with the saver (the
    approval ledger does the same); a second connection would contend for the file lock.
    """

    versioned_channels = False  # the SQLite saver writes every channel into every checkpoint

    def __init__(self, conn: aiosqlite.Connection, lock: asyncio.Lock | None = None) -> None:
        self.conn = conn
        self.lock = lock or asyncio.Lock()
        self._is_setup = False
        self._saver_tables = False

    async def setup(self) -> None:
        if self._is_setup:
            return
        async with self.lock:
            for statement in SQLITE_SCHEMA:
                await self.conn.execute(statement)
            await self.conn.commit()
        self._is_setup = True

    async def put_tree(
        self,
        ref: RootRef,
        root: bytes,
        chunks: Mapping[bytes, Chunk],
        *,
        base: tuple[RootRef, bytes] | None = None,
    ) -> int:
        await self.setup()
        written = 0
        async with self.lock:
            try:
                # IMMEDIATE: a collection in another console cannot run between "which
                # chunks exist" and the root row that makes them reachable
                await self.conn.execute("BEGIN IMMEDIATE")
                if base is not None and not await self._has_root(*base):
                    raise BaseRootGone(f"no root row for {base[0]}")
                present = await self._present(list(chunks))
                missing = [(name, chunk) for name, chunk in chunks.items() if name not in present]
                if missing:
                    await self.conn.executemany(
                        "INSERT OR IGNORE INTO osprey_context_chunks (hash, kind, type, data) "
                        "VALUES (?, ?, ?, ?)",
                        [(name, c.kind, c.type, c.data) for name, c in missing],
                    )
                    written = sum(c.size for _, c in missing)
                await self.conn.execute(
                    "INSERT OR REPLACE INTO osprey_context_roots (thread_id, checkpoint_ns, "
                    "checkpoint_id, task_id, idx, root, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        ref.thread_id,
                        ref.checkpoint_ns,
                        ref.checkpoint_id,
                        ref.task_id,
                        ref.idx,
                        root,
                        time.time(),
                    ),
                )
                await self.conn.commit()
            except BaseException:
                await self.conn.rollback()
                raise
        return written

    async def _has_root(self, ref: RootRef, root: bytes) -> bool:
        async with self.conn.execute(
            "SELECT 1 FROM osprey_context_roots WHERE thread_id = ? AND checkpoint_ns = ? "
            "AND checkpoint_id = ? AND task_id = ? AND idx = ? AND root = ?",
            (ref.thread_id, ref.checkpoint_ns, ref.checkpoint_id, ref.task_id, ref.idx, root),
        ) as cursor:
            return await cursor.fetchone() is not None

    async def _present(self, names: list[bytes]) -> set[bytes]:
        present: set[bytes] = set()
        for batch in _batches(names):
            marks = ",".join("?" * len(batch))
            async with self.conn.execute(
                f"SELECT hash FROM osprey_context_chunks WHERE hash IN ({marks})", batch
            ) as cursor:
                present.update(row[0] for row in await cursor.fetchall())
        return present

    async def get_chunks(self, names: Sequence[bytes]) -> dict[bytes, Chunk]:
        await self.setup()
        found: dict[bytes, Chunk] = {}
        async with self.lock:
            for batch in _batches(list(names)):
                marks = ",".join("?" * len(batch))
                async with self.conn.execute(
                    f"SELECT hash, kind, type, data FROM osprey_context_chunks "
                    f"WHERE hash IN ({marks})",
                    batch,
                ) as cursor:
                    for name, kind, type_, data in await cursor.fetchall():
                        found[bytes(name)] = Chunk(int(kind), str(type_), bytes(data))
        return found

    async def forget_thread(self, thread_id: str) -> None:
        await self.setup()
        async with self.lock:
            await self.conn.execute(
                "DELETE FROM osprey_context_roots WHERE thread_id = ?", (thread_id,)
            )
            await self.conn.commit()

    async def prune_history(self, thread_id: str, checkpoint_ns: str, keep: int) -> int:
        if keep < 1:
            raise ValueError(f"keep must be at least 1 checkpoint, got {keep}")
        await self.setup()
        async with self.lock:
            if not await self._has_saver_tables():
                return 0  # the checkpoints live elsewhere (a saver in another database)
            try:
                async with self.conn.execute(
                    "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? "
                    "AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1 OFFSET ?",
                    (thread_id, checkpoint_ns, keep - 1),
                ) as cursor:
                    row = await cursor.fetchone()
                if row is None:
                    return 0
                # strictly older than the oldest kept: ids grow with time, so a checkpoint
                # another console is writing right now is never touched
                oldest_kept = row[0]
                removed = 0
                for table in ("checkpoints", "writes", "osprey_context_roots"):
                    cursor = await self.conn.execute(
                        f"DELETE FROM {table} WHERE thread_id = ? AND checkpoint_ns = ? "
                        "AND checkpoint_id < ?",
                        (thread_id, checkpoint_ns, oldest_kept),
                    )
                    if table == "checkpoints":
                        removed = max(cursor.rowcount, 0)
                    await cursor.close()
                await self.conn.commit()
            except BaseException:
                await self.conn.rollback()
                raise
        return removed

    async def collect_garbage(
        self, encoder: ChunkEncoder, grace_seconds: float = GRACE_SECONDS
    ) -> GarbageReport:
        await self.setup()
        cutoff = time.time() - grace_seconds
        async with self.lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                roots_removed = await self._drop_orphan_roots(cutoff)
                reachable = await self._reachable(encoder)
                async with self.conn.execute(
                    "SELECT hash, length(data) FROM osprey_context_chunks"
                ) as cursor:
                    stored = [(bytes(n), int(size)) for n, size in await cursor.fetchall()]
                garbage = [(name, size) for name, size in stored if name not in reachable]
                for batch in _batches([name for name, _ in garbage]):
                    marks = ",".join("?" * len(batch))
                    await self.conn.execute(
                        f"DELETE FROM osprey_context_chunks WHERE hash IN ({marks})", batch
                    )
                await self.conn.commit()
            except BaseException:
                await self.conn.rollback()
                raise
        return GarbageReport(roots_removed, len(garbage), sum(size for _, size in garbage))

    async def _drop_orphan_roots(self, cutoff: float) -> int:
        if not await self._has_saver_tables():
            return 0
        cursor = await self.conn.execute(
            """
            DELETE FROM osprey_context_roots
            WHERE created_at < ? AND (
                (idx = -1 AND NOT EXISTS (
                    SELECT 1 FROM checkpoints c
                    WHERE c.thread_id = osprey_context_roots.thread_id
                      AND c.checkpoint_ns = osprey_context_roots.checkpoint_ns
                      AND c.checkpoint_id = osprey_context_roots.checkpoint_id))
                OR (idx <> -1 AND NOT EXISTS (
                    SELECT 1 FROM writes w
                    WHERE w.thread_id = osprey_context_roots.thread_id
                      AND w.checkpoint_ns = osprey_context_roots.checkpoint_ns
                      AND w.checkpoint_id = osprey_context_roots.checkpoint_id
                      AND w.task_id = osprey_context_roots.task_id
                      AND w.idx = osprey_context_roots.idx))
            )
            """,
            (cutoff,),
        )
        removed = cursor.rowcount
        await cursor.close()
        return max(removed, 0)

    async def _has_saver_tables(self) -> bool:
        """Whether the saver's tables share this database (once there, they stay)."""
        if not self._saver_tables:
            async with self.conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                "AND name IN ('checkpoints', 'writes')"
            ) as cursor:
                row = await cursor.fetchone()
            self._saver_tables = bool(row and row[0] == 2)
        return self._saver_tables

    async def _roots(self, thread_id: str | None = None) -> list[tuple[str, bytes]]:
        sql = "SELECT DISTINCT thread_id, root FROM osprey_context_roots"
        params: tuple[Any, ...] = ()
        if thread_id is not None:
            sql += " WHERE thread_id = ?"
            params = (thread_id,)
        async with self.conn.execute(sql, params) as cursor:
            return [(str(t), bytes(r)) for t, r in await cursor.fetchall()]

    async def _reachable(
        self, encoder: ChunkEncoder, roots: Iterable[bytes] | None = None
    ) -> set[bytes]:
        """Every chunk reachable from ``roots`` (default: every root row); leaves are not read."""
        if roots is None:
            roots = [root for _, root in await self._roots()]
        seen: set[bytes] = set()
        frontier = list(dict.fromkeys(roots))
        while frontier:
            seen.update(frontier)
            inner: list[bytes] = []
            for batch in _batches(frontier):
                marks = ",".join("?" * len(batch))
                async with self.conn.execute(
                    f"SELECT hash, kind, type, data FROM osprey_context_chunks "
                    f"WHERE hash IN ({marks}) AND kind <> 0",
                    batch,
                ) as cursor:
                    for _, kind, type_, data in await cursor.fetchall():
                        chunk = Chunk(int(kind), str(type_), bytes(data))
                        inner.extend(child_names(chunk, encoder))
            frontier = [name for name in dict.fromkeys(inner) if name not in seen]
        return seen

    async def thread_sizes(self, encoder: ChunkEncoder) -> dict[str, int]:
        await self.setup()
        sizes: dict[str, int] = {}
        async with self.lock:
            if await self._has_saver_tables():
                for sql in (
                    "SELECT thread_id, sum(length(checkpoint) + length(metadata)) "
                    "FROM checkpoints GROUP BY thread_id",
                    "SELECT thread_id, sum(length(value)) FROM writes GROUP BY thread_id",
                ):
                    async with self.conn.execute(sql) as cursor:
                        for thread_id, size in await cursor.fetchall():
                            sizes[str(thread_id)] = sizes.get(str(thread_id), 0) + int(size or 0)
            by_thread: dict[str, list[bytes]] = {}
            for thread_id, root in await self._roots():
                by_thread.setdefault(thread_id, []).append(root)
            for thread_id, roots in by_thread.items():
                names = await self._reachable(encoder, roots)
                sizes[thread_id] = sizes.get(thread_id, 0) + await self._bytes_of(names)
        return sizes

    async def _bytes_of(self, names: set[bytes]) -> int:
        total = 0
        for batch in _batches(list(names)):
            marks = ",".join("?" * len(batch))
            async with self.conn.execute(
                f"SELECT sum(length(data)) FROM osprey_context_chunks WHERE hash IN ({marks})",
                batch,
            ) as cursor:
                row = await cursor.fetchone()
            total += int(row[0] or 0) if row else 0
        return total


def _batches(names: Sequence[bytes]) -> Iterable[list[bytes]]:
    for start in range(0, len(names), _BATCH):
        yield list(names[start : start + _BATCH])


__all__ = [
    "GRACE_SECONDS",
    "BaseRootGone",
    "ContextChunkStore",
    "GarbageReport",
    "RootRef",
    "SqliteChunkStore",
]
