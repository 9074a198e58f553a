"""A checkpoint saver that stores ``capability_context_data`` and ``messages`` as shared chunks.

LangGraph's savers serialise each checkpoint's channel values whole (SQLite: the whole
checkpoint per step; PostgreSQL: each changed channel per version), so one new context on a
thread holding 10,000 wrote the other 9,999 again: ~0.5 MB per turn. Here the dictionary is
replaced, in the checkpoint and in large pending writes, by a reference to a root chunk
(``context_tree``); the chunks go to a ``ContextChunkStore`` in the same database (SQLite:
``context_chunks``; PostgreSQL: ``context_chunks_postgres``), and only the chunks the store
lacks are written. Reads put the dictionary back, so LangGraph, the nodes and every caller of
``aget_state`` see exactly what was stored.

The state's ``messages`` are stored the same way (``context_tree.encode_sequence``, a chunk
per message): a turn writes its new messages, not the recent conversation again. Every
message is also appended, once, to the thread's transcript (``transcript.py``) before the
checkpoint that holds it is written, so the state may keep only the recent conversation.

A ``TreeCache`` per saver keeps what was decoded: a read decodes only the chunks it has not
seen (the new ones), and a write serialises only runs it does not know; the chunks of the
thread's previous tree are not even looked up, once the put has checked, in its transaction,
that the root row of that tree is still there (then no collection can have taken them).

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
    BaseRootGone,
    ContextChunkStore,
    GarbageReport,
    RootRef,
    SqliteChunkStore,
)
from osprey_desktop.persistence.context_tree import (
    RUN_SIZE,
    ChunkEncoder,
    EncodedTree,
    TreeCache,
    count_entries,
    decode_sequence,
    decode_tree_names,
    encode_sequence,
    encode_tree,
    is_reference,
    make_reference,
    reference_root,
)
from osprey_desktop.persistence.storage_errors import damaged_row_error
from osprey_desktop.persistence.transcript import Transcript, whole_conversation

logger = logging.getLogger(__name__)

CONTEXT_CHANNEL = "capability_context_data"
MESSAGES_CHANNEL = "messages"
CHUNKED_CHANNELS: dict[str, str] = {CONTEXT_CHANNEL: "", MESSAGES_CHANNEL: MESSAGES_CHANNEL}
"""Channel -> the ``task_id`` of its root rows for a checkpoint (``""``: the context's, as
stored before messages were chunked too; writes use their own task id and index)."""
INLINE_MAX_ENTRIES = RUN_SIZE
"""A dictionary this small stays inline: a chunked one costs a root and a transaction."""
LARGE_ITEMS = 20_000
"""A small dictionary holding at least this many list items (a day of a BPM family's history)
is chunked all the same: inline, every read decoded it again (26 ms for 72 BPMs over 24 hours,
holding the GIL, so the window too); as a chunk, the tree cache decodes it once."""
INLINE_MAX_MESSAGES = 4
"""A conversation this short stays inline (two turns): one chunk per message costs a row."""
_THREADS_REMEMBERED = 256  # threads whose last tree a put may build on
DEFAULT_HISTORY_LIMIT = 20
"""Checkpoints kept per thread; older ones (and their writes) are deleted after each put."""
MIN_HISTORY_LIMIT = 2  # the latest checkpoint and its parent: what a run and a resume read
DEFAULT_GC_EVERY = 50


class ContextChunkingSaver:
    """Mixin placed before a saver class; see ``with_context_chunks``."""

    chunk_store: ContextChunkStore
    chunk_encoder: ChunkEncoder
    tree_cache: TreeCache
    transcript: Transcript
    _last_trees: dict[tuple[str, str, str], tuple[RootRef, bytes, frozenset[bytes]]]
    history_limit: int | None
    gc_every: int
    _puts_until_gc: int

    # -- writes ------------------------------------------------------------------------------

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        configurable = config["configurable"]
        thread_id = str(configurable["thread_id"])
        checkpoint_ns = str(configurable.get("checkpoint_ns", ""))
        values = checkpoint.get("channel_values") or {}
        replaced = dict(values)
        changed = False
        for channel, marker in CHUNKED_CHANNELS.items():
            data = values.get(channel)
            if not _worth_chunking(channel, data):
                continue
            changed = True
            ref = RootRef(thread_id, checkpoint_ns, str(checkpoint["id"]), marker)
            root = None
            parent_id = configurable.get("checkpoint_id")
            if (
                parent_id
                and channel not in (new_versions or {})
                and getattr(self.chunk_store, "versioned_channels", False)
            ):
                # the saver will not store the unchanged value again: this checkpoint reads
                # the reference its parent's version holds, so it needs that root
                parent = RootRef(thread_id, checkpoint_ns, str(parent_id), marker)
                root = await self.chunk_store.copy_root(parent, ref)  # type: ignore[attr-defined]
                if root is not None:
                    self._remember(channel, ref, root, None)
            if root is None:
                root = await self._store_tree(ref, channel, data)
            replaced[channel] = make_reference(root)
        messages = values.get(MESSAGES_CHANNEL)
        if not checkpoint_ns and isinstance(messages, list):
            # before the checkpoint: a message the state drops later is in the transcript
            await self.transcript.record(thread_id, str(checkpoint["id"]), messages)
        if changed:
            # a new dict each level: LangGraph keeps using the checkpoint it handed over
            checkpoint = {**checkpoint, "channel_values": replaced}
        saved = await super().aput(config, checkpoint, metadata, new_versions)  # type: ignore[misc]
        await self._after_put(thread_id, checkpoint_ns)
        return saved

    async def aput_writes(
        self, config: Any, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        configurable = config["configurable"]
        replaced = list(writes)
        for idx, (channel, value) in enumerate(writes):
            if channel in CHUNKED_CHANNELS and _worth_chunking(channel, value):
                ref = RootRef(
                    str(configurable["thread_id"]),
                    str(configurable.get("checkpoint_ns", "")),
                    str(configurable["checkpoint_id"]),
                    task_id,
                    idx,
                )
                root = await self._store_tree(ref, channel, value)
                replaced[idx] = (channel, make_reference(root))
        await super().aput_writes(config, replaced, task_id, task_path)  # type: ignore[misc]

    async def _store_tree(self, ref: RootRef, channel: str, data: Any) -> bytes:
        """Store ``data``'s tree; the chunks of the thread's previous tree are taken as
        stored when that tree's root row is still there (checked in the put's transaction)."""
        base = self._last_trees.get((ref.thread_id, ref.checkpoint_ns, channel))
        tree = self._encode(channel, data, base[2] if base else None)
        try:
            await self.chunk_store.put_tree(
                ref, tree.root, tree.chunks, base=(base[0], base[1]) if base else None
            )
        except BaseRootGone:
            # pruned or collected meanwhile (another console): store every chunk it lacks
            tree = self._encode(channel, data, None)
            await self.chunk_store.put_tree(ref, tree.root, tree.chunks)
        self._remember(channel, ref, tree.root, tree.names)
        return tree.root

    def _encode(self, channel: str, data: Any, reusable: frozenset[bytes] | None) -> EncodedTree:
        encode = encode_tree if channel == CONTEXT_CHANNEL else encode_sequence
        return encode(data, self.chunk_encoder, self.tree_cache, reusable)

    def _remember(
        self, channel: str, ref: RootRef, root: bytes, names: frozenset[bytes] | None
    ) -> None:
        """The tree a thread's next put builds on (``names=None``: the one known already)."""
        key = (ref.thread_id, ref.checkpoint_ns, channel)
        if names is None:
            known = self._last_trees.get(key)
            if known is None or known[1] != root:
                return
            names = known[2]
        self._last_trees[key] = (ref, root, names)
        while len(self._last_trees) > _THREADS_REMEMBERED:
            self._last_trees.pop(next(iter(self._last_trees)))

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
        """The tuple with every reference replaced by the value it names."""
        checkpoint = item.checkpoint
        values = checkpoint.get("channel_values") or {}
        configurable = item.config["configurable"]
        thread_id = str(configurable.get("thread_id", ""))
        resolved = dict(values)
        changed = False
        for channel, marker in CHUNKED_CHANNELS.items():
            if is_reference(values.get(channel)):
                changed = True
                ref = RootRef(
                    thread_id,
                    str(configurable.get("checkpoint_ns", "")),
                    str(configurable.get("checkpoint_id", "")),
                    marker,
                )
                resolved[channel] = await self._load(channel, values[channel], ref)
        if changed:
            checkpoint = {**checkpoint, "channel_values": resolved}
        writes = item.pending_writes
        if writes and any(c in CHUNKED_CHANNELS and is_reference(v) for _, c, v in writes):
            writes = [
                (task, channel, await self._load(channel, value, None, thread_id))
                if channel in CHUNKED_CHANNELS and is_reference(value)
                else (task, channel, value)
                for task, channel, value in writes
            ]
        if checkpoint is item.checkpoint and writes is item.pending_writes:
            return item
        return item._replace(checkpoint=checkpoint, pending_writes=writes)

    async def _load(
        self,
        channel: str,
        reference: Mapping[str, Any],
        ref: RootRef | None,
        thread_id: str | None = None,
    ) -> Any:
        """The value of a reference; a checkpoint's (``ref``) becomes the thread's base tree."""
        root = reference_root(reference)
        decode = decode_tree_names if channel == CONTEXT_CHANNEL else decode_sequence
        try:
            value, names = await decode(
                root, self.chunk_store.get_chunks, self.chunk_encoder, self.tree_cache
            )
        except (LookupError, ValueError, TypeError) as exc:
            path = getattr(self, "db_path", None) or getattr(self, "database", None)
            if path is None:
                raise
            raise damaged_row_error(str(path), exc, ref.thread_id if ref else thread_id) from exc
        if ref is not None:
            self._remember(channel, ref, root, names)
        return value

    # -- deletion and collection -----------------------------------------------------------

    async def adelete_thread(self, thread_id: str) -> None:
        await super().adelete_thread(thread_id)  # type: ignore[misc]
        for key in [k for k in self._last_trees if k[0] == str(thread_id)]:
            del self._last_trees[key]
        await self.chunk_store.forget_thread(str(thread_id))
        await self.transcript.forget_thread(str(thread_id))
        await self.collect_context_garbage()

    async def collect_context_garbage(self, grace_seconds: float = GRACE_SECONDS) -> GarbageReport:
        """Remove the chunks no stored checkpoint or pending write reaches any more."""
        return await self.chunk_store.collect_garbage(self.chunk_encoder, grace_seconds)

    async def thread_sizes(self) -> dict[str, int]:
        """Bytes each thread occupies in the database (its share of chunks and its
        transcript included)."""
        sizes = await self.chunk_store.thread_sizes(self.chunk_encoder)
        for thread_id, size in (await self.transcript.sizes()).items():
            sizes[thread_id] = sizes.get(thread_id, 0) + size
        return sizes


