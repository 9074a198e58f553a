"""Channel throughput and archiver retrieval time.

Prints reads per second of 100 channels through the simulated connector and through EPICS
Channel Access to the demo IOC (started here as a child process on free loopback ports),
concurrent (``read_multiple_channels``) against sequential (one ``read_channel`` after the
other), and the time to retrieve 1 channel over 1 day at 1 s from the simulated archiver and,
for comparison, from the Archiver Appliance client parsing the same day from a local server.

Run: ``.venv/bin/python bench/channels.py [--rounds N]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from osprey_desktop.channels.database import ChannelDatabase  # noqa: E402
from osprey_desktop.connectors.archiver_appliance import ArchiverApplianceConnector  # noqa: E402
from osprey_desktop.connectors.base import ChannelValue, ControlSystemConnector  # noqa: E402
from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess  # noqa: E402
from osprey_desktop.connectors.factory import get_configured_channel_database  # noqa: E402
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector  # noqa: E402
from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector  # noqa: E402
from osprey_desktop.connectors.sim_machine import SimMachine  # noqa: E402


def hundred_channels(db: ChannelDatabase) -> list[str]:
    """100 channels spread over every family (not just the first sector)."""
    names = db.names
    step = max(1, len(names) // 100)
    return names[::step][:100]


async def timed(rounds: int, action: Callable[[], Awaitable[object]]) -> float:
    """Median seconds of one call over ``rounds`` calls (after one warm-up)."""
    await action()
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        await action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


async def read_rates(
    connector: ControlSystemConnector, names: list[str], rounds: int
) -> tuple[float, float]:
    async def concurrent() -> None:
        results = await connector.read_multiple_channels(names)
        bad = [n for n, v in results.items() if not isinstance(v, ChannelValue)]
        if bad:
            raise RuntimeError(f"reads failed: {bad[:3]}")

    async def sequential() -> None:
        for name in names:
            await connector.read_channel(name)

    conc = await timed(rounds, concurrent)
    seq = await timed(rounds, sequential)
    return len(names) / conc, len(names) / seq


async def bench_sim(db: ChannelDatabase, names: list[str], rounds: int) -> tuple[float, float]:
    connector = SimulatedControlSystemConnector(SimMachine(db))
    await connector.connect()
    try:
        return await read_rates(connector, names, rounds)
    finally:
        await connector.disconnect()


async def bench_epics(db: ChannelDatabase, names: list[str], rounds: int) -> tuple[float, float]:
    from osprey_desktop.connectors.epics import EpicsControlSystemConnector

    with DemoIocProcess(rate=2.0) as ioc:
        os.environ.update(ioc.client_environment)
        connector = EpicsControlSystemConnector(timeout=5.0, database=db)
        await connector.connect()
        try:
            return await read_rates(connector, names, rounds)
        finally:
            await connector.disconnect()


async def bench_sim_archiver(db: ChannelDatabase, rounds: int) -> float:
    archiver = SimulatedArchiverConnector(SimMachine(db))
    end = datetime.now(UTC)
    start = end - timedelta(days=1)

    async def fetch() -> None:
        data = await archiver.get_data(["SR:DCCT:Current"], start, end)
        assert len(data.series["SR:DCCT:Current"]) >= 86400

    return await timed(rounds, fetch)


async def bench_appliance(rounds: int) -> float:
    end = datetime.now(UTC).replace(microsecond=0)
    start = end - timedelta(days=1)
    t0 = int(start.timestamp())
    body = json.dumps(
        [
            {
                "meta": {"name": "SR:DCCT:Current", "EGU": "mA", "PREC": "2"},
                "data": [
                    {
                        "secs": t0 + i,
                        "nanos": 0,
                        "val": 500.0 - (i % 180) * 0.014,
                        "severity": 0,
                        "status": 0,
                    }
                    for i in range(86400)
                ],
            }
        ]
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    client = ArchiverApplianceConnector(f"http://127.0.0.1:{server.server_address[1]}")
    try:

        async def fetch() -> None:
            data = await client.get_data(["SR:DCCT:Current"], start, end)
            assert len(data.series["SR:DCCT:Current"]) == 86400

        return await timed(rounds, fetch)
    finally:
        await client.disconnect()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


async def main(rounds: int) -> None:
    db = get_configured_channel_database()
    names = hundred_channels(db)
    print(f"100 channels from {len(db)} in the database; median of {rounds} rounds\n")
    conc, seq = await bench_sim(db, names, rounds)
    print(
        f"simulated connector   concurrent {conc:10,.0f} reads/s   sequential {seq:10,.0f} reads/s"
    )
    conc, seq = await bench_epics(db, names, rounds)
    print(
        f"EPICS -> demo IOC     concurrent {conc:10,.0f} reads/s   sequential {seq:10,.0f} reads/s"
    )
    day = await bench_sim_archiver(db, rounds)
    print(f"\nsimulated archiver    1 channel x 1 day at 1 s (86,400 points): {day * 1000:7.1f} ms")
    day = await bench_appliance(max(1, rounds // 2))
    print(f"Appliance client      same day as getData.json from 127.0.0.1:  {day * 1000:7.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="timed rounds per figure")
    asyncio.run(main(parser.parse_args().rounds))
