"""The collector's passes between turns: what a step made is frozen, cycles wait for a quiet
moment and are collected then."""

from __future__ import annotations

import gc
import weakref

import pytest

from osprey_desktop.ui import collector as collector_module
from osprey_desktop.ui.collector import TurnCollector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def make_cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def unfrozen():
    """Leave the process's collector as it was found."""
    yield
    gc.unfreeze()
    gc.collect()


def test_a_steps_objects_leave_the_young_generations(unfrozen):
    collector = TurnCollector()
    kept = [[float(i)] for i in range(1000)]  # containers a step made
    frozen_before = gc.get_freeze_count()

    collector.step_reported()

    assert gc.get_freeze_count() >= frozen_before + len(kept)
    assert gc.get_count()[0] == 0


def test_a_frozen_cycle_waits_for_the_idle_collection(unfrozen):
    collector = TurnCollector()
    cycle = make_cycle()
    collector.step_reported()  # the cycle is frozen while still referenced... then dropped
    gc.collect()
    assert cycle() is not None  # frozen: no pass looks at it

    collector.idle()  # no turn ran since the last collection: nothing to do
    assert cycle() is not None and collector.collections == 0

    collector.turn_ended()
    collector.idle()

    assert cycle() is None
    assert collector.collections == 1 and collector.turns_since_collect == 0
    assert collector.last_pause_ms >= 0.0


def test_a_shift_without_a_pause_collects_every_so_many_turns(unfrozen, monkeypatch):
    monkeypatch.setattr(collector_module, "MAX_TURNS_WITHOUT_COLLECT", 3)
    collector = TurnCollector()
    cycle = make_cycle()
    collector.step_reported()

    assert [collector.turn_ended() for _ in range(3)] == [False, False, True]
    assert cycle() is None and collector.collections == 1
