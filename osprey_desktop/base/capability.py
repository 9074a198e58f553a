"""``BaseCapability``: the unit of domain work the router dispatches, one plan step at a time.

A capability declares what it reads (``requires``) and writes (``provides``) as context types,
and how the built-in planner recognises it (``keywords``, ``examples``, ``default_for``,
``missing_information``). When it cannot act without the operator's answer it raises
``ClarificationRequired`` (see ``base.errors``). The
``capability_node`` decorator turns the class into a LangGraph node; at run time a fresh
instance gets the state (``self._state``) and its plan step (``self._step``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from osprey_desktop.base.errors import (
    ClarificationRequired,
    ErrorClassification,
    ErrorSeverity,
    RetryPolicy,
    default_error_classification,
)

if TYPE_CHECKING:
    from osprey_desktop.approval.decisions import ApprovalDecision

logger = logging.getLogger(__name__)

Requirement = str | tuple[str, str]
_CARDINALITIES = ("single", "multiple")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
RESERVED_NODE_NAMES = frozenset(
    {
        "router",
        "task_extraction",
        "classifier",
        "orchestrator",
        "reactive_orchestrator",
        "error",
        "__start__",
        "__end__",
    }
)


class MissingInputContextError(ValueError):
    """The plan step does not give the capability the contexts it requires.

    Raised by ``get_required_contexts``; the default classification asks for a new plan,
    because the plan (not the capability) is at fault.
    """


def requirement_type(requirement: Requirement) -> str:
    """The context type of one ``requires`` entry (a bare type or ``(type, cardinality)``)."""
    return requirement if isinstance(requirement, str) else requirement[0]


def _check_string_list(cls: type, attr: str, value: Any) -> None:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) and v for v in value):
        raise TypeError(
            f"{cls.__qualname__}.{attr} must be a list of non-empty strings, got {value!r}"
        )


def _check_requires(cls: type, requires: Any) -> None:
    if not isinstance(requires, list | tuple):
        raise TypeError(
            f"{cls.__qualname__}.requires must be a list of context types or "
            f"(context_type, 'single'|'multiple') tuples, got {type(requires).__name__}"
        )
    seen: set[str] = set()
    for item in requires:
        if isinstance(item, str):
            if not item:
                raise ValueError(f"{cls.__qualname__}.requires contains an empty context type")
            context_type = item
        elif isinstance(item, tuple):
            if len(item) != 2 or not isinstance(item[0], str) or not item[0]:
                raise ValueError(
                    f"{cls.__qualname__}.requires entry {item!r} must be "
                    "(context_type, 'single'|'multiple')"
                )
            if item[1] not in _CARDINALITIES:
                raise ValueError(
                    f"{cls.__qualname__}.requires entry {item!r} has cardinality {item[1]!r}; "
                    "use 'single' or 'multiple'"
                )
            context_type = item[0]
        else:
            raise TypeError(
                f"{cls.__qualname__}.requires entry {item!r} must be a string or a "
                "(context_type, 'single'|'multiple') tuple"
            )
        if context_type in seen:
            raise ValueError(f"{cls.__qualname__}.requires lists {context_type!r} twice")
        seen.add(context_type)


class BaseCapability:
    """Base class of every capability; subclasses set the class attributes and ``execute``.

    ``writes = True`` marks a capability that changes the machine: planners select it only
    when the request explicitly asks for a change. ``default_for`` lists context types this
    capability is the natural action for when a request only names such data ("the beam
    current" -> read it). ``parameters`` documents the step parameters the capability reads
    (name -> description), ``slash_commands`` the capability-specific ``/name[:value]``
    commands it understands (name -> help text).

    Approvals: before a step runs, the framework asks the operator whenever the approval
    policy requires it (every ``writes = True`` capability, always; others per the mode).
    A capability that builds its own, richer approval payload sets
    ``handles_own_approval = True`` and must then call ``requires_approval`` and
    ``request_approval`` itself before acting (channel_write shows what is written where).
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    provides: ClassVar[list[str]] = []
    requires: ClassVar[list[Requirement]] = []
    keywords: ClassVar[list[str]] = []
    examples: ClassVar[list[str]] = []
    writes: ClassVar[bool] = False
    handles_own_approval: ClassVar[bool] = False
    default_for: ClassVar[list[str]] = []
    parameters: ClassVar[dict[str, str]] = {}
    slash_commands: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "name" in own:
            name = own["name"]
            if not isinstance(name, str) or not _NAME_RE.match(name):
                raise ValueError(
                    f"{cls.__qualname__}.name must be a lower-case identifier such as "
                    f"'channel_read', got {name!r}"
                )
            if name in RESERVED_NODE_NAMES:
                raise ValueError(
                    f"{cls.__qualname__}.name {name!r} is reserved for an infrastructure node"
                )
            if not isinstance(cls.description, str) or not cls.description.strip():
                raise ValueError(f"{cls.__qualname__} ({name}) needs a non-empty description")
        for attr in ("provides", "keywords", "examples", "default_for"):
            if attr in own:
                _check_string_list(cls, attr, own[attr])
        if "requires" in own:
            _check_requires(cls, own["requires"])
        if "parameters" in own and not isinstance(own["parameters"], dict):
            raise TypeError(f"{cls.__qualname__}.parameters must be a dict name -> description")
        if "slash_commands" in own and not isinstance(own["slash_commands"], dict):
            raise TypeError(f"{cls.__qualname__}.slash_commands must be a dict name -> help")

    def __init__(self, state: dict[str, Any] | None = None, step: dict[str, Any] | None = None):
        self._state: dict[str, Any] = state if state is not None else {}
        self._step: dict[str, Any] = step if step is not None else {}
        self._approval_decision: ApprovalDecision | None = None

    def __repr__(self) -> str:
        return f"<capability {self.name}>"

    # -- the work ---------------------------------------------------------------------------

    async def execute(self) -> dict[str, Any]:
        """Do the work and return state updates (usually ``self.store_output_context(...)``)."""
        raise NotImplementedError(f"capability {self.name!r} does not implement execute()")

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        """Whether ``text`` asks for this capability, when its keywords cannot tell.

        The built-in planner matches ``keywords`` first; a capability whose words are also
        everyday words ("second" is a time unit and an ordinal) answers here with its own
        parser. None (the default): the keywords decide.
        """
        return None

    @classmethod
    def inputs_for(cls, text: str) -> list[str]:
        """Context types this capability reads for ``text`` on top of ``requires``.

        Some requests need more than a capability always needs: a write whose value is
        another channel's ("make VCM08 the same as VCM07") reads that channel first. The
        built-in planner plans a provider for each type named here, when one is available;
        the capability takes them from its step inputs and must work without them.
        Default: none.
        """
        return []

    def missing_information(self, request: str, state: Mapping[str, Any]) -> str | None:
        """What ``request`` lacks for this capability to act, asked before any step runs.

        The built-in planner calls it on each goal capability while planning; a non-empty
        answer turns the whole plan into one clarify step with that reason ("set HCM01" has
        no value). Default: nothing is missing. Must be cheap and free of side effects.
        """
        return None

    # -- inputs ----------------------------------------------------------------------------

    @classmethod
    def required_context_types(cls) -> list[str]:
        return [requirement_type(r) for r in cls.requires]

    def get_required_contexts(self, constraint_mode: str = "hard") -> tuple[Any, ...]:
        """The contexts named by ``requires``, in that order, ready to unpack.

        A ``"single"`` requirement yields one object, ``"multiple"`` a list, a bare type
        whichever the step provides. Missing inputs raise ``MissingInputContextError``.
        """
        if not self.requires:
            return ()
        from osprey_desktop.context import ContextManager

        try:
            contexts = ContextManager(self._state).extract_from_step(
                self._step,
                self._state,
                constraints=list(self.requires),
                constraint_mode=constraint_mode,
            )
        except ValueError as exc:
            raise MissingInputContextError(
                f"{self.name} could not get its inputs for step "
                f"'{self._step.get('context_key')}': {exc}"
            ) from exc
        return tuple(contexts.get(requirement_type(r)) for r in self.requires)

    def get_task_objective(self, default: str | None = None) -> str:
        """What this step should achieve; falls back to the turn's task."""
        objective = self._step.get("task_objective")
        if objective:
            return str(objective)
        task = self._state.get("task_current_task")
        return str(task) if task else (default or "")

    def get_parameters(self) -> dict[str, Any]:
        """The step's ``parameters`` dict (never None)."""
        return dict(self._step.get("parameters") or {})

    def get_step_inputs(self) -> list[dict[str, str]]:
        return list(self._step.get("inputs") or [])

    def get_slash_command_value(self, command: str, default: Any = None) -> Any:
        """The value of a capability-specific ``/command[:value]`` given for this turn."""
        control = self._state.get("agent_control") or {}
        commands = control.get("capability_slash_commands") or {}
        return commands.get(command, default)

    # -- outputs ---------------------------------------------------------------------------

    def store_output_context(self, context_object: Any) -> dict[str, Any]:
        """Store ``context_object`` under the step's ``context_key``; returns the state update."""
        from osprey_desktop.state import StateManager

        context_type = getattr(context_object, "CONTEXT_TYPE", "")
        if not context_type:
            raise TypeError(
                f"{self.name} tried to store {type(context_object).__name__}, which has no "
                "CONTEXT_TYPE; store CapabilityContext subclasses"
            )
        if self.provides and context_type not in self.provides:
            logger.warning(
                "%s stores %s, which is not in its provides list %s",
                self.name,
                context_type,
                self.provides,
            )
        context_key = self._step.get("context_key") or self.name
        return StateManager.store_context(self._state, context_type, context_key, context_object)

    def store_output_contexts(self, *context_objects: Any) -> dict[str, Any]:
        """Store several contexts of different types under the step's key in one update."""
        merged: dict[str, dict[str, Any]] = {}
        updates: dict[str, Any] = {}
        for obj in context_objects:
            update = self.store_output_context(obj)
            for context_type, entries in (update.get("capability_context_data") or {}).items():
                merged.setdefault(context_type, {}).update(entries)
            updates.update({k: v for k, v in update.items() if k != "capability_context_data"})
        updates["capability_context_data"] = merged
        return updates

    # -- approvals -------------------------------------------------------------------------

    def request_approval(
        self, user_message: str, approval_type: str, **payload: Any
    ) -> ApprovalDecision:
        """Pause the turn until the operator decides; returns the decision.

        The node re-runs from the start when resumed, so call this before any side effect
        and act on ``decision.payload`` (what was approved), never on values derived again.
        """
        from osprey_desktop.approval import request_approval

        decision = request_approval(
            user_message,
            approval_type,
            capability=self.name,
            step=dict(self._step),
            **payload,
        )
        self._approval_decision = decision
        return decision

    # -- errors ----------------------------------------------------------------------------

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        """Default: timeouts and connection errors retry, missing inputs replan, others stop."""
        what = f"capability '{context.get('capability', '?')}'"
        if isinstance(exc, ClarificationRequired):
            # Reached only when no clarify step can ask it (no clarify capability, or
            # clarify itself raised): the question is then the error the operator reads.
            shown = exc.question
            if exc.suggestions:
                shown += " You could say: " + ", ".join(f"'{s}'" for s in exc.suggestions)
            return ErrorClassification(
                severity=ErrorSeverity.CRITICAL,
                user_message=shown,
                technical_details=f"{type(exc).__name__}: {exc.question}",
                metadata={"clarification": True, **exc.to_dict()},
            )
        if isinstance(exc, MissingInputContextError):
            return ErrorClassification(
                severity=ErrorSeverity.REPLANNING,
                user_message=str(exc),
                technical_details=f"{type(exc).__name__}: {exc}",
            )
        return default_error_classification(exc, what)

    def get_retry_policy(self) -> dict[str, Any]:
        """Retry budget for RETRIABLE failures, from the configured limits."""
        from osprey_desktop.state.control_settings import get_limit

        retries = int(get_limit(self._state, "max_step_retries"))
        delay = float(get_limit(self._state, "retry_backoff_seconds"))
        return RetryPolicy(max_attempts=retries + 1, delay_seconds=delay).to_dict()


__all__ = [
    "RESERVED_NODE_NAMES",
    "BaseCapability",
    "MissingInputContextError",
    "Requirement",
    "requirement_type",
]
