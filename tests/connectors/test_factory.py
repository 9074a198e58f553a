"""The factory builds what the config asks for, once per event loop, sharing one machine."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from osprey_desktop.connectors.archiver_appliance import (
    ArchiverApplianceConnector,
    viewer_url_for,
)
from osprey_desktop.connectors.archiver_base import ArchiverNotConfiguredError
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from osprey_desktop.connectors.factory import (
    archiver_refusal,
    close_connectors,
    get_archiver_connector,
    get_control_system_connector,
    get_sim_machine,
    set_sim_machine,
)
from osprey_desktop.connectors.protocol_router import ProtocolRouterConnector
from osprey_desktop.connectors.pva import PvaControlSystemConnector
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
    assert isinstance(connector, ProtocolRouterConnector) and connector.timeout == 0.5
    assert connector.default_protocol == "ca"
    assert connector.database is not None  # readback pairs come from the channel database
    ca, bare = await connector.connector_for("ca://SR:DCCT:Current")
    assert isinstance(ca, EpicsControlSystemConnector) and bare == "SR:DCCT:Current"
    assert (await connector.connector_for("SR:DCCT:Current"))[0] is ca
    pva, bare = await connector.connector_for("pva://SR:DCCT:Current")
    assert isinstance(pva, PvaControlSystemConnector) and pva.timeout == 0.5
    assert isinstance(archiver, ArchiverApplianceConnector)
    assert archiver.url == "http://127.0.0.1:9/retrieval"  # appliances.xml form
    await close_connectors()


# ----- which archive serves which machine ------------------------------------------------------


async def test_epics_without_an_archiver_refuses_history_and_says_how_to_set_one(
    configure,
) -> None:
    configure({"control_system": {"type": "epics"}})
    with pytest.raises(ArchiverNotConfiguredError) as caught:
        await get_archiver_connector()
    message = str(caught.value)
    assert "No archiver is configured for the EPICS control system" in message
    assert "type: archiver_appliance" in message and "url: http" in message
    await close_connectors()


async def test_the_simulated_archive_is_never_paired_with_a_real_machine(configure) -> None:
    configure({"control_system": {"type": "epics"}, "archiver": {"type": "sim"}})
    with pytest.raises(ArchiverNotConfiguredError, match="history would be made up"):
        await get_archiver_connector()
    await close_connectors()


async def test_an_explicit_none_refuses_history_with_the_sim_ring_too(configure) -> None:
    configure({"archiver": {"type": "none"}})
    assert "archiver.type is 'none'" in (archiver_refusal() or "")
    with pytest.raises(ArchiverNotConfiguredError):
        await get_archiver_connector()


async def test_unset_type_keeps_the_simulated_archive_with_the_simulated_ring(configure) -> None:
    config = configure()
    assert config.archiver.type is None and archiver_refusal() is None
    assert isinstance(await get_archiver_connector(), SimulatedArchiverConnector)
    await close_connectors()


async def test_appliance_with_epics_reads_enum_labels_from_the_live_channel(configure) -> None:
    configure(
        {
            "control_system": {"type": "epics", "epics": {"timeout": 0.2}},
            "archiver": {
                "type": "archiver_appliance",
                "archiver_appliance": {"url": "http://127.0.0.1:9/retrieval"},
            },
        }
    )
    archiver = await get_archiver_connector()
    assert isinstance(archiver, ArchiverApplianceConnector)
    assert archiver._enum_labels is not None  # the live connector's DBR_CTRL strings
    assert archiver.viewer_url == "http://127.0.0.1:9/retrieval/ui/viewer/archViewer.html"
    await close_connectors()


@pytest.mark.parametrize(
    "url",
    [
        "https://aa.example.org",
        "https://aa.example.org/",
        "http://aa:17665/retrieval",
        "http://aa:17665/retrieval/data/getData.json",
    ],
)
def test_viewer_url_follows_the_data_url_unless_set(configure, url) -> None:
    config = configure({"archiver": {"archiver_appliance": {"url": url}}})
    assert config.archiver.archiver_appliance.viewer_url is None
    assert config.archiver.archiver_appliance.effective_viewer_url == viewer_url_for(url)
    pinned = "https://viewer.example.org/archViewer.html"
    config = configure({"archiver": {"archiver_appliance": {"url": url, "viewer_url": pinned}}})
    assert config.archiver.archiver_appliance.effective_viewer_url == pinned


async def test_the_default_protocol_of_bare_names_is_configurable(configure) -> None:
    configure({"control_system": {"type": "epics", "epics": {"default_protocol": "pva"}}})
    connector = await get_control_system_connector()
    assert isinstance(connector, ProtocolRouterConnector)
    routed, bare = await connector.connector_for("SR:DCCT:Current")
    assert isinstance(routed, PvaControlSystemConnector) and bare == "SR:DCCT:Current"
    await close_connectors()
