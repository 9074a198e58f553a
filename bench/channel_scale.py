"""How a large facility list loads and answers: load time and query time at 100,000 channels.

    .venv/bin/python bench/channel_scale.py [--channels 100000] [--queries 200]

Writes a generated list in the Osprey ``in_context`` format (rings of sectors with BPMs,
correctors, quadrupoles, sextupoles, vacuum and RF, each with setpoints, readbacks and status
channels and a description) to a temporary folder, then measures, in this process:
loading it (``load_channel_database``: read, validate, index for the ranked search), building
the finder's index, and answering generated requests (median and worst). Targets: load ≤ 2 s
and a query ≤ 50 ms on a 2-core machine. Then a cold start as ``ask`` makes it, in fresh
processes (imports, the list through ``get_channel_database``, its finder, one request): the
first, which builds and keeps the index (``channels.index_cache``), and the median of five
that read the kept index (target ≤ 1.5 s), each split into imports, the list, the finder and
the first find, for lists of 10,000 and 100,000 channels (``--cold``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KINDS = [
    (
        "BPM",
        "beam position monitor",
        [
            ("POSITION:X", "position horizontal"),
            ("POSITION:Y", "position vertical"),
            ("STATUS:VALID", "status valid"),
        ],
    ),
    (
        "HCM",
        "horizontal corrector",
        [
            ("CURRENT:SP", "current setpoint"),
            ("CURRENT:RB", "current readback"),
            ("STATUS:ON", "status on"),
        ],
    ),
    (
        "VCM",
        "vertical corrector",
        [
            ("CURRENT:SP", "current setpoint"),
            ("CURRENT:RB", "current readback"),
            ("STATUS:ON", "status on"),
        ],
    ),
    (
        "QF",
        "focusing quadrupole",
        [
            ("CURRENT:SP", "current setpoint"),
            ("CURRENT:RB", "current readback"),
            ("STATUS:FAULT", "status fault"),
        ],
    ),
    (
        "SD",
        "defocusing sextupole",
        [("CURRENT:SP", "current setpoint"), ("CURRENT:RB", "current readback")],
    ),
    (
        "IP",
        "ion pump",
        [
            ("PRESSURE:RB", "pressure readback"),
            ("VOLTAGE:SP", "voltage setpoint"),
            ("VOLTAGE:RB", "voltage readback"),
        ],
    ),
]
RINGS = [("SR", "storage ring"), ("BR", "booster ring"), ("LN", "linac"), ("TL", "transfer line")]


def generate(count: int) -> dict:
    channels = []
    number = 0
    while len(channels) < count:
        number += 1
        for ring, ring_words in RINGS:
            for kind, kind_words, fields in KINDS:
                for field, field_words in fields:
                    address = f"{ring}:{kind}:{number:04d}:{field}"
                    channels.append(
                        {
                            "channel": address.replace(":", "_"),
                            "address": address,
                            "description": f"{ring_words} {kind_words} {number} {field_words}",
                        }
                    )
    return {"_metadata": {"generated_by": "bench/channel_scale.py"}, "channels": channels[:count]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--cold",
        type=int,
        nargs="*",
        default=[10_000, 100_000],
        help="list sizes whose cold starts are measured (median of 5)",
    )
    args = parser.parse_args()

    from osprey_desktop.channels import load_channel_database
    from osprey_desktop.channels.finder import ChannelFinder, load_vocabulary

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in_context.json"
        path.write_text(json.dumps(generate(args.channels)))
        started = time.perf_counter()
        database = load_channel_database(path)
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        finder = ChannelFinder(database.records, load_vocabulary())
        indexed = time.perf_counter() - started
    rng = random.Random(1)
    templates = [
        "{ring} {kind} {n} current setpoint",
        "the first three {kind} readbacks in the {ring}",
        "{kind} {n} through {m} in the {ring}",
        "vacuum pressure at {ring} ion pump {n}",
        "horizontal positions of {ring} BPMs {n} and {m}",
    ]
    cold, warm = [], []
    for _ in range(args.queries):
        n = rng.randint(1, max(1, args.channels // 100))
        text = rng.choice(templates).format(
            ring=rng.choice(RINGS)[1], kind=rng.choice(KINDS)[1], n=n, m=n + 2
        )
        for forget, times in ((True, cold), (False, warm)):
            if forget:  # as if no request had used these words before
                finder.forget_words()
            started = time.perf_counter()
            finder.find(text)
            times.append(time.perf_counter() - started)
    print(f"channels: {len(database)}")
    print(f"load (read, validate, search index): {loaded:.2f} s")
    print(f"finder index: {indexed:.2f} s")
    print(f"load + finder: {loaded + indexed:.2f} s (target <= 2 s)")
    for label, times in (("first use of its words", cold), ("words used before", warm)):
        print(
            f"query, {label}: median {1000 * statistics.median(times):.1f} ms, "
            f"worst {1000 * max(times):.1f} ms (target <= 50 ms)"
        )
    for count in args.cold:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "in_context.json"
            path.write_text(json.dumps(generate(count)))
            first, kept = _cold_starts(path, folder)
        print(f"cold start, {count:,} channels, list read and index kept: {_line(first)}")
        parts = {key: statistics.median(run[key] for run in kept) for key in first}
        print(
            f"cold start, {count:,} channels, from the kept index (median of {len(kept)}): "
            f"{_line(parts)} (target: total <= 1.5 s)"
        )
    return 0


def _line(parts: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:.2f} s" for key, value in parts.items())


_COLD = """
import json, sys, time
started = time.perf_counter()
from osprey_desktop.channels.finding import configured_finder
from osprey_desktop.channels.loading import get_channel_database
imported = time.perf_counter()
database = get_channel_database(sys.argv[1])
loaded = time.perf_counter()
finder = configured_finder(database)
built = time.perf_counter()
finder.find("storage ring beam position monitor 7 horizontal position")
found = time.perf_counter()
print(json.dumps({"imports": imported - started, "list": loaded - imported,
                  "finder": built - loaded, "first find": found - built,
                  "total": found - started}))
"""


def _cold_starts(path: Path, folder: str) -> tuple[dict[str, float], list[dict[str, float]]]:
    """Seconds (imports, list, finder, first find, total) of a first start (index built and
    kept) and of five that read it back, each in a fresh process."""
    import os
    import subprocess

    env = {**os.environ, "OSPREY_DESKTOP_CACHE_DIR": str(Path(folder) / "cache")}

    def once() -> dict[str, float]:
        done = subprocess.run(
            [sys.executable, "-c", _COLD, str(path)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
            timeout=600,
        )
        return json.loads(done.stdout.strip().splitlines()[-1])

    first = once()
    return first, [once() for _ in range(5)]


if __name__ == "__main__":
    sys.exit(main())
