"""A small hand-made agent graph for Gateway, session and persistence tests.

A request containing "slowly" makes the act step sleep 5 s, so a test can cancel it mid-step.

It uses the real ``AgentState`` and the real interrupt contract: with planning mode on it asks
for approval of a one-step "plan" (``{"user_message", "resume_payload"}``), then "executes" it
by storing a RUN context and answering with the settings it saw. ``slow_seconds`` lets
cancellation tests catch it mid-step.

Run as a script to drive it from a second process:
``python tests/gateway/turn_graph.py DB THREAD yes|no|ask TEXT``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from osprey_desktop.state import AgentState, StateManager


def _request(state: dict[str, Any]) -> str:
    return StateManager.get_user_query(state) or ""


async def plan_node(state: dict[str, Any]) -> dict[str, Any]:
    control = state.get("agent_control") or {}
    request = _request(state)
    plan = {"steps": [{"context_key": "run", "capability": "act", "task_objective": request}]}
    update: dict[str, Any] = {"planning_execution_plan": plan, "task_current_task": request}
    if control.get("planning_mode_enabled"):
        decision = interrupt(
            {
                "user_message": f"**Approve the plan?** act on '{request}'",
                "resume_payload": {"approval_type": "plan", "plan": plan},
            }
        )
        if decision.get("boom"):
            raise RuntimeError("the approved step blew up")
        update["approval_approved"] = bool(decision.get("approved"))
        if not decision.get("approved"):
            update["messages"] = [AIMessage(content="plan rejected, nothing executed")]
            update["planning_execution_plan"] = None
    return update


async def act_node(state: dict[str, Any]) -> dict[str, Any]:
    control = state.get("agent_control") or {}
    get_stream_writer()({"type": "capability_start", "capability": "act"})
    if "slowly" in _request(state):
        await asyncio.sleep(5)  # long enough for a test to cancel the turn mid-step
    existing = (state.get("capability_context_data") or {}).get("RUN", {})
    key = f"run_{len(existing) + 1}"
    settings = {
        k: control.get(k)
        for k in (
            "planning_mode_enabled",
            "approval_global_mode",
            "task_extraction_bypass_enabled",
            "capability_selection_bypass_enabled",
            "orchestration_mode",
            "capability_slash_commands",
        )
    }
    text = f"done: {_request(state)} | {json.dumps(settings, sort_keys=True)}"
    return {
        "capability_context_data": {"RUN": {key: {"request": _request(state)}}},
        "messages": [AIMessage(content=text)],
    }


def _after_plan(state: dict[str, Any]) -> str:
    return "act" if state.get("planning_execution_plan") else END


def thread_config(thread_id: str = "t1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


def build_turn_graph(checkpointer: Any):
    graph = StateGraph(AgentState)
    graph.add_node("plan", plan_node)
    graph.add_node("act", act_node)
    graph.add_edge(START, "plan")
    graph.add_conditional_edges("plan", _after_plan, ["act", END])
    graph.add_edge("act", END)
    return graph.compile(checkpointer=checkpointer)


async def _main(db: str, thread: str, verb: str, text: str) -> int:
    from osprey_desktop.session import AgentSession

    def on_event(mode: str, payload: Any) -> None:
        if mode == "custom" and payload.get("type") == "capability_start":
            print("acting", flush=True)  # lets a test kill this process mid-step

    async with AgentSession.open(db_path=db, graph_factory=build_turn_graph) as session:
        if verb == "ask":
            result = await session.submit(text, thread, on_event=on_event)
        else:
            result = await session.resume(thread, verb == "yes", on_event=on_event)
        print(
            json.dumps(
                {
                    **result.to_dict(),
                    "runs": sorted(result.state.get("capability_context_data", {}).get("RUN", {})),
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(_main(*sys.argv[1:5])))
