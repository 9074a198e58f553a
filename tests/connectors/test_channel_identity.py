"""One channel, however its name is written: pairing, limits, routing and the answer.

``pva://X``, ``ca://X`` and ``X`` name one channel (``channels.addresses``). Against the
facility IOC and the p4p server (child processes on loopback, stopped by their pid): a write
to a ``pva://`` setpoint whose readback does not follow is ``verification_failed``, whichever
spelling the list and the request use, and limits keyed ``pva://X`` govern ``X``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from osprey_desktop.channels.addresses import (
    AddressError,
    channel_key,
    parse_address,
    protocol_of,
    same_channel,
)
from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.channels.records import ChannelRecord
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from osprey_desktop.connectors.protocol_router import ProtocolRouterConnector, split_protocol
from osprey_desktop.connectors.pva import PvaControlSystemConnector
from osprey_desktop.safety.audit import AuditLog
from osprey_desktop.safety.guarded_write import perform_guarded_write
from osprey_desktop.safety.limits import LimitRule, LimitsDatabase
from osprey_desktop.safety.write_policy import WritePolicy
from tests.connectors.facility_ioc import STUCK, FacilityIocProcess, PvaServerProcess


def stuck_list(prefix: str, pv: str) -> ChannelDatabase:
    """A facility list naming the stuck setpoint and its readback as ``prefix + pv``."""
    return ChannelDatabase(
        [
            ChannelRecord(
                name=f"{prefix}{pv}STUCK:SP",
                role="setpoint",
                writable=True,
                units="A",
                readback=f"{prefix}{pv}STUCK:RB",
            ),
            ChannelRecord(name=f"{prefix}{pv}STUCK:RB", role="readback", units="A", setpoint=None),
        ]
    )


def test_a_prefix_names_the_protocol_never_another_channel() -> None:
    assert channel_key("pva://SR:HCM01:SP") == channel_key("SR:HCM01:SP") == "SR:HCM01:SP"
    assert same_channel("ca://X", "pva://X") and not same_channel("X", "Y")
    assert parse_address(" PVA://X ").protocol == "pva" and protocol_of("X") is None
    with pytest.raises(AddressError, match="not supported"):
        parse_address("http://X")
    assert channel_key("http://X") == "http://X"  # an unknown scheme never matches a channel


def test_the_channel_list_finds_a_channel_by_any_spelling() -> None:
    listed = stuck_list("pva://", "PVA:")
    assert listed.get("PVA:STUCK:SP").name == "pva://PVA:STUCK:SP"
    assert listed.get("ca://PVA:STUCK:SP") is listed.get("pva://pva:stuck:sp")
    assert "PVA:STUCK:RB" in listed
    assert listed.readback_for("PVA:STUCK:SP") == "pva://PVA:STUCK:RB"
    bare = stuck_list("", "PVA:")
    assert bare.readback_for("pva://PVA:STUCK:SP") == "PVA:STUCK:RB"


def test_a_bare_name_goes_to_the_protocol_its_list_entry_names() -> None:
    listed = stuck_list("pva://", "PVA:")
    assert split_protocol("PVA:STUCK:SP", "ca", listed) == ("pva", "PVA:STUCK:SP")
    assert split_protocol("OTHER", "ca", listed) == ("ca", "OTHER")
    assert split_protocol("ca://PVA:STUCK:SP", "pva", listed) == ("ca", "PVA:STUCK:SP")


def test_limits_keyed_with_a_prefix_govern_the_bare_name_and_back() -> None:
    limits = LimitsDatabase(
        {"pva://SR:HCM01:SP": LimitRule(min=-5.0, max=5.0), "ca://SR:QF*": LimitRule(max=10.0)}
    )
    assert limits.rule_for("SR:HCM01:SP") is not None
    assert limits.rule_for("ca://SR:HCM01:SP") is not None
    assert limits.rule_for("pva://SR:QF07:SP") is not None
    check = limits.check_write("SR:HCM01:SP", 0.0, 7.0, "A")
    assert not check.allowed and "maximum of 5" in check.violation
    tango = LimitsDatabase({"tango://db:10000/SR/PS/HCM01/Current": LimitRule(max=2.0)})
    assert tango.rule_for("sr/ps/hcm01/current") is not None
    assert tango.rule_for("tango://other:10000/sr/ps/hcm01/current#dbase=no") is not None


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, dict[str, str]]]:
    with FacilityIocProcess() as ca_ioc, PvaServerProcess() as pva_server:
        yield {"ca": ca_ioc.client_environment, "pva": pva_server.client_environment}


def router_over(database: ChannelDatabase) -> ProtocolRouterConnector:
    options = {"timeout": 2.0, "poll_interval": 0.05, "settle_timeout": 0.4, "database": database}
    return ProtocolRouterConnector(
        {
            "ca": lambda: EpicsControlSystemConnector(**options),
            "pva": lambda: PvaControlSystemConnector(**options),
        },
        database=database,
    )


@pytest.fixture
def network(servers, monkeypatch: pytest.MonkeyPatch) -> None:
    for env in servers.values():
        for key, value in env.items():
            monkeypatch.setenv(key, value)


@pytest.fixture
async def connectors(network) -> AsyncIterator[list[ProtocolRouterConnector]]:
    made: list[ProtocolRouterConnector] = []
    yield made
    for connector in made:
        await connector.disconnect()


@pytest.mark.ioc
@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("listed", "asked"),
    [
        ("pva://", "pva://PVA:STUCK:SP"),  # the case of the report
        ("pva://", "PVA:STUCK:SP"),  # bare request, prefixed list: routed by the list
        ("", "pva://PVA:STUCK:SP"),  # prefixed request, bare list
    ],
)
async def test_a_pva_readback_that_does_not_follow_is_verification_failed(
    connectors, listed: str, asked: str
) -> None:
    router = router_over(stuck_list(listed, "PVA:"))
    connectors.append(router)
    await router.connect()
    result = await router.write_channel(asked, 13.5)
    assert result.outcome == "verification_failed", result.message
    assert result.readback == pytest.approx(STUCK)
    assert result.readback_channel is not None and result.readback_channel.endswith("STUCK:RB")
    assert result.channel == asked  # the answer speaks of the channel as asked
    await router.write_channel(asked, 12.5, verification="callback")


@pytest.mark.ioc
@pytest.mark.timeout(60)
async def test_ca_and_pva_spellings_verify_the_same_way(connectors) -> None:
    listed = ChannelDatabase(
        [*stuck_list("ca://", "FAC:"), *stuck_list("pva://", "PVA:")]  # type: ignore[list-item]
    )
    router = router_over(listed)
    connectors.append(router)
    await router.connect()
    for name in ("FAC:STUCK:SP", "PVA:STUCK:SP"):
        result = await router.write_channel(name, 13.0)
        assert result.outcome == "verification_failed", (name, result.message)
        await router.write_channel(name, 12.5, verification="callback")


@pytest.mark.ioc
@pytest.mark.timeout(60)
async def test_limits_keyed_pva_block_a_guarded_write_by_its_bare_name(
    connectors, tmp_path: Path
) -> None:
    router = router_over(stuck_list("pva://", "PVA:"))
    connectors.append(router)
    await router.connect()
    policy = WritePolicy(
        True, LimitsDatabase({"pva://PVA:STUCK:SP": LimitRule(min=0.0, max=13.0)}), "epics"
    )
    audit = AuditLog(tmp_path / "audit.sqlite")
    outcome = await perform_guarded_write(router, policy, audit, "PVA:STUCK:SP", 14.0)
    assert outcome.outcome == "blocked"
    assert "maximum of 13" in outcome.result.message
    assert "not in the write limits" not in outcome.result.message
