"""A small facility's IOC, independent of the simulated ring: every EPICS value type.

Run as ``python -m tests.connectors.facility_ioc`` by ``FacilityIocProcess`` (the demo IOC's
process harness, on its own loopback ports), or with ``--pva`` as a PV Access server (p4p)
serving the same PVs under the ``PVA:`` prefix, by ``PvaServerProcess``.

PVs (``FAC:`` over Channel Access, caproto records with their fields; ``PVA:`` over PVA)
    ``TEMP``        temperature in degC, read-only, alarm limits (HIGH 40, HIHI 60)
    ``HEATER:SP``   heater setpoint in W, writable; serves no control limits, and clamps
                    every put to 0..100 W in its handler (as many hand-written IOCs do)
    ``HEATER:RB``   heater readback in W, follows the setpoint
    ``VALVE``       enum Closed/Open, writable
    ``MODE``        string, writable
    ``WF``          16-point waveform (0.5, 1.0, ... 8.0 mm), read-only
    ``COUNTS``      integer in "counts", read-only, counts up 10 times a second
    ``SIGNAL``      a number in "a.u.", writable
    ``SHUTTER``     enum Closed/Half/Open, writable (CA only)
    ``STUCK:SP``    a setpoint in A, writable, whose readback ``STUCK:RB`` stays at 12.49 A
                    (a supply that does not follow: verification must fail)
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
import time
from typing import Any

from caproto import ChannelType
from caproto.asyncio.server import start_server
from caproto.server import PVGroup, pvproperty

from osprey_desktop.connectors.demo_ioc import READY_MARKER
from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess, free_port, pva_environment

HEATER_MAX = 100.0
WAVEFORM = [0.5 * (i + 1) for i in range(16)]
STUCK = 12.49


def say(line: str) -> None:
    print(line, flush=True)


class FacilityGroup(PVGroup):
    temp = pvproperty(
        name="TEMP",
        value=21.5,
        units="degC",
        precision=2,
        read_only=True,
        record="ai",
        doc="Cooling water temperature",
        upper_warning_limit=40.0,
        upper_alarm_limit=60.0,
    )
    heater_sp = pvproperty(
        name="HEATER:SP", value=10.0, units="W", precision=1, record="ao", doc="Heater power"
    )
    heater_rb = pvproperty(name="HEATER:RB", value=10.0, units="W", precision=1, read_only=True)
    valve = pvproperty(
        name="VALVE",
        value="Closed",
        enum_strings=["Closed", "Open"],
        dtype=ChannelType.ENUM,
        record="bo",
        doc="Cooling valve",
    )
    mode = pvproperty(name="MODE", value="auto", dtype=ChannelType.STRING)
    shutter = pvproperty(
        name="SHUTTER",
        value="Closed",
        enum_strings=["Closed", "Half", "Open"],
        dtype=ChannelType.ENUM,
        record="mbbo",
        doc="Beam shutter",
    )
    wf = pvproperty(name="WF", value=WAVEFORM, units="mm", precision=2, read_only=True)
    counts = pvproperty(name="COUNTS", value=0, units="counts", read_only=True)
    signal_au = pvproperty(name="SIGNAL", value=1.0, units="a.u.", precision=3)
    stuck_sp = pvproperty(name="STUCK:SP", value=12.5, units="A", precision=2, record="ao")
    stuck_rb = pvproperty(name="STUCK:RB", value=STUCK, units="A", precision=2, read_only=True)

    @heater_sp.putter
    async def heater_sp(self, instance: Any, value: float) -> float:
        applied = min(max(float(value), 0.0), HEATER_MAX)
        await self.heater_rb.write(applied)
        return applied

    @counts.scan(period=0.1)
    async def counts(self, instance: Any, async_lib: Any) -> None:
        await instance.write(instance.value + 1)


def serve_ca() -> None:
    group = FacilityGroup(prefix="FAC:")

    async def ready(async_lib: Any) -> None:
        say(f"{READY_MARKER} {len(group.pvdb)} channels")

    async def serve() -> None:
        task = asyncio.current_task()
        assert task is not None
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        await start_server(group.pvdb, interfaces=["127.0.0.1"], startup_hook=ready)

    with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
        asyncio.run(serve())


def serve_pva() -> None:
    from p4p.nt import NTEnum, NTScalar
    from p4p.server import Server
    from p4p.server.thread import SharedPV

    def scalar(code: str, value: Any, units: str = "", **extra: Any) -> SharedPV:
        nt = NTScalar(code, display=True, control=True, valueAlarm=True)
        initial = {"value": value, "display.units": units, **extra}
        return SharedPV(nt=nt, initial=initial)

    temp = scalar(
        "d",
        21.5,
        "degC",
        **{
            "display.description": "Cooling water temperature",
            "display.format": "%.2f",
            "valueAlarm.highWarningLimit": 40.0,
            "valueAlarm.highAlarmLimit": 60.0,
        },
    )
    heater_rb = scalar("d", 10.0, "W")
    heater_sp = scalar("d", 10.0, "W")
    valve = SharedPV(nt=NTEnum(), initial={"index": 0, "choices": ["Closed", "Open"]})
    mode = SharedPV(nt=NTScalar("s"), initial="auto")
    wf = SharedPV(
        nt=NTScalar("ad", display=True), initial={"value": WAVEFORM, "display.units": "mm"}
    )
    counts = scalar("i", 0, "counts")
    signal_au = scalar("d", 1.0, "a.u.")
    stuck_sp = scalar("d", 12.5, "A")
    stuck_rb = scalar("d", STUCK, "A")

    @heater_sp.put
    def put_heater(pv: SharedPV, op: Any) -> None:
        applied = min(max(float(op.value()), 0.0), HEATER_MAX)
        pv.post(applied)
        heater_rb.post(applied)
        op.done()

    def plain_put(pv: SharedPV, op: Any) -> None:
        pv.post(op.value())
        op.done()

    for pv in (valve, mode, signal_au, stuck_sp):
        pv.put(plain_put)

    pvs = {
        "PVA:TEMP": temp,
        "PVA:HEATER:SP": heater_sp,
        "PVA:HEATER:RB": heater_rb,
        "PVA:VALVE": valve,
        "PVA:MODE": mode,
        "PVA:WF": wf,
        "PVA:COUNTS": counts,
        "PVA:SIGNAL": signal_au,
        "PVA:STUCK:SP": stuck_sp,
        "PVA:STUCK:RB": stuck_rb,
    }
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with Server(providers=[pvs]):
        say(f"{READY_MARKER} {len(pvs)} channels")
        count = 0
        while not stop.wait(0.1):
            count += 1
            counts.post(count, timestamp=time.time())


class FacilityIocProcess(DemoIocProcess):
    """The Channel Access IOC as a child process on free loopback ports."""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "tests.connectors.facility_ioc"]


class PvaServerProcess(DemoIocProcess):
    """The PV Access server as a child process on free loopback ports, stopped by its pid."""

    def __init__(self) -> None:
        super().__init__()
        self.client_environment = pva_environment(free_port(), free_port())

    def command(self) -> list[str]:
        return [sys.executable, "-m", "tests.connectors.facility_ioc", "--pva"]


if __name__ == "__main__":
    serve_pva() if "--pva" in sys.argv else serve_ca()
