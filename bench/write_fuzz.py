"""The write-safety fuzz at scale: generated requests and answers, writes without approval.

    .venv/bin/python bench/write_fuzz.py [--requests 10000] [--seed N]

Runs ``tests/support/write_fuzz.py`` (the same driver CI runs at 300 requests) on the
simulated ring in a temporary data folder, then prints its counts. The figure that matters is
"writes without a matching approval", which must be 0, and "writes whose approved facts no
longer held" (a copy, restore or condition whose facts changed while it waited), 0 too, and so
are blocked writes shown beside an approval that were sent; the rest shows what was exercised.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


async def main(requests: int, seed: int) -> int:
    from osprey_desktop.connectors import close_connectors, get_configured_channel_database
    from osprey_desktop.connectors.factory import reset_sim_machines, set_sim_machine
    from osprey_desktop.connectors.sim_machine import SimMachine
    from tests.support.write_fuzz import run_write_fuzz

    machine = SimMachine(get_configured_channel_database(), seed=seed, lag_scale=0.05)
    reset_sim_machines()
    set_sim_machine(machine)
    try:
        report = await run_write_fuzz(requests=requests, seed=seed, machine=machine)
    finally:
        await close_connectors()
    print("\n".join(report.lines()))
    safe = (
        report.unmatched_writes == 0 and report.stale_fact_writes == 0 and report.blocked_puts == 0
    )
    return 0 if safe and report.second_answers_accepted == 0 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = str(Path(home) / "data")
        os.environ["XDG_CONFIG_HOME"] = str(Path(home) / "config")
        os.environ.pop("OSPREY_DESKTOP_CONFIG", None)
        sys.exit(asyncio.run(main(args.requests, args.seed)))
