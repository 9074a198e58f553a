"""``capability_node`` and ``infrastructure_node``: classes in, LangGraph node functions out.

The decorated class gets ``langgraph_node``, an ``async def node(state) -> dict`` that runs
the class, records the outcome, emits progress events, and turns exceptions into state the
router understands (see ``infrastructure.failure_policy``). When the approval policy requires
it, the operator approves the step before the capability is instantiated
(``approval.step_gate``); a rejection ends the turn with nothing run. A capability that raises
``ClarificationRequired`` is not failing: its step is recorded as needing clarification and
the turn continues with a clarify step asking its question (``infrastructure.clarification``).
LangGraph's own control-flow exceptions (``GraphInterrupt`` for approvals, any
``GraphBubbleUp``) pass through untouched.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

from langgraph.errors import GraphBubbleUp

from osprey_desktop.approval.step_gate import (
    ask_before_step,
    rejected_step_updates,
    step_needs_approval,
)
from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.base.clarification import (
    CLARIFY,
    clarification_plan_updates,
    clarify_available,
)
from osprey_desktop.base.errors import (
    ClarificationRequired,
    ErrorClassification,
    ErrorSeverity,
    RetryPolicy,
)
from osprey_desktop.base.failure_policy import (
    classify,
    failure_updates,
    success_updates,
)
from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.events import (
    CapabilityComplete,
    CapabilityStart,
    ClarificationEvent,
    PhaseComplete,
    PhaseStart,
    emit,
)

logger = logging.getLogger(__name__)

C = TypeVar("C", bound=type)
NodeFunction = Callable[[dict[str, Any]], Any]


def current_step_for(
    state: Mapping[str, Any], capability: str
) -> tuple[dict[str, Any], int, int, bool]:
    """The plan step this capability runs now: ``(step, index, total, from_plan)``.

    When the plan's current step is not this capability (respond past the end of a plan, a
    direct call), a step is made up from the task so the capability still has an objective.
    """
    plan = state.get("planning_execution_plan") or {}
    steps = list(plan.get("steps") or []) if isinstance(plan, Mapping) else []
    index = int(state.get("planning_current_step_index") or 0)
    if 0 <= index < len(steps) and steps[index].get("capability") == capability:
        return dict(steps[index]), index, len(steps), True
    step = {
        "capability": capability,
        "context_key": capability,
        "task_objective": state.get("task_current_task") or "",
        "success_criteria": "",
        "expected_output": None,
        "parameters": None,
        "inputs": [],
    }
    return step, index, len(steps), False


def _policy(raw: Any) -> RetryPolicy:
    try:
        return RetryPolicy.from_dict(dict(raw or {}))
    except (TypeError, ValueError) as exc:
        logger.warning("ignoring invalid retry policy %r: %s", raw, exc)
        return RetryPolicy(max_attempts=1)


def _result_dict(result: Any, what: str) -> dict[str, Any]:
    if result is None:
        return {}
    if not isinstance(result, dict):
        raise TypeError(f"{what} returned {type(result).__name__}; execute() must return a dict")
    return result


async def _run_capability(cls: type[BaseCapability], state: dict[str, Any]) -> dict[str, Any]:
    name = cls.name
    step, index, total, from_plan = current_step_for(state, name)
    approval = None
    if step_needs_approval(cls, state, step):
        # Nothing before this point has side effects: the node re-runs from here on resume.
        approval = ask_before_step(state, step, index, total)
        if not approval.approved:
            return rejected_step_updates(state, name, approval)
    context_key = str(step.get("context_key") or name)
    objective = str(step.get("task_objective") or "")
    emit(
        CapabilityStart(
            capability=name,
            step_index=index,
            total_steps=total,
            context_key=context_key,
            task_objective=objective,
        )
    )
    started = time.monotonic()
    instance = cls(state, step)
    instance._approval_decision = approval
    try:
        updates = dict(_result_dict(await instance.execute(), f"capability {name!r}"))
    except GraphBubbleUp:
        raise
    except Exception as exc:
        duration = time.monotonic() - started
        if isinstance(exc, ClarificationRequired) and name != CLARIFY and clarify_available():
            return _clarification(instance, exc, step, index, total, from_plan, duration)
        context = {"capability": name, "node": name, "step": step, "state": state}
        classification = classify(instance.classify_error, exc, context)
        logger.warning(
            "capability %s failed (%s): %s",
            name,
            classification.severity.value,
            exc,
            exc_info=classification.severity is not ErrorSeverity.RETRIABLE,
        )
        policy = _policy(_safe_retry_policy(instance))
        updates = failure_updates(
            state,
            name,
            classification,
            exc,
            policy,
            is_capability=True,
            step=step,
            step_index=index,
        )
        record = _step_record(name, step, index, False, duration, classification.user_message)
        record["severity"] = classification.severity.value
        updates.update(_record_updates(state, context_key, record))
        return _complete(instance, updates, index, total, context_key, objective, duration, record)

    duration = time.monotonic() - started
    record = _step_record(name, step, index, True, duration, None)
    updates.update(_record_updates(state, context_key, record, extra=updates))
    updates.update(success_updates(state, name))
    updates.setdefault("control_current_step_retry_count", 0)
    if from_plan:
        updates["planning_current_step_index"] = index + 1
    return _complete(instance, updates, index, total, context_key, objective, duration, record)


def _complete(
    instance: BaseCapability,
    updates: dict[str, Any],
    index: int,
    total: int,
    context_key: str,
    objective: str,
    duration: float,
    record: Mapping[str, Any],
) -> dict[str, Any]:
    """Shared tail of a finished step (success or failure): add the operator's approval
    decision to the state updates and tell the progress stream how the step ended."""
    if instance._approval_decision is not None:
        updates.update(instance._approval_decision.state_update(instance._state))
    emit(
        CapabilityComplete(
            capability=instance.name,
            step_index=index,
            total_steps=total,
            context_key=context_key,
            task_objective=objective,
            success=bool(record["success"]),
            duration=duration,
            error=record["error"],
        )
    )
    return updates


def _clarification(
    instance: BaseCapability,
    request: ClarificationRequired,
    step: dict[str, Any],
    index: int,
    total: int,
    from_plan: bool,
    duration: float,
) -> dict[str, Any]:
    """The step needs the operator's answer: record it, clear any pending error of this
    capability (no retry), and make a clarify step asking the capability's question next."""
    name, state = instance.name, instance._state
    context_key = str(step.get("context_key") or name)
    logger.info("capability %s asks the operator: %s", name, request.question)
    record = _step_record(name, step, index, False, duration, None)
    record.update(needs_clarification=True, **request.to_dict())
    updates: dict[str, Any] = {
        **_record_updates(state, context_key, record),
        **success_updates(state, name),
        **clarification_plan_updates(state, request, name, step, index, from_plan),
    }
    updates.setdefault("control_current_step_retry_count", 0)
    if instance._approval_decision is not None:
        updates.update(instance._approval_decision.state_update(state))
    emit(
        ClarificationEvent(
            capability=name,
            step_index=index,
            total_steps=total,
            context_key=context_key,
            task_objective=str(step.get("task_objective") or ""),
            question=request.question,
            suggestions=list(request.suggestions),
            duration=duration,
        )
    )
    return updates


