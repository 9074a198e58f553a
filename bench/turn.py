"""Median time of a full three-step turn: built-in planner, SQLite checkpointer, AgentSession.

Scenarios: 30 turns on one thread, 30 fresh threads, and 10 turns on a thread seeded with
10,000 contexts. The last one runs twice: with ``durability="exit"`` (what AgentSession uses:
one checkpoint per turn) and with LangGraph's default ``"async"`` (a checkpoint per step), to
show why the session streams with the former. Each line also gives the database growth per turn
(pages in use; contexts are stored as shared chunks, see ``bench/storage.py`` for 100,000).

The turn is a real request through the Gateway and the real graph:

* ``--capabilities real`` (default): "read the beam current" on the simulated machine
  (channel_finding -> channel_read -> respond);
* ``--capabilities bench``: two small capabilities defined here (bench_read -> bench_analyse
  -> respond), for timing the framework alone.

Run: ``.venv/bin/python bench/turn.py [--capabilities bench] [--turns 30]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from osprey_desktop.base.capability import BaseCapability  # noqa: E402
from osprey_desktop.context import CapabilityContext  # noqa: E402
from osprey_desktop.session import AgentSession  # noqa: E402

REAL_REQUEST = "read the beam current"
BENCH_REQUEST = "bench analysis of the bench reading"
SEED_CONTEXTS = 10_000


class BenchReadingContext(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "BENCH_READING"
    CONTEXT_CATEGORY: ClassVar[str] = "bench"
    channel: str
    value: float
    units: str
    timestamp: str

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"value": f"context.{self.CONTEXT_TYPE}.{key}.value"}

    def get_summary(self) -> dict[str, Any]:
        return {"type": self.CONTEXT_TYPE, "channel": self.channel, "value": self.value}


class BenchAnalysisContext(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "BENCH_ANALYSIS"
    CONTEXT_CATEGORY: ClassVar[str] = "bench"
    mean: float

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"mean": f"context.{self.CONTEXT_TYPE}.{key}.mean"}


class BenchReadCapability(BaseCapability):
    name = "bench_read"
    description = "Take a bench reading of a simulated channel"
    provides: ClassVar[list[str]] = ["BENCH_READING"]
    keywords: ClassVar[list[str]] = ["bench reading"]
    examples: ClassVar[list[str]] = ["take a bench reading"]

    async def execute(self) -> dict[str, Any]:
        reading = BenchReadingContext(
            channel="BENCH:CH1", value=1.5, units="A", timestamp="2024-01-01T00:00:00Z"
        )
        return self.store_output_context(reading)


class BenchAnalyseCapability(BaseCapability):
    name = "bench_analyse"
    description = "Analyse bench readings"
    provides: ClassVar[list[str]] = ["BENCH_ANALYSIS"]
    requires: ClassVar[list[Any]] = ["BENCH_READING"]
    keywords: ClassVar[list[str]] = ["bench analysis"]
    examples: ClassVar[list[str]] = ["bench analysis of the bench reading"]

    async def execute(self) -> dict[str, Any]:
        (reading,) = self.get_required_contexts()
        readings = reading if isinstance(reading, list) else [reading]
        mean = sum(r.value for r in readings) / len(readings)
        return self.store_output_context(BenchAnalysisContext(mean=mean))


def bench_registry() -> Any:
    from osprey_desktop.registry import RegistryManager

    registry = RegistryManager.build(modules=[], include_defaults=False, include_entry_points=False)
    registry.register_context_class(BenchReadingContext)
    registry.register_context_class(BenchAnalysisContext)
    registry.register_capability(BenchReadCapability)
    registry.register_capability(BenchAnalyseCapability)
    return registry


def seed_contexts(count: int) -> dict[str, dict[str, dict[str, Any]]]:
    """``count`` stored readings shaped like what a day of control-room turns leaves behind."""
    entries = {
        f"reading_{i}": {
            "channel": f"SR{i % 40:02d}:BPM{i % 12}:X",
            "value": i * 0.001,
            "units": "mm",
            "timestamp": "2024-01-01T00:00:00Z",
        }
        for i in range(count)
    }
    return {"BENCH_READING": entries}


def used_bytes(db: Path) -> int:
    """Bytes of the file's pages in use: free pages (left by deletions, e.g. the bounded
    history) do not count, so growth is what a turn really added."""
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    return (pages - free) * size


async def _turn(session: AgentSession, request: str, thread: str) -> float:
    start = time.perf_counter()
    result = await session.submit(request, thread)
    elapsed = time.perf_counter() - start
    if result.error or result.pending_approval or not result.response:
        why = result.error or result.to_dict()
        raise SystemExit(f"bench turn failed on thread {thread}: {why}")
    return elapsed


def _line(label: str, times: list[float], growth: float | None = None) -> str:
    text = f"{label:<46} median {statistics.median(times) * 1000:7.1f} ms"
    text += f"  (min {min(times) * 1000:6.1f}, max {max(times) * 1000:6.1f}, n={len(times)})"
    if growth is not None:
        text += f"  db +{growth / 1024:8.1f} KiB/turn"
    return text


async def _check_plan(session: AgentSession, request: str) -> None:
    result = await session.submit(request, "plan-check")
    steps = [s["capability"] for s in (result.plan or {}).get("steps", [])]
    if len(steps) != 3 or result.error:
        raise SystemExit(
            f"expected a three-step plan for {request!r}, got {steps} ({result.error}); "
            "run with --capabilities bench to time the framework alone"
        )
    print(f"plan: {' -> '.join(steps)}")


async def run_bench(capabilities: str, turns: int, seeded_turns: int) -> None:
    from osprey_desktop.config import get_config

    get_config()  # load once, outside the timings
    registry = bench_registry() if capabilities == "bench" else None
    request = BENCH_REQUEST if capabilities == "bench" else REAL_REQUEST
    seed = seed_contexts(SEED_CONTEXTS)
    if capabilities == "real":
        seed = {"BENCH_READING": seed["BENCH_READING"]}  # unknown type: stored as plain data
    with tempfile.TemporaryDirectory(prefix="osprey-bench-") as folder:
        db = Path(folder) / "threads.sqlite"
        for durability in ("exit", "async"):
            async with AgentSession.open(
                db_path=db, registry=registry, durability=durability
            ) as session:
                if durability == "exit":
                    await _check_plan(session, request)
                    await _turn(session, request, "warm-up")
                    one = [await _turn(session, request, "one") for _ in range(turns)]
                    print(_line(f"{turns} turns on one thread", one))
                    fresh = [await _turn(session, request, f"fresh-{i}") for i in range(turns)]
                    print(_line(f"{turns} fresh threads", fresh))
                thread = f"seeded-{durability}"
                await session.submit("/mode:plan_first", thread)
                await session.graph.aupdate_state(
                    session.run_config(thread), {"capability_context_data": seed}
                )
                await _turn(session, request, thread)
                size = used_bytes(db)
                times = [await _turn(session, request, thread) for _ in range(seeded_turns)]
                growth = (used_bytes(db) - size) / seeded_turns
                label = f"{seeded_turns} turns, 10,000 contexts, durability={durability}"
                print(_line(label, times, growth))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--capabilities", choices=("real", "bench"), default="real")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--seeded-turns", type=int, default=10)
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run_bench(args.capabilities, args.turns, args.seeded_turns))


if __name__ == "__main__":
    main()
