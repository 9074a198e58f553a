"""Contexts stored as shared chunks: a turn writes what changed, and nothing is lost.

Real SQLite files, the real Gateway and session, the hand-made turn graph (which stores one
RUN context per turn and can pause on a plan approval) over ``with_context_chunks``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from langgraph.checkpoint.memory import InMemorySaver

from osprey_desktop.persistence import delete_thread
from osprey_desktop.persistence.chunked_saver import (
    LARGE_ITEMS,
    ContextChunkingSaver,
    thread_storage_sizes,
    with_context_chunks,
)
from osprey_desktop.persistence.context_chunks import SqliteChunkStore
from osprey_desktop.persistence.context_tree import REF_KEY
from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph
from tests.support.chunks import REPO, TURN_BUDGET, chunked_graph, seed


def plain_graph(saver: Any) -> Any:
    return build_turn_graph(saver)


def used_bytes(db: Path) -> int:
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        return (pages - free) * conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


def count_rows(db: Path, table: str, where: str = "", params: tuple = ()) -> int:
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(f"SELECT count(*) FROM {table} {where}", params).fetchone()[0]
    finally:
        conn.close()


async def seeded_session_growth(db: Path, factory: Any, turns: int = 3) -> float:
    async with AgentSession.open(db_path=db, graph_factory=factory) as session:
        await session.graph.aupdate_state(
            session.run_config("big"), {"capability_context_data": seed(10_000)}
        )
        await session.submit("first", "big")
        before = used_bytes(db)
        for n in range(turns):
            result = await session.submit(f"turn {n}", "big")
            assert result.error is None and result.response
        return (used_bytes(db) - before) / turns


async def test_ordinary_turn_on_10000_contexts_writes_under_32_kib(tmp_path: Path) -> None:
    growth = await seeded_session_growth(tmp_path / "chunked.sqlite", chunked_graph())
    assert growth <= TURN_BUDGET, f"{growth / 1024:.1f} KiB per turn"


async def test_whole_dictionary_storage_is_what_the_budget_is_measured_against(
    tmp_path: Path,
) -> None:
    # the same turns through LangGraph's saver as shipped: every turn stores every context
    growth = await seeded_session_growth(tmp_path / "plain.sqlite", plain_graph)
    assert growth > 10 * TURN_BUDGET


async def test_session_opens_with_the_chunking_saver_by_default(tmp_path: Path) -> None:
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        assert isinstance(session.graph.checkpointer, ContextChunkingSaver)
        # still the saver class the ledger and the audit log recognise
        assert isinstance(session.graph.checkpointer, type(session.checkpointer))
        assert session.graph.checkpointer.conn is session.checkpointer.conn


async def test_contexts_and_pending_approval_survive_reopening(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        await session.graph.aupdate_state(
            session.run_config("t"), {"capability_context_data": seed(5_000)}
        )
        await session.submit("first run", "t")
        paused = await session.submit("/planning:on act again", "t")
        assert paused.pending_approval is not None
    # the checkpoint holds a reference, not the dictionary
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM osprey_context_chunks").fetchone()[0] > 10
    finally:
        conn.close()
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        values = await session.get_state_values("t")
        assert values["capability_context_data"]["READING"] == seed(5_000)["READING"]
        assert list(values["capability_context_data"]["READING"])[:3] == [
            "reading_0",
            "reading_1",
            "reading_2",
        ]
        assert values["capability_context_data"]["RUN"] == {"run_1": {"request": "first run"}}
        assert await session.pending_approval("t") is not None
        done = await session.resume("t", True)
        assert done.error is None
        runs = (await session.get_state_values("t"))["capability_context_data"]["RUN"]
        assert sorted(runs) == ["run_1", "run_2"]


READER = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[2])
from osprey_desktop.persistence.chunked_saver import with_context_chunks
from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph

async def main():
    factory = lambda saver: build_turn_graph(with_context_chunks(saver))
    async with AgentSession.open(db_path=sys.argv[1], graph_factory=factory) as session:
        values = await session.get_state_values("t")
        data = values["capability_context_data"]
        pending = await session.pending_approval("t")
        print(json.dumps({"types": {t: len(e) for t, e in data.items()},
                          "first": list(data["READING"])[0],
                          "pending": pending is not None}))

asyncio.run(main())
"""


async def test_state_history_of_a_chunked_thread_reads_every_checkpoint(tmp_path: Path) -> None:
    async with AgentSession.open(db_path=tmp_path / "t.sqlite", graph_factory=chunked_graph()) as s:
        config = s.run_config("t")
        await s.graph.aupdate_state(config, {"capability_context_data": seed(300)})
        assert (await s.submit("one turn", "t")).error is None

        async def history() -> list[Any]:
            return [state async for state in s.graph.aget_state_history(config)]

        # the saver yields while it holds the lock the chunks are read under: no deadlock
        states = await asyncio.wait_for(history(), 30)
        assert len(states) == 2
        assert [len(st.values["capability_context_data"]["READING"]) for st in states] == [300] * 2


