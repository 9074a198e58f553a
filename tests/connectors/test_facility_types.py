"""Every EPICS value type over Channel Access and PV Access, against an independent IOC.

The facility IOC (``facility_ioc``) runs twice as child processes on free loopback ports: a
caproto IOC (``FAC:``) and a p4p PV Access server (``PVA:``), both stopped by their pid. The
same assertions hold over both protocols, through the protocol router (``ca://``/``pva://``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from osprey_desktop.connectors.base import ChannelNotFoundError, ChannelValue
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from osprey_desktop.connectors.protocol_router import ProtocolRouterConnector
from osprey_desktop.connectors.pva import PvaControlSystemConnector
from osprey_desktop.connectors.values import EnumState
from osprey_desktop.safety.audit import AuditLog
from osprey_desktop.safety.guarded_write import perform_guarded_write
from osprey_desktop.safety.limits import LimitRule, LimitsDatabase
from osprey_desktop.safety.write_policy import WritePolicy
from tests.connectors.facility_ioc import WAVEFORM, FacilityIocProcess, PvaServerProcess
from tests.support.waiting import until, value_when

pytestmark = [pytest.mark.ioc, pytest.mark.timeout(120)]

PREFIXES = {"ca": "ca://FAC:", "pva": "pva://PVA:"}


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, dict[str, str]]]:
    with FacilityIocProcess() as ca_ioc, PvaServerProcess() as pva_server:
        yield {"ca": ca_ioc.client_environment, "pva": pva_server.client_environment}


@pytest.fixture
async def router(
    servers, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ProtocolRouterConnector]:
    for env in servers.values():
        for key, value in env.items():
            monkeypatch.setenv(key, value)
    options = {"timeout": 2.0, "poll_interval": 0.05, "settle_timeout": 2.0}
    connector = ProtocolRouterConnector(
        {
            "ca": lambda: EpicsControlSystemConnector(**options),
            "pva": lambda: PvaControlSystemConnector(**options),
        }
    )
    await connector.connect()
    yield connector
    await connector.disconnect()


@pytest.fixture(params=["ca", "pva"])
def pv(request) -> str:
    """The name prefix of one protocol's PVs (the test runs once per protocol)."""
    return PREFIXES[request.param]


async def test_enum_reads_as_its_state_name_with_its_index(router, pv) -> None:
    valve = await router.read_channel(pv + "VALVE")
    assert valve.value == "Closed" and isinstance(valve.value, EnumState)
    assert valve.enum_index == 0 and valve.kind == "enum"
    assert valve.metadata.enum_strings == ("Closed", "Open")
    assert valve.formatted() == "Closed"
    assert valve.to_dict()["value"] == "Closed" and valve.to_dict()["enum_index"] == 0
    assert valve.name == pv + "VALVE"  # answered under the name as asked


async def test_enum_is_written_by_state_name_and_the_wire_gets_the_index(router, pv) -> None:
    opened = await router.write_channel(pv + "VALVE", "open")
    assert opened.outcome == "verified", opened.message
    assert opened.value_written == "Open" and opened.value_sent == 1
    assert (await router.read_channel(pv + "VALVE")).value == "Open"
    closed = await router.write_channel(pv + "VALVE", 0, verification="callback")
    assert closed.outcome == "verified" and closed.value_written == "Closed"
    assert (await router.read_channel(pv + "VALVE")).enum_index == 0


async def test_an_unknown_state_is_refused_naming_the_states(router, pv) -> None:
    result = await router.write_channel(pv + "VALVE", "Half open")
    assert result.outcome == "not_sent" and not result.sent
    assert "0 'Closed', 1 'Open'" in result.message and "nothing was sent" in result.message
    assert (await router.read_channel(pv + "VALVE")).value == "Closed"


async def test_string_channel_reads_and_writes_text(router, pv) -> None:
    assert (await router.read_channel(pv + "MODE")).value == "auto"
    result = await router.write_channel(pv + "MODE", "manual")
    assert result.outcome == "verified" and result.readback == "manual", result.message
    assert (await router.read_channel(pv + "MODE")).kind == "string"
    await router.write_channel(pv + "MODE", "auto", verification="callback")


async def test_waveform_is_a_list_with_a_summary(router, pv) -> None:
    wf = await router.read_channel(pv + "WF")
    assert wf.value == WAVEFORM and wf.kind == "waveform"
    assert wf.summary() == {
        "count": 16,
        "first": WAVEFORM[:5],
        "min": 0.5,
        "max": 8.0,
        "mean": pytest.approx(4.25),
    }
    assert wf.formatted().startswith("16 values, min 0.5")
    assert "mean 4.25" in wf.formatted() and wf.units == "mm"


