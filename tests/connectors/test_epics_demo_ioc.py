"""The EPICS connector against the demo IOC, started as a child process on free loopback ports."""

from __future__ import annotations

import asyncio

import pytest

from osprey_desktop.connectors.base import ChannelAccessError, ChannelNotFoundError, ChannelValue
from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from tests.support.waiting import until, value_when

# The module-scoped `ioc` (one demo IOC child process for this module) and `caproto_get`.
pytest_plugins = ("tests.support.demo_ioc",)
pytestmark = pytest.mark.ioc


@pytest.fixture
async def epics(ioc: DemoIocProcess, monkeypatch: pytest.MonkeyPatch, database):
    for key, value in ioc.client_environment.items():
        monkeypatch.setenv(key, value)
    connector = EpicsControlSystemConnector(timeout=3.0, database=database, poll_interval=0.05)
    await connector.connect()
    yield connector
    await connector.disconnect()


async def test_read_brings_value_and_ctrl_metadata(epics) -> None:
    value = await epics.read_channel("SR:DCCT:Current")
    assert 495 < value.value < 501
    assert value.units == "mA" and value.metadata.precision == 2
    assert value.metadata.display_limits == (0.0, 550.0)
    assert value.metadata.alarm_limits == {
        "lolo": 100.0,
        "low": 450.0,
        "high": 510.0,
        "hihi": 530.0,
    }
    assert value.metadata.writable is False
    assert value.timestamp > 1.7e9


async def test_write_is_what_caproto_get_reads_back(caproto_get, epics) -> None:
    result = await epics.write_channel("SR02C:HCM04:Current:SP", 1.25, tolerance=0.02)
    assert result.outcome == "verified" and result.verified, result.message
    assert result.readback_channel == "SR02C:HCM04:Current:RB"
    out = await asyncio.to_thread(caproto_get, "SR02C:HCM04:Current:SP")
    assert out.split() == ["SR02C:HCM04:Current:SP", "[1.25]"]


async def test_write_with_callback_waits_for_put_completion(epics) -> None:
    result = await epics.write_channel("SR02C:VCM04:Current:SP", -0.5, verification="callback")
    assert result.outcome == "verified" and result.readback is None, result.message
    assert (await epics.read_channel("SR02C:VCM04:Current:SP")).value == -0.5


async def test_write_beyond_control_limits_writes_nothing(caproto_get, epics) -> None:
    result = await epics.write_channel("SR02C:HCM05:Current:SP", 50.0)
    assert result.outcome == "not_sent" and "control range" in result.message
    out = await asyncio.to_thread(caproto_get, "SR02C:HCM05:Current:SP")
    assert float(out.split()[-1].strip("[]")) == 0.0


async def test_read_only_pv_refuses_the_write(epics) -> None:
    result = await epics.write_channel("SR:DCCT:Current", 10.0)
    assert result.outcome == "not_sent" and "write access" in result.message


async def test_unknown_pv_is_reported_with_the_address_list(epics) -> None:
    with pytest.raises(ChannelNotFoundError, match=r"'NO:SUCH:PV'.*EPICS_CA_ADDR_LIST \(now 127"):
        await epics.read_channel("NO:SUCH:PV", timeout=0.5)


async def test_monitor_delivers_updates_until_unsubscribed(epics) -> None:
    seen: list[ChannelValue] = []
    sub = await epics.subscribe("SR03C:BPM14:X", seen.append)
    await until(lambda: len(seen) >= 3, "three monitor updates (the IOC publishes at 5 Hz)")
    await epics.unsubscribe(sub)
    count = len(seen)
    assert seen[-1].units == "mm"
    await asyncio.sleep(0.5)
    assert len(seen) == count


async def test_large_kick_trips_the_orbit_alarm_over_channel_access(epics) -> None:
    before = await epics.read_channel("SR03C:BPM13:X")
    assert before.alarm_severity == "NO_ALARM"
    result = await epics.write_channel("SR03C:HCM07:Current:SP", 6.0, verification="callback")
    assert result.outcome == "verified", result.message
    # the corrector settles (0.4 s lag) and the IOC republishes at 5 Hz: wait for the alarm
    after = await value_when(
        lambda: epics.read_channel("SR03C:BPM13:X"),
        lambda v: v.alarm_severity == "MAJOR",
        "the orbit alarm of SR03C:BPM13:X",
    )
    assert (after.alarm_status, after.alarm_severity) == ("HIHI", "MAJOR")
    restored = await epics.write_channel("SR03C:HCM07:Current:SP", 0.0, verification="callback")
    assert restored.outcome == "verified", restored.message


async def test_disconnected_connector_refuses_access(database) -> None:
    connector = EpicsControlSystemConnector(database=database)
    with pytest.raises(ChannelAccessError, match="disconnected"):
        await connector.read_channel("SR:DCCT:Current")
