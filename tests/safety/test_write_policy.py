"""The write policy decides in one place, and the guarded write audits every outcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.channels import load_channel_database
from osprey_desktop.config import resources_dir
from osprey_desktop.connectors.base import ChannelAccessError, ChannelValue, ChannelWriteResult
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.safety.audit import AuditLog
from osprey_desktop.safety.guarded_write import (
    perform_guarded_write,
    record_refused_write,
    record_rejected_write,
)
from osprey_desktop.safety.write_policy import WritePolicy

HCM = "SR01C:HCM01:Current:SP"


@pytest.fixture(scope="module")
def database():
    return load_channel_database(resources_dir() / "channels.yaml")


@pytest.fixture
async def connector(database):
    conn = SimulatedControlSystemConnector(SimMachine(database, lag_scale=0.05))
    await conn.connect()
    yield conn
    await conn.disconnect()


@pytest.fixture
def audit(tmp_path: Path) -> AuditLog:
    return AuditLog(tmp_path / "audit.sqlite")


def test_writes_are_on_for_sim_and_off_for_epics_by_default(configure) -> None:
    assert WritePolicy.from_config(configure()).writes_enabled
    epics = configure({"control_system": {"type": "epics"}})
    assert not WritePolicy.from_config(epics).writes_enabled
    armed = configure({"control_system": {"type": "epics", "epics": {"writes_enabled": True}}})
    assert WritePolicy.from_config(armed).writes_enabled


def test_switched_off_writes_are_refused_with_how_to_enable(configure) -> None:
    policy = WritePolicy.from_config(configure({"control_system": {"type": "epics"}}))
    check = policy.check(HCM, 0.0, 1.0)
    assert not check.allowed
    assert "control_system.epics.writes_enabled: true" in check.violation
    assert "off by default for EPICS" in check.violation


def test_per_turn_override_of_the_switch_wins(configure) -> None:
    policy = WritePolicy.from_config(configure(), writes_enabled=False)
    assert not policy.check(HCM, 0.0, 1.0).allowed


def test_corrupt_limits_file_refuses_every_write(configure, tmp_path: Path) -> None:
    bad = tmp_path / "limits.yaml"
    bad.write_text("channels: [oops")
    policy = WritePolicy.from_config(configure({"control_system": {"limits_database": str(bad)}}))
    check = policy.check(HCM, 0.0, 1.0)
    assert not check.allowed and f"{bad}: is not valid YAML" in check.violation


def test_missing_limits_file_refuses_every_write(configure, tmp_path: Path) -> None:
    cfg = configure({"control_system": {"limits_database": str(tmp_path / "gone.yaml")}})
    check = WritePolicy.from_config(cfg).check(HCM, 0.0, 1.0)
    assert not check.allowed and "does not exist" in check.violation


async def test_evaluate_reads_the_current_value_and_applies_limits(configure, connector) -> None:
    policy = WritePolicy.from_config(configure())
    check = await policy.evaluate(connector, HCM, 1.5)
    assert check.allowed and check.current_value == 0.0 and check.units == "A"
    too_far = await policy.evaluate(connector, HCM, 7.0)
    assert not too_far.allowed and "max=5" in too_far.violation


async def test_unreadable_current_value_fails_closed(configure, connector) -> None:
    class Broken(SimulatedControlSystemConnector):
        async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
            raise ChannelAccessError(name, f"'{name}' timed out.")

    broken = Broken(connector.machine)
    await broken.connect()
    check = await WritePolicy.from_config(configure()).evaluate(broken, HCM, 1.0)
    assert not check.allowed and "Cannot read the current value" in check.violation


async def test_read_only_and_unknown_channels_are_refused(configure, connector) -> None:
    policy = WritePolicy.from_config(configure())
    readonly = await policy.evaluate(connector, "SR:DCCT:Current", 1.0)
    assert not readonly.allowed and "read-only" in readonly.violation
    unknown = await policy.evaluate(connector, "SR:NOPE:SP", 1.0)
    assert not unknown.allowed and "'SR:NOPE:SP'" in unknown.violation


async def test_control_range_of_the_channel_is_checked_too(configure, connector) -> None:
    cfg = configure({"control_system": {"allow_unlisted_writes": True}})
    policy = WritePolicy.from_config(cfg)
    policy.limits = type(policy.limits)({}, allow_unlisted=True)  # no limits file rules at all
    check = await policy.evaluate(connector, HCM, 12.0)
    assert not check.allowed and "control range" in check.violation


async def test_refused_write_leaves_channel_unchanged_and_is_audited(
    configure, connector, audit
) -> None:
    policy = WritePolicy.from_config(configure())
    outcome = await perform_guarded_write(
        connector, policy, audit, HCM, 9.0, thread_id="t-1", approval_id="a-1"
    )
    assert outcome.outcome == "blocked" and not outcome.success and not outcome.sent
    assert (await connector.read_channel(HCM)).value == 0.0
    (entry,) = audit.entries()
    assert (entry.outcome, entry.channel, entry.requested_value) == ("blocked", HCM, 9.0)
    assert entry.thread_id == "t-1" and entry.approval_id == "a-1"
    assert "max=5" in entry.message


async def test_approved_write_is_written_verified_and_audited(configure, connector, audit) -> None:
    policy = WritePolicy.from_config(configure())
    outcome = await perform_guarded_write(connector, policy, audit, HCM, 1.5, thread_id="t-2")
    assert outcome.success and outcome.result.verified and outcome.outcome == "verified"
    intent, entry = audit.entries()
    assert (intent.outcome, intent.requested_value, intent.value_before) == ("intent", 1.5, 0.0)
    assert entry.outcome == "verified" and entry.value_before == 0.0
    assert abs(entry.readback_after - 1.5) <= 0.05
    assert entry.connector == intent.connector == "sim"


async def test_switch_turned_off_between_approval_and_write_refuses(configure, connector, audit):
    before = WritePolicy.from_config(configure())
    assert (await before.evaluate(connector, HCM, 1.0)).allowed
    after = WritePolicy.from_config(configure(), writes_enabled=False)
    outcome = await perform_guarded_write(connector, after, audit, HCM, 1.0)
    assert outcome.outcome == "blocked"
    assert (await connector.read_channel(HCM)).value == 0.0


async def test_a_put_that_fails_after_leaving_is_in_doubt_not_failed(
    configure, connector, audit
) -> None:
    class Failing(SimulatedControlSystemConnector):
        async def write_channel(self, name: str, value: Any, **kwargs: Any) -> ChannelWriteResult:
            raise ChannelAccessError(name, f"put to '{name}' timed out")

    failing = Failing(connector.machine)
    await failing.connect()
    outcome = await perform_guarded_write(
        failing, WritePolicy.from_config(configure()), audit, HCM, 1.0
    )
    assert outcome.outcome == "in_doubt" and "timed out" in outcome.result.message
    assert outcome.sent, "the machine may have taken it: never reported as not written"
    assert [e.outcome for e in audit.entries()] == ["intent", "in_doubt"]


async def test_rejected_and_refused_before_approval_are_audited(configure, connector, audit):
    await record_rejected_write(audit, HCM, 2.0, value_before=0.0, thread_id="t", approval_id="a")
    check = await WritePolicy.from_config(configure()).evaluate(connector, HCM, 8.0)
    await record_refused_write(audit, check, thread_id="t", connector="sim")
    rejected, refused = audit.entries()
    assert rejected.outcome == "rejected" and "nothing was written" in rejected.message
    assert refused.outcome == "blocked" and refused.requested_value == 8.0
