"""A small Channel Access IOC whose puts are slow or whose readback never follows.

Run as ``python -m tests.connectors.slow_put_ioc`` by ``SlowPutIocProcess`` (the demo IOC's
process harness, on its own loopback ports). It prints a line on stdout at each moment a test
has to act on, so a test kills it at a known point instead of after a guessed sleep:
``PUT-START <pv>`` when a put handler begins, ``PUT-APPLIED <pv>`` when the value is stored,
``READ <pv>`` when ``HOLD:RB`` is read.

PVs
    ``LATE:SP``  stores the value at once, then confirms the put ``PUT_DELAY`` s later (an EPICS
                 record whose processing outlasts the client's put timeout).
    ``SLOW:SP``  waits ``PUT_DELAY`` s, then stores the value and confirms.
    ``HOLD:SP``  stores the value at once; its readback ``HOLD:RB`` stays at -1, so a readback
                 verification keeps polling until the test kills the IOC.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from typing import Any

from caproto.asyncio.server import start_server
from caproto.server import PVGroup, pvproperty

from osprey_desktop.connectors.demo_ioc import READY_MARKER
from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess

PUT_DELAY = 1.0


def say(line: str) -> None:
    print(line, flush=True)


class SlowPutGroup(PVGroup):
    late = pvproperty(name="LATE:SP", value=0.0, precision=3, units="A")
    slow = pvproperty(name="SLOW:SP", value=0.0, precision=3, units="A")
    hold = pvproperty(name="HOLD:SP", value=0.0, precision=3, units="A")
    hold_rb = pvproperty(name="HOLD:RB", value=-1.0, precision=3, units="A", read_only=True)

    @late.putter
    async def late(self, instance: Any, value: float) -> float:
        say("PUT-START LATE:SP")
        await instance.write(value, verify_value=False)
        say("PUT-APPLIED LATE:SP")
        await asyncio.sleep(PUT_DELAY)
        return value

    @slow.putter
    async def slow(self, instance: Any, value: float) -> float:
        say("PUT-START SLOW:SP")
        await asyncio.sleep(PUT_DELAY)
        say("PUT-APPLIED SLOW:SP")
        return value

    @hold.putter
    async def hold(self, instance: Any, value: float) -> float:
        say("PUT-APPLIED HOLD:SP")
        return value

    @hold_rb.getter
    async def hold_rb(self, instance: Any) -> None:
        say("READ HOLD:RB")


class SlowPutIocProcess(DemoIocProcess):
    """This IOC as a child process on free loopback ports, stopped (or killed) by its pid."""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "tests.connectors.slow_put_ioc"]

    def kill(self) -> None:
        """SIGKILL: the IOC dies mid-operation, as a crashed IOC would."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=5)


def main() -> None:
    # DemoIocProcess passes the loopback-only EPICS_CAS_* settings and the server port in the
    # environment; caproto's server reads them from there.
    group = SlowPutGroup(prefix="")

    async def ready(async_lib: Any) -> None:
        say(f"{READY_MARKER} {len(group.pvdb)} channels")

    async def serve() -> None:
        task = asyncio.current_task()
        assert task is not None
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        await start_server(group.pvdb, interfaces=["127.0.0.1"], startup_hook=ready)

    with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
        asyncio.run(serve())


if __name__ == "__main__":
    main()
