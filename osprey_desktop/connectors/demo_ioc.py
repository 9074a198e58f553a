"""The demo IOC: the simulated ring served over EPICS Channel Access by caproto's asyncio server.

Every channel of the channel database becomes a record (``demo_ioc_records``) with its units,
precision and display, control and alarm limits, and its fields (``NAME.EGU``, ``.DESC``,
``.DRVH``, ``.SEVR``...) served like an EPICS IOC's. Setpoints are writable: a put is clamped
to the drive limits, as an ``ao`` record does, and goes into ``SimMachine.set_setpoint``, so
readbacks start following it. Every other PV is read-only and republished from the model at
``update_rate`` Hz with the model's timestamp and the alarm its record computes, so monitors see
the lag, the noise and the alarms. Without a CA repeater, the missing beacon receiver is logged
once (``QuietBeacons``), not as a traceback per beacon.

Loopback by default: ``loopback_environment()`` gives the ``EPICS_CAS_*`` settings that keep
the server's interface and beacons on 127.0.0.1 (caproto beacons to 255.255.255.255 otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from osprey_desktop.channels.database import ChannelRecord
from osprey_desktop.connectors.demo_ioc_records import DemoRecord, DemoSetpoint
from osprey_desktop.connectors.sim_machine import SimMachine

log = logging.getLogger(__name__)

READY_MARKER = "DEMO-IOC READY"


def loopback_environment(
    interface: str = "127.0.0.1",
    server_port: int | None = None,
    repeater_port: int | None = None,
    beacon_port: int | None = None,
) -> dict[str, str]:
    """``EPICS_CA*`` settings for a server and its clients that stay on one interface."""
    env = {
        "EPICS_CAS_INTF_ADDR_LIST": interface,
        "EPICS_CAS_BEACON_ADDR_LIST": interface,
        "EPICS_CAS_AUTO_BEACON_ADDR_LIST": "NO",
        "EPICS_CA_ADDR_LIST": interface,
        "EPICS_CA_AUTO_ADDR_LIST": "NO",
    }
    if server_port is not None:
        env["EPICS_CA_SERVER_PORT"] = str(server_port)
        env["EPICS_CAS_SERVER_PORT"] = str(server_port)
    if repeater_port is not None:
        env["EPICS_CA_REPEATER_PORT"] = str(repeater_port)
    if beacon_port is not None:
        env["EPICS_CAS_BEACON_PORT"] = str(beacon_port)
    return env


def _limits(record: ChannelRecord) -> dict[str, float]:
    out: dict[str, float] = {}
    limits = record.limits
    if limits.display:
        out["lower_disp_limit"], out["upper_disp_limit"] = limits.display
    if limits.control:
        out["lower_ctrl_limit"], out["upper_ctrl_limit"] = limits.control
    if limits.alarm:
        alarm = limits.alarm
        for key, field in (
            ("lower_alarm_limit", alarm.lolo),
            ("lower_warning_limit", alarm.low),
            ("upper_warning_limit", alarm.high),
            ("upper_alarm_limit", alarm.hihi),
        ):
            if field is not None:
                out[key] = field
    return out


def build_pvdb(machine: SimMachine) -> dict[str, DemoRecord]:
    """One record per database channel, initialised from the model (fields made on demand)."""
    pvdb: dict[str, DemoRecord] = {}
    now = machine.clock()
    for record in machine.database:
        reading = machine.read(record.name, now)
        common: dict[str, Any] = {
            "record": record,
            "value": reading.value,
            "units": record.units,
            "precision": record.precision,
            "timestamp": now,
            **_limits(record),
        }
        if record.writable:
            pvdb[record.name] = DemoSetpoint(machine=machine, **common)
        else:
            pvdb[record.name] = DemoRecord(**common)
    return pvdb


async def publish_forever(
    machine: SimMachine, pvdb: dict[str, DemoRecord], update_rate: float
) -> None:
    """Republish every read-only PV from the model, ``update_rate`` times a second."""
    names = [r.name for r in machine.database if not r.writable and r.name in pvdb]
    period = 1.0 / max(update_rate, 0.01)
    while True:
        started = asyncio.get_running_loop().time()
        now = machine.clock()
        for index, name in enumerate(names):
            if index % 32 == 31:
                await asyncio.sleep(0)  # let the server answer clients between batches
            await pvdb[name].publish_value(machine.value(name, now), now)
        elapsed = asyncio.get_running_loop().time() - started
        await asyncio.sleep(max(0.0, period - elapsed))


class QuietBeacons(logging.Filter):
    """caproto logs a traceback for every beacon nobody receives (no CA repeater is running);
    say it once, at WARNING and without the traceback, and drop the repeats."""

    def __init__(self) -> None:
        super().__init__()
        self.reported = False

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Failed to send beacon"):
            return True
        if self.reported:
            return False
        self.reported = True
        where = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        record.msg = (
            "No Channel Access repeater receives this IOC's beacons at %s (none is running): "
            "harmless, clients still find the PVs by search. Said once."
        )
        record.args = (where,)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_caproto_server_logs() -> QuietBeacons:
    """Install ``QuietBeacons`` on caproto's server log (idempotent)."""
    logger = logging.getLogger("caproto.ctx")
    for existing in logger.filters:
        if isinstance(existing, QuietBeacons):
            return existing
    quiet = QuietBeacons()
    logger.addFilter(quiet)
    return quiet


async def serve(
    machine: SimMachine,
    interfaces: Iterable[str] = ("127.0.0.1",),
    update_rate: float = 2.0,
    on_ready: Callable[[int], Awaitable[None] | None] | None = None,
) -> None:
    """Serve until cancelled. ``on_ready(tcp_port)`` runs once the server listens."""
    from caproto.asyncio.server import Context as ServerContext

    quiet_caproto_server_logs()
    pvdb = build_pvdb(machine)
    context = ServerContext(pvdb, interfaces=list(interfaces))

    async def startup_hook(async_lib: Any) -> None:
        if on_ready is not None:
            result = on_ready(context.port)
            if asyncio.iscoroutine(result):
                await result

    publisher = asyncio.create_task(publish_forever(machine, pvdb, update_rate))
    try:
        await context.run(log_pv_names=False, startup_hook=startup_hook)
    finally:
        publisher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await publisher


def announce_ready(port: int, channels: int, interfaces: Iterable[str]) -> None:
    """The line tests and scripts wait for on stdout."""
    where = ", ".join(f"{i}:{port}" for i in interfaces)
    print(f"{READY_MARKER} {channels} channels on {where}", flush=True)
    sys.stdout.flush()
