"""``respond``: the turn's answer, from this turn's contexts (see ``osprey_desktop.answers``).

A summary may carry ``facts``: lines that state an outcome (what a write did). They open the
answer word for word and are not handed to the planner, so a chat model can add words about
the rest of the turn but can never state an outcome ("Done.") that did not happen. Live
values, histories and write results follow as tables built from the context objects; the
planner writes only about what is left. The message content is the answer's Markdown (what
the command line prints); its ``additional_kwargs`` carry the structured answer the window
renders with alarm and outcome colours.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.answers import ANSWER_KEY, AnswerPlan, compose_answer, plan_answer
from osprey_desktop.answers.compose import with_notice
from osprey_desktop.answers.model import TextBlock
from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.context import ContextManager
from osprey_desktop.decorators import capability_node
from osprey_desktop.events import Result, emit
from osprey_desktop.language.later_changes import held_items_set_aside
from osprey_desktop.language.questions import limits_beside_a_reading
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.planners.limits_answer import limits_answer
from osprey_desktop.planners.model_endpoint import turn_notice
from osprey_desktop.planners.selection import get_planner
from osprey_desktop.state import StateManager
from osprey_desktop.state.context_summaries import turn_context_summaries

#: the write policy answer's closing note, untrue beside a reading
_NOTHING_READ = re.compile(r"\s*\*Nothing was read or changed[^*]*\*\s*$")


@capability_node
class RespondCapability(BaseCapability):
    name = "respond"
    description = "Answer the operator from the results of this turn"
    provides: list[str] = []
    requires: list[Any] = []

    async def execute(self) -> dict[str, Any]:
        state = self._state
        task = state.get("task_current_task") or (StateManager.get_user_query(state) or "").strip()
        # On the loop, on purpose: ~20 ms for a day of 72 BPMs. In a worker thread it shared
        # the GIL with the window building that history's plot at the same moment, and
        # stretched those stalls to 150-200 ms (bench/ui_latency.py, docs/window.md). The
        # summaries and the tables are two loop turns, so the window runs in between.
        contexts = turn_contexts(state)
        summaries = turn_context_summaries(state, self.get_step_inputs(), contexts)
        await asyncio.sleep(0)
        plan = plan_answer(state, summaries, contexts=contexts)
        text = ""
        if plan.ask_planner:
            text = await get_planner().write_response(task, state, plan.for_planner)
            if not isinstance(text, str) or not text.strip():
                raise PlannerError("the planner wrote an empty response")
        _, noted = held_items_set_aside(task)
        if noted:
            # "(c) QF 21 +1 A is for tomorrow morning, do NOT do it now": said back, not done
            plan.leading.append(
                TextBlock(
                    "Only noted, not done (nothing is changed later on its own; ask again when "
                    "it is time): " + "; ".join(f"“{item}”" for item in noted),
                    "fact",
                )
            )
        both = limits_beside_a_reading(task)
        if both is not None:
            # "what's the max I can put on QD 20, and what is it reading now?": the reading,
            # and the write policy's answer beside it
            policy = _NOTHING_READ.sub("", limits_answer(both[0]))
            plan.leading.append(TextBlock(policy, "fact"))
        notice = turn_notice(get_planner())  # the built-in planner stood in for the model
        answer = compose_answer(with_notice(plan, notice), text, state)
        markdown = answer.to_markdown()
        emit(Result(response=markdown))
        message = AIMessage(content=markdown, additional_kwargs={ANSWER_KEY: answer.to_dict()})
        updates: dict[str, Any] = {"messages": [message]}
        started = state.get("execution_start_time")
        if started:
            updates["execution_total_time"] = time.time() - float(started)
        return updates


def answer_plan(state: Mapping[str, Any], inputs: Iterable[Mapping[str, str]]) -> AnswerPlan:
    """This turn's summaries split into the answer's blocks, each context rebuilt once."""
    contexts = turn_contexts(state)
    summaries = turn_context_summaries(state, inputs, contexts)
    return plan_answer(state, summaries, contexts=contexts)


def turn_contexts(state: Mapping[str, Any]) -> ContextManager | None:
    """The contexts of the state, each rebuilt once for the summaries and the tables."""
    try:
        return ContextManager(dict(state))
    except (TypeError, ValueError):
        return None  # each reader then falls back on its own, as it always did


__all__ = ["RespondCapability", "answer_plan"]
