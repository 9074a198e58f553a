"""What the window imports before its first paint: only Qt, the configuration and the widgets.

The agent stack, numpy, the logbook's Olog client and the audit log load after the first paint
(in a worker thread, or when a dock first reads). Each of them put back in front of the paint
costs the operator 0.1-0.5 s of a blank screen (bench/ui_latency.py); this test names the one
that came back.
"""

from __future__ import annotations

import subprocess
import sys

# Loaded after the first paint; each was measured in front of it at some point.
LATER = (
    "numpy",
    "httpx",
    "pyqtgraph",
    "langgraph",
    "langchain_core",
    "aiosqlite",
    "osprey_desktop.logbook.olog",
    "osprey_desktop.logbook.history",
    "osprey_desktop.safety.audit",
    "osprey_desktop.connectors.base",
    "osprey_desktop.investigate",
    "osprey_desktop.session",
)

PROBE = f"""
import sys
from osprey_desktop.config import get_config
get_config()
import osprey_desktop.ui.app, osprey_desktop.ui.controller, osprey_desktop.ui.main_window
print(",".join(m for m in {LATER!r} if m in sys.modules))
"""


def test_the_window_imports_nothing_heavy_before_its_first_paint() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    loaded = [m for m in done.stdout.strip().split(",") if m]
    assert loaded == [], f"imported before the first paint: {loaded}"


COLLECTIONS_PROBE = """
import gc, threading
from osprey_desktop.config import get_config
from osprey_desktop.ui.app import load_agent_stack
config = get_config()
passes = []

def record(phase, info):
    if phase == "start":
        passes.append((threading.current_thread().name, info["generation"]))

gc.callbacks.append(record)
loader = threading.Thread(target=load_agent_stack, args=(config,), name="loader")
loader.start()
loader.join()
gc.callbacks.remove(record)
full = [generation for name, generation in passes if name == "loader" and generation == 2]
print(len(full), gc.isenabled(), gc.get_freeze_count() > 0)
"""


def test_loading_the_agent_stack_runs_no_full_collection_and_leaves_the_collector_on() -> None:
    """Each full pass of the collector in the loading thread held the GIL, and so the
    window, 90-190 ms between its first paint and ready."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECTIONS_PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    full_passes, enabled, frozen = done.stdout.split()
    assert full_passes == "0", f"{full_passes} full collections while the agent stack loaded"
    assert enabled == "True"  # paused only while it loads
    assert frozen == "True"  # what it loaded stays out of the collector's later passes
