"""The Tango connector against a real device server (PyTango's ``DeviceTestContext``).

The server (``tango_device.PowerSupply``) runs in its own process on 127.0.0.1 without a
Tango database; the connector reaches it by the name Tango gives it,
``tango://127.0.0.1:PORT/test/nodb/powersupply#dbase=no``, plus the attribute.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

tango = pytest.importorskip("tango", reason="PyTango is not installed (pip install pytango)")

from tango.test_context import DeviceTestContext  # noqa: E402

from osprey_desktop.channels.addresses import channel_key, same_channel  # noqa: E402
from osprey_desktop.connectors.base import ChannelNotFoundError  # noqa: E402
from osprey_desktop.connectors.protocol_router import ProtocolRouterConnector  # noqa: E402
from osprey_desktop.connectors.tango import TangoControlSystemConnector, TangoName  # noqa: E402
from osprey_desktop.connectors.values import EnumState  # noqa: E402
from osprey_desktop.safety.audit import AuditLog  # noqa: E402
from osprey_desktop.safety.guarded_write import perform_guarded_write  # noqa: E402
from osprey_desktop.safety.limits import LimitRule, LimitsDatabase  # noqa: E402
from osprey_desktop.safety.write_policy import WritePolicy  # noqa: E402
from tests.connectors.tango_device import PROFILE, PowerSupply  # noqa: E402

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def server() -> Iterator[DeviceTestContext]:
    context = DeviceTestContext(
        PowerSupply, process=True, host="127.0.0.1", device_name="test/nodb/powersupply"
    )
    with context:
        yield context


def attr(server: DeviceTestContext, attribute: str) -> str:
    device, _, options = server.get_device_access().partition("#")
    return f"{device}/{attribute}#{options}"


@pytest.fixture
async def tango_connector() -> AsyncIterator[TangoControlSystemConnector]:
    connector = TangoControlSystemConnector(timeout=3.0, poll_interval=0.05, settle_timeout=0.5)
    await connector.connect()
    yield connector
    await connector.disconnect()


def test_tango_names_split_into_device_and_attribute() -> None:
    name = TangoName.parse("tango://127.0.0.1:10000/sr/ps/hcm01/current#dbase=no")
    assert name.device == "tango://127.0.0.1:10000/sr/ps/hcm01#dbase=no"
    assert name.attribute == "current"
    assert TangoName.parse("sr/ps/hcm01/current").device == "sr/ps/hcm01"
    with pytest.raises(ChannelNotFoundError, match="domain/family/member/attribute"):
        TangoName.parse("tango://sr/ps/current")
    # one identity whatever the host and the case
    assert same_channel("tango://db:10000/SR/PS/HCM01/Current", "sr/ps/hcm01/current")
    assert channel_key("tango://db:10000/sr/ps/hcm01/current#dbase=no") == "sr/ps/hcm01/current"


async def test_read_has_units_precision_description_and_limits(server, tango_connector) -> None:
    reading = await tango_connector.read_channel(attr(server, "current"))
    assert reading.value == pytest.approx(1.0)
    md = reading.metadata
    assert md.units == "A" and md.precision == 3 and md.description == "Corrector current"
    assert md.control_limits == (-5.0, 5.0) and md.alarm_limits == {"hihi": 4.5}
    assert md.alarm_severity == "NO_ALARM" and md.writable is True
    assert reading.formatted() == "1.000 A"


async def test_quality_alarm_becomes_a_major_alarm(server, tango_connector) -> None:
    reading = await tango_connector.read_channel(attr(server, "temperature"))
    assert reading.value == pytest.approx(42.0)
    assert reading.alarm_severity == "MAJOR" and reading.alarm_status == "ALARM"
    assert reading.metadata.writable is False


async def test_enum_string_and_spectrum_read_as_on_epics(server, tango_connector) -> None:
    level = await tango_connector.read_channel(attr(server, "level"))
    assert isinstance(level.value, EnumState) and level.value == "Off"
    assert level.metadata.enum_strings == ("Off", "Half", "Full")
    assert (await tango_connector.read_channel(attr(server, "mode"))).value == "auto"
    profile = await tango_connector.read_channel(attr(server, "profile"))
    assert profile.value == PROFILE and profile.kind == "waveform"
    assert profile.formatted().startswith("16 values, min 0.50, max 8.00, mean 4.25 mm")


async def test_write_is_verified_by_its_read_value(server, tango_connector) -> None:
    result = await tango_connector.write_channel(attr(server, "current"), 2.5)
    assert result.outcome == "verified", result.message
    assert result.readback == pytest.approx(2.5)
    assert (await tango_connector.read_channel(attr(server, "current"))).value == 2.5


async def test_a_read_value_that_does_not_follow_is_verification_failed(
    server, tango_connector
) -> None:
    result = await tango_connector.write_channel(attr(server, "stuck"), 13.5)
    assert result.outcome == "verification_failed", result.message
    assert result.readback == pytest.approx(12.49)


async def test_the_device_refuses_a_value_beyond_its_max(server, tango_connector) -> None:
    result = await tango_connector.write_channel(attr(server, "current"), 7.0)
    assert result.outcome == "not_sent"
    assert "outside the control range" in result.message


async def test_enum_by_state_name_and_text(server, tango_connector) -> None:
    half = await tango_connector.write_channel(attr(server, "level"), "half")
    assert half.outcome == "verified", half.message
    assert half.value_written == "Half" and half.value_sent == 1
    refused = await tango_connector.write_channel(attr(server, "level"), "Quarter")
    assert refused.outcome == "not_sent" and "'Off'" in refused.message
    text = await tango_connector.write_channel(attr(server, "mode"), "maintenance")
    assert text.outcome == "verified", text.message
    assert (await tango_connector.read_channel(attr(server, "mode"))).value == "maintenance"


async def test_read_only_attribute_is_not_written(server, tango_connector) -> None:
    result = await tango_connector.write_channel(attr(server, "temperature"), 20.0)
    assert result.outcome == "not_sent" and "read-only" in result.message


async def test_an_unknown_attribute_is_not_found(server, tango_connector) -> None:
    with pytest.raises(ChannelNotFoundError, match="nosuch"):
        await tango_connector.read_channel(attr(server, "nosuch"))


async def test_tango_through_the_router_and_the_guarded_write_path(
    server, tango_connector, tmp_path: Path
) -> None:
    router = ProtocolRouterConnector({"tango": lambda: tango_connector}, default_protocol="tango")
    await router.connect()
    name = attr(server, "current")
    policy = WritePolicy(
        True, LimitsDatabase({name: LimitRule(min=-3.0, max=3.0)}), connector_type="tango"
    )
    audit = AuditLog(tmp_path / "audit.sqlite")
    blocked = await perform_guarded_write(router, policy, audit, name, 4.0, thread_id="t")
    assert blocked.outcome == "blocked" and "maximum of 3" in blocked.result.message
    done = await perform_guarded_write(router, policy, audit, name, -1.5, thread_id="t")
    assert done.outcome == "verified", done.result.message
    entries = audit.entries()
    assert [e.outcome for e in entries] == ["blocked", "intent", "verified"]
    assert entries[-1].channel == name


async def test_the_configured_tango_control_system_reads_and_refuses_made_up_history(
    server, configure
) -> None:
    from osprey_desktop.connectors import close_connectors
    from osprey_desktop.connectors.factory import (
        archiver_refusal,
        get_control_system_connector,
    )

    config = configure({"control_system": {"type": "tango"}})
    try:
        connector = await get_control_system_connector(config)
        reading = await connector.read_channel(attr(server, "temperature"))
        assert reading.alarm_severity == "MAJOR" and reading.units == "degC"
    finally:
        await close_connectors()
    refusal = archiver_refusal(config)
    assert refusal is not None and "No archiver is configured for the TANGO" in refusal
    sim = configure({"control_system": {"type": "tango"}, "archiver": {"type": "sim"}})
    assert "its history would be made up" in (archiver_refusal(sim) or "")
