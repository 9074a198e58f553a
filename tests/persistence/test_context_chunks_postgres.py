"""Contexts stored as shared chunks in a PostgreSQL database that several consoles share.

The suite's own server (127.0.0.1, stopped by its pid), a fresh database per test, the real
session over the hand-made turn graph. Each "console" is its own session with its own
connection, as separate processes would have; one test runs a real second process.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import psycopg
import pytest

from osprey_desktop.persistence import delete_thread
from osprey_desktop.persistence.chunked_saver import (
    ContextChunkingSaver,
    thread_storage_sizes,
)
from osprey_desktop.persistence.context_chunks import RootRef
from osprey_desktop.persistence.context_chunks_postgres import PostgresChunkStore
from osprey_desktop.persistence.context_tree import REF_KEY, encode_tree
from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph
from tests.support.chunks import REPO, TURN_BUDGET, chunked_graph, seed

pytestmark = pytest.mark.timeout(180)

TABLES_SIZE = """
SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r'
"""


def tables_size(url: str) -> int:
    """Bytes of every table of the database, their indexes and TOAST included."""
    with psycopg.connect(url) as conn:
        return int(conn.execute(TABLES_SIZE).fetchone()[0])


def scalar(url: str, sql: str, params: tuple = ()) -> Any:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchone()[0]


@asynccontextmanager
async def console(url: str, history_limit: int | None = 20) -> AsyncIterator[AgentSession]:
    async with AgentSession.open(db_path=url, graph_factory=chunked_graph(history_limit)) as s:
        yield s


async def seeded_growth(url: str, factory: Any, turns: int = 3) -> float:
    async with AgentSession.open(db_path=url, graph_factory=factory) as session:
        await session.graph.aupdate_state(
            session.run_config("big"), {"capability_context_data": seed(10_000)}
        )
        await session.submit("first", "big")
        before = tables_size(url)
        for n in range(turns):
            result = await session.submit(f"turn {n}", "big")
            assert result.error is None and result.response
        return (tables_size(url) - before) / turns


async def test_a_session_on_postgresql_stores_contexts_as_chunks(postgres_url: str) -> None:
    async with console(postgres_url) as session:
        saver = session.graph.checkpointer
        assert isinstance(saver, ContextChunkingSaver)
        assert isinstance(saver, type(session.checkpointer))  # the ledger's check still holds
        assert isinstance(saver.chunk_store, PostgresChunkStore)
        await session.graph.aupdate_state(
            session.run_config("t"), {"capability_context_data": seed(500)}
        )
        stored = await session.checkpointer.aget_tuple(session.run_config("t"))
        # LangGraph's own saver holds a reference; the chunks are rows of their table
        assert set(stored.checkpoint["channel_values"]["capability_context_data"]) == {REF_KEY}
    assert scalar(postgres_url, "SELECT count(*) FROM osprey_context_chunks") >= 8


async def test_contexts_come_back_with_every_type_and_key_in_order(postgres_url: str) -> None:
    # neither sorted nor insertion-sorted by any rule a store could reproduce by accident
    keys = [f"k{(i * 7919) % 3001}" for i in range(3001)]
    data = {
        "ZETA": {key: {"n": i, "nested": {"b": 1, "a": [i, "x"]}} for i, key in enumerate(keys)},
        "ALPHA": {f"a{i}": {"v": -i} for i in range(130, 0, -1)},
        "MIDDLE": {"only": {"v": None}},
    }
    async with console(postgres_url) as session:
        await session.graph.aupdate_state(
            session.run_config("t"), {"capability_context_data": data}
        )
        assert (await session.submit("one turn", "t")).error is None
    async with console(postgres_url) as session:  # another connection: nothing cached
        stored = (await session.get_state_values("t"))["capability_context_data"]
    assert list(stored) == ["ZETA", "ALPHA", "MIDDLE", "RUN"]
    assert list(stored["ZETA"]) == keys and stored["ZETA"] == data["ZETA"]
    assert list(stored["ALPHA"]) == list(data["ALPHA"]) and stored["MIDDLE"] == data["MIDDLE"]
    assert stored["RUN"] == {"run_1": {"request": "one turn"}}


async def test_ordinary_turn_on_10000_contexts_grows_the_database_under_32_kib(
    postgres_url: str,
) -> None:
    growth = await seeded_growth(postgres_url, chunked_graph())
    assert growth <= TURN_BUDGET, f"{growth / 1024:.1f} KiB per turn"


async def test_whole_dictionary_storage_is_what_the_budget_is_measured_against(
    postgres_url: str,
) -> None:
    # LangGraph's saver as shipped stores the (compressed) dictionary again every turn
    growth = await seeded_growth(postgres_url, build_turn_graph)
    assert growth > 3 * TURN_BUDGET, f"{growth / 1024:.1f} KiB per turn"


READER = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[2])
from osprey_desktop.persistence.chunked_saver import with_context_chunks
from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph

async def main():
    factory = lambda saver: build_turn_graph(with_context_chunks(saver))
    async with AgentSession.open(db_path=sys.argv[1], graph_factory=factory) as session:
        data = (await session.get_state_values("t"))["capability_context_data"]
        pending = await session.pending_approval("t")
        print(json.dumps({"types": {t: len(e) for t, e in data.items()},
                          "first": list(data["READING"])[:2],
                          "equal": data["READING"] == {
                              f"reading_{i}": {"channel": f"SR{i % 40:02d}:BPM{i % 12}:X",
                                               "value": i * 0.001, "units": "mm",
                                               "timestamp": "2024-01-01T00:00:00Z"}
                              for i in range(2000)},
                          "pending": pending is not None}))

asyncio.run(main())
"""


