"""A checkpoint saver that stores ``capability_context_data`` as shared chunks.

LangGraph's savers serialise each checkpoint's channel values whole (SQLite: the whole
checkpoint per step; PostgreSQL: each changed channel per version), so one new context on a
thread holding 10,000 wrote the other 9,999 again: ~0.5 MB per turn. Here the dictionary is
replaced, in the checkpoint and in large pending writes, by a reference to a root chunk
(``context_tree``); the chunks go to a ``ContextChunkStore`` in the same database (SQLite:
``context_chunks``; PostgreSQL: ``context_chunks_postgres``), and only the chunks the store
lacks are written. Reads put the dictionary back, so LangGraph, the nodes and every caller of
``aget_state`` see exactly what was stored.

The PostgreSQL saver stores a channel only when its version changes; a checkpoint that left
the context alone reads the reference an older checkpoint stored, so it gets its parent's root
row (``copy_root``) rather than a root of its own, and the dictionary is not encoded again.

``with_context_chunks(saver)`` works for any saver class: it returns an object of a subclass
of the saver's own class sharing the saver's connection, lock and serializer, so every
``isinstance`` check (the approval ledger's, the audit log's) still holds. Use the async API
(the sync one of ``AsyncSqliteSaver`` goes through it; an in-memory saver's does not).

It also bounds each thread's history (the newest ``history_limit`` checkpoints) and collects
the chunks no checkpoint needs any more: after a thread is deleted through it, on its first
put, and every ``gc_every`` puts (threads deleted through another handle of the database are
found by the store's orphan test).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from osprey_desktop.persistence.context_chunks import (
    GRACE_SECONDS,
    ContextChunkStore,
    GarbageReport,
    RootRef,
    SqliteChunkStore,
)
from osprey_desktop.persistence.context_tree import (
    RUN_SIZE,
    ChunkEncoder,
    count_entries,
    decode_tree,
    encode_tree,
    is_reference,
    make_reference,
    reference_root,
)

logger = logging.getLogger(__name__)

CONTEXT_CHANNEL = "capability_context_data"
INLINE_MAX_ENTRIES = RUN_SIZE
"""A dictionary this small stays inline: a chunked one costs a root and a transaction."""
DEFAULT_HISTORY_LIMIT = 20
"""Checkpoints kept per thread; older ones (and their writes) are deleted after each put."""
MIN_HISTORY_LIMIT = 2  # the latest checkpoint and its parent: what a run and a resume read
DEFAULT_GC_EVERY = 50


class ContextChunkingSaver:
    """Mixin placed before a saver class; see ``with_context_chunks``."""

    chunk_store: ContextChunkStore
    chunk_encoder: ChunkEncoder
    history_limit: int | None
    gc_every: int
    _puts_until_gc: int

    # -- writes ------------------------------------------------------------------------------

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        configurable = config["configurable"]
        thread_id = str(configurable["thread_id"])
        checkpoint_ns = str(configurable.get("checkpoint_ns", ""))
        values = checkpoint.get("channel_values") or {}
        data = values.get(CONTEXT_CHANNEL)
        if _worth_chunking(data):
            ref = RootRef(thread_id, checkpoint_ns, str(checkpoint["id"]))
            root = None
            parent_id = configurable.get("checkpoint_id")
            if (
                parent_id
                and CONTEXT_CHANNEL not in (new_versions or {})
                and getattr(self.chunk_store, "versioned_channels", False)
            ):
                # the saver will not store the unchanged value again: this checkpoint reads
                # the reference its parent's version holds, so it needs that root
                parent = RootRef(thread_id, checkpoint_ns, str(parent_id))
                root = await self.chunk_store.copy_root(parent, ref)  # type: ignore[attr-defined]
            if root is None:
                root = await self._store_tree(ref, data)
            # a new dict each level: LangGraph keeps using the checkpoint it handed over
            checkpoint = {
                **checkpoint,
                "channel_values": {**values, CONTEXT_CHANNEL: make_reference(root)},
            }
        saved = await super().aput(config, checkpoint, metadata, new_versions)  # type: ignore[misc]
        await self._after_put(thread_id, checkpoint_ns)
        return saved

    async def aput_writes(
        self, config: Any, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        configurable = config["configurable"]
        replaced = list(writes)
        for idx, (channel, value) in enumerate(writes):
            if channel == CONTEXT_CHANNEL and _worth_chunking(value):
                ref = RootRef(
                    str(configurable["thread_id"]),
                    str(configurable.get("checkpoint_ns", "")),
                    str(configurable["checkpoint_id"]),
                    task_id,
                    idx,
                )
                replaced[idx] = (channel, make_reference(await self._store_tree(ref, value)))
        await super().aput_writes(config, replaced, task_id, task_path)  # type: ignore[misc]

    async def _store_tree(self, ref: RootRef, data: Mapping[str, Any]) -> bytes:
        tree = encode_tree(data, self.chunk_encoder)
        await self.chunk_store.put_tree(ref, tree.root, tree.chunks)
        return tree.root

    async def _after_put(self, thread_id: str, checkpoint_ns: str) -> None:
        if self.history_limit is not None:
            await self.chunk_store.prune_history(thread_id, checkpoint_ns, self.history_limit)
        self._puts_until_gc -= 1
        if self._puts_until_gc <= 0:
            self._puts_until_gc = self.gc_every
            report = await self.collect_context_garbage()
            if report.chunks_removed:
                logger.info(
                    "context chunks: %d unreferenced chunks (%d bytes) removed",
                    report.chunks_removed,
                    report.bytes_removed,
                )

    # -- reads -------------------------------------------------------------------------------

    async def aget_tuple(self, config: Any) -> Any:
        found = await super().aget_tuple(config)  # type: ignore[misc]
        return None if found is None else await self._resolve(found)

    async def alist(self, config: Any, **kwargs: Any) -> AsyncIterator[Any]:
        # The savers (SQLite and PostgreSQL) yield while holding the lock the store needs to
        # read chunks: take every tuple first, then resolve them one by one.
        items = [item async for item in super().alist(config, **kwargs)]  # type: ignore[misc]
        for item in items:
            yield await self._resolve(item)

    async def _resolve(self, item: Any) -> Any:
        """The tuple with every reference replaced by the dictionary it names."""
        checkpoint = item.checkpoint
        values = checkpoint.get("channel_values") or {}
        thread_id = str(item.config["configurable"].get("thread_id", ""))
        if is_reference(values.get(CONTEXT_CHANNEL)):
            data = await self._load_tree(values[CONTEXT_CHANNEL], thread_id)
            checkpoint = {**checkpoint, "channel_values": {**values, CONTEXT_CHANNEL: data}}
        writes = item.pending_writes
        if writes and any(c == CONTEXT_CHANNEL and is_reference(v) for _, c, v in writes):
            writes = [
                (task, channel, await self._load_tree(value, thread_id))
                if channel == CONTEXT_CHANNEL and is_reference(value)
                else (task, channel, value)
                for task, channel, value in writes
            ]
        if checkpoint is item.checkpoint and writes is item.pending_writes:
            return item
        return item._replace(checkpoint=checkpoint, pending_writes=writes)

    async def _load_tree(self, reference: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
        try:
            return await decode_tree(
                reference_root(reference), self.chunk_store.get_chunks, self.chunk_encoder
            )
        except (LookupError, ValueError, TypeError) as exc:
            path = getattr(self, "db_path", None) or getattr(self, "database", None)
            if path is None:
                raise
            from osprey_desktop.persistence.checkpointer import damaged_row_error

            raise damaged_row_error(str(path), exc, thread_id) from exc

    # -- deletion and collection -----------------------------------------------------------

    async def adelete_thread(self, thread_id: str) -> None:
        await super().adelete_thread(thread_id)  # type: ignore[misc]
        await self.chunk_store.forget_thread(str(thread_id))
        await self.collect_context_garbage()

    async def collect_context_garbage(self, grace_seconds: float = GRACE_SECONDS) -> GarbageReport:
        """Remove the chunks no stored checkpoint or pending write reaches any more."""
        return await self.chunk_store.collect_garbage(self.chunk_encoder, grace_seconds)

    async def thread_sizes(self) -> dict[str, int]:
        """Bytes each thread occupies in the database (its share of chunks included)."""
        return await self.chunk_store.thread_sizes(self.chunk_encoder)


def _worth_chunking(value: Any) -> bool:
    return (
        isinstance(value, Mapping)
        and not is_reference(value)
        and count_entries(value) > INLINE_MAX_ENTRIES
    )


_CLASSES: dict[type, type] = {}


def _chunked_class(base: type) -> type:
    cls = _CLASSES.get(base)
    if cls is None:
        cls = type(f"ContextChunking{base.__name__}", (ContextChunkingSaver, base), {})
        cls.__module__ = __name__
        _CLASSES[base] = cls
    return cls


def store_for(saver: Any) -> ContextChunkStore | None:
    """The chunk store in ``saver``'s own database, or None when there is no implementation."""
    import aiosqlite

    from osprey_desktop.persistence.postgres import is_postgres_saver

    conn = getattr(saver, "conn", None)
    if isinstance(conn, aiosqlite.Connection):
        return SqliteChunkStore(conn, getattr(saver, "lock", None))
    if conn is not None and is_postgres_saver(saver):
        from osprey_desktop.persistence.context_chunks_postgres import PostgresChunkStore

        return PostgresChunkStore(
            conn,
            saver.lock,
            getattr(saver, "database", None),
            schema_ready=bool(getattr(saver, "schema_ready", False)),
        )
    return None


