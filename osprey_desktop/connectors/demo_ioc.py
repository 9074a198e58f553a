"""The demo IOC: the simulated ring served over EPICS Channel Access by caproto's asyncio server.

Every channel of the channel database becomes a PV with its units, precision and display,
control and alarm limits. Setpoints are writable: a put goes through caproto's limit check and
then into ``SimMachine.set_setpoint``, so readbacks start following it. Every other PV is
read-only and republished from the model at ``update_rate`` Hz with the model's timestamp and
alarm status/severity, so monitors see the lag, the noise and the alarms.

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

from caproto import AccessRights, AlarmSeverity, AlarmStatus, ChannelDouble

from osprey_desktop.connectors.channel_database import ChannelRecord
from osprey_desktop.connectors.sim_machine import SimMachine

log = logging.getLogger(__name__)

READY_MARKER = "DEMO-IOC READY"
_SEVERITY = {
    "NO_ALARM": AlarmSeverity.NO_ALARM,
    "MINOR": AlarmSeverity.MINOR_ALARM,
    "MAJOR": AlarmSeverity.MAJOR_ALARM,
    "INVALID": AlarmSeverity.INVALID_ALARM,
}


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


class ReadOnlyChannel(ChannelDouble):
    """A monitor or readback PV: clients may read and monitor it, never write."""

    def check_access(self, hostname: str, username: str) -> AccessRights:
        return AccessRights.READ


class SetpointChannel(ChannelDouble):
    """A writable PV whose puts drive the simulated device."""

    def __init__(self, *, machine: SimMachine, channel: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._machine = machine
        self._channel = channel

    async def verify_value(self, data: Any) -> Any:
        data = await super().verify_value(data)  # control limits, alarm state
        value = data[0] if isinstance(data, list | tuple) else data
        self._machine.set_setpoint(self._channel, float(value))
        return data


def build_pvdb(machine: SimMachine) -> dict[str, ChannelDouble]:
    """One caproto channel per database record, initialised from the model."""
    pvdb: dict[str, ChannelDouble] = {}
    now = machine.clock()
    for record in machine.database:
        reading = machine.read(record.name, now)
        common: dict[str, Any] = {
            "value": reading.value,
            "units": record.units,
            "precision": record.precision,
            "timestamp": now,
            **_limits(record),
        }
        if record.writable:
            pvdb[record.name] = SetpointChannel(machine=machine, channel=record.name, **common)
        else:
            pvdb[record.name] = ReadOnlyChannel(**common)
    return pvdb


async def publish_forever(
    machine: SimMachine, pvdb: dict[str, ChannelDouble], update_rate: float
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
            reading = machine.read(name, now)
            status = getattr(AlarmStatus, reading.alarm_status, AlarmStatus.UDF)
            await pvdb[name].write(
                reading.value,
                timestamp=now,
                status=status,
                severity=_SEVERITY.get(reading.alarm_severity, AlarmSeverity.INVALID_ALARM),
                verify_value=False,
            )
        elapsed = asyncio.get_running_loop().time() - started
        await asyncio.sleep(max(0.0, period - elapsed))


async def serve(
    machine: SimMachine,
    interfaces: Iterable[str] = ("127.0.0.1",),
    update_rate: float = 2.0,
    on_ready: Callable[[int], Awaitable[None] | None] | None = None,
) -> None:
    """Serve until cancelled. ``on_ready(tcp_port)`` runs once the server listens."""
    from caproto.asyncio.server import Context as ServerContext

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
