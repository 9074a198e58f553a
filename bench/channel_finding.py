"""Channel-finding accuracy of a query set against a channel list, through the path `ask` uses.

    .venv/bin/python bench/channel_finding.py --channels LIST --queries SET.json [SET2.json ...]
        [--show-misses] [--planner builtin|chat_model] [--direct]
    .venv/bin/python bench/channel_finding.py --suite [--direct]   # every list and set

A query set is a JSON list of ``{"user_query", "targeted_pv", "details"?, "category"?}``. Each
query is one turn of a real ``AgentSession`` (Gateway, graph, planner, channel_finding) on a
temporary database with ``control_system.channel_database`` set to LIST, as
``osprey-desktop ask --json`` runs it. The channels found are the turn's CHANNEL_ADDRESSES
(a turn that asks back found none). Scoring as the query sets' authors do: per query,
precision / recall / F1 of the found set against ``targeted_pv``, case-insensitive, a found
channel counting under its PV address or its list's own name; both empty count as 1. Prints
mean precision, recall, F1 and the perfect-match rate (F1 = 1), overall and per category
(the ``category`` field, else the query file) and per query file, plus how many found channels
are not in the list at all (must be 0) and how many questions without an answer got channels
anyway (must be 0). A file whose name says ``heldout`` is a held-out set (written before any
run, never tuned on): its figures are printed apart from the development sets'.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _held_out(query_set: str) -> bool:
    """A set whose file name says held-out: written before any run, never tuned on."""
    return "heldout" in query_set.replace("-", "").replace("_", "").lower()


@dataclass
class Scored:
    query: str
    query_set: str
    category: str
    target: list[str]
    found: list[str]
    precision: float
    recall: float
    f1: float
    seconds: float


def score_names(found: list[set[str]], target: set[str]) -> tuple[float, float, float]:
    """Precision, recall, F1 of found channels (each a set of its names) against targets."""
    if not found and not target:
        return 1.0, 1.0, 1.0
    right = sum(1 for names in found if names & target)
    covered = len({t for names in found for t in names & target})
    precision = right / len(found) if found else 0.0
    recall = covered / len(target) if target else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


async def run(channels: Path, query_files: list[Path], planner: str) -> list[Scored]:
    from osprey_desktop.config import build_config, set_config
    from osprey_desktop.connectors import close_connectors, get_configured_channel_database
    from osprey_desktop.session import AgentSession

    set_config(
        build_config(
            {
                "control_system": {"channel_database": str(channels)},
                "models": {"planner": planner},
            }
        )
    )
    database = get_configured_channel_database()
    aliases = {r.name.lower(): _names(r) for r in database}
    scored: list[Scored] = []
    with tempfile.TemporaryDirectory() as folder:
        async with AgentSession.open(db_path=Path(folder) / "bench.sqlite") as session:
            for file in query_files:
                for item in json.loads(file.read_text()):
                    started = time.perf_counter()
                    result = await session.submit(item["user_query"])
                    elapsed = time.perf_counter() - started
                    found = _found_channels(result.state)
                    target = {t.lower() for t in item["targeted_pv"]}
                    precision, recall, f1 = score_names(
                        [aliases.get(n.lower(), {n.lower()}) for n in found], target
                    )
                    scored.append(
                        Scored(
                            item["user_query"],
                            file.stem,
                            item.get("category") or file.stem,
                            item["targeted_pv"],
                            found,
                            precision,
                            recall,
                            f1,
                            elapsed,
                        )
                    )
    await close_connectors()
    return scored


def run_direct(channels: Path, query_files: list[Path]) -> list[Scored]:
    """The same scoring through channel finding alone (``find_channels_noted``), without a
    session, planner or graph: what the finder answers for each whole request (a read; a
    question back counts as no channels)."""
    from osprey_desktop.base.errors import ClarificationRequired
    from osprey_desktop.capabilities.control_room.channel_finding import find_channels_noted
    from osprey_desktop.channels import load_channel_database

    database = load_channel_database(channels)
    aliases = {r.name.lower(): _names(r) for r in database}
    scored: list[Scored] = []
    for file in query_files:
        for item in json.loads(file.read_text()):
            started = time.perf_counter()
            try:
                found, _, _ = find_channels_noted(
                    database, item["user_query"], writable=False, max_write_channels=10_000
                )
            except ClarificationRequired:
                found = []
            elapsed = time.perf_counter() - started
            target = {t.lower() for t in item["targeted_pv"]}
            precision, recall, f1 = score_names(
                [aliases.get(n.lower(), {n.lower()}) for n in found], target
            )
            scored.append(
                Scored(
                    item["user_query"],
                    file.stem,
                    item.get("category") or file.stem,
                    item["targeted_pv"],
                    found,
                    precision,
                    recall,
                    f1,
                    elapsed,
                )
            )
    return scored


def _names(record: object) -> set[str]:
    """A channel's PV address and the list's own names for it, lower case."""
    own = getattr(record, "aliases", ()) or ()
    return {str(getattr(record, "name", "")).lower(), *(str(a).lower() for a in own)}


def _found_channels(state: dict) -> list[str]:
    data = (state.get("capability_context_data") or {}).get("CHANNEL_ADDRESSES") or {}
    found: dict[str, None] = {}
    for entry in data.values():
        for name in (entry or {}).get("channels") or []:
            found.setdefault(name, None)
    return list(found)


def report(scored: list[Scored], database_names: set[str], show_misses: bool) -> None:
    def line(label: str, items: list[Scored]) -> str:
        mean = statistics.fmean
        perfect = sum(s.f1 == 1.0 for s in items)
        return (
            f"{label:<28} n={len(items):>3}  P={mean(s.precision for s in items):.3f}  "
            f"R={mean(s.recall for s in items):.3f}  F1={mean(s.f1 for s in items):.3f}  "
            f"perfect={perfect / len(items):.1%} ({perfect}/{len(items)})"
        )

    by_category: dict[str, list[Scored]] = defaultdict(list)
    by_set: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        by_category[s.category].append(s)
        by_set[s.query_set].append(s)
    tuned = [s for s in scored if not _held_out(s.query_set)]
    held = [s for s in scored if _held_out(s.query_set)]
    if tuned:
        print(line("development (tuned on)", tuned))
    if held:
        print(line("HELD-OUT (never tuned on)", held))
    for name, items in by_set.items():
        print(line(f"  set {name}" + (" [held-out]" if _held_out(name) else ""), items))
    print(line("overall", scored))
    for category, items in sorted(by_category.items()):
        print(line(f"  {category}", items))
    no_answer = [s for s in scored if not s.target]
    if no_answer:
        made_up = sum(1 for s in no_answer if s.found)
        print(f"questions without an answer: {len(no_answer)}, answered anyway: {made_up}")
    outside = sum(1 for s in scored for n in s.found if n.lower() not in database_names)
    print(f"found channels not in the list: {outside}")
    times = sorted(s.seconds for s in scored)
    print(
        f"turn time: median {1000 * times[len(times) // 2]:.0f} ms, max {1000 * times[-1]:.0f} ms"
    )
    if show_misses:
        for s in scored:
            if s.f1 < 1.0:
                print(f"\nF1={s.f1:.2f}  {s.query!r}\n  want {s.target[:8]}\n  got  {s.found[:8]}")


SHARED = Path("/work/shared/facility-channels")
QUERIES = ROOT / "bench" / "queries"
#: The lists and sets measured for docs/channel-finding.md (``--suite``): (label, list, sets).
SUITE = [
    ("Osprey tier 1", SHARED / "osprey-tier1/in_context.json", ["tier1_fresh", "tier1_own"]),
    *(
        (f"Osprey tier 3 {f}", SHARED / f"osprey-tier3/{f}.json", ["tier3_fresh", "tier3_own"])
        for f in ("in_context", "hierarchical", "middle_layer")
    ),
    (
        "Osprey tier 3 in_context, families",
        SHARED / "osprey-tier3/in_context.json",
        ["tier3_families", "tier3_several", "tier3_families_heldout", "tier3_several_heldout"],
    ),
    *(
        (
            f"Osprey v0.11.5 {f}",
            SHARED / f"osprey-v0.11.5/{f}.json",
            [SHARED / f"osprey-v0.11.5/queries/{f}_benchmark.json"],
        )
        for f in ("in_context", "hierarchical", "middle_layer")
    ),
    (
        "SPEAR3 orbit",
        ROOT / "bench/facility_lists/spear3_orbit.csv",
        ["spear3_dev", "spear3_heldout"],
    ),
]


def run_suite(direct: bool, planner: str, only: int | None = None) -> None:
    """Every list and set of ``SUITE``: development and held-out figures on separate lines.

    Whole ``ask`` turns run each list in a process of its own: a process keeps what it read
    of the first configured list (the planner's channel words), as an operator's would."""
    if not direct and only is None:
        import subprocess

        for number in range(len(SUITE)):
            command = [sys.executable, __file__, "--suite-entry", str(number)]
            subprocess.run([*command, "--planner", planner], check=False, timeout=3600)
        return
    for number, (label, channels, sets) in enumerate(SUITE):
        if only is not None and number != only:
            continue
        files = [s if isinstance(s, Path) else QUERIES / f"{s}.json" for s in sets]
        if direct:
            scored = run_direct(channels, files)
        else:
            scored = asyncio.run(run(channels, files, planner))
        for part, items in (
            ("dev", [s for s in scored if not _held_out(s.query_set)]),
            ("held-out", [s for s in scored if _held_out(s.query_set)]),
        ):
            if not items:
                continue
            f1 = statistics.fmean(s.f1 for s in items)
            perfect = sum(s.f1 == 1.0 for s in items)
            made_up = sum(1 for s in items if not s.target and s.found)
            print(
                f"{label:<38} {part:<8} n={len(items):>3}  F1={f1:.3f}  "
                f"perfect={perfect / len(items):.1%}  made-up answers={made_up}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=Path)
    parser.add_argument("--queries", type=Path, nargs="+")
    parser.add_argument(
        "--suite", action="store_true", help="every list and set of SUITE, one line each"
    )
    parser.add_argument("--suite-entry", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--planner", default="builtin", choices=("builtin", "chat_model"))
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--direct",
        action="store_true",
        help="channel finding alone (no session, planner or graph): quicker, same scoring",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["OSPREY_DESKTOP_DATA_DIR"] = str(Path(home) / "data")
        os.environ["XDG_CONFIG_HOME"] = str(Path(home) / "config")
        os.environ.pop("OSPREY_DESKTOP_CONFIG", None)
        if args.suite or args.suite_entry is not None:
            run_suite(args.direct, args.planner, args.suite_entry)
            return 0
        if args.channels is None or not args.queries:
            parser.error("--channels and --queries (or --suite)")
        if args.direct:
            scored = run_direct(args.channels, args.queries)
        else:
            scored = asyncio.run(run(args.channels, args.queries, args.planner))
        from osprey_desktop.channels import get_channel_database

        names: set[str] = set()
        for r in get_channel_database(args.channels):
            names |= _names(r)
        report(scored, names, args.show_misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