def _safe_retry_policy(instance: BaseCapability) -> Any:
    try:
        return instance.get_retry_policy()
    except Exception as exc:  # noqa: BLE001 - a broken policy means "do not retry"
        logger.warning("%s.get_retry_policy failed: %s", instance.name, exc)
        return {"max_attempts": 1}


def _step_record(
    name: str,
    step: Mapping[str, Any],
    index: int,
    success: bool,
    duration: float,
    error: str | None,
) -> dict[str, Any]:
    return {
        "capability": name,
        "success": success,
        "duration": round(duration, 6),
        "error": error,
        "step_index": index,
        "context_key": step.get("context_key"),
        "task_objective": step.get("task_objective"),
        "expected_output": step.get("expected_output"),
        "timestamp": time.time(),
    }


def _record_updates(
    state: Mapping[str, Any],
    context_key: str,
    record: dict[str, Any],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    # execution_step_results has no reducer: merge by hand, keeping what the step returned.
    results = dict(state.get("execution_step_results") or {})
    if extra and isinstance(extra.get("execution_step_results"), Mapping):
        results.update(extra["execution_step_results"])
    results[context_key] = record
    return {"execution_step_results": results, "execution_last_result": record}


def capability_node(cls: C) -> C:
    """Turn a ``BaseCapability`` subclass into a graph node (``cls.langgraph_node``)."""
    if not isinstance(cls, type) or not issubclass(cls, BaseCapability):
        raise TypeError(f"@capability_node needs a BaseCapability subclass, got {cls!r}")
    if not cls.name:
        raise ValueError(f"@capability_node: {cls.__qualname__} has no name")

    async def node(state: dict[str, Any]) -> dict[str, Any]:
        return await _run_capability(cls, state)

    node.__name__ = f"{cls.name}_node"
    node.__qualname__ = node.__name__
    node.__doc__ = cls.description
    cls.langgraph_node = staticmethod(node)  # type: ignore[attr-defined]
    cls.is_capability_node = True  # type: ignore[attr-defined]
    return cls


def _make_infrastructure_node(cls: type[BaseInfrastructureNode], quiet: bool) -> NodeFunction:
    name = cls.name

    async def node(state: dict[str, Any]) -> dict[str, Any]:
        if not quiet:
            emit(PhaseStart(phase=name, message=cls.description))
        started = time.monotonic()
        try:
            updates = dict(_result_dict(await cls.execute(state), f"node {name!r}"))
        except GraphBubbleUp:
            raise
        except Exception as exc:
            duration = time.monotonic() - started
            classification: ErrorClassification = classify(
                cls.classify_error, exc, {"node": name, "state": state}
            )
            logger.warning(
                "node %s failed (%s): %s", name, classification.severity.value, exc, exc_info=True
            )
            policy = _policy(cls.get_retry_policy(state))
            updates = failure_updates(state, name, classification, exc, policy, is_capability=False)
            if not quiet:
                emit(
                    PhaseComplete(
                        phase=name,
                        message=classification.user_message,
                        duration=duration,
                        success=False,
                    )
                )
            return updates
        for key, value in success_updates(state, name).items():
            updates.setdefault(key, value)
        if not quiet:
            emit(
                PhaseComplete(
                    phase=name,
                    message=f"{cls.description} done",
                    duration=time.monotonic() - started,
                )
            )
        return updates

    node.__name__ = f"{name}_node"
    node.__qualname__ = node.__name__
    node.__doc__ = cls.description
    return node


@overload
def infrastructure_node(cls: C) -> C: ...
@overload
def infrastructure_node(*, quiet: bool = False) -> Callable[[C], C]: ...


def infrastructure_node(cls: Any = None, *, quiet: bool = False) -> Any:
    """Turn a ``BaseInfrastructureNode`` subclass into a graph node (``cls.langgraph_node``).

    Usable bare (``@infrastructure_node``) or with options (``@infrastructure_node(quiet=True)``
    for the router, which runs between every step and would flood the progress stream).
    """

    def wrap(klass: C) -> C:
        if not isinstance(klass, type) or not issubclass(klass, BaseInfrastructureNode):
            raise TypeError(
                f"@infrastructure_node needs a BaseInfrastructureNode subclass, got {klass!r}"
            )
        if not klass.name:
            raise ValueError(f"@infrastructure_node: {klass.__qualname__} has no name")
        klass.langgraph_node = staticmethod(_make_infrastructure_node(klass, quiet))  # type: ignore[attr-defined]
        return klass

    if cls is not None:
        return wrap(cls)
    return wrap


__all__ = ["capability_node", "current_step_for", "infrastructure_node"]
