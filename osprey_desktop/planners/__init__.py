"""Planners: the decisions nodes delegate (task, capabilities, plan, next step, response)."""

from osprey_desktop.planners.base import ExtractedTask, Planner, PlannerError
from osprey_desktop.planners.selection import get_planner, reset_planner, set_planner

__all__ = [
    "ExtractedTask",
    "Planner",
    "PlannerError",
    "get_planner",
    "reset_planner",
    "set_planner",
]