def with_context_chunks(
    saver: Any,
    store: ContextChunkStore | None = None,
    *,
    history_limit: int | None = DEFAULT_HISTORY_LIMIT,
    gc_every: int = DEFAULT_GC_EVERY,
) -> Any:
    """``saver`` storing contexts as chunks in ``store`` (default: its own database).

    Returns ``saver`` itself when it is None, already chunked, or has no store (then the
    dictionary is stored whole, as before). ``history_limit=None`` keeps every checkpoint.
    """
    if saver is None or saver is False or isinstance(saver, ContextChunkingSaver):
        return saver
    if history_limit is not None and history_limit < MIN_HISTORY_LIMIT:
        raise ValueError(
            f"history_limit must keep at least {MIN_HISTORY_LIMIT} checkpoints per thread "
            f"(the latest and its parent), got {history_limit}; use None to keep all"
        )
    if gc_every < 1:
        raise ValueError(f"gc_every must be a positive number of puts, got {gc_every}")
    store = store if store is not None else store_for(saver)
    if store is None:
        return saver
    chunked = object.__new__(_chunked_class(type(saver)))
    chunked.__dict__.update(saver.__dict__)
    chunked.chunk_store = store
    chunked.chunk_encoder = ChunkEncoder(getattr(saver, "serde", None))
    chunked.history_limit = history_limit
    chunked.gc_every = gc_every
    chunked._puts_until_gc = 1  # collect on the first put: threads deleted while we were away
    return chunked


async def thread_storage_sizes(saver: Any) -> dict[str, int] | None:
    """Bytes per thread, or None when the saver does not store contexts as chunks."""
    if isinstance(saver, ContextChunkingSaver):
        return await saver.thread_sizes()
    return None


__all__ = [
    "CONTEXT_CHANNEL",
    "DEFAULT_GC_EVERY",
    "DEFAULT_HISTORY_LIMIT",
    "INLINE_MAX_ENTRIES",
    "ContextChunkingSaver",
    "store_for",
    "thread_storage_sizes",
    "with_context_chunks",
]
