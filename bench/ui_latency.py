"""How responsive the window stays: event-loop stalls and time to the first painted window.

A 5 ms heartbeat ``QTimer`` runs on the qasync loop; the longest gap between two ticks (minus
the 5 ms period) is the longest stall the operator could feel. Measured:

1. during a full turn through the real graph ("read the beam current", built-in planner,
   simulated machine, SQLite checkpointer), window open and every dock live;
2. during a context update of 10,000 entries: a real turn (same session, checkpointer and
   window) whose one step stores 10,000 new CONTEXT_BULK entries (each turn adds 10,000
   more), with that branch of the context tree expanded (worst case), through the
   deterministic graph of the UI tests;
3. turns that open plots through the real graph: a 2-hour history of the beam current and
   a 24-hour horizontal orbit (72 BPMs, orbit view and waterfall);
4. a 50 KB paste into the chat input, then Enter; and opening a 6-channel strip chart;
5. process start -> first painted window (child process running ``run_app``), and -> ready
   (session open, thread restored).

Every tick gap of ``STALL_MS`` or more is printed with its scenario, not only the longest, and
with the CPU time the GUI thread and the process's other threads spent in it (the rest of the
gap no thread of the process ran: a busy machine, or blocked). Each summary also gives the most
CPU the GUI thread spent between two ticks: the loop's own longest piece of work, which other
processes on a shared machine lengthen far less than the wall-clock stall.
``--sample`` also runs a stack sampler: a thread that, whenever the heartbeat is more than
``SAMPLE_AFTER_MS`` late, records the GUI thread's stack every 2 ms, then names the code
that held the loop (innermost frame of this repository, file:line, and the innermost frame
of all) with its share of the stalled time, per scenario.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python bench/ui_latency.py [--turns 5]``;
``--only plots --sample`` for the plot turns with the sampler (``--report-ms 30`` to name
the code of shorter stalls too; samples start once the heartbeat is 30 ms late).
Target: no stall above 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HEARTBEAT_MS = 5
STALL_MS = 20.0
# (scenario, gap ms, CPU ms of the GUI thread, CPU ms of the process) of every gap >= STALL_MS
STALLS: list[tuple[str, float, float, float]] = []
# The offscreen plugin warns on every window about what it lacks ("This plugin does not
# support propagateSizeHints()", "... raise()"); dozens of those bury the figures.
OFFSCREEN_NOISE = "This plugin does not support "
_message_handler = None  # kept referenced: Qt holds only a pointer to the handler


def quiet_offscreen_warnings() -> None:
    """Drop the offscreen plugin's "does not support" warnings; pass every other message on."""
    global _message_handler
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _context, message: str) -> None:
        if not message.startswith(OFFSCREEN_NOISE):
            print(message, file=sys.stderr, flush=True)

    _message_handler = handler
    qInstallMessageHandler(handler)


def private_window_settings(folder: str) -> None:
    """Keep the bench's windows from saving their layout over the operator's own."""
    from PySide6.QtCore import QSettings

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)


SAMPLE_AFTER_MS = 30.0
SAMPLE_EVERY_S = 0.002


