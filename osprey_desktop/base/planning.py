"""``ExecutionPlan`` and ``PlannedStep``: the framework's public names for the plan types.

The types live with the agent state that holds them (``osprey_desktop.state.planning``), one
floor below the capabilities; planners, the router and capabilities import them from here.
"""

from osprey_desktop.state.planning import (
    ExecutionPlan,
    PlannedStep,
    execution_plan_problems,
    validate_execution_plan,
)

__all__ = ["ExecutionPlan", "PlannedStep", "execution_plan_problems", "validate_execution_plan"]
