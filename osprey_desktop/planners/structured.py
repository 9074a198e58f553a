"""The JSON shapes the chat model must answer in, and their conversion to planner results.

These pydantic models are sent as ``response_format`` json_schema (OpenAI strict mode), so they
keep to what strict mode accepts: every field required, no defaults, no free-form dicts. That is
why a step's ``inputs`` and ``parameters`` travel as lists of small records and become the
``[{context_type: context_key}]`` list and the parameter dict of ``PlannedStep`` only here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from osprey_desktop.base.planning import ExecutionPlan, PlannedStep, validate_execution_plan
from osprey_desktop.language.request import Intent, Quantity, Reference, Request, TimeSlot


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")


def _every_field_required(schema: dict[str, Any]) -> None:
    """Strict mode wants every property required (nullable ones too); a reply from a server
    that leaves out an optional part still validates, its default filling in."""
    schema["required"] = list(schema.get("properties") or {})


class QuantityReply(_Reply):
    kind: Literal["absolute", "relative", "percent", "comparative", "factor"] = Field(
        description="absolute: 'to 98 A'; relative: 'by 2 mm', '0.2 A higher'; percent: "
        "'by 2 %'; comparative: a direction without a number ('a touch lower'); factor: a "
        "scale of the channel copied from ('half the ID09 gap': 0.5, 'twice QF5': 2)."
    )
    value: float | None = Field(
        description="The number; relative and percent signed (negative for lower, down, "
        "narrower); null when the words give no number."
    )
    unit: str | None = Field(description="The unit as typed ('A', 'mm', 'kHz'), or null.")


class ReferenceReply(_Reply):
    kind: Literal["channel", "archive", "golden", "previous"] = Field(
        description="Where a value comes from: another channel ('match QD04'), the archive "
        "('back to where it was at 9:30'), a golden or nominal value, the previous value."
    )
    words: str = Field(description="The words naming it ('QD04', 'at 9:30', 'nominal').")


class RequestParseReply(_Reply):
    """The parse of the operator's latest request: the same structure the built-in planner
    plans from (``language.request``)."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_every_field_required)

    intent: Intent = Field(
        description="What is asked: a live value (read), a past one (history, plot, statistic, "
        "compare), a change (write, copy from a channel, restore from the archive, state such "
        "as open or off), an explanation (knowledge), conversation, or unknown when a word "
        "that should say what to do is not understood."
    )
    targets: list[str] = Field(
        description="One phrase per channel or device named, split at commas and 'and' "
        "('beam current', 'lifetime'); empty when none is named."
    )
    quantity: QuantityReply | None = Field(description="The value given, or null.")
    time: str | None = Field(description="The words naming a moment or a range, or null.")
    reference: ReferenceReply | None = Field(description="Where a value comes from, or null.")
    state: str | None = Field(description="A state asked for ('open', 'off'), or null.")
    unused_words: list[str] = Field(
        description="Words of the request that fit none of the above (to be asked about)."
    )


class TaskReply(_Reply):
    """Answer to task extraction (the spec's ExtractedTask fields) and the parse of the
    latest request."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_every_field_required)

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
    request: RequestParseReply | None = Field(
        default=None,
        description="The parse of the operator's latest request (with an earlier turn's "
        "targets or value filled in when it is a follow-up such as '0.55 then').",
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


def to_request(reply: RequestParseReply, text: str) -> Request:
    """The model's parse as the ``Request`` the built-in planner plans from."""
    quantity = reply.quantity
    reference = reply.reference
    return Request(
        text=text,
        intent=reply.intent,
        targets=tuple(t.strip() for t in reply.targets if t.strip()),
        quantity=Quantity(quantity.kind, quantity.value, quantity.unit, text)
        if quantity is not None
        else None,
        time=TimeSlot("words", reply.time, reply.time) if reply.time else None,
        reference=Reference(reference.kind, reference.words) if reference is not None else None,
        state=reply.state,
        unused=tuple(reply.unused_words),
        canonical=text,
    )


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
    "QuantityReply",
    "ReferenceReply",
    "RequestParseReply",
    "NextStepReply",
    "PlanReply",
    "StepInput",
    "StepParameter",
    "StepReply",
    "TaskReply",
    "describe_validation_error",
    "to_execution_plan",
    "to_planned_step",
    "to_request",
]
