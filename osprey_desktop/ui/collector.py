"""When Python's cyclic garbage collector may pause the window: between turns, not inside them.

A turn makes large containers (a day of 72 BPMs is about a million list items, copied by the
state's reducers, the checkpoint and the answer). While they are young, every pass of the
collector's young generations walks them: passes of 20-47 ms landed in the middle of a plot
being built (``bench/ui_latency.py --only plots --sample``). What a graph step has made is
therefore frozen when the step reports (``gc.freeze`` only moves the generations' lists:
constant time), so later passes of the turn walk only what is new since.

Frozen objects are still freed by reference counting, which frees nearly everything; only
reference cycles among them wait (a few hundred small objects per turn, measured). They
are collected once the window has been idle for ``IDLE_COLLECT_S`` or, on a shift with no
pause, after ``MAX_TURNS_WITHOUT_COLLECT`` turns at the end of one: one full pass, a few
hundred milliseconds, at a moment the operator is not waiting for an answer.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

IDLE_COLLECT_S = 300.0
MAX_TURNS_WITHOUT_COLLECT = 100


class TurnCollector:
    """Freezes what each step made; collects the cycles among it at quiet moments."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.turns_since_collect = 0
        self.collections = 0
        self.last_pause_ms = 0.0

    def step_reported(self) -> None:
        """A step's update arrived: what it made leaves the young generations."""
        gc.freeze()

    def turn_ended(self) -> bool:
        """After a turn: True when the collection was due and ran now (no pause for long)."""
        gc.freeze()
        self.turns_since_collect += 1
        if self.turns_since_collect >= MAX_TURNS_WITHOUT_COLLECT:
            self.collect()
            return True
        return False

    def idle(self) -> None:
        """The window has been idle for ``IDLE_COLLECT_S``: collect if any turn ran since."""
        if self.turns_since_collect:
            self.collect()

    def collect(self) -> int:
        """One full pass over everything, then everything alive frozen again."""
        started = self._clock()
        gc.unfreeze()
        try:
            found = gc.collect()
        finally:
            gc.freeze()
        self.last_pause_ms = (self._clock() - started) * 1000
        self.turns_since_collect = 0
        self.collections += 1
        log.info("garbage collection: %d objects in %.0f ms", found, self.last_pause_ms)
        return found
