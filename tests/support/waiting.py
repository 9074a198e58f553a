"""Waiting in tests for something to happen, not for a fixed time.

A fixed ``sleep(0.3)`` before an assertion guesses how fast the machine is: on a loaded
2-core machine the server, the IOC or the process has not done its part yet and the test
fails for nothing. These helpers poll a condition until it holds and give up only after a
generous deadline, so a test is as quick as the machine allows and still ends when the thing
never happens (with a message that says what was awaited).

A fixed sleep stays right where a test checks that something does *not* happen (no update
after unsubscribing): a slow machine can only make such a check pass, never fail it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

DEADLINE = 30.0
"""Seconds before a wait gives up: far beyond what an idle machine needs (well under 1 s),
still inside the suite's 60 s per-test limit."""


async def until(
    condition: Callable[[], bool | Awaitable[bool]],
    what: str,
    *,
    deadline: float = DEADLINE,
    interval: float = 0.02,
) -> None:
    """Return as soon as ``condition()`` (sync or async) is true; AssertionError after
    ``deadline`` seconds, naming ``what`` was awaited."""
    end = time.monotonic() + deadline
    while True:
        held = condition()
        if isinstance(held, Awaitable):
            held = await held
        if held:
            return
        if time.monotonic() >= end:
            raise AssertionError(f"waited {deadline:g} s for {what}")
        await asyncio.sleep(interval)


async def value_when(
    produce: Callable[[], Awaitable[T]],
    accept: Callable[[T], bool],
    what: str,
    *,
    deadline: float = DEADLINE,
    interval: float = 0.05,
) -> T:
    """Call ``produce()`` until ``accept`` takes its result; return that result (the last one
    is named in the AssertionError after ``deadline`` seconds)."""
    end = time.monotonic() + deadline
    while True:
        value = await produce()
        if accept(value):
            return value
        if time.monotonic() >= end:
            raise AssertionError(f"waited {deadline:g} s for {what}; last: {value!r}")
        await asyncio.sleep(interval)


def until_sync(
    condition: Callable[[], bool],
    what: str,
    *,
    deadline: float = DEADLINE,
    interval: float = 0.02,
) -> None:
    """``until`` for code without an event loop (threads, subprocesses)."""
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() >= end:
            raise AssertionError(f"waited {deadline:g} s for {what}")
        time.sleep(interval)
