"""What the EPICS connector reports when a put is slow or the IOC dies: never "not sent" once
the put has left, because an operator told "nothing was written" writes it again.

Each test talks to ``slow_put_ioc`` (a caproto IOC child process on free loopback ports); the
tests that kill it get their own, killed with SIGKILL by its pid at a point the IOC announces on
stdout, so no test depends on a guessed sleep.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import pytest

from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from tests.connectors.slow_put_ioc import PUT_DELAY, SlowPutIocProcess

pytestmark = pytest.mark.ioc

PUT_TIMEOUT = 0.3  # well under the IOC's PUT_DELAY


@pytest.fixture(scope="module")
def slow_ioc() -> Iterator[SlowPutIocProcess]:
    process = SlowPutIocProcess().start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def doomed_ioc() -> Iterator[SlowPutIocProcess]:
    """An IOC of this test's own, for the test to kill."""
    process = SlowPutIocProcess().start()
    try:
        yield process
    finally:
        process.stop()


def hold_database() -> ChannelDatabase:
    return ChannelDatabase(
        [
            ChannelRecord(
                name="HOLD:SP", role="setpoint", writable=True, units="A", readback="HOLD:RB"
            ),
            ChannelRecord(name="HOLD:RB", role="readback", units="A", setpoint="HOLD:SP"),
        ]
    )


async def open_connector(
    ioc: SlowPutIocProcess, monkeypatch: pytest.MonkeyPatch, **options: float
) -> EpicsControlSystemConnector:
    for key, value in ioc.client_environment.items():
        monkeypatch.setenv(key, value)
    connector = EpicsControlSystemConnector(
        timeout=1.0,
        database=hold_database(),
        confirm_timeout=0.5,
        poll_interval=0.05,
        **options,
    )
    await connector.connect()
    return connector


@pytest.fixture
async def epics(
    slow_ioc: SlowPutIocProcess, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[EpicsControlSystemConnector]:
    connector = await open_connector(slow_ioc, monkeypatch)
    yield connector
    await connector.disconnect()


@pytest.fixture
async def doomed_epics(
    doomed_ioc: SlowPutIocProcess, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[EpicsControlSystemConnector]:
    connector = await open_connector(doomed_ioc, monkeypatch, settle_timeout=10.0)
    yield connector
    await connector.disconnect()


async def test_late_put_completion_is_verified_when_the_value_landed(epics) -> None:
    result = await epics.write_channel("LATE:SP", 1.5, verification="callback", timeout=PUT_TIMEOUT)
    assert result.outcome == "verified", result.message
    assert result.sent and result.success and result.verified
    assert result.readback == 1.5
    assert "completion was late" in result.message
    assert f"did not confirm the put within {PUT_TIMEOUT:g} s" in result.message


async def test_slow_put_that_cannot_be_confirmed_is_in_doubt_not_unsent(slow_ioc, epics) -> None:
    result = await epics.write_channel("SLOW:SP", 2.5, verification="callback", timeout=PUT_TIMEOUT)
    assert result.outcome == "in_doubt", result.message
    assert result.sent and not result.success and not result.verified
    assert result.readback == 0.0
    assert "may or may not have been applied" in result.message
    assert "Read SLOW:SP" in result.message
    # and it did land: "nothing was written" would have been false
    await asyncio.to_thread(slow_ioc.wait_for_output, "PUT-APPLIED SLOW:SP", PUT_DELAY + 5)
    assert (await epics.read_channel("SLOW:SP")).value == 2.5


async def test_payload_caproto_cannot_encode_is_not_sent(epics) -> None:
    result = await epics.write_channel("HOLD:SP", "two amps", verification="callback")
    assert result.outcome == "not_sent" and not result.sent
    assert "nothing was sent" in result.message
    assert (await epics.read_channel("HOLD:SP")).value == 0.0


async def test_ioc_death_during_readback_is_readback_failed(doomed_ioc, doomed_epics) -> None:
    write = asyncio.create_task(doomed_epics.write_channel("HOLD:SP", 1.25, tolerance=0.01))
    # HOLD:RB never follows, so the readback wait is still polling when the IOC dies
    await asyncio.to_thread(doomed_ioc.wait_for_output, "READ HOLD:RB", 5.0)
    doomed_ioc.kill()
    started = time.monotonic()
    result = await asyncio.wait_for(write, timeout=10.0)
    assert result.outcome == "readback_failed", result.message
    assert result.sent and not result.success
    assert result.readback_channel == "HOLD:RB"
    assert "could not be read" in result.message and "read the channel" in result.message
    assert any("PUT-APPLIED HOLD:SP" in line for line in doomed_ioc.output)
    assert time.monotonic() - started < 8.0  # not the 10 s settle time (room for a busy machine)


async def test_ioc_death_during_the_put_is_in_doubt(doomed_ioc, doomed_epics) -> None:
    write = asyncio.create_task(
        doomed_epics.write_channel("SLOW:SP", 3.5, verification="callback", timeout=10.0)
    )
    await asyncio.to_thread(doomed_ioc.wait_for_output, "PUT-START SLOW:SP", 5.0)
    doomed_ioc.kill()
    result = await asyncio.wait_for(write, timeout=10.0)
    assert result.outcome == "in_doubt", result.message
    assert result.sent and result.readback is None
    assert "dropped during the put" in result.message
    assert "could not be read back" in result.message
    assert "may or may not have been applied" in result.message
