"""Long threads: the state keeps the recent conversation, the transcript keeps all of it, and a
turn reads, decodes and writes what changed, not what the thread accumulated."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from langchain_core.messages import HumanMessage

import osprey_desktop.session as session_module
from osprey_desktop.persistence.checkpointer import open_checkpointer
from osprey_desktop.persistence.chunked_saver import (
    CONTEXT_CHANNEL,
    first_requests,
    with_context_chunks,
)
from osprey_desktop.persistence.context_chunks import BaseRootGone, RootRef, SqliteChunkStore
from osprey_desktop.persistence.context_tree import (
    ChunkEncoder,
    TreeCache,
    decode_sequence,
    decode_tree,
    encode_sequence,
    encode_tree,
)
from osprey_desktop.planners.builtin import BuiltinPlanner
from osprey_desktop.session import AgentSession
from tests.support.chunks import chunked_graph, seed

pytestmark = pytest.mark.timeout(120)

WINDOW = 6


def count_rows(db: Path, table: str, where: str = "") -> int:
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(f"SELECT count(*) FROM {table} {where}").fetchone()[0]
    finally:
        conn.close()


def texts(messages: list[Any]) -> list[str]:
    return [str(m.content) for m in messages]


@pytest.fixture
def small_window(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(session_module, "RECENT_MESSAGES", WINDOW)
    return WINDOW


async def test_state_keeps_the_recent_messages_and_the_window_gets_the_whole_conversation(
    tmp_path: Path, small_window: int
) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph(3)) as session:
        for n in range(12):
            assert (await session.submit(f"request {n}", "t")).error is None
        snapshot = await session.graph.aget_state(session.run_config("t"))
        recent = list(snapshot.values["messages"])
        # the window before the last request, plus that request and its answer
        assert len(recent) == small_window + 2
        assert texts(recent)[-2] == "request 11"
        whole = (await session.get_state_values("t"))["messages"]
    assert [t for t in texts(whole) if t.startswith("request")] == [
        f"request {n}" for n in range(12)
    ]
    assert len(whole) == 24
    # each message is recorded once, however many checkpoints held it
    assert count_rows(db, "osprey_transcript", "WHERE thread_id = 't'") == 24
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph(3)) as reopened:
        assert texts((await reopened.get_state_values("t"))["messages"]) == texts(whole)
        (listed,) = await reopened.list_threads()
    # the first checkpoints are long pruned; the title still comes from the first request
    assert listed.title == "request 0"


async def test_a_follow_up_still_sees_the_previous_request_after_many_turns(
    tmp_path: Path, small_window: int
) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph(3)) as session:
        for n in range(20):
            await session.submit(f"read the beam current {n}", "t")
        values = (await session.graph.aget_state(session.run_config("t"))).values
    messages = [*values["messages"], HumanMessage("do that again")]
    extracted = await BuiltinPlanner().extract_task(messages, values)
    assert extracted.task == 'do that again (follow-up to: "read the beam current 19")'


async def test_a_turn_reads_the_thread_once_before_the_graph_runs(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        await session.submit("first", "t")
        graph = session.graph
        reads: list[Any] = []
        original = graph.aget_state

        async def counted(config: Any, **kwargs: Any) -> Any:
            reads.append(config)
            return await original(config, **kwargs)

        graph.aget_state = counted  # type: ignore[method-assign]
        assert (await session.submit("second", "t")).response
    assert len(reads) == 1


async def test_a_thread_deleted_takes_its_transcript(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        for n in range(4):
            await session.submit(f"request {n}", "gone")
        await session.submit("request", "kept")
        assert await session.delete_thread("gone")
        assert await first_requests(session.graph.checkpointer) == {"kept": "request"}
    assert count_rows(db, "osprey_transcript", "WHERE thread_id = 'gone'") == 0


def test_a_second_read_decodes_only_the_chunks_that_changed() -> None:
    encoder, cache = ChunkEncoder(), TreeCache()
    data = seed(1_000)
    tree = encode_tree(data, encoder)
    stored = dict(tree.chunks)
    fetched: list[bytes] = []

    async def fetch(names: list[bytes]) -> dict[bytes, Any]:
        fetched.extend(names)
        return {n: stored[n] for n in names if n in stored}

    first = asyncio.run(decode_tree(tree.root, fetch, encoder, cache))
    assert first == data and cache.chunks_decoded == len(stored)
    again = asyncio.run(decode_tree(tree.root, fetch, encoder, cache))
    assert again["READING"] is first["READING"]  # the same subtree: the same object
    assert cache.chunks_decoded == len(stored)

    # one entry appended: only the last run, the nodes above it and the root are new, and only
    # those are serialised and decoded
    grown = {"READING": {**first["READING"], "new": {"value": 1.0}}}
    changed = encode_tree(grown, encoder, cache, reusable=tree.names)
    assert 0 < len(changed.chunks) <= 3
    stored.update(changed.chunks)
    fetched.clear()
    # what this cache wrote it reads back without fetching or decoding anything
    assert asyncio.run(decode_tree(changed.root, fetch, encoder, cache)) == grown
    assert fetched == []
    # another process's cache, which read the first tree: only the new chunks are decoded
    other = TreeCache()
    asyncio.run(decode_tree(tree.root, fetch, encoder, other))
    before = other.chunks_decoded
    fetched.clear()
    assert asyncio.run(decode_tree(changed.root, fetch, encoder, other)) == grown
    assert other.chunks_decoded - before == len(fetched) <= 3


def test_messages_are_a_chunk_each_and_a_new_message_is_all_a_turn_serialises() -> None:
    encoder, cache = ChunkEncoder(), TreeCache()
    messages = [HumanMessage(f"message {n}", id=f"m{n}") for n in range(10)]
    tree = encode_sequence(messages, encoder, cache)
    grown = encode_sequence(
        [*messages[2:], HumanMessage("new", id="new")], encoder, cache, reusable=tree.names
    )
    # the new message, the node listing the window and the root
    assert len(grown.chunks) == 3
    stored = {**tree.chunks, **grown.chunks}

    async def fetch(names: list[bytes]) -> dict[bytes, Any]:
        return {n: stored[n] for n in names}

    read, _ = asyncio.run(decode_sequence(grown.root, fetch, encoder, TreeCache()))
    assert texts(read) == [f"message {n}" for n in range(2, 10)] + ["new"]


async def test_a_put_whose_base_tree_is_gone_is_refused_and_stores_nothing(
    tmp_path: Path,
) -> None:
    encoder = ChunkEncoder()
    async with aiosqlite.connect(tmp_path / "chunks.sqlite") as conn:
        store = SqliteChunkStore(conn)
        tree = encode_tree(seed(200), encoder)
        base = RootRef("t", "", "base")
        await store.put_tree(base, tree.root, tree.chunks)
        grown = encode_tree(seed(201), encoder, TreeCache(), reusable=tree.names)
        await store.forget_thread("t")  # the base's root row is gone: its chunks may go too
        with pytest.raises(BaseRootGone):
            await store.put_tree(
                RootRef("t", "", "next"), grown.root, grown.chunks, base=(base, tree.root)
            )
    assert count_rows(tmp_path / "chunks.sqlite", "osprey_context_roots") == 0


async def test_the_saver_stores_every_chunk_again_when_its_base_was_collected(
    tmp_path: Path,
) -> None:
    """The tree a put builds on was pruned and collected meanwhile (another console): the put
    finds its root row gone and stores every chunk, so nothing the new tree names is missing."""
    async with open_checkpointer(tmp_path / "threads.sqlite") as raw:
        saver = with_context_chunks(raw)
        first = seed(300)
        base = RootRef("t", "", "c1")
        await saver._store_tree(base, CONTEXT_CHANNEL, first)
        await saver.chunk_store.forget_thread("t")
        assert (await saver.collect_context_garbage(grace_seconds=0)).chunks_removed > 0
        grown = {"READING": {**first["READING"], "extra": {"value": 2.0}}}
        root = await saver._store_tree(RootRef("t", "", "c2"), CONTEXT_CHANNEL, grown)
        read = await decode_tree(root, saver.chunk_store.get_chunks, ChunkEncoder())
    assert read == grown


async def test_on_postgresql_another_console_reads_the_whole_conversation(
    postgres_url: str, small_window: int
) -> None:
    async with AgentSession.open(db_path=postgres_url, graph_factory=chunked_graph(3)) as one:
        for n in range(8):
            assert (await one.submit(f"request {n}", "shared")).error is None
        recent = (await one.graph.aget_state(one.run_config("shared"))).values["messages"]
        assert len(recent) == small_window + 2
        async with AgentSession.open(db_path=postgres_url, graph_factory=chunked_graph(3)) as other:
            whole = (await other.get_state_values("shared"))["messages"]
            (listed,) = await other.list_threads()
    assert [t for t in texts(whole) if t.startswith("request")] == [
        f"request {n}" for n in range(8)
    ]
    assert listed.title == "request 0"
