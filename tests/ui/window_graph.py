"""A small, deterministic agent graph that speaks the window's contracts, for UI tests.

It uses the real ``AgentState``, the real progress events, the real approval payload shapes
and ``StateManager`` registrations, so the window is tested against the same data the real
graph produces, with timing the tests control:

* "read ..."      -> channel_read then respond; stores CHANNEL_VALUES.<n>
* "history ..."   -> archiver_retrieval then respond; ARCHIVER_DATA, a timeseries figure,
                     a strip chart command and an https viewer command
* "set X to V"    -> channel_write asks approval (``channel_write`` payload with operations;
                     V > 5 is a limit violation), writes on approval, then respond
* "find and set X to V" -> channel_finding first, then as "set"
* "slowly ..."    -> a step that sleeps 30 s (for Stop and close-while-running tests)
* "<n> entries"   -> stores n CONTEXT_BULK entries in one step (for the latency bench)

Each step is its own node run, so the state (and the context tree) changes after each step,
and records its result in ``execution_step_results`` as the real capability nodes do.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from osprey_desktop.events import (
    CapabilitiesSelected,
    CapabilityComplete,
    CapabilityStart,
    PlanCreated,
    TaskExtracted,
    emit,
)
from osprey_desktop.state import AgentState, StateManager

VIEWER = "https://archiver.test/viewer?pv=SR:DCCT:Current"
T0 = 1_700_000_000.0


def _request(state: dict[str, Any]) -> str:
    return StateManager.get_user_query(state) or ""


def _step(key: str, capability: str, objective: str, output: str, inputs=()) -> dict[str, Any]:
    return {
        "context_key": key,
        "capability": capability,
        "task_objective": objective,
        "expected_output": output,
        "success_criteria": "",
        "inputs": list(inputs),
        "parameters": {},
    }


def plan_for(request: str, turn: int) -> list[dict[str, Any]]:
    text = request.lower()
    if text.startswith("slowly"):
        return [_step(f"slow_{turn}", "channel_read", "wait a long time", "CHANNEL_VALUES")]
    if match := re.match(r"(\d+) entries", text):
        return [_step(f"bulk_{turn}", "bulk", f"store {match[1]} entries", "CONTEXT_BULK")]
    if text.startswith("history"):
        return [
            _step(f"history_{turn}", "archiver_retrieval", "get the last hour", "ARCHIVER_DATA"),
            _step("answer", "respond", "summarise", "", [{"ARCHIVER_DATA": f"history_{turn}"}]),
        ]
    if text.startswith("find and set"):
        return [
            _step(f"find_{turn}", "channel_finding", "find the magnet", "CHANNEL_ADDRESSES"),
            _step(f"write_{turn}", "channel_write", request, "CHANNEL_WRITE_RESULTS"),
            _step("answer", "respond", "report the write", ""),
        ]
    if text.startswith("set"):
        return [
            _step(f"write_{turn}", "channel_write", request, "CHANNEL_WRITE_RESULTS"),
            _step("answer", "respond", "report the write", ""),
        ]
    return [
        _step(f"values_{turn}", "channel_read", "read the beam current", "CHANNEL_VALUES"),
        _step("answer", "respond", "answer", "", [{"CHANNEL_VALUES": f"values_{turn}"}]),
    ]


async def plan_node(state: dict[str, Any]) -> dict[str, Any]:
    request = _request(state)
    turn = sum(1 for m in state.get("messages") or [] if getattr(m, "type", "") == "human")
    steps = plan_for(request, turn)
    emit(TaskExtracted(task=request, depends_on_chat_history=False))
    emit(CapabilitiesSelected(capabilities=sorted({s["capability"] for s in steps})))
    plan = {"steps": steps}
    emit(PlanCreated(plan=plan))
    return {
        "task_current_task": request,
        "planning_execution_plan": plan,
        "planning_current_step_index": 0,
    }


def _write_payload(request: str) -> dict[str, Any]:
    match = re.search(r"set (\S+) to ([-\d.]+)", request.lower())
    channel = (match[1] if match else "hcm01").upper() + ":SP"
    value = float(match[2]) if match else 1.0
    violation = f"{value:g} A is above the maximum 5 A" if value > 5 else None
    return {
        "user_message": f"**Write to {channel}?**\n\nwrite {value:g} A to {channel} (now 1.2 A)",
        "resume_payload": {
            "approval_type": "channel_write",
            "operations": [
                {
                    "channel": channel,
                    "current_value": 1.2,
                    "new_value": value,
                    "units": "A",
                    "limits": {"min": -5.0, "max": 5.0, "max_step": 2.0},
                    "violation": violation,
                }
            ],
        },
    }


async def run_step(step: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    capability, key = step["capability"], step["context_key"]
    if capability == "channel_write":
        decision = interrupt(_write_payload(_request(state)))  # side effects only after this
        approved = bool(decision.get("approved")) if isinstance(decision, dict) else False
        return {"CHANNEL_WRITE_RESULTS": {key: {"written": approved, "channel": "HCM01:SP"}}}
    if capability == "channel_finding":
        return {"CHANNEL_ADDRESSES": {key: {"channels": ["HCM01:SP"]}}}
    if capability == "archiver_retrieval":
        return {
            "ARCHIVER_DATA": {
                key: {
                    "timestamps": {"SR:DCCT:Current": [T0 + 60 * i for i in range(60)]},
                    "time_series_data": {"SR:DCCT:Current": [500 - 0.1 * i for i in range(60)]},
                    "units": {"SR:DCCT:Current": "mA"},
                }
            }
        }
    if capability == "bulk":
        count = int(step["task_objective"].split()[1])
        return {"CONTEXT_BULK": {f"{key}_{i:05d}": {"value": float(i)} for i in range(count)}}
    if "wait a long time" in step["task_objective"]:
        await asyncio.sleep(30)
    return {
        "CHANNEL_VALUES": {
            key: {
                "channel_values": {
                    "SR:DCCT:Current": {
                        "value": 500.2,
                        "units": "mA",
                        "alarm_severity": "NO_ALARM",
                        "timestamp": "2025-01-01T00:00:00",
                    }
                }
            }
        }
    }


async def execute_node(state: dict[str, Any]) -> dict[str, Any]:
    steps = state["planning_execution_plan"]["steps"]
    index = state.get("planning_current_step_index") or 0
    step = steps[index]
    start_fields = {
        "capability": step["capability"],
        "step_index": index,
        "total_steps": len(steps),
        "context_key": step["context_key"],
        "task_objective": step["task_objective"],
    }
    emit(CapabilityStart(**start_fields))
    started = time.monotonic()
    update: dict[str, Any] = {"planning_current_step_index": index + 1}
    if step["capability"] == "respond":
        update["messages"] = [AIMessage(content=_answer(state))]
    else:
        update["capability_context_data"] = await run_step(step, state)
        if step["capability"] == "archiver_retrieval":
            update.update(_history_registrations(state, step["context_key"]))
    duration = time.monotonic() - started
    emit(CapabilityComplete(**start_fields, success=True, duration=duration, error=None))
    record = {**start_fields, "success": True, "duration": duration, "error": None}
    results = dict(state.get("execution_step_results") or {})
    results[step["context_key"]] = {**record, "timestamp": time.time()}
    update["execution_step_results"] = results
    return update


def _history_registrations(state: dict[str, Any], key: str) -> dict[str, Any]:
    figure = StateManager.register_figure(
        state,
        "archiver_retrieval",
        f"ARCHIVER_DATA/{key}",
        display_name="SR:DCCT:Current (last hour)",
        metadata={"figure_type": "timeseries", "context_type": "ARCHIVER_DATA", "context_key": key},
    )
    strip = StateManager.register_command(
        state,
        "archiver_retrieval",
        "osprey-desktop://stripchart?channels=SR:DCCT:Current",
        display_name="Live strip chart: SR:DCCT:Current",
        command_type="stripchart",
        metadata={"channels": ["SR:DCCT:Current"]},
    )
    viewer = StateManager.register_command(
        state,
        "archiver_retrieval",
        VIEWER,
        display_name="Open in the archive viewer",
        command_type="web_app",
        current_commands=strip["ui_launchable_commands"],
    )
    return {**figure, **viewer}


def _answer(state: dict[str, Any]) -> str:
    data = state.get("capability_context_data") or {}
    writes = data.get("CHANNEL_WRITE_RESULTS") or {}
    if writes and "set" in _request(state).lower():
        last = list(writes.values())[-1]
        return "**Written**: HCM01:SP = 1.5 A" if last["written"] else "Not written: rejected."
    if "ARCHIVER_DATA" in data and _request(state).lower().startswith("history"):
        return "Beam current fell from **500 mA** to 494.1 mA over the hour."
    return "The beam current is **500.2 mA**."


def _next(state: dict[str, Any]) -> str:
    plan = state.get("planning_execution_plan") or {}
    index = state.get("planning_current_step_index") or 0
    return "execute" if index < len(plan.get("steps") or []) else END


def build_window_graph(checkpointer: Any):
    graph = StateGraph(AgentState)
    graph.add_node("plan", plan_node)
    graph.add_node("execute", execute_node)
    graph.add_edge(START, "plan")
    graph.add_conditional_edges("plan", _next, ["execute", END])
    graph.add_conditional_edges("execute", _next, ["execute", END])
    return graph.compile(checkpointer=checkpointer)
