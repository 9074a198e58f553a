"""The simulated control-system connector: reads, verified writes, subscriptions, errors."""

from __future__ import annotations

import asyncio
import json

import pytest

from osprey_desktop.connectors.base import (
    ChannelAccessError,
    ChannelNotFoundError,
    ChannelValue,
)
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.support.waiting import until

HCM01 = "SR01C:HCM01:Current:SP"
HCM01_RB = "SR01C:HCM01:Current:RB"


@pytest.fixture
async def connector(fast_machine: SimMachine):
    conn = SimulatedControlSystemConnector(fast_machine, poll_interval=0.05, settle_timeout=2.0)
    await conn.connect()
    yield conn
    await conn.disconnect()


async def test_read_gives_value_timestamp_and_metadata(connector) -> None:
    value = await connector.read_channel("SR:DCCT:Current")
    assert 495 < value.value < 501
    assert value.units == "mA" and value.metadata.precision == 2
    assert value.metadata.display_limits == (0.0, 550.0)
    assert value.metadata.description.startswith("Stored beam current")
    assert value.alarm_severity == "NO_ALARM"
    assert value.formatted().endswith(" mA")
    json.dumps(value.to_dict())  # lands in the agent state: must be JSON-able


async def test_unknown_channel_error_names_the_channel(connector) -> None:
    with pytest.raises(ChannelNotFoundError) as caught:
        await connector.read_channel("SR:DCCT:Curent")
    assert caught.value.channel == "SR:DCCT:Curent"
    assert "SR:DCCT:Current" in str(caught.value)  # the suggestion


async def test_read_multiple_reports_each_failure_beside_the_good_reads(connector) -> None:
    result = await connector.read_multiple_channels(["SR:DCCT:Current", "NOPE", "SR:TUNE:X"])
    assert isinstance(result["SR:DCCT:Current"], ChannelValue)
    assert isinstance(result["NOPE"], ChannelNotFoundError)
    assert isinstance(result["SR:TUNE:X"], ChannelValue)


async def test_read_multiple_is_one_snapshot_at_one_instant(connector) -> None:
    result = await connector.read_multiple_channels(["SR:DCCT:Current", "SR03C:BPM13:X"])
    assert len({v.timestamp for v in result.values()}) == 1


async def test_write_with_readback_waits_until_the_readback_settles(connector) -> None:
    result = await connector.write_channel(HCM01, 1.5, verification="readback", tolerance=0.01)
    assert result.outcome == "verified" and result.success and result.verified
    assert result.readback_channel == HCM01_RB
    assert abs(result.readback - 1.5) <= 0.01
    assert (await connector.read_channel(HCM01)).value == 1.5
    json.dumps(result.to_dict())


async def test_write_with_verification_none_does_not_read_back(connector) -> None:
    result = await connector.write_channel(HCM01, -0.5, verification="none")
    assert result.outcome == "sent_unverified" and result.success
    assert not result.verified and result.readback is None
    assert (await connector.read_channel(HCM01)).value == -0.5


async def test_readback_that_does_not_settle_is_a_failed_verification(database) -> None:
    slow = SimMachine(database, lag_scale=100.0)  # 40 s time constant
    conn = SimulatedControlSystemConnector(slow, settle_timeout=0.2)
    await conn.connect()
    result = await conn.write_channel(HCM01, 2.0)
    await conn.disconnect()
    assert result.outcome == "verification_failed", result.message
    assert result.sent and not result.success and not result.verified
    assert "check the device" in result.message


async def test_device_refusal_leaves_the_channel_unchanged(connector) -> None:
    result = await connector.write_channel(HCM01, 25.0)
    assert result.outcome == "not_sent" and not result.sent
    assert "control range" in result.message
    assert (await connector.read_channel(HCM01)).value == 0.0


async def test_write_to_a_read_only_channel_is_refused(connector) -> None:
    result = await connector.write_channel("SR:DCCT:Current", 100.0)
    assert result.outcome == "not_sent" and "read-only" in result.message


async def test_subscription_delivers_current_value_then_changes(connector) -> None:
    seen: list[ChannelValue] = []
    sub = await connector.subscribe(HCM01, seen.append)
    await until(lambda: len(seen) >= 1, "the current value of a new subscription")
    await connector.write_channel(HCM01, 0.75, verification="none")
    await until(lambda: len(seen) >= 2, "the update after a write")
    await connector.unsubscribe(sub)
    assert [v.value for v in seen] == [0.0, 0.75]
    count = len(seen)
    await connector.write_channel(HCM01, 0.5, verification="none")
    await asyncio.sleep(0.1)
    assert len(seen) == count  # nothing after unsubscribe


async def test_async_subscriber_callbacks_are_awaited(connector) -> None:
    got = asyncio.Event()

    async def on_value(value: ChannelValue) -> None:
        got.set()

    sub = await connector.subscribe("SR:DCCT:Current", on_value)
    await asyncio.wait_for(got.wait(), 30.0)  # a deadline, not a wait: set at the first value
    await connector.unsubscribe(sub)


async def test_failing_subscriber_does_not_stop_its_subscription(connector) -> None:
    calls: list[float] = []

    def flaky(value: ChannelValue) -> None:
        calls.append(value.value)
        raise RuntimeError("subscriber bug")

    sub = await connector.subscribe("SR:DCCT:Current", flaky)
    await until(lambda: len(calls) >= 2, "a second call after the subscriber raised")
    await connector.unsubscribe(sub)


async def test_disconnected_connector_refuses_access(fast_machine) -> None:
    conn = SimulatedControlSystemConnector(fast_machine)
    with pytest.raises(ChannelAccessError, match="disconnected"):
        await conn.read_channel("SR:DCCT:Current")


async def test_validate_channel_and_metadata(connector) -> None:
    assert await connector.validate_channel(HCM01)
    assert not await connector.validate_channel("SR:NOTHING")
    metadata = await connector.get_metadata(HCM01)
    assert metadata.writable and metadata.control_limits == (-10.0, 10.0)


async def test_bad_verification_mode_is_a_clear_error(connector) -> None:
    with pytest.raises(ValueError, match="none, callback or readback"):
        await connector.write_channel(HCM01, 1.0, verification="maybe")  # type: ignore[arg-type]
