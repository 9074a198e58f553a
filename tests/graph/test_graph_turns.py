"""Whole turns through the compiled graph with the built-in planner and the lab capabilities."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.graph import create_graph
from tests.graph import lab
from tests.graph.conftest import thread


def answer(state: dict[str, Any]) -> str:
    message = state["messages"][-1]
    assert isinstance(message, AIMessage)
    return str(message.content)


async def test_greeting_gets_a_respond_only_plan(run_turn) -> None:
    final = await run_turn("hello")
    assert [s["capability"] for s in final["planning_execution_plan"]["steps"]] == ["respond"]
    assert "I can help with" in answer(final)
    assert lab.CALLS == []


async def test_read_request_chains_lookup_then_read_then_respond(run_turn) -> None:
    final = await run_turn("read the pump pressure")
    steps = final["planning_execution_plan"]["steps"]
    assert [s["capability"] for s in steps] == ["device_lookup", "device_read", "respond"]
    assert steps[1]["inputs"] == [{"LAB_DEVICES": "device_lookup_1"}]
    assert lab.CALLS == ["device_lookup", "device_read"]
    text = answer(final)
    assert "pump1" in text and "3 bar" in text and "4.5 bar" in text
    results = final["execution_step_results"]
    assert results["device_read_1"]["success"] is True
    assert results["device_read_1"]["step_index"] == 1
    assert final["planning_current_step_index"] == 3


async def test_three_step_turn_with_two_providers(run_turn) -> None:
    final = await run_turn("plot the heater history over the last 3 hours")
    capabilities = [s["capability"] for s in final["planning_execution_plan"]["steps"]]
    assert capabilities == ["device_lookup", "window_parse", "history_fetch", "respond"]
    history = final["capability_context_data"]["LAB_HISTORY"]["history_fetch_1"]
    assert history == {"devices": ["heater1"], "hours": 3.0, "points": 180}


async def test_follow_up_reuses_earlier_results_and_keeps_them(run_turn) -> None:
    await run_turn("find the pump devices")
    lab.CALLS.clear()
    final = await run_turn("read those again")
    steps = final["planning_execution_plan"]["steps"]
    assert [s["capability"] for s in steps] == ["device_read", "respond"]
    assert steps[0]["inputs"] == [{"LAB_DEVICES": "device_lookup_1"}]
    assert lab.CALLS == ["device_read"]
    assert final["task_depends_on_chat_history"] is True
    assert "device_lookup_1" in final["capability_context_data"]["LAB_DEVICES"]


async def test_second_turn_gets_new_context_keys(run_turn) -> None:
    await run_turn("read pump1")
    final = await run_turn("read pump2")
    assert set(final["capability_context_data"]["LAB_READINGS"]) == {
        "device_read_1",
        "device_read_2",
    }


async def test_unmatched_request_says_what_is_possible(run_turn) -> None:
    final = await run_turn("bake a cake")
    text = answer(final)
    assert "could not match" in text
    assert "device lookup" in text  # the help lists the registered capabilities


async def test_react_mode_runs_the_same_chain_one_step_at_a_time(run_turn) -> None:
    final = await run_turn("read the pump pressure", orchestration_mode="react")
    assert lab.CALLS == ["device_lookup", "device_read"]
    assert final["react_step_count"] == 3  # lookup, read, respond
    assert "4.5 bar" in answer(final)
    decisions = [
        m["step"]["capability"] for m in final["react_messages"] if m["type"] == "decision"
    ]
    assert decisions == ["device_lookup", "device_read", "respond"]


async def test_react_iteration_limit_ends_in_a_clear_error(run_turn) -> None:
    final = await run_turn(
        "plot the heater history over the last 3 hours",
        orchestration_mode="react",
        max_react_iterations=2,
    )
    text = answer(final)
    assert "Stopped after 2 reactive steps" in text
    assert "max_react_iterations" in text
    assert lab.CALLS == ["device_lookup", "window_parse"]


async def test_retriable_failure_is_retried_then_succeeds(run_turn) -> None:
    lab.FlakyReadCapability.failures_left = 2
    final = await run_turn("check the vacuum gauge", max_step_retries=2)
    assert lab.CALLS == ["flaky_read"] * 3
    assert "1.5e-09 mbar" in answer(final)
    assert final["control_retry_count"] == 2
    assert final["control_has_error"] is False


async def test_retries_are_bounded_and_reported(run_turn) -> None:
    lab.FlakyReadCapability.failures_left = 10
    final = await run_turn("check the vacuum gauge", max_step_retries=1)
    assert lab.CALLS == ["flaky_read"] * 2
    text = answer(final)
    assert "gave up after 2 attempts" in text
    assert "retriable" in text


async def test_critical_failure_reports_what_failed_and_what_succeeded(run_turn) -> None:
    final = await run_turn("read pump1 and calibrate it")
    text = answer(final)
    assert "**What failed:** step 3, `calibrate`" in text
    assert "calibration failed: sensor bus jammed" in text
    assert "**Severity:** critical" in text
    assert "`device_read`" in text and "LAB_READINGS `device_read_1`" in text
    assert "Power-cycle the sensor bus" in text  # the capability's own suggestion
    assert final["control_error_info"]["capability_name"] == "calibrate"


async def test_react_failure_is_reevaluated_then_reported(run_turn) -> None:
    final = await run_turn("read pump1 and calibrate it", orchestration_mode="react")
    assert lab.CALLS == ["device_lookup", "device_read", "calibrate"]
    assert final["control_error_info"]["reevaluated"] is True
    assert "calibration failed" in answer(final)


async def test_missing_input_asks_for_clarification(lab_registry) -> None:
    # Without the lookup capability nothing can provide LAB_DEVICES.
    lab_registry._capabilities.pop("device_lookup")
    graph = create_graph(lab_registry, checkpointer=None)
    from osprey_desktop.state import StateManager

    final = await graph.ainvoke(StateManager.create_fresh_state("read the pump pressure"))
    assert [s["capability"] for s in final["planning_execution_plan"]["steps"]] == ["clarify"]
    text = answer(final)
    assert "I need more information" in text and "LAB_DEVICES" in text
    assert lab.CALLS == []


async def test_progress_events_follow_the_turn(graph) -> None:
    from osprey_desktop.state import StateManager

    state = StateManager.create_fresh_state("read pump1")
    events = [
        chunk
        async for mode, chunk in graph.astream(
            state, thread("ev"), stream_mode=["custom", "updates"]
        )
        if mode == "custom"
    ]
    types = [e["type"] for e in events]
    assert types[0] == "phase_start"
    for expected in ("task_extracted", "capabilities_selected", "plan_created", "result"):
        assert expected in types
    starts = [e for e in events if e["type"] == "capability_start"]
    assert [(e["capability"], e["step_index"], e["total_steps"]) for e in starts] == [
        ("device_lookup", 0, 3),
        ("device_read", 1, 3),
        ("respond", 2, 3),
    ]
    completes = [e for e in events if e["type"] == "capability_complete"]
    assert all(e["success"] and e["duration"] >= 0 for e in completes)
    assert all("timestamp" in e for e in events)


async def test_follow_up_recomputes_what_the_request_names_again(run_turn) -> None:
    await run_turn("plot the heater history over the last 3 hours")
    lab.CALLS.clear()
    final = await run_turn("plot those again for the last 5 hours")
    capabilities = [s["capability"] for s in final["planning_execution_plan"]["steps"]]
    assert capabilities == ["window_parse", "history_fetch", "respond"]  # devices reused
    history = final["capability_context_data"]["LAB_HISTORY"]["history_fetch_2"]
    assert history == {"devices": ["heater1"], "hours": 5.0, "points": 300}


async def test_task_extraction_bypass_uses_the_raw_request(run_turn) -> None:
    await run_turn("find the pump devices")
    final = await run_turn("read those again", task_extraction_bypass_enabled=True)
    assert final["task_current_task"] == "read those again"
    assert final["task_depends_on_chat_history"] is True  # earlier results may be reused
    assert [s["capability"] for s in final["planning_execution_plan"]["steps"]] == [
        "device_read",
        "respond",
    ]


async def test_capability_selection_bypass_offers_every_capability(run_turn, lab_registry) -> None:
    final = await run_turn("read pump1", capability_selection_bypass_enabled=True)
    assert set(final["planning_active_capabilities"]) == {
        c.name for c in lab_registry.get_all_capabilities()
    }
    assert [s["capability"] for s in final["planning_execution_plan"]["steps"]] == [
        "device_lookup",
        "device_read",
        "respond",
    ]


async def test_classification_adds_providers_and_always_respond_and_clarify(run_turn) -> None:
    final = await run_turn("plot the heater history over the last 3 hours")
    assert set(final["planning_active_capabilities"]) == {
        "history_fetch",
        "window_parse",
        "device_lookup",
        "respond",
        "clarify",
    }
