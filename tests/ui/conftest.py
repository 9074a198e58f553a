"""Fixtures for the window tests: offscreen Qt and a qasync loop that qtbot can drive.

The tests are synchronous on purpose (see shared NOTES): a qasync loop created with
``already_running=True`` and set as the current loop lets ``qtbot.waitUntil`` /
``qtbot.waitSignal`` run asyncio tasks while Qt processes events. ``waitUntil`` inside an
``async def`` test never lets a task run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

qasync = pytest.importorskip("qasync")


@pytest.fixture
def qasync_loop(qapp, qtbot) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop bound to the test's QApplication; cancelled and closed afterwards."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=5000)
        gens = loop.create_task(loop.shutdown_asyncgens())
        qtbot.waitUntil(gens.done, timeout=5000)
        # The loop never ran exec(): mark it stopped by hand, as qasync asks of the owner.
        loop._QEventLoop__is_running = False  # noqa: SLF001
        asyncio.events._set_running_loop(None)
        with contextlib.suppress(RuntimeError, TypeError):
            qapp.aboutToQuit.disconnect(loop._after_run_forever)
        loop._after_run_forever()
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def run_async(qtbot, qasync_loop):
    """Run a coroutine as a task on the qasync loop, processing Qt events until it is done."""

    def run(coro, timeout: int = 10_000):
        task = qasync_loop.create_task(coro)
        qtbot.waitUntil(task.done, timeout=timeout)
        return task.result()

    return run