async def test_another_process_reads_the_chunked_thread(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        await session.graph.aupdate_state(
            session.run_config("t"), {"capability_context_data": seed(2_000)}
        )
        paused = await session.submit("/planning:on act", "t")
        assert paused.pending_approval is not None
    done = subprocess.run(
        [sys.executable, "-c", READER, str(db), str(REPO)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"types": {"READING": 2000}, "first": "reading_0", "pending": True}


async def test_deleted_thread_chunks_are_collected(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        for thread, label in (("keep", "kept"), ("drop", "dropped")):
            await session.graph.aupdate_state(
                session.run_config(thread), {"capability_context_data": seed(1_000, label)}
            )
            await session.submit("one turn", thread)
        saver = session.graph.checkpointer
        before = count_rows(db, "osprey_context_chunks")
        # deleted through the plain saver (not the chunking one): the orphan test of the
        # collection finds it
        assert await delete_thread(session.checkpointer, "drop")
        report = await saver.collect_context_garbage(grace_seconds=0)
        assert report.chunks_removed > 0 and report.roots_removed > 0
        after = count_rows(db, "osprey_context_chunks")
        assert after < before * 0.6
        kept = (await session.get_state_values("keep"))["capability_context_data"]["READING"]
        assert kept == seed(1_000, "kept")["READING"]
        # and deleted through the chunking saver: collected at once
        await saver.adelete_thread("keep")
        assert count_rows(db, "osprey_context_roots") == 0
        assert count_rows(db, "osprey_context_chunks") == 0


async def test_history_is_bounded_and_old_chunks_go(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph(3)) as session:
        await session.graph.aupdate_state(
            session.run_config("t"), {"capability_context_data": seed(500)}
        )
        for n in range(6):
            assert (await session.submit(f"turn {n}", "t")).error is None
        assert count_rows(db, "checkpoints", "WHERE thread_id = 't'") == 3
        # a root per kept checkpoint for the contexts, and one for the messages
        assert count_rows(db, "osprey_context_roots", "WHERE thread_id = 't' AND task_id = ''") <= 3
        assert count_rows(db, "osprey_context_roots", "WHERE thread_id = 't'") <= 6
        await session.graph.checkpointer.collect_context_garbage(grace_seconds=0)
        values = await session.get_state_values("t")
        data = values["capability_context_data"]
        assert len(data["READING"]) == 500 and len(data["RUN"]) == 6
        # only what the three kept checkpoints reach is left: far fewer than 6 turns' worth of
        # context runs, plus a chunk per message the state holds
        leaves = count_rows(db, "osprey_context_chunks", "WHERE kind = 0")
        assert leaves <= 8 + 3 * 2 + len(values["messages"])


async def test_any_saver_class_gets_chunks(tmp_path: Path) -> None:
    """The in-memory saver, with the chunks in a separate SQLite file."""
    async with aiosqlite.connect(tmp_path / "chunks.sqlite") as conn:
        memory = InMemorySaver()
        saver = with_context_chunks(memory, SqliteChunkStore(conn))
        assert isinstance(saver, InMemorySaver)
        graph = build_turn_graph(saver)
        config = {"configurable": {"thread_id": "m"}}
        await graph.aupdate_state(config, {"capability_context_data": seed(300)})
        await graph.ainvoke({"messages": [("user", "go")]}, config)
        stored = await memory.aget_tuple(config)  # the underlying saver sees the reference
        assert set(stored.checkpoint["channel_values"]["capability_context_data"]) == {REF_KEY}
        values = (await graph.aget_state(config)).values["capability_context_data"]
        assert len(values["READING"]) == 300 and values["RUN"] == {"run_1": {"request": "go"}}


async def test_thread_sizes_count_each_threads_chunks(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db, graph_factory=chunked_graph()) as session:
        await session.graph.aupdate_state(
            session.run_config("big"), {"capability_context_data": seed(3_000)}
        )
        await session.submit("hello", "small")
        sizes = await thread_storage_sizes(session.graph.checkpointer)
        assert sizes is not None
        assert sizes["big"] > 3_000 * 40  # the readings' bytes are counted for their thread
        assert 0 < sizes["small"] < 20_000
        assert await thread_storage_sizes(session.checkpointer) is None


def test_history_limit_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 checkpoints"):
        with_context_chunks(InMemorySaver(), SqliteChunkStore(None), history_limit=1)  # type: ignore[arg-type]


async def test_a_few_large_contexts_are_chunked_and_read_back_whole(tmp_path: Path) -> None:
    """One history of a BPM family (few entries, many samples) is a chunk, not inline: inline,
    every read of the thread decoded all of it again, holding the GIL."""
    async with aiosqlite.connect(tmp_path / "chunks.sqlite") as conn:
        memory = InMemorySaver()
        saver = with_context_chunks(memory, SqliteChunkStore(conn))
        graph = build_turn_graph(saver)
        config = {"configurable": {"thread_id": "h"}}
        samples = [float(i) for i in range(LARGE_ITEMS // 2)]
        history = {"day": {"channels": {"BPM1": {"t": samples, "v": samples}}}}
        await graph.aupdate_state(config, {"capability_context_data": {"HISTORY": history}})
        stored = await memory.aget_tuple(config)
        assert set(stored.checkpoint["channel_values"]["capability_context_data"]) == {REF_KEY}
        values = (await graph.aget_state(config)).values["capability_context_data"]
        assert values["HISTORY"] == history

        small = {"day": {"channels": {"BPM1": {"t": samples[:100], "v": samples[:100]}}}}
        await graph.aupdate_state(
            {"configurable": {"thread_id": "s"}}, {"capability_context_data": {"HISTORY": small}}
        )
        inline = await memory.aget_tuple({"configurable": {"thread_id": "s"}})
        assert inline.checkpoint["channel_values"]["capability_context_data"] == {"HISTORY": small}