class StackSampler:
    """Samples the GUI thread's stack while the heartbeat is late (see the module).

    Samples are grouped by the tick they came after, so each stall gets its own list of
    places. When the GUI thread is inside Qt's own loop (C++: painting, or waiting for the
    GIL), the other Python threads' innermost frames are recorded too: a worker holding the
    GIL stalls the loop as surely as code on it. The cyclic collector's passes are recorded
    as well (in any thread, they hold the GIL throughout, and no sample can be taken then).
    """

    def __init__(self) -> None:
        self.main = threading.main_thread().ident
        self.beat: Heartbeat | None = None
        self.samples: list[tuple[float, str, str]] = []  # (tick it followed, ours, innermost)
        # (scenario, gap ms, places, collections in the gap: (generation, ms, thread))
        self.stalls: list[
            tuple[str, float, Counter[tuple[str, str]], list[tuple[int, float, str]]]
        ] = []
        self.collections: list[tuple[float, float, int, str]] = []  # (start, end, gen, thread)
        self._collecting: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stack-sampler", daemon=True)

    def start(self) -> None:
        gc.callbacks.append(self._on_collection)
        self._thread.start()

    def stop(self) -> None:
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)
        self._stop.set()
        self._thread.join(timeout=2)

    def _on_collection(self, phase: str, info: dict) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._collecting = now
        elif self._collecting is not None:
            name = threading.current_thread().name
            self.collections.append((self._collecting, now, info["generation"], name))
            self._collecting = None

    def assign(self, scenario: str, ticks: list[float]) -> None:
        """Group the samples taken since the last call into stalls of ``scenario``."""
        taken, self.samples = self.samples, []
        collections, self.collections = self.collections, []
        groups: dict[float, Counter[tuple[str, str]]] = {}
        for last, ours, inner in taken:
            groups.setdefault(last, Counter())[(ours, inner)] += 1
        # a collection, or a long call into C++ or numpy, holds the GIL: no sample is taken
        # then, and such a stall is found by its gap
        for before, after in zip(ticks, ticks[1:], strict=False):
            if (after - before) * 1000 - HEARTBEAT_MS >= SAMPLE_AFTER_MS:
                groups.setdefault(before, Counter())
        for last, places in groups.items():
            later = [t for t in ticks if t > last]
            end = later[0] if later else time.perf_counter()
            gap = (end - last) * 1000 - HEARTBEAT_MS
            passes = [
                (gen, (stop - start) * 1000, name)
                for start, stop, gen, name in collections
                if start < end and stop > last
            ]
            self.stalls.append((scenario, gap, places, passes))

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_EVERY_S):
            beat = self.beat
            last = beat._last if beat is not None and beat.timer.isActive() else None
            if last is None or (time.perf_counter() - last) * 1000 < SAMPLE_AFTER_MS:
                continue
            frames = sys._current_frames()
            frame = frames.get(self.main)
            if frame is None:
                continue
            ours, inner = _where(traceback.extract_stack(frame))
            if "qasync/__init__.py" in inner:  # in Qt's C++ loop: who else runs Python?
                others = [
                    _where(traceback.extract_stack(f))[0].split(" < ")[0]
                    for ident, f in frames.items()
                    if ident not in (self.main, threading.get_ident())
                ]
                busy = [o for o in others if not o.startswith("(")]
                inner = "Qt (C++) on the GUI thread; other threads in: " + (
                    "; ".join(busy) if busy else "nothing of this repository"
                )
            self.samples.append((last, ours, inner))

    def report(self, threshold_ms: float = 50.0) -> None:
        big = [s for s in self.stalls if s[1] >= threshold_ms]
        print(f"Where the loop was held, per stall of {threshold_ms:.0f} ms or more ({len(big)}):")
        for scenario, gap, places, passes in big:
            total = sum(places.values())
            print(f"  {gap:6.1f} ms  {scenario} ({total} samples)")
            for gen, ms, name in passes:
                print(f"      cyclic GC pass of generation {gen}: {ms:.1f} ms in thread {name}")
            if not total and not passes:
                print("      no sample: the GIL was held throughout (a call into C++ or C)")
            for (ours, inner), n in places.most_common(3):
                print(f"      {100 * n / total:3.0f}%  {ours}")
                if inner != ours.split(" < ")[0]:
                    print(f"            innermost: {inner}")


def _where(stack: traceback.StackSummary) -> tuple[str, str]:
    """The innermost frame of this repository's code and the innermost frame, as file:line."""
    repo = str(REPO) + os.sep

    def name(entry: traceback.FrameSummary) -> str:
        path = entry.filename
        if "site-packages" in path:
            path = path.split("site-packages" + os.sep, 1)[1]
        elif path.startswith(repo):
            path = path[len(repo) :]
        return f"{path}:{entry.lineno} {entry.name}"

    ours = [
        e
        for e in stack
        if e.filename.startswith(repo)
        and "site-packages" not in e.filename
        and os.sep + "bench" + os.sep not in e.filename
    ]
    if not stack:
        return "(no frame)", "(no frame)"
    # the innermost frame first, then who called it (up to 4 of this repository's frames)
    chain = " < ".join(name(e) for e in reversed(ours[-4:]))
    return (chain or "(no frame of this repository)", name(stack[-1]))


SAMPLER: StackSampler | None = None


