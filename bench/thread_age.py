"""Turn time and database growth as one thread ages: turns 10, 100, 500 and 1,000.

One thread, the same three-step turn over and over (bench_read -> bench_analyse -> respond,
the built-in planner, two new messages and two new contexts per turn), through
``AgentSession`` as the window and ``ask`` drive it. Printed per age:

* median turn: the median of the turns around that age (``--window`` turns ending there),
  wall-clock and CPU time of this process (the CPU time hardly moves when other jobs load the
  machine; the database server's own CPU is not in it);
* growth/turn: the bytes in use added per turn over those same turns (SQLite: pages minus
  free pages; PostgreSQL: ``pg_total_relation_size`` of every table);
* and once at the end: the growth per turn between turn 10 and the last age, whether a
  follow-up ("do that again") still names the previous request, and how many messages the
  thread's whole conversation holds when read back in a new session.

``--contexts N`` seeds the thread with N stored readings first (a 100,000-context thread).

On PostgreSQL the bench runs ``VACUUM`` every ``--vacuum-every`` turns (10), outside the timed
turns: a turn replaces rows (checkpoints, blobs, roots), and the space of the old ones is reused
once (auto)vacuum has passed. Autovacuum looks at a table at most once a minute, which keeps up
with an operator's pace but not with a bench's ten turns a second; without it the figures
measure dead rows waiting for autovacuum instead of what a thread keeps.

``--db`` as in ``bench/storage.py``: ``sqlite`` (a temporary file), ``postgres`` (a throw-away
server on 127.0.0.1 started the way the tests start theirs, stopped by its pid) or a
``postgresql://`` URL (a database of its own is created next to it and dropped after).

Run: ``.venv/bin/python bench/thread_age.py [--ages 10 100 500 1000] [--db sqlite postgres]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from storage import database_bytes, databases_for, label_of  # noqa: E402
from turn import BENCH_REQUEST, bench_registry, seed_contexts  # noqa: E402

from osprey_desktop.persistence.postgres import is_postgres_url  # noqa: E402
from osprey_desktop.session import AgentSession  # noqa: E402

FOLLOW_UP = "do that again"


async def _turn(session: AgentSession, thread: str, request: str = BENCH_REQUEST) -> Any:
    """((wall seconds, CPU seconds), result) of one turn."""
    start, cpu = time.perf_counter(), time.process_time()
    result = await session.submit(request, thread)
    elapsed = (time.perf_counter() - start, time.process_time() - cpu)
    if result.error or not result.response:
        raise SystemExit(f"bench turn failed on thread {thread}: {result.error}")
    return elapsed, result


def vacuum(url: str) -> None:
    """What autovacuum does between an operator's turns: old rows' space becomes reusable."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM")


async def age_thread(
    db: Any, ages: list[int], window: int, contexts: int, vacuum_every: int
) -> tuple[dict[int, tuple[float, float, float]], float, str, int]:
    """{age: (median wall s, median CPU s, growth bytes/turn)}, growth 10 -> last, follow-up
    task, messages read back."""
    registry = bench_registry()
    thread = "aging"
    figures: dict[int, tuple[float, float, float]] = {}
    marks: dict[int, int] = {}
    async with AgentSession.open(db_path=db, registry=registry) as session:
        await session.submit("/mode:plan_first", thread)
        if contexts:
            await session.graph.aupdate_state(
                session.run_config(thread), {"capability_context_data": seed_contexts(contexts)}
            )
        times: list[tuple[float, float]] = []
        starts = {max(age - window, 0): age for age in ages}
        for turn in range(1, max(ages) + 1):
            if is_postgres_url(db) and vacuum_every and (turn - 1) % vacuum_every == 0:
                vacuum(str(db))
            if turn - 1 in starts:
                marks[turn - 1] = database_bytes(db)
            elapsed, _ = await _turn(session, thread)
            times.append(elapsed)
            if turn in ages:
                marks[turn] = database_bytes(db)
                first = max(turn - window, 0)
                growth = (marks[turn] - marks[first]) / (turn - first)
                wall = statistics.median(t[0] for t in times[first:turn])
                cpu = statistics.median(t[1] for t in times[first:turn])
                figures[turn] = (wall, cpu, growth)
                print(
                    f"  turn {turn:>5,}: median turn {wall * 1000:7.1f} ms "
                    f"(CPU {cpu * 1000:6.1f} ms), growth {growth / 1024:6.1f} KiB/turn",
                    flush=True,
                )
        low = min(ages)
        overall = (marks[max(ages)] - marks[low]) / max(max(ages) - low, 1)
        _, follow = await _turn(session, thread, FOLLOW_UP)
        task = str(follow.state.get("task_current_task") or "")
    async with AgentSession.open(db_path=db, registry=registry) as session:
        values = await session.get_state_values(thread)
        messages = len(values.get("messages") or [])
    return figures, overall, task, messages


async def run(
    choices: list[str], ages: list[int], window: int, contexts: int, vacuum_every: int
) -> None:
    ages = sorted(set(ages))
    seeded = f", seeded with {contexts:,} contexts" if contexts else ""
    print(
        f"Python {sys.version.split()[0]}; one thread, {max(ages):,} turns{seeded} "
        f"(2 messages and 2 contexts each); median and growth over the {window} turns "
        "ending at each age"
    )
    for choice in choices:
        print(f"\n{label_of(choice)}")
        with databases_for(choice) as database, database() as db:
            figures, overall, task, messages = await age_thread(
                db, ages, window, contexts, vacuum_every
            )
        wall, cpu = figures[ages[0]][0], figures[ages[0]][1]
        ratios = ", ".join(
            f"{age}: {figures[age][0] / wall:.2f}x (CPU {figures[age][1] / cpu:.2f}x)"
            for age in ages
        )
        print(f"  turn time relative to turn {ages[0]}: {ratios}")
        print(f"  growth per turn, turn {ages[0]} to {ages[-1]}: {overall / 1024:.1f} KiB")
        print(f"  follow-up after {ages[-1]:,} turns -> task: {task!r}")
        print(f"  whole conversation read back in a new session: {messages:,} messages")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ages", type=int, nargs="+", default=[10, 100, 500, 1000])
    parser.add_argument("--window", type=int, default=10, help="turns per median")
    parser.add_argument("--contexts", type=int, default=0, help="contexts seeded first")
    parser.add_argument(
        "--vacuum-every",
        type=int,
        default=10,
        help="PostgreSQL: VACUUM every N turns, as autovacuum would at an operator's pace "
        "(0: never)",
    )
    parser.add_argument(
        "--db",
        nargs="+",
        default=["sqlite"],
        metavar="DB",
        help="sqlite, postgres (a throw-away server) or a postgresql:// URL; several allowed",
    )
    args = parser.parse_args()
    if min(args.ages) < 1 or args.window < 1:
        parser.error("ages and --window must be positive numbers of turns")
    import logging

    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.db, args.ages, args.window, args.contexts, args.vacuum_every))


if __name__ == "__main__":
    main()