def _worth_chunking(channel: str, value: Any) -> bool:
    if channel == MESSAGES_CHANNEL:
        return isinstance(value, list) and len(value) > INLINE_MAX_MESSAGES
    return (
        isinstance(value, Mapping)
        and not is_reference(value)
        and (count_entries(value) > INLINE_MAX_ENTRIES or _holds_many_items(value))
    )


def _holds_many_items(value: Any, budget: int = LARGE_ITEMS, depth: int = 5) -> bool:
    """Whether lists within ``value`` (to ``depth`` levels) hold ``budget`` items or more;
    stops as soon as they do."""
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, list):
            budget -= len(item)
            if budget <= 0:
                return True
            children = item if level < depth and item and not _is_atom(item[0]) else ()
        elif isinstance(item, Mapping) and level < depth:
            children = item.values()
        else:
            continue
        stack.extend((child, level + 1) for child in children)
    return False


def _is_atom(item: Any) -> bool:
    return isinstance(item, str | int | float | bool) or item is None


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
    chunked.tree_cache = TreeCache()
    chunked.transcript = Transcript(store, getattr(saver, "serde", None))
    chunked._last_trees = {}
    chunked.history_limit = history_limit
    chunked.gc_every = gc_every
    chunked._puts_until_gc = 1  # collect on the first put: threads deleted while we were away
    return chunked


