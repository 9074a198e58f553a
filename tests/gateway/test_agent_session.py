"""AgentSession: turns, events, approvals, cancellation and the thread list."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from typing import Any

from osprey_desktop.approval import ApprovalDecision
from osprey_desktop.infrastructure.gateway import PENDING_APPROVAL_ERROR
from osprey_desktop.session import AgentSession, response_of_turn


async def test_submit_runs_a_turn_and_returns_its_response(session):
    events: list[tuple[str, Any]] = []

    result = await session.submit(
        "read the beam current", "t1", on_event=lambda m, p: events.append((m, p))
    )

    assert result.error is None and result.pending_approval is None
    assert result.response.startswith("done: read the beam current")
    assert result.context_keys == ["RUN.run_1"]
    assert result.plan["steps"][0]["capability"] == "act"
    modes = {mode for mode, _ in events}
    assert {"custom", "updates"} <= modes
    assert ("custom", {"type": "capability_start", "capability": "act"}) in events


async def test_async_event_callbacks_are_awaited(session):
    seen: list[str] = []

    async def on_event(mode: str, payload: Any) -> None:
        await asyncio.sleep(0)
        seen.append(mode)

    await session.submit("hello", "t1", on_event=on_event)
    assert "updates" in seen


async def test_failing_event_callback_does_not_break_the_turn(session):
    def on_event(mode: str, payload: Any) -> None:
        raise ValueError("a widget bug")

    result = await session.submit("hello", "t1", on_event=on_event)
    assert result.error is None and result.response.startswith("done: hello")


async def test_submit_without_thread_id_starts_a_new_thread(session):
    first = await session.submit("one")
    second = await session.submit("two")
    assert first.thread_id != second.thread_id
    assert second.context_keys == ["RUN.run_1"], "a new thread starts with no context"


async def test_context_survives_turns_of_the_same_thread(session):
    await session.submit("one", "t1")
    result = await session.submit("two", "t1")
    assert result.context_keys == ["RUN.run_1", "RUN.run_2"]


async def test_pending_approval_then_resume_executes(session):
    paused = await session.submit("/planning:on move HCM01", "t1")

    assert paused.response is None
    assert paused.pending_approval["resume_payload"]["approval_type"] == "plan"
    assert (await session.pending_approval("t1"))["interrupt_id"] == paused.pending_approval[
        "interrupt_id"
    ]
    refused = await session.submit("what now?", "t1")
    assert refused.error == PENDING_APPROVAL_ERROR
    assert refused.pending_approval["interrupt_id"] == paused.pending_approval["interrupt_id"]

    done = await session.resume(
        "t1",
        ApprovalDecision(
            approved=True, payload=None, interrupt_id=paused.pending_approval["interrupt_id"]
        ),
    )

    assert done.error is None and done.approved is True
    assert done.response.startswith("done: move HCM01")
    assert await session.pending_approval("t1") is None


async def test_rejection_through_resume_runs_nothing(session):
    await session.submit("/planning:on move HCM01", "t1")
    done = await session.resume("t1", False)
    assert done.response == "plan rejected, nothing executed"
    assert done.context_keys == []


async def test_resume_without_pending_approval_is_an_error(session):
    await session.submit("hello", "t1")
    result = await session.resume("t1", True)
    assert "no approval is pending" in result.error


async def test_state_only_update_reports_the_change(session):
    result = await session.submit("/planning:on", "t1")
    assert result.is_state_only_update and result.response is None
    assert "planning_mode_enabled=True" in result.message
    values = await session.get_state_values("t1")
    assert values["session_state"]["agent_control"] == {"planning_mode_enabled": True}


async def _cancel_once_acting(session: AgentSession, start: Any) -> None:
    """Run ``start(on_event)`` as a task and cancel it once the act step has begun."""
    acting = asyncio.Event()

    def on_event(mode: str, payload: Any) -> None:
        if mode == "custom" and payload.get("type") == "capability_start":
            acting.set()

    task = asyncio.create_task(start(on_event))
    await asyncio.wait_for(acting.wait(), timeout=5)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert task.cancelled()


async def test_turn_cancelled_mid_step_leaves_the_thread_usable(session):
    await session.submit("/mode:react", "t1")
    await session.submit("first", "t1")

    await _cancel_once_acting(session, lambda cb: session.submit("move slowly", "t1", on_event=cb))
    result = await session.submit("after the cancel", "t1")

    assert result.error is None and result.pending_approval is None
    assert result.response.startswith("done: after the cancel")
    assert result.context_keys == ["RUN.run_1", "RUN.run_2"], "the cancelled step stored nothing"
    assert result.state["session_state"]["agent_control"] == {"orchestration_mode": "react"}


async def test_cancelled_approved_turn_does_not_leave_a_stale_approval(session):
    await session.submit("/planning:on move slowly", "t1")

    await _cancel_once_acting(session, lambda cb: session.resume("t1", True, on_event=cb))

    assert await session.pending_approval("t1") is None
    result = await session.submit("next request", "t1")
    assert result.error is None and result.response.startswith("done: next request")


async def test_list_threads_shows_title_activity_and_pending(session):
    await session.submit("read the beam current", "a")
    await session.submit("/planning:on move HCM01 to 1.5 A", "b")

    threads = {t.thread_id: t for t in await session.list_threads()}

    assert threads["a"].title == "read the beam current"
    assert not threads["a"].pending_approval
    assert threads["b"].title == "move HCM01 to 1.5 A"
    assert threads["b"].pending_approval
    assert "Approve the plan" in threads["b"].pending_message
    assert threads["a"].last_activity is not None
    assert threads["b"].last_activity >= threads["a"].last_activity


async def test_title_is_the_first_request_of_the_thread(session):
    await session.submit("/mode:react", "a")
    await session.submit("first question", "a")
    await session.submit("second question", "a")
    (thread,) = await session.list_threads()
    assert thread.title == "first question"


async def test_delete_thread_removes_it(session):
    await session.submit("hello", "a")
    await session.submit("hello", "b")
    assert await session.delete_thread("a") is True
    assert await session.delete_thread("a") is False
    assert [t.thread_id for t in await session.list_threads()] == ["b"]
    assert not await session.thread_exists("a")


async def test_one_checkpoint_per_turn_with_exit_durability(session, db_path):
    await session.submit("hello", "t1")
    await session.submit("again", "t1")
    with sqlite3.connect(db_path) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id='t1'").fetchone()
    assert count == 2


def test_response_of_turn_ignores_answers_of_earlier_turns():
    from langchain_core.messages import AIMessage, HumanMessage

    assert (
        response_of_turn({"messages": [HumanMessage("a"), AIMessage("x"), HumanMessage("b")]})
        is None
    )
    assert response_of_turn({"messages": [HumanMessage("a"), AIMessage("x")]}) == "x"
