"""Logbook figures: storing entries, full-text search over many of them, and one whole
logbook turn and undo turn through the built-in planner on the simulated ring.

    .venv/bin/python bench/logbook.py [--entries 2000] [--postgres URL]

Prints: entries stored per second (SQLite, and PostgreSQL when a URL is given), the median and
95th-percentile time of a search (one channel name; two words) over that many entries, and the
wall time of "make a logbook entry: ..." (ask + confirm) and "undo the last write" (ask +
approve) as whole turns. Nothing is timed inside the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from osprey_desktop.logbook import LogbookEntry, SqliteLogbook  # noqa: E402

WORDS = [
    "orbit",
    "tune",
    "injection",
    "kicker",
    "vacuum",
    "gauge",
    "RF",
    "cavity",
    "trip",
    "beam",
    "lifetime",
    "fill",
]


def fill(store, count: int) -> float:
    rng = random.Random(7)
    start = time.perf_counter()
    now = time.time()
    for i in range(count):
        device = f"{rng.choice(['HCM', 'VCM', 'QF', 'QD'])}{rng.randint(1, 36):02d}"
        text = " ".join(rng.choice(WORDS) for _ in range(30))
        store.add(
            LogbookEntry(
                title=f"{device} {rng.choice(WORDS)}",
                text=f"{text} ({device})",
                logbook="operations",
                created_at=now - (count - i) * 60.0,
                channels=(f"SR{rng.randint(1, 12):02d}C:{device}:Current:SP",),
                status="local",
            )
        )
    return count / (time.perf_counter() - start)


def search_times(store, queries: list[str], repeat: int = 20) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        for query in queries:
            start = time.perf_counter()
            store.search(query, limit=20)
            times.append((time.perf_counter() - start) * 1000.0)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


async def turns() -> tuple[float, float]:
    import os

    from osprey_desktop.config import build_config, set_config
    from osprey_desktop.connectors import close_connectors
    from osprey_desktop.session import AgentSession

    with tempfile.TemporaryDirectory() as folder:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = folder
        set_config(build_config({}))
        async with AgentSession.open(db_path=Path(folder) / "threads.sqlite") as session:
            await session.submit("set HCM01 to 1.5 A", "w")
            await session.resume("w", True)
            start = time.perf_counter()
            await session.submit("make a logbook entry: orbit corrected in sector 1", "e")
            await session.resume("e", True)
            entry = time.perf_counter() - start
            start = time.perf_counter()
            await session.submit("undo the last write", "u")
            await session.resume("u", True)
            undo = time.perf_counter() - start
        await close_connectors()
    return entry, undo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--postgres", metavar="URL", help="also measure a PostgreSQL logbook")
    args = parser.parse_args()
    queries = ["HCM07", "QF12 tune"]
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteLogbook(Path(folder) / "threads.sqlite")
        rate = fill(store, args.entries)
        median, p95 = search_times(store, queries)
        print(
            f"SQLite FTS5: {args.entries} entries stored at {rate:.0f}/s; search median "
            f"{median:.2f} ms, p95 {p95:.2f} ms ({', '.join(queries)})"
        )
    if args.postgres:
        from osprey_desktop.logbook.store_postgres import PostgresLogbook

        store = PostgresLogbook(args.postgres)
        rate = fill(store, args.entries)
        median, p95 = search_times(store, queries)
        print(
            f"PostgreSQL tsvector: {args.entries} entries stored at {rate:.0f}/s; search "
            f"median {median:.2f} ms, p95 {p95:.2f} ms"
        )
    entry, undo = asyncio.run(turns())
    print(
        f"turns on the simulated ring: logbook entry (ask + confirm) {entry:.2f} s, "
        f"undo of one write (ask + approve) {undo:.2f} s"
    )


if __name__ == "__main__":
    main()
