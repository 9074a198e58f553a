"""Database growth per turn on threads holding 10,000 and 100,000 contexts, SQLite and PostgreSQL.

Each scenario seeds one thread with ``N`` stored readings (``aupdate_state``), runs one turn to
settle, then ``--turns`` ordinary turns (bench_read -> bench_analyse -> respond: two new
contexts per turn) and reports the growth per turn of the database and the median turn time.
Three ways of storing the context:

* ``whole dict``: the saver as LangGraph ships it (``create_graph(context_chunks=False)``):
  the dictionary is serialised again in every checkpoint;
* ``chunks, all history``: content-addressed chunks, every checkpoint kept;
* ``chunks, last 20``: chunks plus the bounded history (the default).

At the end, the thread is read back in a new session (a second open of the database) to check
that every context is still there, and ``ContextManager.get_summaries()`` over what was read
back is timed with the garbage collector on (median of ``--summaries-runs``).

Growth is measured as the bytes in use: for SQLite, the file's pages minus its free pages; for
PostgreSQL, ``pg_total_relation_size`` of every table (indexes and TOAST included). Rows the
bounded history deletes are reclaimed by autovacuum whenever it runs, so on PostgreSQL the
growth of ``chunks, last 20`` can include space that is not reused yet.

``--db`` chooses the databases (several may be given):

* ``sqlite`` (default): a temporary file per scenario;
* ``postgres``: a throw-away server started the way the tests start theirs
  (``tests/support/postgres.py``: its own cluster in a temporary folder, on 127.0.0.1, stopped
  by its pid at the end), a new database per scenario;
* ``postgresql://USER@HOST:PORT/NAME``: a server you run; each scenario creates a database of
  its own next to ``NAME`` and drops it afterwards (the user needs the CREATEDB right).

Run: ``.venv/bin/python bench/storage.py [--turns 10] [--sizes 10000 100000]
[--db sqlite postgres]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from turn import BENCH_REQUEST, bench_registry, seed_contexts, used_bytes  # noqa: E402

from osprey_desktop.context import ContextManager  # noqa: E402
from osprey_desktop.graph import create_graph  # noqa: E402
from osprey_desktop.persistence.postgres import is_postgres_url, redact  # noqa: E402
from osprey_desktop.session import AgentSession  # noqa: E402

MODES: dict[str, dict[str, Any]] = {
    "whole dict (LangGraph's saver)": {"context_chunks": False},
    "chunks, all history": {"context_chunks": True, "history_limit": None},
    "chunks, last 20 checkpoints": {"context_chunks": True, "history_limit": 20},
}

TABLES_SIZE = """
SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r'
"""


@dataclass(frozen=True)
class Figures:
    growth: float  # bytes per turn
    median_turn: float  # seconds
    median_summaries: float  # seconds


def tables_bytes(url: str) -> int:
    """Bytes of every table of a PostgreSQL database, indexes and TOAST included."""
    import psycopg

    with psycopg.connect(url) as conn:
        return int(conn.execute(TABLES_SIZE).fetchone()[0])


def database_bytes(db: str | Path) -> int:
    return tables_bytes(str(db)) if is_postgres_url(db) else used_bytes(Path(db))


async def _turn(session: AgentSession, thread: str) -> float:
    start = time.perf_counter()
    result = await session.submit(BENCH_REQUEST, thread)
    elapsed = time.perf_counter() - start
    if result.error or not result.response:
        raise SystemExit(f"bench turn failed on thread {thread}: {result.error}")
    return elapsed


def median_summaries(values: dict[str, Any], registry: Any, runs: int) -> float:
    """Median seconds of ``get_summaries()`` over every context, garbage collector on."""
    gc.enable()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        summaries = ContextManager(values, registry=registry).get_summaries()
        times.append(time.perf_counter() - start)
    expected = sum(len(v) for v in values["capability_context_data"].values())
    if len(summaries) != expected:
        raise SystemExit(f"get_summaries gave {len(summaries)} summaries for {expected} contexts")
    return statistics.median(times)


async def scenario(
    db: str | Path, size: int, turns: int, options: dict[str, Any], summaries_runs: int
) -> Figures:
    """The figures of one way of storing, on one database."""
    registry = bench_registry()

    def factory(saver: Any) -> Any:
        return create_graph(registry, checkpointer=saver, **options)

    thread = "seeded"
    async with AgentSession.open(db_path=db, registry=registry, graph_factory=factory) as session:
        await session.submit("/mode:plan_first", thread)
        await session.graph.aupdate_state(
            session.run_config(thread), {"capability_context_data": seed_contexts(size)}
        )
        await _turn(session, thread)
        before = database_bytes(db)
        times = [await _turn(session, thread) for _ in range(turns)]
        growth = (database_bytes(db) - before) / turns
    async with AgentSession.open(db_path=db, registry=registry, graph_factory=factory) as session:
        values = await session.get_state_values(thread)
        stored = sum(len(v) for v in values["capability_context_data"].values())
        expected = size + 2 * (turns + 1)
        if stored != expected:
            raise SystemExit(f"{stored} contexts read back after reopening, expected {expected}")
        summaries = median_summaries(values, registry, summaries_runs)
    return Figures(growth, statistics.median(times), summaries)


# -- databases ---------------------------------------------------------------------------------


@contextlib.contextmanager
def sqlite_databases() -> Iterator[Callable[[], contextlib.AbstractContextManager[Path]]]:
    @contextlib.contextmanager
    def one() -> Iterator[Path]:
        with tempfile.TemporaryDirectory(prefix="osprey-storage-") as folder:
            yield Path(folder) / "threads.sqlite"

    yield one


@contextlib.contextmanager
def postgres_databases(url: str) -> Iterator[Callable[[], contextlib.AbstractContextManager[str]]]:
    """A new database per scenario on the server of ``url``, dropped after it."""
    import psycopg

    @contextlib.contextmanager
    def one() -> Iterator[str]:
        name = f"osprey_bench_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
        finally:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    yield one


@contextlib.contextmanager
def throwaway_server() -> Iterator[Callable[[], contextlib.AbstractContextManager[str]]]:
    """A server like the tests' (127.0.0.1, a free port, its own folder), stopped by its pid."""
    from tests.support.postgres import INSTALL_HINT, server_binaries, start_server

    binaries = server_binaries()
    if binaries is None:
        raise SystemExit(f"no PostgreSQL server binaries (initdb, pg_ctl): {INSTALL_HINT}")
    server = start_server(binaries)
    try:
        with postgres_databases(server.url()) as databases:
            yield databases
    finally:
        server.stop()


