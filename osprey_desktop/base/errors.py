"""Error classification: how a failure of a node or capability changes the flow of a turn.

The decorators ask a node to classify each exception it raises; the severity decides whether
the router retries the same node, asks for a new plan, reclassifies, or ends in the error node.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ErrorSeverity(StrEnum):
    """What the framework does next after a failure (values are stored in the state)."""

    CRITICAL = "critical"  # stop the turn and report through the error node
    RETRIABLE = "retriable"  # run the same node again after a backoff, up to the retry limit
    REPLANNING = "replanning"  # drop the plan so the orchestrator builds a new one
    RECLASSIFICATION = "reclassification"  # drop the selected capabilities and classify again
    FATAL = "fatal"  # stop immediately; never re-evaluated, not even in react mode


@dataclass
class ErrorClassification:
    """A node's verdict on one exception: severity plus words for the operator and the log."""

    severity: ErrorSeverity
    user_message: str
    technical_details: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for ``control_error_info``."""
        return {
            "severity": self.severity.value,
            "user_message": self.user_message,
            "technical_details": self.technical_details,
            "metadata": dict(self.metadata),
        }


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a retriable failure is retried.

    ``max_attempts`` counts the first run: 3 means one run plus two retries. The wait before
    retry ``n`` (1-based) is ``delay_seconds * backoff_factor ** (n - 1)``.
    """

    max_attempts: int = 3
    delay_seconds: float = 0.2
    backoff_factor: float = 2.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(
                f"RetryPolicy.max_attempts must be at least 1, got {self.max_attempts}"
            )
        if self.delay_seconds < 0 or self.backoff_factor < 1:
            raise ValueError(
                "RetryPolicy needs delay_seconds >= 0 and backoff_factor >= 1, got "
                f"{self.delay_seconds} and {self.backoff_factor}"
            )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RetryPolicy:
        """Build from the dict that ``get_retry_policy()`` returns (missing keys keep defaults)."""
        known = {
            k: data[k] for k in ("max_attempts", "delay_seconds", "backoff_factor") if k in data
        }
        return cls(**known)

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_attempts": self.max_attempts,
            "delay_seconds": self.delay_seconds,
            "backoff_factor": self.backoff_factor,
        }

    def delay_before_retry(self, retry_number: int) -> float:
        """Seconds to wait before the given retry (1 for the first retry)."""
        return self.delay_seconds * self.backoff_factor ** max(retry_number - 1, 0)


class ClarificationRequired(Exception):
    """A capability cannot act without the operator's answer; raise it from ``execute``.

    Not a failure: ``capability_node`` records the step as needing clarification (no retry,
    no error node) and ends the turn with a ``clarify`` step that asks ``question`` word for
    word, followed by ``suggestions`` (unambiguous things the operator could say instead).
    A plain exception, not a ``ValueError``, so a capability's own ``except ValueError``
    never swallows it.
    """

    def __init__(self, question: str, suggestions: Sequence[str] = ()) -> None:
        if not isinstance(question, str) or not question.strip():
            raise ValueError(
                f"ClarificationRequired needs the question to ask the operator, got {question!r}"
            )
        if isinstance(suggestions, str):
            suggestions = [suggestions]
        self.question = question.strip()
        cleaned = (str(s).strip() for s in suggestions)
        self.suggestions = list(dict.fromkeys(s for s in cleaned if s))
        super().__init__(self.question)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form, stored in the clarify step's parameters."""
        return {"question": self.question, "suggestions": list(self.suggestions)}


_TRANSIENT_TYPES: tuple[type[BaseException], ...] = (
    TimeoutError,
    asyncio.TimeoutError,
    ConnectionError,
)


def is_transient_error(exc: BaseException) -> bool:
    """Timeouts and dropped connections usually succeed on a second try."""
    if isinstance(exc, _TRANSIENT_TYPES):
        return True
    # httpx and similar libraries name their transport failures this way without
    # subclassing the builtins; matching by name keeps the core free of those imports.
    names = {klass.__name__ for klass in type(exc).__mro__}
    return bool(names & {"TimeoutException", "ConnectError", "NetworkError", "ReadTimeout"})


def default_error_classification(exc: BaseException, what: str) -> ErrorClassification:
    """The framework default: transient failures are retriable, anything else is critical.

    An exception that knows what the operator should do next carries it as a ``suggestion``
    string attribute; it goes into the metadata, where the error report takes it instead of
    the generic advice for the severity.
    """
    detail = f"{type(exc).__name__}: {exc}"
    suggestion = getattr(exc, "suggestion", None)
    metadata = {"suggestion": suggestion} if isinstance(suggestion, str) and suggestion else {}
    if is_transient_error(exc):
        return ErrorClassification(
            severity=ErrorSeverity.RETRIABLE,
            user_message=f"{what} hit a timeout or connection problem ({detail})",
            technical_details=detail,
            metadata=metadata,
        )
    return ErrorClassification(
        severity=ErrorSeverity.CRITICAL,
        user_message=f"{what} failed: {exc}" if str(exc) else f"{what} failed with {detail}",
        technical_details=detail,
        metadata=metadata,
    )


class MissingAfterLookups(str):
    """A ``missing_information`` answer saying the lookups come first: the request names its
    target but lacks something else (a value to write), so the plan finds (and may read) the
    target, then asks; it never reaches the step that changes anything."""

    after_lookups = True
    #: The request's target was found; only something else is missing (a value, a number
    #: where a state was said): it asks for a change, and the question is about the value.
    target_known = False


class MissingBeforeStep(MissingAfterLookups):
    """A ``MissingAfterLookups`` whose lookups stop before the step of ``stops_before`` (a
    capability's name): "lifetime between 9 and 11" finds the lifetime, then asks which 9
    o'clock, before any range is worked out or any archive is read."""

    stops_before: str = ""

    def __new__(cls, text: str, stops_before: str = "") -> MissingBeforeStep:
        made = super().__new__(cls, text)
        made.stops_before = stops_before
        return made


class MissingValue(MissingAfterLookups):
    """A ``MissingAfterLookups`` whose target exists: only the value is missing or unfit."""

    target_known = True


__all__ = [
    "ClarificationRequired",
    "ErrorClassification",
    "ErrorSeverity",
    "MissingAfterLookups",
    "MissingBeforeStep",
    "MissingValue",
    "RetryPolicy",
    "default_error_classification",
    "is_transient_error",
]
