"""Run the configured planner over one request the way a turn does, without executing it.

Task extraction, capability selection (goals plus their providers, respond and clarify) and
plan creation are the real functions the graph's nodes call; only execution is left out.
Shared by ``test_planner_table.py`` and ``bench/planner_accuracy.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from osprey_desktop.infrastructure.classification_node import select_capabilities
from osprey_desktop.planners.selection import get_planner
from osprey_desktop.registry import get_registry
from osprey_desktop.state import StateManager


async def plan_for(text: str) -> tuple[str, ...]:
    """The capability names of the plan the planner makes for ``text`` on a fresh thread."""
    state = dict(StateManager.create_fresh_state(text))
    planner = get_planner()
    extracted = await planner.extract_task(list(state["messages"]), state)
    state["task_current_task"] = extracted.task
    state["task_depends_on_chat_history"] = extracted.depends_on_chat_history
    capabilities = get_registry().get_all_capabilities()
    active = await select_capabilities(extracted.task, capabilities, state)
    by_name = {c.name: c for c in capabilities}
    plan = await planner.create_plan(extracted.task, [by_name[n] for n in active], state)
    return tuple(step["capability"] for step in plan.get("steps") or [])


@dataclass(frozen=True)
class Outcome:
    text: str
    kind: str
    expected: tuple[str, ...]
    planned: tuple[str, ...]

    @property
    def exact(self) -> bool:
        return self.planned == self.expected


async def evaluate(requests: Sequence) -> list[Outcome]:
    """The plan of every request next to the expected one."""
    return [Outcome(r.text, r.kind, r.plan, await plan_for(r.text)) for r in requests]


def exact_rate(outcomes: Sequence[Outcome]) -> float:
    return sum(o.exact for o in outcomes) / len(outcomes) if outcomes else 0.0
