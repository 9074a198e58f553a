"""AgentSession on the real graph and capabilities (simulated machine, built-in planner)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from osprey_desktop.session import AgentSession

WRITE = "set the horizontal corrector HCM01 to 1.5 A"


@pytest.fixture
async def real_session(tmp_path) -> AsyncIterator[AgentSession]:
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
        yield session


async def test_write_waits_for_approval_and_executes_what_was_approved(real_session):
    paused = await real_session.submit(WRITE, "w")

    assert paused.error is None and paused.response is None
    assert paused.pending_approval["resume_payload"]["approval_type"] == "channel_write"
    assert "1.5" in paused.pending_approval["user_message"]

    done = await real_session.resume("w", True)

    assert done.error is None and done.pending_approval is None
    assert "wrote 1.5 A" in done.response


async def test_rejected_write_leaves_the_channel_alone(real_session):
    await real_session.submit(WRITE, "w")
    done = await real_session.resume("w", False)
    assert done.pending_approval is None
    assert "wrote 1.5 A" not in (done.response or "")


async def test_approval_disabled_still_asks_before_a_write(real_session):
    asked = await real_session.submit(f"/approval:disabled {WRITE}", "w")
    assert asked.pending_approval["resume_payload"]["approval_type"] == "channel_write"
    assert "wrote 1.5 A" not in (asked.response or "")

    done = await real_session.resume("w", True)
    assert done.pending_approval is None and "wrote 1.5 A" in done.response


async def test_planning_mode_asks_for_the_plan_then_for_the_write(real_session):
    await real_session.submit("/planning:on", "p")

    plan = await real_session.submit(WRITE, "p")
    assert plan.pending_approval["resume_payload"]["approval_type"] == "plan"

    write = await real_session.submit("yes", "p")
    assert write.pending_approval["resume_payload"]["approval_type"] == "channel_write"

    done = await real_session.submit("ok", "p")
    assert done.pending_approval is None and "wrote 1.5 A" in done.response


async def test_rejected_plan_executes_nothing(real_session):
    await real_session.submit(f"/planning:on {WRITE}", "p")
    done = await real_session.submit("no", "p")
    assert done.pending_approval is None and "rejected" in done.response.lower()
    assert not done.context_keys


READ = "read the beam current"


async def test_approval_all_asks_before_a_read_and_reads_once_approved(real_session):
    asked = await real_session.submit(f"/approval:all {READ}", "a")
    payload = asked.pending_approval["resume_payload"]
    assert payload["approval_type"] == "step" and payload["step_index"] == 0
    assert asked.response is None and not asked.context_keys, "nothing ran before the approval"

    result = asked
    for _ in range(payload["total_steps"]):
        if result.pending_approval is None:
            break
        result = await real_session.resume("a", True)

    assert result.pending_approval is None and result.error is None
    assert "SR:DCCT:Current" in result.response and "mA" in result.response


async def test_approval_all_rejected_read_ends_the_turn_with_nothing_executed(real_session):
    await real_session.submit(f"/approval:all {READ}", "a")

    done = await real_session.submit("no", "a")

    assert done.pending_approval is None and done.error is None
    assert done.response == "Step rejected, nothing executed."
    assert not done.context_keys
    assert await real_session.pending_approval("a") is None


async def test_selective_mode_reads_without_an_approval(real_session):
    done = await real_session.submit(READ, "s")
    assert done.pending_approval is None and "mA" in done.response
