"""Live step states of the current plan, driven by progress events (no Qt here).

Kept apart from the dock so the event logic is tested without widgets. A plan-first turn
announces its plan (``plan_created``) before the steps run; a reactive turn announces steps
one by one (``capability_start``), and the tracker appends them as they come.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PENDING, RUNNING, DONE, FAILED, SKIPPED = "pending", "running", "done", "failed", "skipped"
AWAITING = "awaiting approval"
NEEDS_INPUT = "needs input"  # the step asked the operator a question (not a failure)


@dataclass
class StepProgress:
    """One plan step as the viewer shows it."""

    capability: str
    task_objective: str = ""
    context_key: str = ""
    expected_output: str = ""
    inputs: list[dict[str, str]] = field(default_factory=list)
    state: str = PENDING
    started: float | None = None  # time.monotonic() when it started running
    duration: float | None = None  # seconds, once finished
    error: str | None = None

    def elapsed(self, now: float | None = None) -> float | None:
        if self.duration is not None:
            return self.duration
        if self.started is not None and self.state in (RUNNING, AWAITING):
            return (now if now is not None else time.monotonic()) - self.started
        return None

    @property
    def output_text(self) -> str:
        if self.expected_output and self.context_key:
            return f"{self.expected_output}: {self.context_key}"
        return self.context_key or self.expected_output or "—"

    @property
    def inputs_text(self) -> str:
        return ", ".join(f"{t}: {k}" for item in self.inputs for t, k in item.items()) or "—"


def step_from_dict(step: Mapping[str, Any]) -> StepProgress:
    inputs = step.get("inputs") or []
    return StepProgress(
        capability=str(step.get("capability", "?")),
        task_objective=str(step.get("task_objective") or ""),
        context_key=str(step.get("context_key") or ""),
        expected_output=str(step.get("expected_output") or ""),
        inputs=[
            {str(k): str(v) for k, v in item.items()} for item in inputs if isinstance(item, dict)
        ],
    )


def _apply_record(step: StepProgress, record: Mapping[str, Any]) -> None:
    """Set a step's state from its ``execution_step_results`` record."""
    if record.get("needs_clarification"):
        step.state, step.error = NEEDS_INPUT, str(record.get("question") or "") or None
    elif record.get("success"):
        step.state, step.error = DONE, None
    else:
        step.state, step.error = FAILED, str(record.get("error") or "failed")
    duration = record.get("duration")
    step.duration = float(duration) if isinstance(duration, int | float) else None


def _end_step(step: StepProgress, state: str, event: Mapping[str, Any], error: Any) -> None:
    """A step stopped running: its state, the event's duration (else measured), its error."""
    step.state = state
    step.duration = event.get("duration")
    if step.duration is None and step.started is not None:
        step.duration = time.monotonic() - step.started
    step.error = error or None


class PlanProgress:
    """The steps of the plan in view and their states; ``apply`` returns changed rows."""

    def __init__(self) -> None:
        self.steps: list[StepProgress] = []

    def set_plan(self, plan: Mapping[str, Any] | None) -> None:
        steps = (plan or {}).get("steps") or []
        self.steps = [step_from_dict(s) for s in steps if isinstance(s, Mapping)]

    def restore(self, values: Mapping[str, Any], awaiting_approval: bool = False) -> None:
        """Rebuild the view of a thread read back from the checkpoint (restart, switch).

        No events replay then, so step states come from ``execution_step_results`` (keyed by
        context key). Results of steps outside the current plan (earlier reactive steps, a
        plan replaced after a failure) come first, in the order they ran. With an approval
        pending, the current step waits for it and later steps are pending; without one the
        turn is over and steps that never ran were skipped.
        """
        self.set_plan(values.get("planning_execution_plan"))
        results = values.get("execution_step_results") or {}
        records = (
            [r for r in results.values() if isinstance(r, Mapping)]
            if isinstance(results, Mapping)
            else []
        )
        planned = {s.context_key for s in self.steps if s.context_key}
        earlier = sorted(
            (r for r in records if str(r.get("context_key") or "") not in planned),
            key=lambda r: float(r.get("timestamp") or 0),
        )
        offset = len(earlier)
        self.steps = [step_from_dict(r) for r in earlier] + self.steps
        by_key = {str(r.get("context_key")): r for r in records if r.get("context_key")}
        for step in self.steps:
            record = by_key.get(step.context_key)
            if record is not None:
                _apply_record(step, record)
        unfinished = [i for i, s in enumerate(self.steps) if s.state == PENDING]
        if not awaiting_approval:
            for i in unfinished:
                self.steps[i].state = SKIPPED
            return
        current = offset + int(values.get("planning_current_step_index") or 0)
        waiting = current if current in unfinished else (unfinished[0] if unfinished else None)
        if waiting is not None:
            self.steps[waiting].state = AWAITING

    def await_step(self, step: Mapping[str, Any]) -> None:
        """Mark a not-yet-run step as awaiting approval, appending it unless it is the last."""
        key = str(step.get("context_key") or "")
        if not self.steps or not key or self.steps[-1].context_key != key:
            self.steps.append(step_from_dict(step))
        self.steps[-1].state = AWAITING

    def _index_for(self, event: Mapping[str, Any]) -> int:
        """The row an event is about: by ``step_index``, else by ``context_key``; appends."""
        index = event.get("step_index")
        key = event.get("context_key")
        if isinstance(index, int) and 0 <= index < len(self.steps):
            step = self.steps[index]
            if not key or not step.context_key or step.context_key == key:
                return index
        for i, step in enumerate(self.steps):
            if key and step.context_key == key:
                return i
        self.steps.append(step_from_dict(event))
        return len(self.steps) - 1

    def apply(self, event: Mapping[str, Any]) -> list[int] | None:
        """Update from one progress event. None means the whole plan changed."""
        kind = event.get("type")
        if kind == "plan_created":
            self.set_plan(event.get("plan"))
            return None
        if kind == "capability_start":
            before = len(self.steps)
            i = self._index_for(event)
            step = self.steps[i]
            step.state, step.started, step.duration, step.error = (
                RUNNING,
                time.monotonic(),
                None,
                None,
            )
            return None if len(self.steps) != before else [i]
        if kind == "capability_complete":
            before = len(self.steps)
            i = self._index_for(event)
            state = DONE if event.get("success", True) else FAILED
            _end_step(self.steps[i], state, event, event.get("error"))
            return None if len(self.steps) != before else [i]
        if kind == "clarification":
            before = len(self.steps)
            i = self._index_for(event)
            _end_step(self.steps[i], NEEDS_INPUT, event, event.get("question"))
            return None if len(self.steps) != before else [i]
        if kind == "approval_required":
            waiting = [i for i, s in enumerate(self.steps) if s.state == RUNNING]
            for i in waiting:
                self.steps[i].state = AWAITING
            return waiting
        if kind == "error":
            changed = []
            for i, step in enumerate(self.steps):
                if step.state == RUNNING:
                    step.state, step.error = FAILED, str(event.get("message") or "error")
                    step.duration = step.elapsed()
                    changed.append(i)
            return changed
        return []

    def finish(self) -> list[int]:
        """The turn ended (done, failed, stopped): running steps failed, pending ones skipped."""
        changed = []
        for i, step in enumerate(self.steps):
            if step.state in (RUNNING, AWAITING):
                step.state, step.duration = FAILED, step.elapsed()
                step.error = step.error or "stopped before it finished"
                changed.append(i)
            elif step.state == PENDING:
                step.state = SKIPPED
                changed.append(i)
        return changed

    def any_running(self) -> bool:
        return any(s.state == RUNNING for s in self.steps)
