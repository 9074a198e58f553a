"""Context chunks in a shared PostgreSQL database: ``SqliteChunkStore``'s semantics for consoles.

The two tables (``osprey_context_chunks``, ``osprey_context_roots``) are part of
``persistence.postgres.SCHEMA``, created with the ledger's and the audit log's tables under
the schema advisory lock. Every statement runs on the saver's own connection under the saver's
lock, as the approval ledger's do.

Consoles decide between themselves with one more advisory lock (``CHUNK_LOCK_KEY``): a
``put_tree`` holds it shared for its transaction ("which chunks exist", the missing ones, the
root row), a collection holds it exclusively. So a collection in one console never runs
between another console's "this chunk exists already" and the root row that makes it
reachable, and puts of several consoles still run side by side.

LangGraph's PostgreSQL saver stores a channel's value once per *version*
(``checkpoint_blobs``): a checkpoint that did not change the context reads the value, here a
reference, that an older checkpoint stored. ``versioned_channels`` tells the chunking saver
so; it then gives such a checkpoint the root row of its parent (``copy_root``) instead of
encoding the dictionary again, and the chunks stay reachable after the older checkpoint is
pruned. Pruning deletes a blob only when a deleted checkpoint listed its version and no
remaining one does: a blob another console is writing for its new checkpoint is never listed
by an old one.

Times of root rows are the server's clock, so the grace period means the same on every host.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from osprey_desktop.persistence.context_chunks import (
    GRACE_SECONDS,
    BaseRootGone,
    GarbageReport,
    RootRef,
)
from osprey_desktop.persistence.context_tree import Chunk, ChunkEncoder, child_names
from osprey_desktop.persistence.postgres import PostgresDatabase, _mapped, prepare_schema

CHUNK_LOCK_KEY = 0x4F53434B  # "OSCK": shared by puts, exclusive for a collection
PRUNE_LOCK_CLASS = 0x4F53  # with hashtext(thread_id): one prune of a thread at a time

_SERVER_NOW = "extract(epoch FROM clock_timestamp())"
_SAVER_SIZES = (  # (thread_id, bytes) of LangGraph's three tables
    "SELECT thread_id, sum(pg_column_size(checkpoint) + pg_column_size(metadata)) "
    "FROM checkpoints GROUP BY thread_id",
    "SELECT thread_id, sum(coalesce(length(blob), 0)) FROM checkpoint_blobs GROUP BY thread_id",
    "SELECT thread_id, sum(length(blob)) FROM checkpoint_writes GROUP BY thread_id",
)


class PostgresChunkStore:
    """The chunk store on a PostgreSQL saver's connection (or pool), under the saver's lock."""

    versioned_channels = True

    def __init__(
        self,
        conn: Any,
        lock: asyncio.Lock | None = None,
        database: PostgresDatabase | str | None = None,
        *,
        schema_ready: bool = False,
    ) -> None:
        self.conn = conn
        self.lock = lock or asyncio.Lock()
        self.database = database if database is not None else "PostgreSQL"
        self._is_setup = schema_ready
        self._saver_tables = False

    @asynccontextmanager
    async def _cursor(self, *, transaction: bool = False) -> AsyncIterator[Any]:
        """A tuple-row cursor under the saver's lock; psycopg errors become one clear error."""
        from langgraph.checkpoint.postgres import _ainternal
        from psycopg.rows import tuple_row

        with _mapped(self.database, reading=False):
            async with self.lock, _ainternal.get_connection(self.conn) as conn:
                if transaction:
                    async with conn.transaction(), conn.cursor(row_factory=tuple_row) as cur:
                        yield cur
                else:
                    async with conn.cursor(row_factory=tuple_row) as cur:
                        yield cur

    async def setup(self) -> None:
        if self._is_setup:
            return
        from langgraph.checkpoint.postgres import _ainternal

        with _mapped(self.database, reading=False):
            async with self.lock, _ainternal.get_connection(self.conn) as conn:
                await prepare_schema(conn)
        self._is_setup = True

    async def _has_saver_tables(self, cur: Any) -> bool:
        """Whether LangGraph's tables share this database (once there, they stay)."""
        if not self._saver_tables:
            await cur.execute(
                "SELECT to_regclass('checkpoints') IS NOT NULL "
                "AND to_regclass('checkpoint_writes') IS NOT NULL "
                "AND to_regclass('checkpoint_blobs') IS NOT NULL"
            )
            row = await cur.fetchone()
            self._saver_tables = bool(row and row[0])
        return self._saver_tables

    # -- writes ------------------------------------------------------------------------------

    async def put_tree(
        self,
        ref: RootRef,
        root: bytes,
        chunks: Mapping[bytes, Chunk],
        *,
        base: tuple[RootRef, bytes] | None = None,
    ) -> int:
        await self.setup()
        async with self._cursor(transaction=True) as cur:
            await cur.execute("SELECT pg_advisory_xact_lock_shared(%s)", (CHUNK_LOCK_KEY,))
            if base is not None:
                # the base tree's chunks were left out: they are there while its row is
                await cur.execute(
                    "SELECT 1 FROM osprey_context_roots WHERE thread_id = %s "
                    "AND checkpoint_ns = %s AND checkpoint_id = %s AND task_id = %s "
                    "AND idx = %s AND root = %s",
                    (*_key(base[0]), base[1]),
                )
                if await cur.fetchone() is None:
                    raise BaseRootGone(f"no root row for {base[0]}")
            # names first: a turn on a 100,000-context thread would otherwise send ~6 MB of
            # chunks the server already has, only for ON CONFLICT to drop them
            await cur.execute(
                "SELECT hash FROM osprey_context_chunks WHERE hash = ANY(%s)", (list(chunks),)
            )
            present = {bytes(row[0]) for row in await cur.fetchall()}
            missing = [(name, chunk) for name, chunk in chunks.items() if name not in present]
            if missing:
                await cur.executemany(
                    "INSERT INTO osprey_context_chunks (hash, kind, type, data) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (hash) DO NOTHING",
                    [(name, c.kind, c.type, c.data) for name, c in missing],
                )
            await cur.execute(
                "INSERT INTO osprey_context_roots (thread_id, checkpoint_ns, checkpoint_id, "
                f"task_id, idx, root, created_at) VALUES (%s, %s, %s, %s, %s, %s, {_SERVER_NOW}) "
                "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) "
                "DO UPDATE SET root = EXCLUDED.root, created_at = EXCLUDED.created_at",
                (*_key(ref), root),
            )
        return sum(chunk.size for _, chunk in missing)

    async def copy_root(self, parent: RootRef, ref: RootRef) -> bytes | None:
        """Give ``ref`` the root ``parent`` refers to; None when ``parent`` has no root row."""
        await self.setup()
        async with self._cursor(transaction=True) as cur:
            await cur.execute("SELECT pg_advisory_xact_lock_shared(%s)", (CHUNK_LOCK_KEY,))
            await cur.execute(
                "INSERT INTO osprey_context_roots (thread_id, checkpoint_ns, checkpoint_id, "
                f"task_id, idx, root, created_at) SELECT %s, %s, %s, %s, %s, root, {_SERVER_NOW} "
                "FROM osprey_context_roots WHERE thread_id = %s AND checkpoint_ns = %s "
                "AND checkpoint_id = %s AND task_id = %s AND idx = %s "
                "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) "
                "DO UPDATE SET root = EXCLUDED.root, created_at = EXCLUDED.created_at "
                "RETURNING root",
                (*_key(ref), *_key(parent)),
            )
            row = await cur.fetchone()
        return None if row is None else bytes(row[0])

    # -- reads -------------------------------------------------------------------------------

    async def get_chunks(self, names: Sequence[bytes]) -> dict[bytes, Chunk]:
        await self.setup()
        if not names:
            return {}
        async with self._cursor() as cur:
            await cur.execute(
                "SELECT hash, kind, type, data FROM osprey_context_chunks WHERE hash = ANY(%s)",
                (list(names),),
            )
            rows = await cur.fetchall()
        return {bytes(n): Chunk(int(k), str(t), bytes(d)) for n, k, t, d in rows}

    # -- deletion, history and collection ------------------------------------------------------

    async def forget_thread(self, thread_id: str) -> None:
        await self.setup()
        async with self._cursor() as cur:
            await cur.execute("DELETE FROM osprey_context_roots WHERE thread_id = %s", (thread_id,))

    async def prune_history(self, thread_id: str, checkpoint_ns: str, keep: int) -> int:
        if keep < 1:
            raise ValueError(f"keep must be at least 1 checkpoint, got {keep}")
        await self.setup()
        thread = (thread_id, checkpoint_ns)
        async with self._cursor(transaction=True) as cur:
            await cur.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (PRUNE_LOCK_CLASS, thread_id)
            )
            if not await self._has_saver_tables(cur):
                return 0  # the checkpoints live elsewhere (a saver in another database)
            await cur.execute(
                "SELECT checkpoint_id FROM checkpoints WHERE thread_id = %s "
                "AND checkpoint_ns = %s ORDER BY checkpoint_id DESC LIMIT 1 OFFSET %s",
                (*thread, keep - 1),
            )
            row = await cur.fetchone()
            if row is None:
                return 0
            # strictly older than the oldest kept: ids grow with time, so a checkpoint another
            # console is writing right now is never touched. Tables in adelete_thread's order.
            older = (*thread, row[0])
            await cur.execute(
                "DELETE FROM checkpoints WHERE thread_id = %s AND checkpoint_ns = %s "
                "AND checkpoint_id < %s RETURNING checkpoint -> 'channel_versions'",
                older,
            )
            deleted = [r[0] for r in await cur.fetchall()]
            if not deleted:
                return 0
            await cur.execute(
                "SELECT checkpoint -> 'channel_versions' FROM checkpoints "
                "WHERE thread_id = %s AND checkpoint_ns = %s",
                thread,
            )
            unlisted = _versions(deleted) - _versions(r[0] for r in await cur.fetchall())
            if unlisted:
                channels, versions = zip(*sorted(unlisted), strict=True)
                await cur.execute(
                    "DELETE FROM checkpoint_blobs WHERE thread_id = %s AND checkpoint_ns = %s "
                    "AND (channel, version) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
                    (*thread, list(channels), list(versions)),
                )
            for table in ("checkpoint_writes", "osprey_context_roots"):
                await cur.execute(
                    f"DELETE FROM {table} WHERE thread_id = %s AND checkpoint_ns = %s "
                    "AND checkpoint_id < %s",
                    older,
                )
        return len(deleted)

    async def collect_garbage(
        self, encoder: ChunkEncoder, grace_seconds: float = GRACE_SECONDS
    ) -> GarbageReport:
        await self.setup()
        async with self._cursor(transaction=True) as cur:
            await cur.execute("SELECT pg_advisory_xact_lock(%s)", (CHUNK_LOCK_KEY,))
            roots_removed = await self._drop_orphan_roots(cur, grace_seconds)
            await cur.execute("SELECT DISTINCT root FROM osprey_context_roots")
            roots = [bytes(r[0]) for r in await cur.fetchall()]
            reachable = await _reachable(cur, encoder, roots)
            await cur.execute("SELECT hash, length(data) FROM osprey_context_chunks")
            garbage = [
                (bytes(n), int(size))
                for n, size in await cur.fetchall()
                if bytes(n) not in reachable
            ]
            if garbage:
                await cur.execute(
                    "DELETE FROM osprey_context_chunks WHERE hash = ANY(%s)",
                    ([name for name, _ in garbage],),
                )
        return GarbageReport(roots_removed, len(garbage), sum(size for _, size in garbage))

    async def _drop_orphan_roots(self, cur: Any, grace_seconds: float) -> int:
        """Root rows older than the grace whose checkpoint or pending write is gone."""
        if not await self._has_saver_tables(cur):
            return 0
        await cur.execute(
            f"""
            DELETE FROM osprey_context_roots r
            WHERE r.created_at < {_SERVER_NOW} - %s AND (
                (r.idx = -1 AND NOT EXISTS (
                    SELECT 1 FROM checkpoints c
                    WHERE c.thread_id = r.thread_id AND c.checkpoint_ns = r.checkpoint_ns
                      AND c.checkpoint_id = r.checkpoint_id))
                OR (r.idx <> -1 AND NOT EXISTS (
                    SELECT 1 FROM checkpoint_writes w
                    WHERE w.thread_id = r.thread_id AND w.checkpoint_ns = r.checkpoint_ns
                      AND w.checkpoint_id = r.checkpoint_id AND w.task_id = r.task_id
                      AND w.idx = r.idx))
            )
            """,
            (grace_seconds,),
        )
        return max(cur.rowcount, 0)

    async def thread_sizes(self, encoder: ChunkEncoder) -> dict[str, int]:
        await self.setup()
        sizes: dict[str, int] = {}
        async with self._cursor(transaction=True) as cur:
            saver_tables = await self._has_saver_tables(cur)
            for sql in _SAVER_SIZES if saver_tables else ():
                await cur.execute(sql)
                for thread_id, size in await cur.fetchall():
                    sizes[str(thread_id)] = sizes.get(str(thread_id), 0) + int(size or 0)
            await cur.execute("SELECT DISTINCT thread_id, root FROM osprey_context_roots")
            by_thread: dict[str, list[bytes]] = {}
            for thread_id, root in await cur.fetchall():
                by_thread.setdefault(str(thread_id), []).append(bytes(root))
            for thread_id, roots in by_thread.items():
                names = await _reachable(cur, encoder, roots)
                await cur.execute(
                    "SELECT coalesce(sum(length(data)), 0) FROM osprey_context_chunks "
                    "WHERE hash = ANY(%s)",
                    (list(names),),
                )
                row = await cur.fetchone()
                sizes[thread_id] = sizes.get(thread_id, 0) + int(row[0] if row else 0)
        return sizes