def keeps_transcript(saver: Any) -> bool:
    """Whether ``saver`` records every message beside the checkpoints (then the state may keep
    only the recent ones)."""
    return isinstance(saver, ContextChunkingSaver)


async def whole_conversation_of(saver: Any, thread_id: str, recent: list[Any]) -> list[Any]:
    """A thread's whole conversation: its transcript, then what ``recent`` (the state's
    messages) holds beyond it; ``recent`` itself when the saver keeps no transcript."""
    if not keeps_transcript(saver):
        return list(recent)
    return whole_conversation(await saver.transcript.messages(str(thread_id)), recent)


async def first_requests(saver: Any) -> dict[str, str]:
    """Each thread's first request from its transcript (empty without one): the titles of
    ``threads``, which the pruned checkpoints' metadata no longer holds for long threads."""
    if keeps_transcript(saver):
        return await saver.transcript.first_requests()
    store = store_for(saver)  # the saver as opened, before the graph wrapped it
    if store is None:
        return {}
    return await Transcript(store, getattr(saver, "serde", None)).first_requests()


async def thread_storage_sizes(saver: Any) -> dict[str, int] | None:
    """Bytes per thread, or None when the saver does not store contexts as chunks."""
    if isinstance(saver, ContextChunkingSaver):
        return await saver.thread_sizes()
    return None


__all__ = [
    "CHUNKED_CHANNELS",
    "CONTEXT_CHANNEL",
    "DEFAULT_GC_EVERY",
    "DEFAULT_HISTORY_LIMIT",
    "INLINE_MAX_ENTRIES",
    "INLINE_MAX_MESSAGES",
    "MESSAGES_CHANNEL",
    "ContextChunkingSaver",
    "first_requests",
    "keeps_transcript",
    "store_for",
    "thread_storage_sizes",
    "whole_conversation_of",
    "with_context_chunks",
]
