"""Cost of the context reducer and of ContextManager.get_summaries on large contexts.

Run: ``.venv/bin/python bench/context_merge.py``. Prints microseconds per one-entry merge into
contexts of 1,000 / 10,000 / 100,000 entries for three shapes of context (how the entries
spread over context types), a deep-copy merge for comparison, and the median time of
``get_summaries()`` over 10,000 contexts with the garbage collector on.

The reducer copies the top-level dict (one slot per context type) and the dict of the one
type it touches (one slot per key of that type), and shares everything else; so its cost
follows the number of types plus the size of the touched type, never the total size.
"""

from __future__ import annotations

import copy
import gc
import math
import statistics
import sys
import time
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from osprey_desktop.context import CapabilityContext, ContextManager  # noqa: E402
from osprey_desktop.state import merge_capability_context_data  # noqa: E402

SIZES = (1_000, 10_000, 100_000)


def build_context(entries: int, types: int) -> dict[str, dict[str, dict[str, Any]]]:
    per_type = max(1, entries // types)
    return {
        f"TYPE_{t}": {
            f"step_{k}": {"channel": f"SR:CH{k}", "value": float(k), "unit": "mA"}
            for k in range(per_type)
        }
        for t in range(types)
    }


def per_call_us(func: Any, budget_s: float = 0.2) -> float:
    """Best of five timed batches, each sized to take roughly ``budget_s / 5``."""
    timer = timeit.Timer(func)
    number, elapsed = timer.autorange()
    number = max(1, int(number * (budget_s / 5) / max(elapsed, 1e-9)))
    return min(timer.repeat(repeat=5, number=number)) / number * 1e6


def deepcopy_merge(existing: dict, new: dict) -> dict:
    """What a naive reducer does: deep-copy everything, then update."""
    merged = copy.deepcopy(existing)
    for context_type, entries in new.items():
        merged.setdefault(context_type, {}).update(copy.deepcopy(entries))
    return merged


SHAPES = {
    # name: number of context types for a context of n entries
    "balanced (sqrt(n) types x sqrt(n) keys)": lambda n: round(math.sqrt(n)),
    "10 types (keys per type grow)": lambda n: 10,
    "10 keys per type (types grow)": lambda n: n // 10,
}


def bench_merge() -> None:
    update = {"TYPE_0": {"new_step": {"channel": "SR:NEW", "value": 1.0, "unit": "mA"}}}
    print("One-entry merge into an existing context type (microseconds per merge)")
    header = f"{'shape':<42}" + "".join(f"{n:>12,}" for n in SIZES) + f"{'100k/1k':>10}"
    print(header)
    for name, types_for in SHAPES.items():
        figures = []
        for n in SIZES:
            existing = build_context(n, types_for(n))
            figures.append(per_call_us(lambda e=existing: merge_capability_context_data(e, update)))
        ratio = figures[-1] / figures[0]
        row = f"{name:<42}" + "".join(f"{f:>12.2f}" for f in figures) + f"{ratio:>9.1f}x"
        print(row)
    figures = []
    for n in SIZES:
        existing = build_context(n, round(math.sqrt(n)))
        figures.append(per_call_us(lambda e=existing: deepcopy_merge(e, update), budget_s=1.0))
    row = f"{'deep copy, balanced (for comparison)':<42}"
    print(row + "".join(f"{f:>12.0f}" for f in figures) + f"{figures[-1] / figures[0]:>9.0f}x")


class BenchReading(CapabilityContext):
    CONTEXT_TYPE = "BENCH_READING"
    channel: str
    value: float
    unit: str

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access_pattern": f"context.BENCH_READING.{key}.value"}

    def get_summary(self) -> dict[str, Any]:
        return {"type": "Reading", "channel": self.channel, "value": f"{self.value} {self.unit}"}


def bench_summaries(count: int = 10_000, runs: int = 15) -> None:
    """Median of ``runs`` calls with the garbage collector on, as in the application
    (``timeit`` switches it off, which hid most of the cost)."""
    data = {
        "BENCH_READING": {
            f"step_{k}": {"channel": f"SR:CH{k}", "value": float(k), "unit": "mA"}
            for k in range(count)
        }
    }
    state = {"capability_context_data": data}
    gc.enable()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        summaries = ContextManager(state).get_summaries()
        times.append(time.perf_counter() - start)
        assert len(summaries) == count
    print(f"\nget_summaries() over {count:,} contexts, new ContextManager, gc on")
    print(
        f"  median {statistics.median(times) * 1e3:.1f} ms "
        f"(min {min(times) * 1e3:.1f}, max {max(times) * 1e3:.1f}, n={runs})"
    )


if __name__ == "__main__":
    print(f"Python {sys.version.split()[0]}\n")
    bench_merge()
    bench_summaries()
