"""channel_write through real turns (AgentSession: Gateway, graph, SQLite checkpointer) on the
simulated ring: approval, rejection, refusals, exactly-what-was-approved, and the audit log."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from osprey_desktop.config import get_audit_db_path
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.graph import create_graph
from osprey_desktop.registry import get_registry
from osprey_desktop.safety import AuditLog
from osprey_desktop.session import AgentSession
from osprey_desktop.state import StateManager

HCM01 = "SR01C:HCM01:Current:SP"
HCM02 = "SR01C:HCM02:Current:SP"


def audit() -> list[Any]:
    return AuditLog(get_audit_db_path()).entries()


def operations(pending: dict[str, Any]) -> list[dict[str, Any]]:
    payload = pending["resume_payload"]
    assert payload["approval_type"] == "channel_write"
    return payload["operations"]


async def test_approved_write_is_written_read_back_and_audited(session, machine: SimMachine):
    asked = await session.submit("set HCM01 to 1.5 A", "t1")

    (op,) = operations(asked.pending_approval)
    assert op["channel"] == HCM01 and op["new_value"] == 1.5 and op["units"] == "A"
    assert op["current_value"] == 0.0 and op["violation"] is None
    assert op["limits"]["max"] == 5.0 and op["limits"]["max_step"] == 2.0
    message = asked.pending_approval["user_message"]
    assert "write **1.5 A** to `SR01C:HCM01:Current:SP` (now 0.000 A" in message
    assert "You asked: \u201cset HCM01 to 1.5 A\u201d" in message
    assert machine.value(HCM01) == 0.0, "nothing is written while the approval is pending"
    assert audit() == []

    done = await session.resume("t1", True)

    assert done.pending_approval is None and done.error is None
    assert "`SR01C:HCM01:Current:SP`: **verified** — wrote 1.5 A (was 0 A), readback" in (
        done.response
    )
    assert machine.value(HCM01) == 1.5
    assert abs(machine.value("SR01C:HCM01:Current:RB") - 1.5) < 0.06
    intent, outcome = audit()
    assert (intent.channel, intent.outcome, intent.requested_value) == (HCM01, "intent", 1.5)
    assert (outcome.channel, outcome.outcome, outcome.requested_value) == (HCM01, "verified", 1.5)
    assert intent.thread_id == outcome.thread_id == "t1"
    approval_id = asked.pending_approval["resume_payload"]["approval_id"]
    assert intent.approval_id == outcome.approval_id == approval_id
    assert abs(outcome.readback_after - 1.5) < 0.06


async def test_rejected_write_leaves_channel_unchanged(session, machine: SimMachine):
    asked = await session.submit("set HCM01 to 1.5 A", "t1")
    assert asked.pending_approval is not None

    done = await session.resume("t1", False)

    assert machine.value(HCM01) == 0.0
    assert "**Nothing was written** (1 rejected by you)" in done.response
    (entry,) = audit()
    assert (entry.outcome, entry.thread_id, entry.channel) == ("rejected", "t1", HCM01)
    assert entry.approval_id == asked.pending_approval["resume_payload"]["approval_id"]


async def test_write_beyond_its_limit_is_refused_with_the_limit_named(session, machine):
    result = await session.submit("set HCM01 to 7 A", "t1")

    assert result.pending_approval is None, "a violation blocks the approval itself"
    assert "**Nothing was written** (1 blocked by the write policy)" in result.response
    assert "above the maximum of 5.0 A" in result.response and "limit max=5" in result.response
    assert machine.value(HCM01) == 0.0
    (entry,) = audit()
    assert (entry.outcome, entry.requested_value, entry.approval_id) == ("blocked", 7.0, None)


async def test_a_blocked_operation_is_shown_as_not_sent_and_only_the_others_are_asked(
    session, machine
):
    asked = await session.submit("set HCM01 to 1.5 A and HCM02 to 9 A", "t1")

    pending = asked.pending_approval
    assert [op["channel"] for op in operations(pending)] == [HCM01], "only the allowed write"
    (blocked,) = pending["resume_payload"]["blocked_operations"]
    assert blocked["channel"] == HCM02 and blocked["new_value"] == 9.0
    assert "above the maximum of 5.0 A" in blocked["violation"]
    message = pending["user_message"]
    assert "(1 more blocked: will not be sent)" in message
    assert f"⊘ `{HCM02}`: 9.0 A (now 0.000 A) — " in message
    assert message.index(HCM02) < message.index(HCM01), "the blocked write is read first"
    approval_id = pending["resume_payload"]["approval_id"]
    assert [(e.channel, e.outcome, e.approval_id) for e in audit()] == [
        (HCM02, "blocked", approval_id)
    ]

    done = await session.resume("t1", True)

    assert (machine.value(HCM01), machine.value(HCM02)) == (1.5, 0.0)
    assert [(e.channel, e.outcome) for e in audit()] == [
        (HCM02, "blocked"),
        (HCM01, "intent"),
        (HCM01, "verified"),
    ], "the blocked write is audited once, the allowed one sent once"
    assert "blocked" in done.response and HCM02 in done.response


async def test_a_mass_write_with_one_corrector_beyond_its_step_asks_the_other_35(
    session, machine: SimMachine
):
    vcm11 = "SR04C:VCM11:Current:SP"
    machine.set_setpoint(vcm11, 2.5)  # zeroing it is a 2.5 A step: over max_step 2 A

    asked = await session.submit("set all vertical correctors to zero", "t1")

    pending = asked.pending_approval
    ops = operations(pending)
    assert len(ops) == 35 and vcm11 not in {op["channel"] for op in ops}
    (blocked,) = pending["resume_payload"]["blocked_operations"]
    assert blocked["channel"] == vcm11 and "limit max_step=2" in blocked["violation"]
    assert "Approve 35 writes to the machine?** (1 more blocked" in pending["user_message"]

    await session.resume("t1", True)

    assert machine.value(vcm11) == 2.5, "the blocked corrector is never sent"
    assert sum(1 for e in audit() if e.outcome == "blocked") == 1


async def test_a_no_to_a_batch_with_a_blocked_write_leaves_every_channel_unchanged(
    session, machine
):
    await session.submit("set HCM01 to 1.5 A and HCM02 to 9 A", "t1")

    await session.resume("t1", False)

    assert (machine.value(HCM01), machine.value(HCM02)) == (0.0, 0.0)
    assert sorted((e.channel, e.outcome) for e in audit()) == [
        (HCM01, "rejected"),
        (HCM02, "blocked"),
    ]


async def test_a_request_whose_every_write_is_blocked_asks_nothing(session, machine):
    result = await session.submit("set HCM01 to 7 A and HCM02 to 9 A", "t1")

    assert result.pending_approval is None
    assert machine.value(HCM01) == 0.0 and machine.value(HCM02) == 0.0
    assert {(e.channel, e.outcome, e.approval_id) for e in audit()} == {
        (HCM01, "blocked", None),
        (HCM02, "blocked", None),
    }


async def test_several_values_go_to_their_own_channels(session, machine):
    asked = await session.submit("set HCM01 to 1.5 A and HCM02 to -0.3 A", "t1")
    ops = {op["channel"]: op["new_value"] for op in operations(asked.pending_approval)}
    assert ops == {HCM01: 1.5, HCM02: -0.3}
    await session.resume("t1", True)
    assert (machine.value(HCM01), machine.value(HCM02)) == (1.5, -0.3)


async def test_units_are_converted_to_the_channels_units(session, machine):
    asked = await session.submit("bump HCM01 up by 250 mA", "t1")
    (op,) = operations(asked.pending_approval)
    assert op["new_value"] == 0.25 and op["requested"] == "by +250 mA"


async def test_a_value_in_a_unit_the_channel_cannot_take_is_refused(session, machine):
    result = await session.submit("set HCM01 to 5 furlongs", "t1")
    assert result.pending_approval is None
    assert "'furlongs' cannot be converted to the channel's unit 'A'" in result.response
    assert machine.value(HCM01) == 0.0


async def test_a_channel_that_moved_since_the_approval_is_asked_again_not_written(
    session, machine: SimMachine
):
    asked = await session.submit("increase HCM01 by 0.5 A", "t1")
    (op,) = operations(asked.pending_approval)
    assert op["new_value"] == 0.5
    machine.set_setpoint(HCM01, 1.0)  # someone else moves the magnet meanwhile

    again = await session.resume("t1", True)

    assert machine.value(HCM01) == 1.0, "the stale 0.5 A must not take the magnet down"
    assert again.pending_approval is not None, "asked again with the fresh value"
    (fresh,) = operations(again.pending_approval)
    assert (fresh["current_value"], fresh["new_value"]) == (1.0, 1.5)
    assert "now reads 1.000 A, not 0.000 A as shown" in again.pending_approval["user_message"]
    assert audit() == [], "nothing was sent, so nothing but the answer was recorded"

    await session.resume("t1", True)
    assert machine.value(HCM01) == 1.5
    assert [(e.outcome, e.value_before) for e in audit()] == [
        ("intent", 1.0),
        ("verified", 1.0),
    ]


async def test_an_expired_approval_is_asked_again_with_fresh_values(
    connectors, configure, tmp_path, machine: SimMachine
):
    configure({"approval": {"expiry_minutes": 0.001}})  # 60 ms
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        asked = await session.submit("set HCM01 to 0.5 A", "t1")
        first_id = asked.pending_approval["resume_payload"]["approval_id"]
        await asyncio.sleep(0.1)
        again = await session.resume("t1", True)
    assert machine.value(HCM01) == 0.0
    assert again.pending_approval is not None
    assert again.pending_approval["resume_payload"]["approval_id"] != first_id
    assert "expired" in again.pending_approval["user_message"]


async def test_in_react_mode_a_named_magnet_is_written_at_its_setpoint(session, machine):
    asked = await session.submit("/mode:react set HCM01 to 1 A", "t1")
    assert [op["channel"] for op in operations(asked.pending_approval)] == [HCM01]
    await session.resume("t1", True)
    assert machine.value(HCM01) == 1.0


async def test_write_request_without_a_value_asks_for_it(session, machine):
    result = await session.submit("set HCM01", "t1")
    assert result.pending_approval is None
    assert "What value should I write?" in result.response
    assert audit() == [] and machine.value(HCM01) == 0.0


async def test_switched_off_writes_are_refused_with_how_to_enable_them(
    connectors, configure, tmp_path, machine
):
    configure({"control_system": {"writes_enabled": False}})
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        result = await session.submit("set HCM01 to 1.5 A", "t1")
    assert result.pending_approval is None
    assert "writes_enabled: true" in result.response
    assert machine.value(HCM01) == 0.0
    assert [e.outcome for e in audit()] == ["blocked"]


async def test_with_approvals_disabled_a_write_is_still_approved_and_obeys_the_limits(
    session, machine
):
    asked = await session.submit("/approval:disabled set HCM01 to 0.5 A", "t1")
    assert operations(asked.pending_approval)[0]["new_value"] == 0.5
    assert machine.value(HCM01) == 0.0, "no write without an approval, whatever the mode"
    written = await session.resume("t1", True)
    assert written.pending_approval is None and machine.value(HCM01) == 0.5
    refused = await session.submit("/approval:disabled set HCM01 to 3.5 A", "t1")
    assert refused.pending_approval is None, "a limit violation is refused before asking"
    assert "maximum step" in refused.response and machine.value(HCM01) == 0.5
    approval_id = asked.pending_approval["resume_payload"]["approval_id"]
    assert [(e.outcome, e.approval_id) for e in audit()] == [
        ("intent", approval_id),
        ("verified", approval_id),
        ("blocked", None),
    ]


# -- a resume value that does not match what was asked (not reachable through the Gateway) ---


@pytest.fixture
def graph(connectors) -> Any:
    return create_graph(get_registry(), checkpointer=InMemorySaver())


async def _pending(graph: Any, text: str) -> tuple[dict[str, Any], dict[str, Any]]:
    config = {"configurable": {"thread_id": "raw"}, "recursion_limit": 60}
    result = await graph.ainvoke(StateManager.create_fresh_state(text), config)
    (interrupt,) = result["__interrupt__"]
    return config, interrupt.value["resume_payload"]


@pytest.mark.parametrize(
    "tamper",
    [
        {"new_value": 9.0},
        {"violation": "made up"},
        {"channel": "SR01C:HCM02:Current:SP"},
        {"new_value": "lots"},
    ],
)
async def test_a_forged_resume_payload_is_ignored_the_stored_operations_are_written(
    graph, machine, tamper
):
    config, payload = await _pending(graph, "set HCM01 to 1.5 A")
    payload["operations"][0].update(tamper)

    final = await graph.ainvoke(
        Command(resume={"approved": True, "resume_payload": payload}), config
    )

    results = final["capability_context_data"]["CHANNEL_WRITE_RESULTS"]
    (result,) = next(iter(results.values()))["results"]
    assert (result["channel"], result["requested_value"]) == (HCM01, 1.5)
    assert result["outcome"] == "verified"
    assert machine.value(HCM01) == 1.5 and machine.value(HCM02) == 0.0
    assert [(e.channel, e.outcome, e.requested_value) for e in audit()] == [
        (HCM01, "intent", 1.5),
        (HCM01, "verified", 1.5),
    ]


async def test_stop_during_an_approved_write_leaves_a_complete_record(session, machine: SimMachine):
    asked = await session.submit("set HCM01 to 1.5 A", "t1")
    assert asked.pending_approval is not None
    landed = asyncio.Event()
    original = machine.set_setpoint

    def put(name: str, value: float, t: float | None = None) -> float:
        written = original(name, value, t)
        landed.set()
        return written

    machine.set_setpoint = put  # type: ignore[method-assign]
    turn = asyncio.ensure_future(session.resume("t1", True))
    await asyncio.wait_for(landed.wait(), 10)
    turn.cancel()  # the operator presses Stop while the readback settles
    with pytest.raises(asyncio.CancelledError):
        await turn

    assert machine.value(HCM01) == 1.5
    assert [e.outcome for e in audit()] == ["intent", "verified"], "intent and outcome recorded"
    later = await session.submit("read HCM01", "t1")
    assert later.pending_approval is None, "the answered approval is not pending any more"
    assert "`SR01C:HCM01:Current:SP`: **verified**" in later.response
    assert [e.outcome for e in audit()] == ["intent", "verified"], "nothing was sent again"


async def test_a_value_goes_only_to_the_channel_its_own_words_name(session, machine):
    asked = await session.submit("read HCM01 and then set HCM02 to 0.3 A", "t1")

    assert [(op["channel"], op["new_value"]) for op in operations(asked.pending_approval)] == [
        (HCM02, 0.3)
    ], "HCM01 was only read: it must not be offered the value meant for HCM02"


@pytest.mark.parametrize(
    "text",
    [
        "set HCM01 to 1.5 A and don't touch HCM02",
        "leave HCM 2 alone, set HCM 1 to 1.5 A",
        "set HCM01 to 1.5 A, not HCM02",
    ],
)
async def test_a_device_the_request_refuses_is_never_a_target(session, machine, text):
    asked = await session.submit(text, "t1")

    assert [op["channel"] for op in operations(asked.pending_approval)] == [HCM01]
    assert not asked.pending_approval["resume_payload"].get("blocked_operations")


async def test_a_device_left_out_of_a_family_write_is_blocked_with_the_reason(session, machine):
    asked = await session.submit(
        "set all horizontal correctors in sector 1 to 0.5 A, but don't touch HCM 2", "t1"
    )

    pending = asked.pending_approval
    assert HCM02 not in {op["channel"] for op in operations(pending)}
    assert HCM01 in {op["channel"] for op in operations(pending)}
    (blocked,) = pending["resume_payload"]["blocked_operations"]
    assert blocked["channel"] == HCM02
    assert blocked["violation"] == "the request said not to touch HCM2"
    await session.resume("t1", True)
    assert (machine.value(HCM01), machine.value(HCM02)) == (0.5, 0.0)
