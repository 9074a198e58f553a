"""The JSON shapes the chat model must answer in, and their conversion to planner results.

These pydantic models are sent as ``response_format`` json_schema (OpenAI strict mode), so they
keep to what strict mode accepts: every field required, no defaults, no free-form dicts. That is
why a step's ``inputs`` and ``parameters`` travel as lists of small records and become the
``[{context_type: context_key}]`` list and the parameter dict of ``PlannedStep`` only here.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from osprey_desktop.base.planning import ExecutionPlan, PlannedStep, validate_execution_plan


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TaskReply(_Reply):
    """Answer to task extraction (the spec's ExtractedTask fields)."""

    task: str = Field(
        description="The user's latest request rewritten as one clear, self-contained, "
        "actionable task; resolve references to earlier turns."
    )
    depends_on_chat_history: bool = Field(
        description="True when the task needs information from earlier turns of the chat."
    )
    depends_on_user_memory: bool = Field(
        description="True when the task needs the user's saved preferences or memory."
    )


class CapabilitySelectionReply(_Reply):
    """Answer to capability selection: the names of the capabilities the task needs."""

    capabilities: list[str] = Field(
        description="Names of the capabilities needed for the task, exactly as listed."
    )
    reasoning: str = Field(description="One sentence on why these capabilities.")


class StepInput(_Reply):
    context_type: str = Field(description="Context type the step reads, e.g. CHANNEL_ADDRESSES.")
    context_key: str = Field(description="context_key of the earlier step or stored context.")


class StepParameter(_Reply):
    name: str
    value: str | int | float = Field(description="Parameter value (string or number).")


class StepReply(_Reply):
    """One step, in the wire form of ``PlannedStep``."""

    context_key: str = Field(
        description="Unique snake_case key under which this step stores its result."
    )
    capability: str = Field(description="Name of the capability that runs this step.")
    task_objective: str = Field(description="What this step must do, in one sentence.")
    success_criteria: str = Field(description="How to tell the step succeeded.")
    expected_output: str | None = Field(
        description="Context type the step produces (one of the capability's provides), "
        "or null when it produces none."
    )
    parameters: list[StepParameter] = Field(
        description="Extra parameters for the capability; empty when none."
    )
    inputs: list[StepInput] = Field(
        description="Contexts this step reads: stored contexts or outputs of earlier steps."
    )


class PlanReply(_Reply):
    """Answer to planning: the ordered steps."""

    steps: list[StepReply] = Field(description="The steps in execution order.")


class NextStepReply(_Reply):
    """Answer to reactive orchestration: the single next step."""

    step: StepReply = Field(
        description="The next step; use the respond capability when the task is complete."
    )


def to_planned_step(step: StepReply) -> PlannedStep:
    """The ``PlannedStep`` dict the router and the capabilities read."""
    return PlannedStep(
        context_key=step.context_key,
        capability=step.capability,
        task_objective=step.task_objective,
        success_criteria=step.success_criteria,
        expected_output=step.expected_output,
        parameters={p.name: p.value for p in step.parameters} or None,
        inputs=[{item.context_type: item.context_key} for item in step.inputs],
    )


def to_execution_plan(plan: PlanReply) -> ExecutionPlan:
    """Convert and check with the shared plan validator, so both planners agree on 'valid'."""
    return validate_execution_plan(ExecutionPlan(steps=[to_planned_step(s) for s in plan.steps]))


def describe_validation_error(error: ValidationError) -> str:
    """A one-line reason for the model and the operator, without pydantic's URLs."""
    parts = []
    for item in error.errors()[:5]:
        location = ".".join(str(part) for part in item.get("loc", ())) or "reply"
        if item.get("type") == "json_invalid":
            parts.append(f"the reply is not valid JSON ({item.get('msg', '')})")
        else:
            parts.append(f"{location}: {item.get('msg', 'invalid')}")
    more = len(error.errors()) - len(parts)
    if more > 0:
        parts.append(f"and {more} more problem(s)")
    return "; ".join(parts)


__all__ = [
    "CapabilitySelectionReply",
    "NextStepReply",
    "PlanReply",
    "StepInput",
    "StepParameter",
    "StepReply",
    "TaskReply",
    "describe_validation_error",
    "to_execution_plan",
    "to_planned_step",
]
