"""Plans of the built-in planner on a fresh registry, for the planner's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from osprey_desktop.planners.builtin import BuiltinPlanner
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import get_registry, reset_registry


@pytest.fixture(autouse=True)
def fresh_framework(isolated_config) -> Iterator[None]:
    """A registry and a planner of their own (imported by a test module, used by every test)."""
    reset_registry()
    reset_planner()
    yield
    reset_registry()
    reset_planner()


async def plan(text: str) -> list[dict]:
    """The steps the built-in planner plans for ``text``."""
    capabilities = get_registry().get_all_capabilities()
    return (await BuiltinPlanner().create_plan(text, capabilities, {}))["steps"]


def names(steps: list[dict]) -> list[str]:
    return [s["capability"] for s in steps]