async def test_integer_channel_counts_up(router, pv) -> None:
    first = await router.read_channel(pv + "COUNTS")
    assert isinstance(first.value, int) and first.kind == "integer" and first.units == "counts"
    await value_when(
        lambda: router.read_channel(pv + "COUNTS"),
        lambda later: later.value > first.value,
        f"{pv}COUNTS to count past {first.value}",
    )


async def test_units_description_and_alarm_limits_come_from_the_server(router, pv) -> None:
    temp = await router.read_channel(pv + "TEMP")
    md = temp.metadata
    assert (temp.value, md.units, md.precision) == (21.5, "degC", 2)
    assert md.description == "Cooling water temperature"
    assert md.alarm_limits is not None
    assert (md.alarm_limits["high"], md.alarm_limits["hihi"]) == (40.0, 60.0)
    assert temp.formatted() == "21.50 degC"


async def test_a_put_the_server_clamps_is_reported_as_clamped(router, pv) -> None:
    result = await router.write_channel(pv + "HEATER:SP", 150.0)
    assert result.outcome == "verification_failed" and result.clamped, result.message
    assert result.sent and not result.success and result.readback == 100.0
    assert "applied 100.0" in result.message
    assert (await router.read_channel(pv + "HEATER:SP")).value == 100.0
    back = await router.write_channel(pv + "HEATER:SP", 10.0)
    assert back.outcome == "verified" and not back.clamped


async def test_monitor_delivers_updates_under_the_asked_name(router, pv) -> None:
    seen: list[ChannelValue] = []
    sub = await router.subscribe(pv + "COUNTS", seen.append)
    await until(lambda: len(seen) >= 3, f"three monitor updates of {pv}COUNTS")
    await router.unsubscribe(sub)
    count = len(seen)
    assert all(v.name == pv + "COUNTS" for v in seen)
    assert [v.value for v in seen] == sorted(v.value for v in seen)
    await asyncio.sleep(0.3)
    assert len(seen) == count


async def test_a_name_nobody_serves_is_not_found_naming_the_address_list(router) -> None:
    with pytest.raises(ChannelNotFoundError, match=r"EPICS_PVA_ADDR_LIST \(now 127\.0\.0\.1:"):
        await router.read_channel("pva://PVA:NOPE", timeout=0.5)
    with pytest.raises(ChannelNotFoundError, match="protocol 'http'"):
        await router.read_channel("http://FAC:TEMP")


async def test_pva_write_goes_through_the_guarded_write_path(router, tmp_path: Path) -> None:
    policy = WritePolicy(True, LimitsDatabase({}, allow_unlisted=True), connector_type="epics")
    audit = AuditLog(tmp_path / "audit.sqlite")
    outcome = await perform_guarded_write(
        router, policy, audit, "pva://PVA:SIGNAL", 2.5, thread_id="t-1", approval_id="a-1"
    )
    assert outcome.outcome == "verified", outcome.result.message
    intent, done = audit.entries()
    assert (intent.outcome, intent.channel, intent.value_before) == (
        "intent",
        "pva://PVA:SIGNAL",
        1.0,
    )
    assert (done.outcome, done.readback_after) == ("verified", 2.5)
    assert (await router.read_channel("pva://PVA:SIGNAL")).value == 2.5
    await router.write_channel("pva://PVA:SIGNAL", 1.0, verification="callback")


async def test_guarded_write_of_an_enum_state_by_name(router, tmp_path) -> None:
    """Unlisted (and allowed): the name is recorded, the connector sends the index. Listed
    with numeric limits (keyed ``ca://FAC:VALVE``, which is FAC:VALVE): they apply to the
    state's index, as on the wire."""
    audit = AuditLog(tmp_path / "audit.sqlite")
    unlisted = WritePolicy(True, LimitsDatabase({}, allow_unlisted=True), connector_type="epics")
    outcome = await perform_guarded_write(router, unlisted, audit, "ca://FAC:VALVE", "Open")
    assert outcome.outcome == "verified" and outcome.result.value_sent == 1
    intent, done = audit.entries()
    assert (intent.requested_value, intent.value_before) == ("Open", "Closed")
    assert (done.outcome, done.readback_after) == ("verified", "Open")
    listed = WritePolicy(
        True,
        LimitsDatabase({"ca://FAC:VALVE": LimitRule(min=0.0, max=0.0)}),  # Closed only
        connector_type="epics",
    )
    refused = await perform_guarded_write(router, listed, audit, "FAC:VALVE", "Open")
    assert refused.outcome == "blocked" and not refused.sent
    assert "maximum of 0" in refused.result.message
    closed = await perform_guarded_write(router, listed, audit, "ca://FAC:VALVE", "closed")
    assert closed.outcome == "verified" and closed.result.value_sent == 0
    assert (await router.read_channel("ca://FAC:VALVE")).value == "Closed"
    await router.write_channel("ca://FAC:VALVE", "Closed", verification="callback")
