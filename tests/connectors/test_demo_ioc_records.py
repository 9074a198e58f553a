"""The demo IOC behaves like EPICS records: fields, clamped puts, alarms, no beacon noise.

One demo IOC child process for this module (its fields are changed here), checked with
caproto's own command-line client and with the EPICS connector.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from tests.support.demo_ioc import CAPROTO_GET

pytestmark = [pytest.mark.ioc, pytest.mark.timeout(120)]

SP = "SR01C:HCM03:Current:SP"
RB = "SR01C:HCM03:Current:RB"
BPM = "SR03C:BPM13:X"
CAPROTO_PUT = CAPROTO_GET.with_name("caproto-put")


@pytest.fixture(scope="module")
def ioc() -> Iterator[DemoIocProcess]:
    process = DemoIocProcess(rate=5.0).start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def ca(ioc: DemoIocProcess) -> Callable[..., str]:
    """``ca("get", name)`` / ``ca("put", name, value)``: caproto's own client, no repeater."""

    def run(verb: str, *args: str) -> str:
        tool = CAPROTO_GET if verb == "get" else CAPROTO_PUT
        done = subprocess.run(
            [str(tool), "--no-repeater", "--timeout", "5", *args],
            env={**os.environ, **ioc.client_environment},
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


def value_of(out: str) -> str:
    return out.split(None, 1)[1].strip().strip("[]")


@pytest.fixture
async def epics(ioc, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[EpicsControlSystemConnector]:
    for key, value in ioc.client_environment.items():
        monkeypatch.setenv(key, value)
    connector = EpicsControlSystemConnector(timeout=3.0, poll_interval=0.05)  # no channel list
    await connector.connect()
    yield connector
    await connector.disconnect()


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("EGU", "A"),
        ("DESC", "Horizontal corrector magnet HCM03 curren"),  # 40 characters, as a record
        ("PREC", "3"),
        ("HOPR", "10"),
        ("LOPR", "-10"),
        ("DRVH", "10"),
        ("DRVL", "-10"),
        ("HHSV", "NO_ALARM"),  # no alarm limits on a setpoint: no severities either
        ("LSV", "NO_ALARM"),
        ("SEVR", "NO_ALARM"),
        ("STAT", "NO_ALARM"),
        ("NAME", SP),
    ],
)
def test_setpoint_fields_are_served(ca, field, expected) -> None:
    assert value_of(ca("get", f"{SP}.{field}")) == expected


def test_readback_fields_carry_the_alarm_limits(ca) -> None:
    assert [value_of(ca("get", f"{RB}.{f}")) for f in ("HIHI", "HIGH", "LOW", "LOLO")] == [
        "9.5",
        "8",
        "-8",
        "-9.5",
    ]
    assert value_of(ca("get", f"{RB}.HHSV")) == "MAJOR"
    assert value_of(ca("get", f"{BPM}.HSV")) == "MINOR"


def test_a_put_beyond_the_drive_limit_is_clamped_without_an_alarm(ca) -> None:
    ca("put", SP, "50")
    assert value_of(ca("get", SP)) == "10"
    assert (value_of(ca("get", f"{SP}.SEVR")), value_of(ca("get", f"{SP}.STAT"))) == (
        "NO_ALARM",
        "NO_ALARM",
    )
    ca("put", SP, "0")


async def test_the_connector_reports_a_clamp_by_limits_changed_since_it_looked(ca, epics):
    before = await epics.read_channel(SP)  # caches the control limits, -10..10
    assert before.metadata.control_limits == (-10.0, 10.0)
    await asyncio.to_thread(ca, "put", f"{SP}.DRVH", "2")
    try:
        result = await epics.write_channel(SP, 3.0)
        assert result.outcome == "verification_failed" and result.clamped, result.message
        assert result.readback == 2.0 and "applied 2.000 A" in result.message
    finally:
        await asyncio.to_thread(ca, "put", f"{SP}.DRVH", "10")
        await epics.write_channel(SP, 0.0, verification="callback")


async def test_alarm_limits_and_severities_set_on_a_record_apply_to_its_value(ca, epics):
    await asyncio.to_thread(ca, "put", f"{SP}.HIHI", "1")
    await asyncio.to_thread(ca, "put", f"{SP}.HHSV", "MAJOR")
    try:
        await epics.write_channel(SP, 1.5, verification="callback")
        reading = await epics.read_channel(SP)
        assert (reading.alarm_status, reading.alarm_severity) == ("HIHI", "MAJOR")
        await asyncio.to_thread(ca, "put", f"{SP}.HHSV", "MINOR")
        await epics.write_channel(SP, 1.25, verification="callback")
        assert (await epics.read_channel(SP)).alarm_severity == "MINOR"
    finally:
        await asyncio.to_thread(ca, "put", f"{SP}.HHSV", "NO_ALARM")
        await epics.write_channel(SP, 0.0, verification="callback")
    assert (await epics.read_channel(SP)).alarm_severity == "NO_ALARM"


def test_fields_of_a_read_only_record_cannot_be_written(ca) -> None:
    ca("put", f"{BPM}.HIHI", "0")  # refused by the IOC (caproto-put still exits 0)
    assert value_of(ca("get", f"{BPM}.HIHI")) == "2"


async def test_description_comes_from_the_desc_field_without_a_channel_list(epics) -> None:
    reading = await epics.read_channel(BPM)
    assert reading.metadata.description.startswith("Horizontal")
    assert reading.metadata.units == "mm" and reading.metadata.alarm_limits is not None


def test_no_repeater_means_one_warning_not_a_traceback_per_beacon(ioc) -> None:
    log = ioc.data_dir / "state" / "osprey-desktop" / "osprey-desktop.log"
    deadline = 10
    while deadline and "repeater" not in (log.read_text() if log.exists() else ""):
        deadline -= 1
        subprocess.run(["sleep", "0.5"], check=True)
    text = log.read_text()
    assert text.count("No Channel Access repeater receives this IOC's beacons") == 1
    assert "Failed to send beacon" not in text and "broadcast_beacon_loop" not in text
    with pytest.raises(TimeoutError) as waited:  # everything the IOC printed so far
        ioc.wait_for_output("never printed", 1.0)
    assert "Traceback" not in str(waited.value) and "Failed to send beacon" not in str(waited.value)