def databases_for(choice: str) -> contextlib.AbstractContextManager[Any]:
    if choice == "sqlite":
        return sqlite_databases()
    if choice == "postgres":
        return throwaway_server()
    if is_postgres_url(choice):
        return postgres_databases(choice)
    raise SystemExit(f"--db takes sqlite, postgres or a postgresql:// URL, not {choice!r}")


def label_of(choice: str) -> str:
    if choice == "sqlite":
        return "SQLite (a temporary file per scenario)"
    if choice == "postgres":
        return "PostgreSQL (a throw-away server on 127.0.0.1)"
    return f"PostgreSQL ({redact(choice)})"


async def run(choices: list[str], sizes: list[int], turns: int, summaries_runs: int) -> None:
    python = sys.version.split()[0]
    print(f"Python {python}; {turns} ordinary turns per scenario (2 new contexts each)")
    for choice in choices:
        print(f"\n{label_of(choice)}")
        print(
            f"{'contexts':>9}  {'storage':<30} {'db growth/turn':>16} {'median turn':>12} "
            f"{'get_summaries (gc on)':>22}"
        )
        with databases_for(choice) as database:
            for size in sizes:
                for label, options in MODES.items():
                    with database() as db:
                        figures = await scenario(db, size, turns, options, summaries_runs)
                    print(
                        f"{size:>9,}  {label:<30} {figures.growth / 1024:>12.1f} KiB "
                        f"{figures.median_turn * 1000:>9.1f} ms "
                        f"{figures.median_summaries * 1000:>19.1f} ms",
                        flush=True,
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument(
        "--db",
        nargs="+",
        default=["sqlite"],
        metavar="DB",
        help="sqlite, postgres (a throw-away server) or a postgresql:// URL; several allowed",
    )
    parser.add_argument("--summaries-runs", type=int, default=5)
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.db, args.sizes, args.turns, args.summaries_runs))


if __name__ == "__main__":
    main()
