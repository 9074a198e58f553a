"""The chunk tree: exact round trips (order included) and one change, few new chunks."""

from __future__ import annotations

from typing import Any

import pytest

from osprey_desktop.persistence.context_tree import (
    FANOUT,
    RUN_SIZE,
    Chunk,
    ChunkEncoder,
    MissingChunkError,
    decode_tree,
    encode_tree,
)

ENCODER = ChunkEncoder()


async def round_trip(data: dict[str, Any], store: dict[bytes, Chunk] | None = None) -> Any:
    tree = encode_tree(data, ENCODER)
    chunks = dict(store or {}) | tree.chunks

    async def fetch(names: list[bytes]) -> dict[bytes, Chunk]:
        return {name: chunks[name] for name in names if name in chunks}

    return await decode_tree(tree.root, fetch, ENCODER)


@pytest.mark.parametrize("count", [0, 1, RUN_SIZE, RUN_SIZE + 1, RUN_SIZE * FANOUT + 3])
async def test_round_trip_keeps_every_entry_and_the_order(count: int) -> None:
    data = {
        "B_TYPE": {f"key{(i * 7919) % (count or 1)}_{i}": {"v": i, "l": [i]} for i in range(count)},
        "A_TYPE": {"only": {"nested": {"deep": [1, 2.5, None, "x"]}}},
    }
    back = await round_trip(data)
    assert back == data
    assert list(back) == ["B_TYPE", "A_TYPE"]
    assert list(back["B_TYPE"]) == list(data["B_TYPE"])


def test_one_new_entry_adds_a_few_chunks_not_the_whole_context() -> None:
    data = {"READING": {f"r{i}": {"value": i} for i in range(10_000)}}
    before = encode_tree(data, ENCODER)
    data["READING"]["r_new"] = {"value": -1.0}
    after = encode_tree(data, ENCODER)
    new = set(after.chunks) - set(before.chunks)
    assert len(new) <= 4  # the last run, the nodes above it, the root
    assert sum(after.chunks[name].size for name in new) < 8 * 1024


def test_replacing_an_entry_in_the_middle_rewrites_its_run_only() -> None:
    data = {"READING": {f"r{i}": {"value": i} for i in range(10_000)}}
    before = encode_tree(data, ENCODER)
    data["READING"] = {**data["READING"], "r5000": {"value": 0.5}}
    after = encode_tree(data, ENCODER)
    new = set(after.chunks) - set(before.chunks)
    assert len(new) <= 4 and list(data["READING"])[5000] == "r5000"


async def test_a_missing_chunk_is_reported_not_returned_empty() -> None:
    tree = encode_tree({"T": {f"k{i}": {"v": i} for i in range(200)}}, ENCODER)
    lost = next(name for name, chunk in tree.chunks.items() if chunk.kind == 0)

    async def fetch(names: list[bytes]) -> dict[bytes, Chunk]:
        return {n: tree.chunks[n] for n in names if n != lost}

    with pytest.raises(MissingChunkError, match=lost.hex()):
        await decode_tree(tree.root, fetch, ENCODER)


def test_a_wrong_shape_names_the_context_type() -> None:
    with pytest.raises(TypeError, match="'BROKEN'"):
        encode_tree({"BROKEN": ["not", "a", "dict"]}, ENCODER)  # type: ignore[dict-item]
