"""The built-in planner over the table of operator requests: safety properties hold for every
request, and the exact-plan rate stays above the floor measured when the table was written."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import reset_registry
from tests.control_room.planner_eval import Outcome, evaluate, exact_rate
from tests.control_room.requests_table import CHANGE_KINDS, REQUESTS

# Measured: 165/167 exact (98.8 %); held-out entries 57/58 (22/24 of the first ones at their
# first run). The floor leaves room for a deliberate trade-off, not for a regression of more
# than a few.
EXACT_PLAN_FLOOR = 0.92

REQUIRED_KINDS = {
    "read",
    "history",
    "write",
    "write_missing",
    "read_then_write",
    "conversation",
    "unknown_channel",
    "no_change",
    "derived_write",
    "moment",
}


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    """Every request planned once (planning touches no connector, so one loop suffices)."""
    reset_registry()
    reset_planner()
    try:
        return asyncio.run(evaluate(REQUESTS))
    finally:
        reset_registry()
        reset_planner()


def test_the_table_covers_every_kind_of_request():
    kinds = Counter(r.kind for r in REQUESTS)
    assert len(REQUESTS) >= 60
    assert set(kinds) >= REQUIRED_KINDS, f"missing kinds: {REQUIRED_KINDS - set(kinds)}"
    tags = Counter(t for r in REQUESTS for t in r.tags)
    assert tags["multi"] >= 5 and tags["odd"] >= 5 and tags["units"] >= 4
    assert len({r.text for r in REQUESTS}) == len(REQUESTS), "a request is listed twice"


def test_expected_plans_follow_the_safety_rules_themselves():
    for request in REQUESTS:
        if request.kind not in CHANGE_KINDS:
            assert "channel_write" not in request.plan, request.text
        else:
            asks = request.plan[-1] == "clarify" and "channel_write" not in request.plan
            assert "channel_write" in request.plan or asks, request.text


def test_a_request_that_changes_nothing_never_plans_a_write(outcomes):
    quiet = [o for o in outcomes if o.kind not in CHANGE_KINDS]
    writes = [o.text for o in quiet if "channel_write" in o.planned]
    assert writes == []


def test_a_write_request_plans_the_write_or_asks_for_what_is_missing(outcomes):
    wrong = []
    for o in outcomes:
        if o.kind not in CHANGE_KINDS:
            continue
        plans_write = "channel_write" in o.planned and o.planned[-1] == "respond"
        finds_first = plans_write and o.planned.index("channel_finding") < o.planned.index(
            "channel_write"
        )
        asks = o.planned[-1] == "clarify" and "channel_write" not in o.planned
        if not (finds_first or asks):
            wrong.append((o.text, o.planned))
    assert wrong == []


def test_a_write_missing_its_value_or_target_is_asked_about_before_anything_changes(outcomes):
    for o in outcomes:
        if o.kind == "write_missing":
            assert o.planned[-1] == "clarify", o.text
            assert set(o.planned) <= {"channel_finding", "channel_read", "clarify"}, o.text


def test_exact_plan_rate_stays_above_the_measured_floor(outcomes):
    rate = exact_rate(outcomes)
    misses = [(o.text, o.planned) for o in outcomes if not o.exact]
    assert rate >= EXACT_PLAN_FLOOR, f"exact-plan rate {rate:.1%}; misses: {misses}"


def test_held_out_requests_plan_about_as_well_as_the_tuned_ones(outcomes):
    tags = {r.text: r.tags for r in REQUESTS}
    held_out = [o for o in outcomes if "held_out" in tags[o.text]]
    assert len(held_out) >= 20
    assert exact_rate(held_out) >= EXACT_PLAN_FLOOR - 0.05
