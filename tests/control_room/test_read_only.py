"""Read-only consoles and per-system arming: no write is planned or sent, whatever else says so.

Real turns (AgentSession: Gateway, graph, SQLite checkpointer) on the simulated ring, and the
guarded write itself with a policy that would allow the put.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from osprey_desktop.config import (
    ConfigError,
    build_config,
    get_audit_db_path,
    get_config,
    set_config,
)
from osprey_desktop.config.posture import with_read_only
from osprey_desktop.connectors import get_control_system_connector
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.safety import READ_ONLY_MESSAGE, AuditLog, WritePolicy, perform_guarded_write
from osprey_desktop.session import AgentSession

pytestmark = pytest.mark.slow  # starts processes: `./osprey test -m "not slow"` skips it

HCM01 = "SR01C:HCM01:Current:SP"


def audit() -> list[Any]:
    return AuditLog(get_audit_db_path()).entries()


def test_the_refusal_names_the_flag_and_the_key() -> None:
    assert READ_ONLY_MESSAGE == (
        "read-only: writes are disabled (--read-only / control_system.read_only)"
    )


async def test_read_only_plans_no_write_and_asks_no_approval(connectors, configure, tmp_path):
    configure({"control_system": {"read_only": True}})
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        result = await session.submit("set HCM01 to 1.5 A", "t1")

    assert result.pending_approval is None
    assert READ_ONLY_MESSAGE in result.response
    assert connectors.value(HCM01) == 0.0
    assert [(e.channel, e.outcome) for e in audit()] == [(HCM01, "blocked")]


async def test_an_approval_asked_before_read_only_sends_nothing_when_answered_yes(
    connectors: SimMachine, configure, tmp_path
):
    """``approve --read-only yes`` on a thread that was asked while writes were armed."""
    db = tmp_path / "threads.sqlite"
    config = configure()
    async with AgentSession.open(db_path=db) as session:
        asked = await session.submit("set HCM01 to 1.5 A", "t1")
    assert asked.pending_approval is not None

    set_config(with_read_only(config))
    async with AgentSession.open(db_path=db) as session:
        done = await session.resume("t1", True)

    assert connectors.value(HCM01) == 0.0
    assert READ_ONLY_MESSAGE in done.response
    assert [e.outcome for e in audit()] == ["blocked"]


async def test_the_put_itself_refuses_in_a_read_only_process(connectors, configure, tmp_path):
    """Even a policy object that allows the write (built before the flag) sends nothing."""
    allowing = WritePolicy.from_config(configure())
    assert allowing.writes_enabled and not allowing.read_only
    configure({"control_system": {"read_only": True}})
    connector = await get_control_system_connector()

    outcome = await perform_guarded_write(
        connector, allowing, AuditLog(tmp_path / "audit.sqlite"), HCM01, 1.0
    )

    assert not outcome.sent and outcome.outcome == "not_sent"
    assert READ_ONLY_MESSAGE in outcome.result.message
    assert connectors.value(HCM01) == 0.0


def test_read_only_wins_over_every_arming(configure) -> None:
    config = configure(
        {
            "control_system": {
                "type": "epics",
                "read_only": True,
                "epics": {"writes_enabled": True},
            }
        }
    )
    policy = WritePolicy.from_config(config, writes_enabled=True)
    check = policy.check(HCM01, 0.0, 1.0)
    assert not check.allowed and check.violation == READ_ONLY_MESSAGE


def test_arming_the_ring_never_arms_epics(configure) -> None:
    ring = {"type": "sim", "sim": {"writes_enabled": True}}
    assert WritePolicy.from_config(configure({"control_system": ring})).writes_enabled
    epics = configure({"control_system": {**ring, "type": "epics"}})
    # A thread started on the armed ring keeps writes_enabled: true in its state.
    policy = WritePolicy.from_config(epics, writes_enabled=True)
    assert not policy.writes_enabled
    assert "control_system.epics.writes_enabled: true" in policy.check(HCM01, 0.0, 1.0).violation


def test_the_former_single_switch_cannot_arm_a_live_system() -> None:
    with pytest.raises(ConfigError) as raised:
        build_config({"control_system": {"type": "epics", "writes_enabled": True}})
    assert "at key 'control_system.writes_enabled'" in str(raised.value)
    assert "set control_system.epics.writes_enabled: true instead" in str(raised.value)
    off = build_config({"control_system": {"type": "sim", "writes_enabled": False}})
    assert not WritePolicy.from_config(off).writes_enabled
    assert "remove that key" in WritePolicy.from_config(off).check(HCM01, 0.0, 1.0).violation


def test_with_read_only_changes_nothing_else(configure) -> None:
    config = configure({"machine": {"name": "Booster"}})
    read_only = with_read_only(config)
    assert read_only.control_system.read_only and not config.control_system.read_only
    assert read_only.model_dump()["machine"] == config.model_dump()["machine"]
    assert get_config() is config


def test_the_process_flag_wins_over_a_graph_scoped_config(configure) -> None:
    """``--read-only`` applies to the whole process, also inside a graph given its own config."""
    from osprey_desktop.config.runtime import config_scope

    armed = configure()
    set_config(with_read_only(armed))
    with config_scope(armed):
        assert get_config() is armed
        policy = WritePolicy.from_config()
    assert policy.read_only and policy.check(HCM01, 0.0, 1.0).violation == READ_ONLY_MESSAGE


def test_read_only_flag_of_ask_and_approve(tmp_path) -> None:
    """The flag end to end: separate processes, as an operator's terminal runs them."""
    from tests.support.cli_env import run_cli

    db = str(tmp_path / "threads.sqlite")
    refused = run_cli(tmp_path, "ask", "--read-only", "--db", db, "set HCM01 to 1.5 A")
    assert refused.returncode == 0, refused.stderr
    assert READ_ONLY_MESSAGE in refused.stdout

    asked = run_cli(tmp_path, "ask", "--db", db, "set HCM01 to 1.5 A")
    assert asked.returncode == 3, asked.stderr
    thread = asked.stdout.rsplit("thread: ", 1)[1].split()[0]
    answered = run_cli(tmp_path, "approve", "--db", db, "--thread", thread, "yes", "--read-only")
    assert answered.returncode == 0, answered.stderr
    assert READ_ONLY_MESSAGE in answered.stdout

    read = run_cli(tmp_path, "ask", "--db", db, "--json", "read HCM01 setpoint")
    response = json.loads(read.stdout)["response"]
    assert HCM01 in response and "1.5" not in response
    assert not (tmp_path / "data" / "sim_machine.json").exists(), "no setpoint was ever saved"
    log = AuditLog(tmp_path / "data" / "audit.sqlite").entries()
    assert [e.outcome for e in log] == ["blocked", "blocked"]
