"""Which planner a node talks to: the running graph's, an override, or the configured one.

``BuiltinPlanner`` (deterministic, offline) is the default; ``ChatModelPlanner`` talks to an
OpenAI-compatible endpoint and is imported only when configured, because langchain_openai
takes over a second to import. A ``PartialPlanner`` lets a test or a facility replace one
decision and fall back to the configured planner for the rest.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage

from osprey_desktop.planners.base import PLANNER_METHODS, ExtractedTask, Planner

if TYPE_CHECKING:
    from osprey_desktop.base.capability import BaseCapability
    from osprey_desktop.base.planning import ExecutionPlan, PlannedStep


class PartialPlanner:
    """A planner that answers what ``own`` implements and asks ``fallback`` the rest.

    Lets a test or a facility replace one decision (say ``create_plan``) without writing the
    other five; the fallback is resolved at call time, so it follows the configuration.
    """

    def __init__(self, own: Any, fallback: Callable[[], Any] | None = None) -> None:
        implemented = [name for name in PLANNER_METHODS if callable(getattr(own, name, None))]
        if not implemented:
            raise TypeError(
                f"{type(own).__name__} implements none of the planner methods "
                f"({', '.join(PLANNER_METHODS)})"
            )
        self.own = own
        self.implemented = frozenset(implemented)
        self._fallback = fallback

    def _target(self, name: str) -> Any:
        if name in self.implemented:
            return self.own
        if self._fallback is not None:
            return self._fallback()
        with _lock:
            override = _override
        # set_planner's own partial planner must not fall back on itself
        return (
            override if override is not None and override is not self else _configured_planner(None)
        )

    async def extract_task(
        self, messages: list[BaseMessage], state: dict[str, Any]
    ) -> ExtractedTask:
        return await self._target("extract_task").extract_task(messages, state)

    async def select_capabilities(
        self, task: str, capabilities: Sequence[BaseCapability], state: dict[str, Any]
    ) -> list[str]:
        return await self._target("select_capabilities").select_capabilities(
            task, capabilities, state
        )

    async def create_plan(
        self, task: str, capabilities: Sequence[BaseCapability], state: dict[str, Any]
    ) -> ExecutionPlan:
        return await self._target("create_plan").create_plan(task, capabilities, state)

    async def choose_next_step(
        self, task: str, capabilities: Sequence[BaseCapability], state: dict[str, Any]
    ) -> PlannedStep:
        return await self._target("choose_next_step").choose_next_step(task, capabilities, state)

    async def write_response(
        self, task: str, state: dict[str, Any], context_summaries: dict[str, Any]
    ) -> str:
        return await self._target("write_response").write_response(task, state, context_summaries)

    async def ask_clarification(self, task: str, state: dict[str, Any], reason: str | None) -> str:
        return await self._target("ask_clarification").ask_clarification(task, state, reason)

    def __getattr__(self, name: str) -> Any:
        # the planner's own extras (e.g. a chat model's ``model``) stay reachable
        return getattr(self.__dict__["own"], name)


def as_planner(planner: Any, fallback: Any = None) -> Planner:
    """``planner`` itself when it implements every method, else a ``PartialPlanner``."""
    if isinstance(planner, Planner) and not isinstance(planner, PartialPlanner):
        return planner
    if isinstance(planner, PartialPlanner):
        return planner
    return PartialPlanner(planner, fallback)


_lock = threading.Lock()
_override: Planner | None = None
_cached: tuple[tuple[str, int], Planner] | None = None
_scoped: contextvars.ContextVar[Planner | None] = contextvars.ContextVar(
    "osprey_desktop_planner", default=None
)


def set_planner(planner: Any | None) -> None:
    """Use ``planner`` for every node from now on (None restores the configured one).

    It may implement only some of the six methods; the configured planner answers the rest.
    """
    wrapped = None if planner is None else as_planner(planner)
    with _lock:
        global _override
        _override = wrapped


@contextlib.contextmanager
def planner_scope(planner: Any) -> Iterator[Planner]:
    """Make ``planner`` what ``get_planner()`` returns inside the block (this task only).

    ``create_graph(planner=...)`` runs each node in this scope, so two graphs with different
    planners can run side by side.
    """
    token = _scoped.set(as_planner(planner))
    try:
        yield _scoped.get()  # type: ignore[misc]
    finally:
        _scoped.reset(token)


def get_planner(config: Any = None) -> Planner:
    """The planner of the running graph, else the override, else the one ``config`` names.

    ``models.planner`` chooses ``builtin`` or ``chat_model``; the default config is the
    process's (or the running graph's, see ``create_graph(config=...)``).
    """
    scoped = _scoped.get()
    if scoped is not None:
        return scoped
    return default_planner(config)


def default_planner(config: Any = None) -> Planner:
    """The override set with ``set_planner``, else the planner ``config`` names (no scope:
    what a partial planner falls back to)."""
    with _lock:
        if _override is not None:
            return _override
    return _configured_planner(config)


def _configured_planner(config: Any) -> Planner:
    """The planner ``config`` names, built once per config object."""
    global _cached
    if config is None:
        from osprey_desktop.config import get_config

        config = get_config()
    kind = str(config.models.planner)
    key = (kind, id(config))
    with _lock:
        if _cached is not None and _cached[0] == key:
            return _cached[1]
    planner: Planner
    if kind == "builtin":
        from osprey_desktop.planners.builtin import BuiltinPlanner

        planner = BuiltinPlanner()
    elif kind == "chat_model":
        from osprey_desktop.planners.chat_model import ChatModelPlanner
        from osprey_desktop.planners.model_endpoint import with_builtin_fallback

        planner = with_builtin_fallback(ChatModelPlanner(config), config)
    else:
        raise ValueError(f"models.planner is {kind!r}; use 'builtin' or 'chat_model'")
    with _lock:
        _cached = (key, planner)
    return planner


def reset_planner() -> None:
    """Forget the override and the cached planner (tests)."""
    global _override, _cached
    with _lock:
        _override = None
        _cached = None


__all__ = [
    "PartialPlanner",
    "as_planner",
    "default_planner",
    "get_planner",
    "planner_scope",
    "reset_planner",
    "set_planner",
]