def _key(ref: RootRef) -> tuple[str, str, str, str, int]:
    return (ref.thread_id, ref.checkpoint_ns, ref.checkpoint_id, ref.task_id, ref.idx)


def _versions(rows: Iterable[Any]) -> set[tuple[str, str]]:
    """(channel, version) pairs of checkpoints' ``channel_versions`` (JSONB, or its text)."""
    pairs: set[tuple[str, str]] = set()
    for versions in rows:
        if isinstance(versions, str | bytes):
            versions = json.loads(versions)
        pairs.update((str(channel), str(version)) for channel, version in (versions or {}).items())
    return pairs


async def _reachable(cur: Any, encoder: ChunkEncoder, roots: Iterable[bytes]) -> set[bytes]:
    """Every chunk reachable from ``roots``; only roots and nodes are read, never leaves."""
    seen: set[bytes] = set()
    frontier = list(dict.fromkeys(roots))
    while frontier:
        seen.update(frontier)
        await cur.execute(
            "SELECT kind, type, data FROM osprey_context_chunks WHERE hash = ANY(%s) AND kind <> 0",
            (frontier,),
        )
        inner: list[bytes] = []
        for kind, type_, data in await cur.fetchall():
            inner.extend(child_names(Chunk(int(kind), str(type_), bytes(data)), encoder))
        frontier = [name for name in dict.fromkeys(inner) if name not in seen]
    return seen


__all__ = ["CHUNK_LOCK_KEY", "PostgresChunkStore"]
