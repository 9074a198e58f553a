"""The context dictionary and the message list as trees of content-addressed chunks.

``{type: {key: entry}}`` is cut, per context type and in insertion order, into runs of
``RUN_SIZE`` entries; runs are grouped under nodes of ``FANOUT`` children, and one root lists
every type with the top of its tree. A chunk is named by the BLAKE2b digest of its bytes, so a
turn that replaces or appends one entry produces one new run, the nodes above it and a new
root (a few KiB), while every other chunk is the one already stored. Cutting by position
rather than by a hash of the key keeps the insertion order of types and keys exactly.

The state's messages are stored the same way (``encode_sequence``): a chunk per message
under one node, so a turn writes its new messages, a node of names and a root.

A ``TreeCache`` makes both directions cost what changed rather than what is stored: a chunk
decoded once is not decoded again (its name is its content), an unchanged part of the tree is
handed back as the same object, and a run made of the very objects a decode produced (or an
encode serialised) gets its name back without being serialised again. That relies on what
LangGraph and the reducers already assume: values in a state are never changed in place.

Pure except for the cache: storing and loading the chunks is ``context_chunks``'s job.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

RUN_SIZE = 64
"""Entries per leaf chunk: one changed entry rewrites about 64 entries' bytes (~3-4 KiB)."""
FANOUT = 64
"""Children per inner node: 64 x 64 = 4,096 entries under one node, 262,144 under two."""
DIGEST_SIZE = 16
REF_KEY = "__osprey_context_chunks__"
"""The only key of the value that stands for the dictionary in a checkpoint."""
FORMAT_VERSION = 1
MESSAGE_RUN = 1
"""Messages per leaf: one. The state keeps a sliding window of recent messages
(``transcript.RECENT_MESSAGES``), so runs by position would all shift at every turn; a chunk
per message is written once and named again by every later checkpoint that holds it."""

LEAF, NODE, ROOT = 0, 1, 2

_PLAIN = JsonPlusSerializer()


@dataclass(frozen=True)
class Chunk:
    """One stored piece: its kind (``LEAF``, ``NODE``, ``ROOT``) and its serialised form."""

    kind: int
    type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class EncodedTree:
    """The root's digest, the chunks to store and the name of every chunk of the tree.

    ``chunks`` holds every chunk, except, when the encode was given ``reusable`` names, the
    chunks among them (the store has those already: see ``encode_tree``).
    """

    root: bytes
    chunks: dict[bytes, Chunk]
    entries: int
    names: frozenset[bytes] = frozenset()