async def test_another_console_process_reads_the_contexts_and_the_pending_approval(
    postgres_url: str,
) -> None:
    async with console(postgres_url) as session:
        await session.graph.aupdate_state(
            session.run_config("t"), {"capability_context_data": seed(2_000)}
        )
        assert (await session.submit("first run", "t")).error is None
        paused = await session.submit("/planning:on act again", "t")
        assert paused.pending_approval is not None
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-c", READER, postgres_url, str(REPO)],
            capture_output=True,
            text=True,
            timeout=90,
            cwd=REPO,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout.strip().splitlines()[-1])
        assert report == {
            "types": {"READING": 2000, "RUN": 1},
            "first": ["reading_0", "reading_1"],
            "equal": True,
            "pending": True,
        }
        # and this console carries the approval out on the thread the other one read
        assert (await session.resume("t", True)).error is None
        runs = (await session.get_state_values("t"))["capability_context_data"]["RUN"]
        assert sorted(runs) == ["run_1", "run_2"]


async def test_collection_keeps_what_another_consoles_newer_checkpoint_needs(
    postgres_url: str,
) -> None:
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(console(postgres_url))
        b = await stack.enter_async_context(console(postgres_url))
        await a.graph.aupdate_state(
            a.run_config("shared"), {"capability_context_data": seed(1_500)}
        )
        assert (await a.submit("from console a", "shared")).error is None
        await a.graph.aupdate_state(a.run_config("gone"), {"capability_context_data": seed(700)})
        # console b adds a type of its own to the thread: chunks console a never wrote
        await b.graph.aupdate_state(
            b.run_config("shared"),
            {"capability_context_data": {"B_ONLY": seed(300, "b")["READING"]}},
        )
        assert (await b.submit("from console b", "shared")).error is None
        assert await delete_thread(a.checkpointer, "gone")  # the plain saver: an orphan

        report = await a.graph.checkpointer.collect_context_garbage(grace_seconds=0)

        assert report.roots_removed > 0 and report.chunks_removed > 0  # "gone" was collected
        async with console(postgres_url) as fresh:
            data = (await fresh.get_state_values("shared"))["capability_context_data"]
        assert data["READING"] == seed(1_500)["READING"]
        assert data["B_ONLY"] == seed(300, "b")["READING"]
        assert sorted(data["RUN"]) == ["run_1", "run_2"]


