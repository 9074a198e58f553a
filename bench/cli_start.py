"""Cold start of the command line: each figure is a new ``python`` process, median of N runs.

What an operator waits for before anything happens, and what every command-line test paid
before the tests forked their runs (``tests/support/cli_process.py``):

* ``--help``: the dispatcher alone (no configuration, no LangGraph);
* ``ask "what is the beam current?"`` on the built-in simulated ring: a whole turn, start to
  exit, in a fresh data folder (one untimed run first creates the database and the saved ring);
* import times, each in a new interpreter: Python itself, LangGraph's graph (the library floor
  every turn pays: it brings LangChain, LangSmith and pydantic), ``osprey_desktop.cli`` (what
  ``--help`` imports) and the core a turn needs (session, graph, registry, the control-room
  capabilities).

Python reads compiled bytecode when it can. With ``PYTHONDONTWRITEBYTECODE`` set (as on some
developer machines) nothing is cached and every run compiles the project's ~200 modules again;
an installed copy has its ``.pyc`` files. By default the figures are taken as an installed
copy would run: bytecode cached in a temporary ``PYTHONPYCACHEPREFIX`` (filled by an untimed
run). ``--as-is`` keeps the environment as it is, to see what this machine's setting costs.

The load average is printed before and after: on a busy machine the figures grow with it.

Run: ``.venv/bin/python bench/cli_start.py [--runs 5] [--as-is] [--config FILE]``
(``--config`` points ``ask`` at another configuration, a large channel list say).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REQUEST = "what is the beam current?"
CORE = (
    "import osprey_desktop.session, osprey_desktop.graph, osprey_desktop.registry, "
    "osprey_desktop.capabilities.control_room"
)
IMPORTS = (
    ("python itself", "pass"),
    ("langgraph.graph (library floor)", "import langgraph.graph"),
    ("osprey_desktop.cli (--help)", "import osprey_desktop.cli"),
    ("core of a turn", CORE),
)


def timed(argv: Sequence[str], env: dict[str, str], expect: int = 0) -> float:
    """Seconds from start to exit of one process; its exit code must be ``expect``."""
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=REPO, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != expect:
        raise SystemExit(
            f"{' '.join(argv)} exited {done.returncode}, not {expect}:\n{done.stderr[-2000:]}"
        )
    return took


def median_of(runs: int, argv: Sequence[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Median, fastest and slowest of ``runs`` timed runs."""
    times = [timed(argv, env) for _ in range(runs)]
    return statistics.median(times), min(times), max(times)


def environment(folder: Path, as_is: bool, config: str | None) -> dict[str, str]:
    """This environment with its own data, config and cache folders under ``folder``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        OSPREY_DESKTOP_DATA_DIR=str(folder / "data"),
        XDG_CONFIG_HOME=str(folder / "config"),
        XDG_STATE_HOME=str(folder / "state"),
        XDG_CACHE_HOME=str(folder / "cache"),
    )
    env.pop("OSPREY_DESKTOP_CONFIG", None)
    if config:
        env["OSPREY_DESKTOP_CONFIG"] = str(Path(config).resolve())
    if not as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    parser.add_argument(
        "--as-is", action="store_true", help="keep PYTHONDONTWRITEBYTECODE as it is set"
    )
    parser.add_argument("--config", help="configuration file for ask (OSPREY_DESKTOP_CONFIG)")
    args = parser.parse_args()

    python = sys.executable
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    bytecode = (
        "as this environment has it"
        if args.as_is
        else "cached (as an installed copy; PYTHONPYCACHEPREFIX in a temporary folder)"
    )
    print(f"bytecode: {bytecode}; {args.runs} runs each, median (fastest-slowest)\n")
    with tempfile.TemporaryDirectory(prefix="osprey-cli-start-") as tmp:
        env = environment(Path(tmp), args.as_is, args.config)
        osprey = [python, "-m", "osprey_desktop"]
        ask = [*osprey, "ask", REQUEST]
        timed(ask, env)  # untimed: the database, the saved ring and the bytecode cache
        rows = [
            ("osprey-desktop --help", median_of(args.runs, [*osprey, "--help"], env)),
            (f'osprey-desktop ask "{REQUEST}"', median_of(args.runs, ask, env)),
        ]
        for label, code in IMPORTS:
            rows.append((f"import: {label}", median_of(args.runs, [python, "-c", code], env)))
    width = max(len(label) for label, _ in rows)
    for label, (median, fastest, slowest) in rows:
        print(f"{label:<{width}}  {median:5.2f} s  ({fastest:.2f}-{slowest:.2f})")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
