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