class Heartbeat:
    """Records the gaps between ticks of a 5 ms timer while ``running``."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(HEARTBEAT_MS)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self.ticks: list[float] = []
        # CPU time in each gap: the GUI thread's own, and the whole process's
        self.cpu: list[tuple[float, float]] = []
        self._last: float | None = None
        self._last_cpu = (0.0, 0.0)

    def _tick(self) -> None:
        now = time.perf_counter()
        cpu = (time.thread_time(), time.process_time())
        self.ticks.append(now)
        if self._last is not None:
            self.gaps.append((now - self._last) * 1000)
            self.cpu.append(
                ((cpu[0] - self._last_cpu[0]) * 1000, (cpu[1] - self._last_cpu[1]) * 1000)
            )
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self.gaps, self.ticks, self.cpu, self._last = [], [], [], None
        if SAMPLER is not None:
            SAMPLER.beat = self
            SAMPLER.samples = []  # taken between scenarios
            SAMPLER.collections = []
        self.timer.start()

    def stop(self, scenario: str = "") -> dict[str, float]:
        self.timer.stop()
        if SAMPLER is not None:
            SAMPLER.assign(scenario, self.ticks)
        STALLS.extend(
            (scenario, g - HEARTBEAT_MS, gui, process)
            for g, (gui, process) in zip(self.gaps, self.cpu, strict=True)
            if g - HEARTBEAT_MS >= STALL_MS
        )
        gaps = sorted(self.gaps) or [0.0]
        return {
            "ticks": len(self.gaps),
            "max_stall_ms": max(0.0, gaps[-1] - HEARTBEAT_MS),
            "p99_gap_ms": gaps[int(0.99 * (len(gaps) - 1))],
            # the most CPU the GUI thread itself spent between two ticks: the loop's own
            # longest piece of work, apart from waiting for the GIL or for a busy machine
            "max_gui_cpu_ms": max((gui for gui, _ in self.cpu), default=0.0),
        }


async def wait_idle(window) -> None:
    await asyncio.sleep(0.05)
    while window.controller.running:
        await asyncio.sleep(0.005)


async def measure_turns(config, turns: int, graph_factory=None, request: str = "") -> list[dict]:
    from osprey_desktop.session import AgentSession
    from osprey_desktop.ui.controller import SessionController
    from osprey_desktop.ui.main_window import MainWindow

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        async with AgentSession.open(
            config, Path(tmp) / "threads.sqlite", graph_factory=graph_factory
        ) as session:
            window = MainWindow(SessionController(), config)
            window.show()
            await window.controller.attach(session)
            beat = Heartbeat()
            for turn in range(turns):
                text = request or "read the beam current"
                if graph_factory is not None and turn == 0:
                    # Expand the bulk branch before the big update lands (worst case for the view).
                    window.controller.submit("1 entries")
                    await wait_idle(window)
                    browser = window.context_browser
                    browser.tree.expand(
                        browser.proxy.mapFromSource(
                            window.context_model.index_for_path(["CONTEXT_BULK"])
                        )
                    )
                beat.start()
                started = time.perf_counter()
                window.controller.submit(text)
                await wait_idle(window)
                await settle_plots(window)
                stats = beat.stop(f"turn '{text}'")
                stats["turn_ms"] = (time.perf_counter() - started) * 1000
                results.append(stats)
            await window.shutdown()
            window._quitting = True
            window.close()
            window.deleteLater()
    from osprey_desktop.connectors.factory import close_connectors

    await close_connectors()
    return results


async def settle_plots(window) -> None:
    """Wait until every figure is drawn: each is prepared in a worker and built over several
    loop turns after the turn that opened it, and belongs to that turn's cost."""
    from osprey_desktop.ui.plot_dock import ArchivePlotView

    dock = window.plot_dock
    for _ in range(1000):
        views = []
        if dock is not None:
            views = [dock.tabs.widget(i) for i in range(dock.tabs.count())]
        if all(v.ready for v in views if isinstance(v, ArchivePlotView)):
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)  # the first paint of what was added


async def measure_window_actions(config) -> dict[str, dict]:
    """A 50 KB paste then Enter, and a 6-channel strip chart opening, in a live window."""
    from PySide6.QtCore import QMimeData, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from osprey_desktop.session import AgentSession
    from osprey_desktop.ui.controller import SessionController
    from osprey_desktop.ui.main_window import MainWindow

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with AgentSession.open(config, Path(tmp) / "threads.sqlite") as session:
            window = MainWindow(SessionController(), config)
            window.show()
            await window.controller.attach(session)
            beat = Heartbeat()
            beat.start()
            data = QMimeData()
            data.setText("read the beam current " + "x" * 50_000)
            window.chat.input.insertFromMimeData(data)
            await asyncio.sleep(0.05)
            for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
                event = QKeyEvent(kind, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)
                QApplication.sendEvent(window.chat.input, event)
            await asyncio.sleep(0.3)
            out["50 KB paste, then Enter"] = beat.stop("50 KB paste")
            channels = [f"SR01C:BPM0{i}:X" for i in range(1, 7)]
            beat.start()
            window.open_stripchart(channels)
            await asyncio.sleep(1.5)
            stats = beat.stop("strip chart, 6 channels")
            stats["window_width"] = window.width()
            out["Open a 6-channel strip chart"] = stats
            await window.shutdown()
            window._quitting = True
            window.close()
            window.deleteLater()
    return out


