"""``BaseInfrastructureNode``: the framework's own graph nodes (router, classifier, ...).

Unlike capabilities they are stateless: ``execute(state)`` is a static coroutine that returns
state updates. The ``infrastructure_node`` decorator adds events, error classification and
bounded retries.
"""

from __future__ import annotations

from typing import Any, ClassVar

from osprey_desktop.base.errors import (
    ErrorClassification,
    RetryPolicy,
    default_error_classification,
)


class BaseInfrastructureNode:
    """Base class of the infrastructure nodes; subclasses set ``name`` and ``execute``."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError("infrastructure nodes implement execute(state)")

    @classmethod
    def classify_error(cls, exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        """Default: timeouts and connection errors retry, anything else is critical."""
        return default_error_classification(exc, f"the {cls.name or cls.__name__} step")

    @classmethod
    def get_retry_policy(cls, state: dict[str, Any] | None = None) -> dict[str, Any]:
        from osprey_desktop.state.control_settings import get_limit

        retries = int(get_limit(state, "max_step_retries"))
        delay = float(get_limit(state, "retry_backoff_seconds"))
        return RetryPolicy(max_attempts=retries + 1, delay_seconds=delay).to_dict()


__all__ = ["BaseInfrastructureNode"]