class _Lru(OrderedDict):
    """A bounded mapping that forgets the least recently used entries."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def lookup(self, key: Hashable) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: Hashable, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


@dataclass
class TreeCache:
    """What one process has decoded and encoded already (see the module docstring).

    Bounded: ``chunk_limit`` decoded chunks and run names, ``subtree_limit`` assembled
    subtrees (a type's entries, a message list). Names are content digests, so nothing here
    can be stale; a run's name is found by the identity of its objects, which the cache keeps
    alive (an id is never reused while its object lives).
    """

    chunk_limit: int = 20_000
    subtree_limit: int = 16
    decoded: _Lru = field(init=False)
    runs: _Lru = field(init=False)
    subtrees: _Lru = field(init=False)
    layouts: _Lru = field(init=False)
    chunks_decoded: int = 0

    def __post_init__(self) -> None:
        self.decoded = _Lru(self.chunk_limit)
        self.runs = _Lru(self.chunk_limit)
        self.subtrees = _Lru(self.subtree_limit)
        self.layouts = _Lru(self.subtree_limit)

    def remember_layout(
        self,
        context_type: str,
        keys: list[str],
        values: list[Any],
        leaves: list[bytes],
        ids: list[int] | None = None,
    ) -> None:
        """How a type's entries were cut into runs, so an append finds its unchanged prefix
        with two list comparisons instead of a lookup per run (``values`` keeps the objects
        alive, so their ids stay theirs)."""
        if keys:
            ids = ids if ids is not None else list(map(id, values))
            self.layouts.keep((context_type, keys[0], ids[0]), (keys, ids, leaves, values))

    def unchanged_runs(
        self,
        context_type: str,
        keys: list[str],
        ids: list[int],
        reusable: Collection[bytes],
    ) -> list[bytes]:
        """The names of the leading full runs of a type that a known layout shares with it."""
        if not keys:
            return []
        found = self.layouts.lookup((context_type, keys[0], ids[0]))
        if found is None:
            return []
        old_keys, old_ids, leaves, _ = found
        runs = min(len(old_keys), len(keys)) // RUN_SIZE
        limit = runs * RUN_SIZE
        if keys[:limit] != old_keys[:limit] or ids[:limit] != old_ids[:limit]:
            return []
        shared = leaves[:runs]
        return shared if all(name in reusable for name in shared) else []

    def remember_run(self, key: Hashable, digest: bytes, objects: tuple[Any, ...]) -> None:
        self.runs.keep(key, (digest, objects))

    def run_name(self, key: Hashable) -> bytes | None:
        found = self.runs.lookup(key)
        return None if found is None else found[0]


def _mapping_run_key(context_type: str, run: Mapping[str, Any]) -> tuple[Any, ...]:
    return (context_type, tuple(run), tuple(map(id, run.values())))


def _sequence_run_key(run: Sequence[Any]) -> tuple[Any, ...]:
    return ("#seq", tuple(map(id, run)))


class ChunkEncoder:
    """Serialises pieces with a deterministic encoding, so equal content gives equal names.

    ``serde`` is the saver's serializer: chunks are stored with it (an encrypting serializer
    keeps encrypting), while names always come from the plain msgpack encoding, because an
    encrypted form differs on every call and would defeat reuse.
    """

    def __init__(self, serde: Any = None) -> None:
        self._serde = serde
        self._plain_storage = serde is None or type(serde) is JsonPlusSerializer

    def encode(self, kind: int, payload: Any) -> tuple[bytes, Chunk]:
        type_, plain = _PLAIN.dumps_typed(payload)
        digest = hashlib.blake2b(plain, digest_size=DIGEST_SIZE, person=bytes([kind]) * 16)
        if not self._plain_storage:
            type_, plain = self._serde.dumps_typed(payload)
        return digest.digest(), Chunk(kind, type_, plain)

    def decode(self, chunk: Chunk) -> Any:
        serde = _PLAIN if self._plain_storage else self._serde
        return serde.loads_typed((chunk.type, chunk.data))


def is_reference(value: Any) -> bool:
    """True for the stand-in a checkpoint holds instead of the dictionary."""
    return type(value) is dict and len(value) == 1 and isinstance(value.get(REF_KEY), bytes | str)


def make_reference(root: bytes) -> dict[str, str]:
    return {REF_KEY: root.hex()}


def reference_root(value: Mapping[str, Any]) -> bytes:
    raw = value[REF_KEY]
    return raw if isinstance(raw, bytes) else bytes.fromhex(raw)


def count_entries(data: Mapping[str, Any]) -> int:
    return sum(len(entries) for entries in data.values() if isinstance(entries, Mapping))


def encode_tree(
    data: Mapping[str, Mapping[str, Any]],
    encoder: ChunkEncoder,
    cache: TreeCache | None = None,
    reusable: Collection[bytes] | None = None,
) -> EncodedTree:
    """Every chunk of ``data`` and the name of its root.

    With ``reusable`` (the names of a tree the store is known to hold) and a ``cache``, a run
    whose objects the cache knows, under a name in ``reusable``, is not serialised again and
    its chunk is left out of ``chunks``; so is any other chunk named in ``reusable``.
    """
    writer = _Writer(encoder, cache, reusable)
    types = []
    for context_type, entries in data.items():
        if not isinstance(entries, Mapping):
            raise TypeError(
                f"capability_context_data[{context_type!r}] must be a dict of "
                f"{{context_key: entry}}, got {type(entries).__name__}"
            )
        first_name = len(writer.names)
        # keys, values and ids listed once (C loops); a run's dict is built only when its
        # name is not known already, so an unchanged run costs two slices and a lookup
        keys, values = list(entries), list(entries.values())
        ids = list(map(id, values))
        level = []
        if cache is not None and reusable:
            level = cache.unchanged_runs(context_type, keys, ids, reusable)
            writer.names.extend(level)
        for start in range(len(level) * RUN_SIZE, len(keys), RUN_SIZE):
            end = start + RUN_SIZE
            key = (context_type, tuple(keys[start:end]), tuple(ids[start:end]))
            run_keys, run_values = keys[start:end], values[start:end]
            name = writer.known_leaf(key)
            if name is None:
                run = dict(zip(run_keys, run_values, strict=True))
                name = writer.new_leaf(key, run, run_values)
            level.append(name)
        leaves = list(level)
        height, top = writer.nodes(level)
        types.append([context_type, len(entries), height, top])
        if cache is not None:
            cache.remember_layout(context_type, keys, values, leaves, ids)
            # the next read of this tree hands back this very dict (nothing to assemble)
            subtree = ("types", context_type, top, height, len(entries))
            cache.subtrees.keep(subtree, (entries, frozenset(writer.names[first_name:])))
    root = writer.put(ROOT, {"v": FORMAT_VERSION, "types": types})
    return EncodedTree(root, writer.chunks, count_entries(data), frozenset(writer.names))


def encode_sequence(
    items: Sequence[Any],
    encoder: ChunkEncoder,
    cache: TreeCache | None = None,
    reusable: Collection[bytes] | None = None,
) -> EncodedTree:
    """A list (the conversation's messages) as runs of ``MESSAGE_RUN`` items; see
    ``encode_tree`` for ``cache`` and ``reusable``."""
    writer = _Writer(encoder, cache, reusable)
    level = []
    for start in range(0, len(items), MESSAGE_RUN):
        run = list(items[start : start + MESSAGE_RUN])
        key = _sequence_run_key(run)
        level.append(writer.known_leaf(key) or writer.new_leaf(key, run, run))
    height, top = writer.nodes(level)
    root = writer.put(ROOT, {"v": FORMAT_VERSION, "items": [len(items), height, top]})
    return EncodedTree(root, writer.chunks, len(items), frozenset(writer.names))


class _Writer:
    """Names and serialises the chunks of one encode."""

    def __init__(
        self, encoder: ChunkEncoder, cache: TreeCache | None, reusable: Collection[bytes] | None
    ) -> None:
        self.encoder = encoder
        self.cache = cache
        self.reusable = reusable if reusable is not None else ()
        self.chunks: dict[bytes, Chunk] = {}
        self.names: list[bytes] = []

    def put(self, kind: int, payload: Any) -> bytes:
        digest, chunk = self.encoder.encode(kind, payload)
        self.names.append(digest)
        if self.cache is not None:
            # read back after this put (the next turn's read), it is not fetched nor decoded
            self.cache.decoded.keep(digest, payload)
        if digest not in self.reusable:
            self.chunks[digest] = chunk
        return digest

    def known_leaf(self, key: Hashable) -> bytes | None:
        """The name of a run made of objects the cache knows, if the store holds it."""
        if self.cache is None:
            return None
        known = self.cache.run_name(key)
        if known is None or known not in self.reusable:
            return None
        self.names.append(known)
        return known

    def new_leaf(self, key: Hashable, run: Any, objects: Sequence[Any]) -> bytes:
        digest = self.put(LEAF, run)
        if self.cache is not None:
            self.cache.remember_run(key, digest, tuple(objects))
        return digest

    def nodes(self, level: list[bytes]) -> tuple[int, bytes | None]:
        """(height, top) of the nodes over ``level``'s leaves."""
        height = 0
        while len(level) > 1:
            level = [
                self.put(NODE, level[start : start + FANOUT])
                for start in range(0, len(level), FANOUT)
            ]
            height += 1
        return height, (level[0] if level else None)


class MissingChunkError(LookupError):
    """A chunk a checkpoint names is not in the store (the database lost rows)."""


Fetch = Callable[[list[bytes]], Awaitable[Mapping[bytes, Chunk]]]


class _Reader:
    """Decodes the chunks of one read, through the cache when there is one."""

    def __init__(self, fetch: Fetch, encoder: ChunkEncoder, cache: TreeCache | None) -> None:
        self.fetch = fetch
        self.encoder = encoder
        self.cache = cache
        self.names: set[bytes] = set()

    async def payloads(self, names: Sequence[bytes]) -> dict[bytes, Any]:
        """The decoded payload of each name; only those the cache lacks are fetched."""
        found: dict[bytes, Any] = {}
        wanted = []
        for name in dict.fromkeys(names):
            value = self.cache.decoded.lookup(name) if self.cache is not None else None
            if value is None:
                wanted.append(name)
            else:
                found[name] = value
        if wanted:
            fetched = await self.fetch(sorted(wanted))
            for name in wanted:
                value = self.encoder.decode(_one(fetched, name))
                found[name] = value
                if self.cache is not None:
                    self.cache.decoded.keep(name, value)
                    self.cache.chunks_decoded += 1
        self.names.update(found)
        return found

    async def runs(self, top: bytes | None, height: int) -> list[bytes]:
        """The leaf names under ``top``, in order."""
        level = [top] if top is not None else []
        while height > 0:
            payloads = await self.payloads(level)
            level = [child for name in level for child in payloads[name]]
            height -= 1
        return level

    async def root(self, root: bytes) -> dict[str, Any]:
        payload = (await self.payloads([root]))[root]
        if not isinstance(payload, dict) or payload.get("v") != FORMAT_VERSION:
            raise ValueError(f"context chunk {root.hex()} is not a version-{FORMAT_VERSION} root")
        return payload

    def subtree(self, key: Hashable) -> Any:
        found = self.cache.subtrees.lookup(key) if self.cache is not None else None
        if found is None:
            return None
        value, names = found
        self.names.update(names)
        return value

    def keep_subtree(self, key: Hashable, value: Any, names: set[bytes]) -> None:
        if self.cache is not None:
            self.cache.subtrees.keep(key, (value, frozenset(names)))


async def decode_tree(
    root: bytes, fetch: Fetch, encoder: ChunkEncoder, cache: TreeCache | None = None
) -> dict[str, dict[str, Any]]:
    """Rebuild the dictionary; ``fetch(names)`` returns those chunks (one call per level)."""
    data, _ = await decode_tree_names(root, fetch, encoder, cache)
    return data


async def decode_tree_names(
    root: bytes, fetch: Fetch, encoder: ChunkEncoder, cache: TreeCache | None = None
) -> tuple[dict[str, dict[str, Any]], frozenset[bytes]]:
    """``decode_tree`` and the name of every chunk of the tree.

    With a ``cache``, a type whose subtree was assembled before is handed back as the same
    dict object (equal content, same name): the reducers then see it unchanged for free.
    """
    reader = _Reader(fetch, encoder, cache)
    types = (await reader.root(root))["types"]
    data: dict[str, dict[str, Any]] = {}
    for context_type, count, height, top in types:
        key = ("types", context_type, top, height, count)
        entries = reader.subtree(key)
        if entries is None:
            before = set(reader.names)
            names = await reader.runs(top, height)
            leaves = await reader.payloads(names)
            entries = {}
            for name in names:
                run = leaves[name]
                entries.update(run)
                if cache is not None:
                    key_run = _mapping_run_key(context_type, run)
                    cache.remember_run(key_run, name, tuple(run.values()))
            if len(entries) != count:
                raise ValueError(
                    f"context type {context_type!r} should hold {count} entries, "
                    f"its chunks hold {len(entries)}"
                )
            if cache is not None:
                cache.remember_layout(context_type, list(entries), list(entries.values()), names)
            reader.keep_subtree(key, entries, reader.names - before | set(names))
        data[context_type] = entries
    return data, frozenset(reader.names)


async def decode_sequence(
    root: bytes, fetch: Fetch, encoder: ChunkEncoder, cache: TreeCache | None = None
) -> tuple[list[Any], frozenset[bytes]]:
    """The list ``encode_sequence`` stored (a new list; its items may be shared with the
    cache's earlier reads) and the name of every chunk of its tree."""
    reader = _Reader(fetch, encoder, cache)
    count, height, top = (await reader.root(root))["items"]
    key = ("items", top, height, count)
    items = reader.subtree(key)
    if items is None:
        names = await reader.runs(top, height)
        leaves = await reader.payloads(names)
        items = []
        for name in names:
            run = leaves[name]
            items.extend(run)
            if cache is not None:
                cache.remember_run(_sequence_run_key(run), name, tuple(run))
        if len(items) != count:
            raise ValueError(f"a message list should hold {count} items, its chunks {len(items)}")
        reader.keep_subtree(key, items, set(reader.names))
    return list(items), frozenset(reader.names)


def _one(chunks: Mapping[bytes, Chunk], name: bytes) -> Chunk:
    chunk = chunks.get(name)
    if chunk is None:
        raise MissingChunkError(f"context chunk {name.hex()} is missing from the database")
    return chunk


def child_names(chunk: Chunk, encoder: ChunkEncoder) -> Iterator[bytes]:
    """The chunks a root or a node names (none for a leaf): what garbage collection follows."""
    if chunk.kind == LEAF:
        return iter(())
    payload = encoder.decode(chunk)
    if chunk.kind == NODE:
        return iter(payload)
    if "items" in payload:  # a message list
        top = payload["items"][2]
        return iter(() if top is None else (top,))
    return iter(top for _, _, _, top in payload["types"] if top is not None)


__all__ = [
    "FANOUT",
    "LEAF",
    "MESSAGE_RUN",
    "NODE",
    "REF_KEY",
    "ROOT",
    "RUN_SIZE",
    "Chunk",
    "ChunkEncoder",
    "EncodedTree",
    "MissingChunkError",
    "TreeCache",
    "child_names",
    "count_entries",
    "decode_sequence",
    "decode_tree",
    "decode_tree_names",
    "encode_sequence",
    "encode_tree",
    "is_reference",
    "make_reference",
    "reference_root",
]
