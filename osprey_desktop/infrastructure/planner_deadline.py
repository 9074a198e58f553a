"""Planner calls the turn limit can stop, without freezing the event loop meanwhile.

The router checks the turn limit (``execution_control.limits.max_execution_time_seconds``)
each time it runs, i.e. between nodes. A planner call inside a node is one long stretch
without the router: a chat model's HTTP call awaits, but the built-in planner computes on the
thread that called it, so on the event loop it would freeze the window and no timer could
interrupt it. So every planner call of task extraction, classification and orchestration goes
through ``call_planner`` (and the react orchestrator's choice of the next step):

* a planner that computes without awaiting I/O (``BuiltinPlanner``, or any planner with
  ``computes_without_io = True``) runs in a daemon worker thread with its own event loop,
  and the node awaits it: the loop stays free (a window keeps drawing, Stop works);
* any planner call is awaited at most until the turn's time is up; then ``TurnLimitReached``
  ends the node with the router's own timeout error, naming the planning.

Decisions and traps:

* A thread cannot be killed: a stopped built-in planner finishes its pass in the background
  and its result is dropped. The thread is a daemon, so ``ask`` exits at once rather than
  waiting for it (``asyncio.to_thread``'s executor would be joined at exit).
* The worker runs in a copy of the caller's context (LangGraph's config, the planner scope),
  but LangGraph's stream writer is not thread-safe: a planner run this way must not ``emit``
  progress events. The built-in planner emits none; the nodes emit after the call returns.
* ``asyncio.timeout`` tells the turn limit apart from a planner's own ``TimeoutError`` (a chat
  model's slow server): only the former is the turn limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

from osprey_desktop.approval.decisions import APPROVAL_CLOCK_KEY
from osprey_desktop.base.errors import ErrorClassification, ErrorSeverity
from osprey_desktop.planners.selection import PartialPlanner, default_planner, get_planner
from osprey_desktop.state.control_settings import get_limit

T = TypeVar("T")


class TurnLimitReached(Exception):
    """The turn's time ran out while the planner was working; its answer is not awaited."""

    def __init__(self, elapsed: float, limit: float, method: str) -> None:
        super().__init__(f"the turn limit of {limit:g} s was reached during the planner's {method}")
        self.elapsed = elapsed
        self.limit = limit
        self.method = method


def turn_started(state: Mapping[str, Any]) -> float | None:
    """When the turn's clock started: its start, or the last approval's answer if later (time
    spent waiting for the operator does not count)."""
    started = state.get("execution_start_time")
    if started is None:
        return None
    resumed = (state.get("runtime_info") or {}).get(APPROVAL_CLOCK_KEY)
    return max(float(started), float(resumed)) if resumed is not None else float(started)


def turn_seconds_left(state: Mapping[str, Any], now: float | None = None) -> float | None:
    """Seconds until the turn limit; None before the router started the clock."""
    started = turn_started(state)
    if started is None:
        return None
    limit = float(get_limit(dict(state), "max_execution_time_seconds"))
    return limit - ((time.time() if now is None else now) - started)


def computes_without_io(planner: Any, method: str) -> bool:
    """Whether ``planner.method`` computes on the caller's thread (never awaits I/O)."""
    from osprey_desktop.planners.builtin import BuiltinPlanner

    target = planner
    if isinstance(planner, PartialPlanner):
        target = planner.own if method in planner.implemented else default_planner()
    return (
        isinstance(target, BuiltinPlanner) or getattr(target, "computes_without_io", False) is True
    )


async def call_planner(state: Mapping[str, Any], method: str, *args: Any) -> Any:
    """``get_planner().method(*args)``, stopped with ``TurnLimitReached`` at the turn limit."""
    planner = get_planner()
    left = turn_seconds_left(state)
    if left is not None and left <= 0:
        raise _reached(state, method)
    work: Coroutine[Any, Any, Any] = getattr(planner, method)(*args)
    if computes_without_io(planner, method):
        work = _in_daemon_thread(asyncio.run, work)
    if left is None:
        return await work
    try:
        async with asyncio.timeout(left) as limit:
            return await work
    except TimeoutError:
        if limit.expired():
            raise _reached(state, method) from None
        raise


def _reached(state: Mapping[str, Any], method: str) -> TurnLimitReached:
    started = turn_started(state) or time.time()
    limit = float(get_limit(dict(state), "max_execution_time_seconds"))
    return TurnLimitReached(time.time() - started, limit, method)


async def _in_daemon_thread(function: Callable[[Any], T], argument: Any) -> T:
    """``function(argument)`` in a new daemon thread, in a copy of this context."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    context = contextvars.copy_context()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():  # the turn stopped waiting: the late answer is dropped
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def work() -> None:
        try:
            result, error = context.run(function, argument), None
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting node as is
            result, error = None, exc
        # the loop may have closed meanwhile (the command ended): then nobody waits
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="osprey-planner", daemon=True).start()
    return await future


def seconds_text(seconds: float) -> str:
    """Seconds as an operator reads them: "31", "0.5" (a sub-second limit is not "0")."""
    return f"{seconds:.0f}" if seconds >= 10 else f"{seconds:.1f}".removesuffix(".0")


#: What the planner was doing, in the operator's words.
_DOING = {
    "extract_task": "reading the request",
    "select_capabilities": "choosing what the request needs",
    "create_plan": "planning the steps",
    "choose_next_step": "choosing the next step",
}


class StoppedByTurnLimit:
    """Mixin for a node calling the planner: ``TurnLimitReached`` ends the turn (fatal, no
    retry) with the router's timeout words and what the planner was doing."""

    @classmethod
    def classify_error(cls, exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        if not isinstance(exc, TurnLimitReached):
            return super().classify_error(exc, context)  # type: ignore[misc]
        doing = _DOING.get(exc.method, exc.method)
        return ErrorClassification(
            severity=ErrorSeverity.FATAL,
            user_message=(
                f"The request was stopped after {seconds_text(exc.elapsed)} s, over the "
                f"{seconds_text(exc.limit)} s "
                "limit (execution_control.limits.max_execution_time_seconds), while the "
                f"planner was still {doing}; its answer was not awaited"
            ),
            technical_details=f"TurnLimitReached: {exc}",
            metadata={
                "suggestion": "Shorten the request (or split it into several), or raise the "
                "limit in execution_control.limits.max_execution_time_seconds."
            },
        )


__all__ = [
    "StoppedByTurnLimit",
    "TurnLimitReached",
    "call_planner",
    "computes_without_io",
    "seconds_text",
    "turn_seconds_left",
    "turn_started",
]
