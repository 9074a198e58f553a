"""Exact-plan rate of the built-in planner over the operator request table.

    .venv/bin/python bench/planner_accuracy.py [--show-misses]

Each request of ``tests/control_room/requests_table.py`` is planned as a turn would plan it
(task extraction, capability selection, plan creation; nothing is executed) and compared
with the expected ordered list of capabilities. Prints the rate overall and per kind, and
with ``--show-misses`` every request whose plan differs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from osprey_desktop.config import get_config  # noqa: E402
from tests.control_room.planner_eval import evaluate, exact_rate  # noqa: E402
from tests.control_room.requests_table import REQUESTS  # noqa: E402


async def main(show_misses: bool) -> int:
    started = time.perf_counter()
    outcomes = await evaluate(REQUESTS)
    elapsed = time.perf_counter() - started
    by_kind = defaultdict(list)
    for outcome in outcomes:
        by_kind[outcome.kind].append(outcome)
    planner = get_config().models.planner
    rate = exact_rate(outcomes)
    hits = sum(o.exact for o in outcomes)
    print(f"planner: {planner}; {len(outcomes)} requests; planned in {elapsed:.2f} s")
    print(f"exact-plan rate: {rate:.1%} ({hits}/{len(outcomes)})")
    tags = {r.text: r.tags for r in REQUESTS}
    held_out = [o for o in outcomes if "held_out" in tags[o.text]]
    if held_out:
        held_hits = sum(o.exact for o in held_out)
        print(f"held-out entries: {exact_rate(held_out):.1%} ({held_hits}/{len(held_out)})")
    for kind, items in sorted(by_kind.items()):
        kind_hits = sum(o.exact for o in items)
        print(f"  {kind:<16} {kind_hits:>3}/{len(items):<3} {exact_rate(items):6.1%}")
    if show_misses:
        print("\nmisses:")
        for o in outcomes:
            if not o.exact:
                print(f"  {o.text!r}")
                print(f"    expected {list(o.expected)}\n    planned  {list(o.planned)}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true", help="list every wrong plan")
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.show_misses)))
