"""How long an investigation of a 24-hour window over 72 BPMs takes (target: under 2 s).

Three parts, each timed separately (median of ``--repeat`` runs), on the simulated ring:

* fetch: the archive of the 72 horizontal BPMs over 24 hours at 1 Hz (6.2 million samples;
  the simulated archiver computes them, an Archiver Appliance would send them);
* compute: statistics of each channel (mean, std, min, max, peak-to-peak, drift), the
  channels ranked by deviation around the middle of the day, and the steps of one BPM;
* turn: "largest horizontal orbit excursion in the last 24 hours" through a real turn
  (built-in planner, AgentSession, SQLite), answer included.

Run: ``.venv/bin/python bench/investigation.py [--repeat 3]``. The machine's load is printed
with the figures: on a shared two-core machine other processes slow every number.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics as stats
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from osprey_desktop.connectors import (  # noqa: E402
    close_connectors,
    get_archiver_connector,
    get_configured_channel_database,
)
from osprey_desktop.investigate import (  # noqa: E402
    find_events,
    signals_of,
    statistics,
    what_changed,
)

REQUEST = "largest horizontal orbit excursion in the last 24 hours"
TARGET_S = 2.0


def bpms() -> list[str]:
    database = get_configured_channel_database()
    return [r.name for r in database if r.family == "BPM" and r.name.endswith(":X")]


async def fetch_and_compute(names: list[str]) -> tuple[float, float, int]:
    archiver = await get_archiver_connector()
    end = datetime.now(UTC)
    start = end - timedelta(hours=24)
    t0 = time.perf_counter()
    data = await archiver.get_data(names, start, end)
    t1 = time.perf_counter()
    signals = signals_of(data)
    a, b = start.timestamp(), end.timestamp()
    for signal in signals.values():
        statistics(signal, a, b)
    what_changed(signals, (a + b) / 2, before=3600, after=3600, guard=300)
    find_events(next(iter(signals.values())), "step")
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, sum(len(s) for s in signals.values())


async def turn() -> float:
    from osprey_desktop.session import AgentSession

    with tempfile.TemporaryDirectory() as folder:
        async with AgentSession.open(db_path=Path(folder) / "threads.sqlite") as session:
            t0 = time.perf_counter()
            result = await session.submit(REQUEST)
            elapsed = time.perf_counter() - t0
    if result.error or "Largest excursion" not in (result.response or ""):
        raise SystemExit(f"the turn did not answer: {result.error or result.response}")
    return elapsed


async def main(repeat: int) -> None:
    names = bpms()
    fetches, computes, turns = [], [], []
    samples = 0
    for _ in range(repeat):
        fetch, compute, samples = await fetch_and_compute(names)
        fetches.append(fetch)
        computes.append(compute)
        turns.append(await turn())
    await close_connectors()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    fetch, compute, whole = (stats.median(x) for x in (fetches, computes, turns))
    print(f"channels: {len(names)} BPMs, 24 h at 1 Hz: {samples:,} samples")
    print(f"fetch (simulated archive):   {fetch:6.2f} s")
    print(f"compute (investigate):       {compute:6.2f} s")
    print(f"fetch + compute:             {fetch + compute:6.2f} s  (target {TARGET_S:g} s)")
    print(f"whole turn '{REQUEST}': {whole:6.2f} s")
    print(f"load average while measuring: {load:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("OSPREY_DESKTOP_DATA_DIR", tempfile.mkdtemp(prefix="osprey-bench-"))
    asyncio.run(main(max(1, args.repeat)))
