"""Database growth per turn on threads holding 10,000 and 100,000 contexts.

Each scenario seeds one thread with ``N`` stored readings (``aupdate_state``), runs one turn to
settle, then ``--turns`` ordinary turns (bench_read -> bench_analyse -> respond: two new
contexts per turn) and reports the growth per turn of the SQLite file's pages in use and the
median turn time. Three ways of storing the context:

* ``whole dict``: the saver as LangGraph ships it (``create_graph(context_chunks=False)``):
  the dictionary is serialised again in every checkpoint;
* ``chunks, all history``: content-addressed chunks, every checkpoint kept;
* ``chunks, last 20``: chunks plus the bounded history (the default).

At the end, the thread is read back in a new process-like session (a second open of the file)
to check that every context is still there.

Run: ``.venv/bin/python bench/storage.py [--turns 10] [--sizes 10000 100000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from turn import BENCH_REQUEST, bench_registry, seed_contexts, used_bytes  # noqa: E402

from osprey_desktop.graph import create_graph  # noqa: E402
from osprey_desktop.session import AgentSession  # noqa: E402

MODES: dict[str, dict[str, Any]] = {
    "whole dict (LangGraph's saver)": {"context_chunks": False},
    "chunks, all history": {"context_chunks": True, "history_limit": None},
    "chunks, last 20 checkpoints": {"context_chunks": True, "history_limit": 20},
}


async def _turn(session: AgentSession, thread: str) -> float:
    start = time.perf_counter()
    result = await session.submit(BENCH_REQUEST, thread)
    elapsed = time.perf_counter() - start
    if result.error or not result.response:
        raise SystemExit(f"bench turn failed on thread {thread}: {result.error}")
    return elapsed


async def scenario(db: Path, size: int, turns: int, options: dict[str, Any]) -> tuple[float, float]:
    """(bytes per turn, median seconds per turn) for one way of storing."""
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
        before = used_bytes(db)
        times = [await _turn(session, thread) for _ in range(turns)]
        growth = (used_bytes(db) - before) / turns
    async with AgentSession.open(db_path=db, registry=registry, graph_factory=factory) as session:
        values = await session.get_state_values(thread)
        stored = sum(len(v) for v in values["capability_context_data"].values())
        expected = size + 2 * (turns + 1)
        if stored != expected:
            raise SystemExit(f"{stored} contexts read back after reopening, expected {expected}")
    return growth, statistics.median(times)


async def run(sizes: list[int], turns: int) -> None:
    print(f"{turns} ordinary turns per scenario (each stores 2 new contexts)")
    print(f"{'contexts':>9}  {'storage':<30} {'db growth/turn':>16} {'median turn':>12}")
    for size in sizes:
        for label, options in MODES.items():
            with tempfile.TemporaryDirectory(prefix="osprey-storage-") as folder:
                growth, median = await scenario(
                    Path(folder) / "threads.sqlite", size, turns, options
                )
            print(f"{size:>9,}  {label:<30} {growth / 1024:>12.1f} KiB {median * 1000:>9.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.sizes, args.turns))


if __name__ == "__main__":
    main()
