"""What a failed node leaves in the state, so the router knows where to go next.

Shared by both decorators. Every path is bounded: retriable failures by the retry policy,
replanning by ``max_planning_attempts``, reclassification by ``max_reclassifications``; past
a bound the failure becomes an error for the error node. Nothing here sleeps: the router node
waits ``retry_delay`` before routing back, so the failure is checkpointed first.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from osprey_desktop.base.errors import ErrorClassification, ErrorSeverity, RetryPolicy
from osprey_desktop.state.control_settings import get_limit


def classify(classifier: Any, exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
    """Ask the node's ``classify_error``; a classifier that itself fails means CRITICAL."""
    try:
        result = classifier(exc, context)
    except Exception as inner:  # noqa: BLE001 - the classifier must never hide the real error
        return ErrorClassification(
            severity=ErrorSeverity.CRITICAL,
            user_message=f"{context.get('node')} failed: {exc}",
            technical_details=f"{type(exc).__name__}: {exc}; classify_error raised {inner!r}",
        )
    if not isinstance(result, ErrorClassification):
        return ErrorClassification(
            severity=ErrorSeverity.CRITICAL,
            user_message=f"{context.get('node')} failed: {exc}",
            technical_details=f"{type(exc).__name__}: {exc}",
        )
    return result


def previous_failures(state: Mapping[str, Any], node: str) -> int:
    """How often ``node`` has already failed in a row (0 unless the pending error is its own)."""
    info = state.get("control_error_info") or {}
    if state.get("control_has_error") and info.get("node") == node:
        return int(state.get("control_current_step_retry_count") or 0)
    return 0


def failure_updates(
    state: Mapping[str, Any],
    node: str,
    classification: ErrorClassification,
    exc: BaseException,
    policy: RetryPolicy,
    *,
    is_capability: bool,
    step: Mapping[str, Any] | None = None,
    step_index: int | None = None,
) -> dict[str, Any]:
    """State updates after ``node`` raised ``exc`` classified as ``classification``."""
    severity = classification.severity
    failures = previous_failures(state, node) + 1
    info: dict[str, Any] = {
        "node": node,
        "capability_name": node if is_capability else None,
        "severity": severity.value,
        "user_message": classification.user_message,
        "error_type": type(exc).__name__,
        "technical_details": classification.technical_details or f"{type(exc).__name__}: {exc}",
        "metadata": dict(classification.metadata),
        "step_index": step_index,
        "context_key": (step or {}).get("context_key"),
        "task_objective": (step or {}).get("task_objective"),
        "attempt": failures,
        "max_attempts": policy.max_attempts,
        "can_retry": False,
        "retry_delay": 0.0,
        "timestamp": time.time(),
    }
    total_retries = int(state.get("control_retry_count") or 0)
    updates: dict[str, Any] = {"control_last_error": info}

    if severity is ErrorSeverity.RETRIABLE:
        if failures < policy.max_attempts:
            info["can_retry"] = True
            info["retry_delay"] = policy.delay_before_retry(failures)
            updates.update(
                control_has_error=True,
                control_error_info=info,
                control_current_step_retry_count=failures,
                control_retry_count=total_retries + 1,
            )
            return updates
        info["user_message"] = (
            f"{classification.user_message} (gave up after {failures} attempt"
            f"{'s' if failures != 1 else ''})"
        )

    elif severity is ErrorSeverity.REPLANNING:
        attempts = int(state.get("control_plans_created_count") or 0)
        limit = int(get_limit(state, "max_planning_attempts"))
        if attempts < limit:
            updates.update(
                planning_execution_plan=None,
                planning_current_step_index=0,
                control_has_error=False,
                control_error_info=None,
                control_current_step_retry_count=0,
            )
            return updates
        info["user_message"] = (
            f"{classification.user_message} (no workable plan after {attempts} "
            f"planning attempt{'s' if attempts != 1 else ''})"
        )

    elif severity is ErrorSeverity.RECLASSIFICATION:
        count = int(state.get("control_reclassification_count") or 0)
        limit = int(get_limit(state, "max_reclassifications"))
        if count < limit:
            updates.update(
                planning_active_capabilities=[],
                planning_execution_plan=None,
                planning_current_step_index=0,
                control_reclassification_count=count + 1,
                control_reclassification_reason=classification.user_message,
                control_has_error=False,
                control_error_info=None,
                control_current_step_retry_count=0,
            )
            return updates
        info["user_message"] = (
            f"{classification.user_message} (still failing after {count} "
            f"reclassification{'s' if count != 1 else ''})"
        )

    updates.update(
        control_has_error=True,
        control_error_info=info,
        control_current_step_retry_count=failures,
    )
    return updates


def success_updates(state: Mapping[str, Any], node: str) -> dict[str, Any]:
    """Clear the pending error when ``node`` succeeds on a retry."""
    info = state.get("control_error_info") or {}
    if state.get("control_has_error") and info.get("node") == node:
        return {
            "control_has_error": False,
            "control_error_info": None,
            "control_current_step_retry_count": 0,
        }
    return {}


__all__ = ["classify", "failure_updates", "previous_failures", "success_updates"]