async def test_a_collection_waits_for_a_put_in_progress_on_another_console(
    postgres_url: str,
) -> None:
    """The put has found the chunks it needs already stored (unreferenced: left by a deleted
    thread) and is about to write the root that makes them reachable; a collection that ran
    in between would take them away."""
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(console(postgres_url))
        b = await stack.enter_async_context(console(postgres_url))
        old = seed(1_000, "shared")
        await a.graph.aupdate_state(a.run_config("old"), {"capability_context_data": old})
        assert await delete_thread(a.checkpointer, "old")  # the plain saver: nothing collected
        await a.graph.checkpointer.chunk_store.forget_thread("old")  # its chunks: garbage now
        b_saver = b.graph.checkpointer
        tree = encode_tree(old, b_saver.chunk_encoder)
        ref = RootRef("new", "", "1f0-in-progress")
        async with await psycopg.AsyncConnection.connect(postgres_url) as holder:
            # another session holds the row b's put is about to write: b waits mid-put
            await holder.execute(
                "INSERT INTO osprey_context_roots VALUES (%s, %s, %s, %s, %s, %s, 0)",
                (ref.thread_id, ref.checkpoint_ns, ref.checkpoint_id, ref.task_id, ref.idx, b""),
            )
            put = asyncio.create_task(b_saver.chunk_store.put_tree(ref, tree.root, tree.chunks))
            await until(lambda: blocked_sessions(postgres_url) >= 1)
            collection = asyncio.create_task(a.graph.checkpointer.collect_context_garbage())
            await until(lambda: collection.done() or blocked_sessions(postgres_url) >= 2)
            await holder.rollback()
        assert await put == 0  # every chunk was there already
        report = await collection
        found = len(await b_saver.chunk_store.get_chunks(list(tree.chunks)))
        assert found == len(tree.chunks), f"{report.chunks_removed} chunks collected"
        assert report.chunks_removed == 0


def blocked_sessions(url: str) -> int:
    return int(scalar(url, "SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted"))


async def until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the sessions never got there"
        await asyncio.sleep(0.05)


async def test_history_is_bounded_and_what_the_kept_checkpoints_read_stays(
    postgres_url: str,
) -> None:
    async with console(postgres_url, history_limit=2) as session:
        config = session.run_config("t")
        await session.graph.aupdate_state(config, {"capability_context_data": seed(500)})
        for n in range(4):
            assert (await session.submit(f"turn {n}", "t")).error is None
        # a checkpoint that leaves the context alone: it reads the value an older one stored
        await session.graph.aupdate_state(config, {"task_current_task": "no new context"})
        await session.graph.aupdate_state(config, {"task_current_task": "still none"})
        checkpoints = scalar(postgres_url, "SELECT count(*) FROM checkpoints WHERE thread_id = 't'")
        assert checkpoints == 2
        blobs = scalar(
            postgres_url,
            "SELECT count(*) FROM checkpoint_blobs WHERE thread_id = 't' "
            "AND channel = 'capability_context_data'",
        )
        assert blobs == 1  # the versions of the dropped checkpoints went with them
        report = await session.graph.checkpointer.collect_context_garbage(grace_seconds=0)
        assert report.chunks_removed > 0  # the RUN runs of older turns
        data = (await session.get_state_values("t"))["capability_context_data"]
        assert data["READING"] == seed(500)["READING"]
        assert sorted(data["RUN"]) == ["run_1", "run_2", "run_3", "run_4"]
        # the saver yields while it holds the lock the chunks are read under
        states = await asyncio.wait_for(history(session.graph, config), 30)
        assert len(states) == 2
        assert all(len(s.values["capability_context_data"]["READING"]) == 500 for s in states)


async def history(graph: Any, config: dict[str, Any]) -> list[Any]:
    return [state async for state in graph.aget_state_history(config)]


async def test_a_deleted_thread_leaves_no_chunks_and_sizes_count_each_thread(
    postgres_url: str,
) -> None:
    async with console(postgres_url) as session:
        await session.graph.aupdate_state(
            session.run_config("big"), {"capability_context_data": seed(3_000)}
        )
        await session.submit("hello", "small")
        sizes = await thread_storage_sizes(session.graph.checkpointer)
        assert sizes is not None
        assert sizes["big"] > 3_000 * 40 and 0 < sizes["small"] < 20_000
        await session.graph.checkpointer.adelete_thread("big")
        assert scalar(postgres_url, "SELECT count(*) FROM osprey_context_roots") == 0
        assert scalar(postgres_url, "SELECT count(*) FROM osprey_context_chunks") == 0
        assert scalar(postgres_url, "SELECT count(*) FROM checkpoint_blobs") > 0  # "small"
