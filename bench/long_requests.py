"""How long the request passes take on long requests (a pasted log, a runaway script).

    .venv/bin/python bench/long_requests.py [--sizes 6000,24000,50000] [--turn]

Times every pass the write path makes over the request text (derived writes, write values,
time expressions, time ranges, the command line's forms) on requests of each size and several
shapes that used to be quadratic (many verbs, many "if"s without a comma, many values, many
clock times), and prints seconds per pass and the ratio to the smallest size: a linear pass
grows with the size, a quadratic one with its square. ``--turn`` also runs one whole turn
per shape and size on the simulated ring (planner included) with
``execution_control.limits.max_execution_time_seconds``
(or ``--limit``) as its limit and prints how long it took and whether the limit stopped it,
and where (between nodes, or the planner itself); a size over the request cap (8,000
characters) is refused at once by the Gateway, so turns use sizes up to the cap.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHAPES = {
    "verbs": "set HCM01 ",
    "values": "set HCM01 to 1.5 A ",
    "conditions": "if HCM01 is above ",
    "copies": "make VCM08 like VCM07 ",
    "restores": "put HCM05 where ",
    "clock times": "at 10:00 ",
    "prose": "the beam was unstable after the injection and the orbit moved by a lot ",
}


def _passes() -> dict[str, Callable[[str], Any]]:
    from osprey_desktop.capabilities.control_room.write_derivation import parse_derivation
    from osprey_desktop.language.command_lines import command_lines_said_plainly
    from osprey_desktop.language.time_parsing import (
        parse_time_range,
        strip_time_expressions,
    )
    from osprey_desktop.language.write_parsing import parse_write_request

    return {
        "parse_derivation": parse_derivation,
        "parse_write_request": parse_write_request,
        "strip_time_expressions": strip_time_expressions,
        "parse_time_range": parse_time_range,
        "command_lines": command_lines_said_plainly,
    }


def _timed(function: Callable[[str], Any], text: str) -> float:
    started = time.perf_counter()
    with contextlib.suppress(Exception):  # a refusal is an answer too; only the time counts
        function(text)
    return time.perf_counter() - started


def _text(shape: str, size: int) -> str:
    unit = SHAPES[shape]
    return (unit * (size // len(unit) + 1))[:size]


def bench_passes(sizes: list[int]) -> float:
    """Print each pass's time per shape and size; return the slowest time at the largest."""
    worst = 0.0
    header = "".join(f"{s // 1000:>7} KB" for s in sizes)
    print(f"{'pass':24}{'shape':14}{header}   growth")
    for name, function in _passes().items():
        for shape in SHAPES:
            times = [_timed(function, _text(shape, size)) for size in sizes]
            worst = max(worst, times[-1])
            growth = times[-1] / max(times[0], 1e-6)
            cells = "".join(f"{t:>9.3f}s" for t in times)
            print(f"{name:24}{shape:14}{cells}   x{growth:.1f} for x{sizes[-1] / sizes[0]:.1f}")
    return worst


async def bench_turns(sizes: list[int], limit: float | None) -> None:
    from osprey_desktop.config import build_config, get_config, set_config
    from osprey_desktop.connectors import close_connectors
    from osprey_desktop.language.request_length import MAX_REQUEST_CHARS
    from osprey_desktop.session import AgentSession

    if limit is None:
        limit = get_config().execution_control.limits.max_execution_time_seconds
    else:
        overrides = {"execution_control": {"limits": {"max_execution_time_seconds": limit}}}
        set_config(build_config(overrides))
    print(f"\nwhole turns (planner included; turn limit {limit:g} s)")
    folder = tempfile.mkdtemp()
    turn_sizes = sorted({min(size, MAX_REQUEST_CHARS - 1) for size in sizes})
    async with AgentSession.open(db_path=Path(folder) / "threads.sqlite") as session:
        for shape in ("values", "conditions", "prose"):
            for size in turn_sizes:
                started = time.perf_counter()
                result = await session.submit(_text(shape, size), None)
                took = time.perf_counter() - started
                said = f"{result.error or ''} {result.response or ''}"
                stopped = ""
                if "while the planner was still" in said:
                    stopped = "stopped by the limit, in the planner"
                elif "limit" in said:
                    stopped = "stopped by the limit, between nodes"
                print(f"{shape:14}{size:>6} chars {took:8.2f} s {stopped}")
    await close_connectors()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="6000,24000,50000")
    parser.add_argument("--turn", action="store_true", help="also time whole turns")
    parser.add_argument("--limit", type=float, help="the turn limit of --turn, in seconds")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    os.environ.setdefault("OSPREY_DESKTOP_DATA_DIR", tempfile.mkdtemp())
    worst = bench_passes(sizes)
    print(f"\nslowest pass at {sizes[-1] // 1000} KB: {worst:.3f} s (target: under 1 s)")
    if args.turn:
        asyncio.run(bench_turns(sizes, args.limit))
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
