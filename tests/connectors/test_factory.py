"""The factory builds what the config asks for, once per event loop, sharing one machine."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from osprey_desktop.connectors.archiver_appliance import ArchiverApplianceConnector
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from osprey_desktop.connectors.factory import (
    close_connectors,
    get_archiver_connector,
    get_control_system_connector,
    get_sim_machine,
    set_sim_machine,
)
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector
from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector
from osprey_desktop.connectors.sim_machine import SimMachine


async def test_sim_connector_and_archiver_share_one_machine(configure, database) -> None:
    configure()
    set_sim_machine(SimMachine(database, lag_scale=0.05))
    connector = await get_control_system_connector()
    archiver = await get_archiver_connector()
    assert isinstance(connector, SimulatedControlSystemConnector)
    assert isinstance(archiver, SimulatedArchiverConnector)
    assert connector.machine is archiver.machine is get_sim_machine()
    await connector.write_channel("SR01C:HCM01:Current:SP", 1.25, verification="none")
    now = datetime.now()
    data = await archiver.get_data(["SR01C:HCM01:Current:SP"], now - timedelta(minutes=5), now)
    assert data.series["SR01C:HCM01:Current:SP"].values[-1] == 1.25
    await close_connectors()


async def test_same_loop_gets_the_same_connected_instance(configure) -> None:
    configure()
    first = await get_control_system_connector()
    assert await get_control_system_connector() is first
    assert first.connected
    await close_connectors()
    assert not first.connected
    assert await get_control_system_connector() is not first
    await close_connectors()


def test_each_event_loop_gets_its_own_connector(configure) -> None:
    configure()

    async def build():
        connector = await get_control_system_connector()
        await close_connectors()
        return connector

    assert asyncio.run(build()) is not asyncio.run(build())


async def test_epics_and_appliance_types_build_their_connectors(configure) -> None:
    configure(
        {
            "control_system": {"type": "epics", "epics": {"timeout": 0.5}},
            "archiver": {
                "type": "archiver_appliance",
                "archiver_appliance": {"url": "http://127.0.0.1:9/", "timeout": 1.0},
            },
        }
    )
    connector = await get_control_system_connector()
    archiver = await get_archiver_connector()
    assert isinstance(connector, EpicsControlSystemConnector) and connector.timeout == 0.5
    assert connector.database is not None  # readback pairs come from the channel database
    assert isinstance(archiver, ArchiverApplianceConnector)
    assert archiver.url == "http://127.0.0.1:9"
    await close_connectors()
