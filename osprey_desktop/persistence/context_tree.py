"""The context dictionary as a tree of content-addressed chunks.

``{type: {key: entry}}`` is cut, per context type and in insertion order, into runs of
``RUN_SIZE`` entries; runs are grouped under nodes of ``FANOUT`` children, and one root lists
every type with the top of its tree. A chunk is named by the BLAKE2b digest of its bytes, so a
turn that replaces or appends one entry produces one new run, the nodes above it and a new
root (a few KiB), while every other chunk is the one already stored. Cutting by position
rather than by a hash of the key keeps the insertion order of types and keys exactly.

Pure and synchronous: storing and loading the chunks is ``context_chunks``'s job.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
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
    """The root's digest and every chunk of the tree (the store keeps those it lacks)."""

    root: bytes
    chunks: dict[bytes, Chunk]
    entries: int


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


def encode_tree(data: Mapping[str, Mapping[str, Any]], encoder: ChunkEncoder) -> EncodedTree:
    """Every chunk of ``data`` and the name of its root."""
    chunks: dict[bytes, Chunk] = {}

    def put(kind: int, payload: Any) -> bytes:
        digest, chunk = encoder.encode(kind, payload)
        chunks[digest] = chunk
        return digest

    types = []
    for context_type, entries in data.items():
        if not isinstance(entries, Mapping):
            raise TypeError(
                f"capability_context_data[{context_type!r}] must be a dict of "
                f"{{context_key: entry}}, got {type(entries).__name__}"
            )
        pairs = iter(entries.items())
        level = []
        # islice, not a list of every pair: 10,000 live tuples wake the cyclic collector
        while run := dict(islice(pairs, RUN_SIZE)):
            level.append(put(LEAF, run))
        height = 0
        while len(level) > 1:
            level = [
                put(NODE, level[start : start + FANOUT]) for start in range(0, len(level), FANOUT)
            ]
            height += 1
        types.append([context_type, len(entries), height, level[0] if level else None])
    root = put(ROOT, {"v": FORMAT_VERSION, "types": types})
    return EncodedTree(root, chunks, count_entries(data))


class MissingChunkError(LookupError):
    """A chunk a checkpoint names is not in the store (the database lost rows)."""


async def decode_tree(
    root: bytes,
    fetch: Callable[[list[bytes]], Awaitable[Mapping[bytes, Chunk]]],
    encoder: ChunkEncoder,
) -> dict[str, dict[str, Any]]:
    """Rebuild the dictionary; ``fetch(names)`` returns those chunks (one call per level)."""
    root_payload = encoder.decode(_one(await fetch([root]), root))
    if not isinstance(root_payload, dict) or root_payload.get("v") != FORMAT_VERSION:
        raise ValueError(f"context chunk {root.hex()} is not a version-{FORMAT_VERSION} root")
    types = root_payload["types"]
    # (type index, chunk name, height above the leaves); expanded in place, so each type's
    # runs stay in order
    frontier = [(index, top, height) for index, (_, _, height, top) in enumerate(types) if top]
    while any(height > 0 for _, _, height in frontier):
        fetched = await fetch(sorted({name for _, name, height in frontier if height > 0}))
        expanded: list[tuple[int, bytes, int]] = []
        for index, name, height in frontier:
            if height == 0:
                expanded.append((index, name, 0))
            else:
                children = encoder.decode(_one(fetched, name))
                expanded.extend((index, child, height - 1) for child in children)
        frontier = expanded
    leaves = await fetch(sorted({name for _, name, _ in frontier})) if frontier else {}
    runs: dict[int, list[bytes]] = {}
    for index, name, _ in frontier:
        runs.setdefault(index, []).append(name)
    return _assemble(types, runs, leaves, encoder)


def _assemble(
    types: list[list[Any]],
    runs: dict[int, list[bytes]],
    leaves: Mapping[bytes, Chunk],
    encoder: ChunkEncoder,
) -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = {}
    decoded: dict[bytes, Any] = {}
    for index, (context_type, count, _, _) in enumerate(types):
        entries: dict[str, Any] = {}
        for name in runs.get(index, ()):
            if name not in decoded:
                decoded[name] = encoder.decode(_one(leaves, name))
            entries.update(decoded[name])
        if len(entries) != count:
            raise ValueError(
                f"context type {context_type!r} should hold {count} entries, "
                f"its chunks hold {len(entries)}"
            )
        data[context_type] = entries
    return data


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
    return iter(top for _, _, _, top in payload["types"] if top is not None)


__all__ = [
    "FANOUT",
    "LEAF",
    "NODE",
    "REF_KEY",
    "ROOT",
    "RUN_SIZE",
    "Chunk",
    "ChunkEncoder",
    "EncodedTree",
    "MissingChunkError",
    "child_names",
    "count_entries",
    "decode_tree",
    "encode_tree",
    "is_reference",
    "make_reference",
    "reference_root",
]