def first_paint(runs: int, sample: bool = False, report_ms: float = 50.0) -> list[dict[str, float]]:
    """Start-up figures in ms from just before the child process starts: first paint, a key
    typed into the chat input shown there (usable input), ready (session open, thread
    restored), and the longest stall of the loop between first paint and ready. ``sample``:
    the child runs the stack sampler and its report is printed."""
    out = []
    extra = ["--sample", "--report-ms", str(report_ms)] if sample else []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CONFIG_HOME": tmp}
            env["OSPREY_DESKTOP_DATA_DIR"] = tmp
            started = time.time()
            done = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--first-paint-child",
                    str(Path(tmp) / "t.sqlite"),
                    *extra,
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
            )
            stamps = dict(
                line.split()[:2] for line in done.stdout.splitlines() if line.startswith("t_")
            )
            if "t_ready" not in stamps:
                raise SystemExit(f"first-paint child failed:\n{done.stderr}")
            report = [line for line in done.stdout.splitlines() if not line.startswith("t_")]
            if report:
                print("\n".join(report))
            figures = {
                name: (float(stamps[f"t_{name}"]) - started) * 1000
                for name in ("paint", "input", "ready")
            }
            figures["stall"] = float(stamps["t_stall_ms"])
            figures["stall_gui"] = float(stamps.get("t_stall_gui_ms", "nan"))
            figures["queued_ran"] = float(stamps.get("t_queued_ran", "0"))
            out.append(figures)
    return out


def first_paint_child(db_path: str, report_ms: float = 50.0) -> int:
    """Runs in the child: the wall time of the first paint, of the first key shown in the
    chat input, of 'ready', the longest heartbeat gap in between, and whether a request
    typed before ready ran once the session opened; then quits."""
    from PySide6.QtCore import QEvent, QObject, Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv)
    marks: dict[str, float] = {}
    beat = Heartbeat()

    class PaintSpy(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            first = event.type() == QEvent.Type.Paint and "t_paint" not in marks
            if first and obj.window().objectName() == "main_window":
                marks["t_paint"] = time.time()
                print(f"t_paint {marks['t_paint']}", flush=True)
                beat.start()
                window = obj.window()
                QTimer.singleShot(0, lambda: type_ahead(window))
                asyncio.ensure_future(wait_ready(window))
            return False

    def type_ahead(window) -> None:
        """Type a request at once, as an operator does before the window is ready."""
        QTest.keyClicks(window.chat.input, "r")
        print(f"t_input {time.time()}", flush=True)
        QTest.keyClicks(window.chat.input, "ead the beam current")
        QTest.keyClick(window.chat.input, Qt.Key.Key_Return)

    async def wait_ready(window) -> None:
        while window.controller.opening:
            await asyncio.sleep(0.001)
        print(f"t_ready {time.time()}", flush=True)
        stats = beat.stop("start-up, first paint to ready")
        if SAMPLER is not None:
            SAMPLER.stop()
            SAMPLER.report(report_ms)
        print(f"t_stall_ms {stats['max_stall_ms']:.1f}", flush=True)
        print(f"t_stall_gui_ms {stats['max_gui_cpu_ms']:.1f}", flush=True)
        for _ in range(12000):  # the typed-ahead request runs once the session is open
            if window.chat.transcript.texts("response"):
                print("t_queued_ran 1", flush=True)
                break
            await asyncio.sleep(0.01)
        window._quitting = True  # the bench's own quit: nothing to ask
        window.close()
        window.closed.emit()

    spy = PaintSpy()
    app.installEventFilter(spy)
    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import run_app

    return run_app(get_config(), db_path)


def summarize(title: str, results: list[dict]) -> None:
    stalls = [r["max_stall_ms"] for r in results]
    turn_ms = [r["turn_ms"] for r in results]
    print(
        f"{title}: longest stall {max(stalls):.1f} ms (median of turns "
        f"{statistics.median(stalls):.1f} ms), p99 tick gap "
        f"{max(r['p99_gap_ms'] for r in results):.1f} ms, turn {statistics.median(turn_ms):.0f} ms"
        f" median over {len(results)} turns; most GUI-thread CPU between two ticks "
        f"{max(r['max_gui_cpu_ms'] for r in results):.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--paint-runs", type=int, default=3)
    parser.add_argument("--bulk-turns", type=int, default=3, help="10,000 new entries each")
    parser.add_argument("--plot-turns", type=int, default=2, help="per plot request")
    parser.add_argument("--first-paint-child", metavar="DB")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=("turns", "bulk", "plots", "actions", "paint"),
        help="run only these scenarios (default: all)",
    )
    parser.add_argument("--sample", action="store_true", help="sample the GUI thread's stack")
    parser.add_argument(
        "--report-ms",
        type=float,
        default=50.0,
        help="with --sample: name the code of every stall this long or longer (default 50)",
    )
    args = parser.parse_args()
    quiet_offscreen_warnings()
    global SAMPLER
    if args.sample:
        SAMPLER = StackSampler()
        SAMPLER.start()
    if args.first_paint_child:
        return first_paint_child(args.first_paint_child, args.report_ms)
    only = set(args.only or ("turns", "bulk", "plots", "actions", "paint"))

    from PySide6.QtWidgets import QApplication

    from osprey_desktop.config import get_config
    from osprey_desktop.ui.app import load_agent_stack, run_on_qt_loop
    from tests.ui.window_graph import build_window_graph

    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    config = get_config()
    settings_folder = tempfile.TemporaryDirectory()
    private_window_settings(settings_folder.name)

    plot_requests = (
        "plot the beam current over the last 2 hours",
        "show the horizontal orbit over the last 24 hours",
    )

    async def run() -> tuple[list[dict], list[dict], dict[str, list[dict]], dict[str, dict]]:
        # what the app loads in a worker after its first paint, before the session opens: the
        # turns are measured in a window that has started, as an operator's first request is
        await asyncio.to_thread(load_agent_stack, config)
        turns = await measure_turns(config, args.turns) if "turns" in only else []
        bulk = []
        if "bulk" in only:
            bulk = await measure_turns(config, args.bulk_turns, build_window_graph, "10000 entries")
        plots = {}
        if "plots" in only:
            plots = {
                r: await measure_turns(config, args.plot_turns, None, r) for r in plot_requests
            }
        actions = await measure_window_actions(config) if "actions" in only else {}
        return turns, bulk, plots, actions

    turns, bulk, plots, actions = run_on_qt_loop(run())
    settings_folder.cleanup()
    print(f"Heartbeat {HEARTBEAT_MS} ms on the qasync loop; target: no stall above 50 ms")
    if turns:
        summarize("Full turn (real graph, 'read the beam current')", turns)
    if bulk:
        summarize("Context update of 10,000 entries (tree branch expanded)", bulk)
    for request, results in plots.items():
        summarize(f"Plot turn (real graph, '{request}')", results)
    for title, stats in actions.items():
        extra = f", window width {stats['window_width']} px" if "window_width" in stats else ""
        print(
            f"{title}: longest stall {stats['max_stall_ms']:.1f} ms (most GUI-thread CPU between"
            f" two ticks {stats['max_gui_cpu_ms']:.1f} ms){extra}"
        )
    print(f"Every stall of {STALL_MS:.0f} ms or more ({len(STALLS)}):")
    print(
        "  (CPU in each: the GUI thread's, the other threads' of this process; the rest of the"
        " gap no thread of it ran: waiting for the CPU, or blocked)"
    )
    for scenario, gap, gui, process in STALLS:
        others = max(0.0, process - gui)
        print(f"  {gap:6.1f} ms  {scenario} (CPU: GUI thread {gui:.0f} ms, others {others:.0f} ms)")
    if SAMPLER is not None:
        SAMPLER.stop()
        SAMPLER.report(args.report_ms)
    if "paint" not in only:
        return 0
    paints = first_paint(args.paint_runs, args.sample, args.report_ms)

    def median(name: str) -> float:
        return statistics.median(p[name] for p in paints)

    print(
        f"Start-up ({len(paints)} runs, medians from process start): first painted window "
        f"{median('paint'):.0f} ms; usable input (a typed key shown in the chat) "
        f"{median('input'):.0f} ms; ready (session open, thread restored) "
        f"{median('ready'):.0f} ms; longest stall between paint and ready "
        f"{median('stall'):.0f} ms (worst {max(p['stall'] for p in paints):.0f} ms; most "
        f"GUI-thread CPU between two ticks {max(p['stall_gui'] for p in paints):.0f} ms); "
        f"request typed before ready ran after it: "
        f"{sum(int(p['queued_ran']) for p in paints)}/{len(paints)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
