"""The built-in planner: deterministic, offline, driven by what capabilities declare.

* task: the latest request; when it points back ("those", "again") the previous request is
  noted as ``<request> (follow-up to: "<previous request>")`` and earlier results may be reused;
* capabilities: scored by their ``keywords`` and ``examples`` (``planners.matching``); a
  capability with ``writes = True`` only on an explicit change verb; greetings match nothing;
* plan: backward chaining over ``requires``/``provides`` (``planners.plan_builder``), respond
  last, clarify instead when an input cannot be produced;
* response: the context summaries of this turn rendered as Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from osprey_desktop.infrastructure.context_summaries import successful_steps
from osprey_desktop.planners.base import ExtractedTask
from osprey_desktop.planners.matching import (
    is_greeting,
    match_capabilities,
    references_earlier_results,
)
from osprey_desktop.planners.plan_builder import PlanDraft, build_steps, closing_step
from osprey_desktop.planners.response_writer import render_capability_help, render_summaries

_FOLLOW_UP = re.compile(r'^(?P<primary>.*?) \(follow-up to: "(?P<previous>.*)"\)$', re.S)


def _human_texts(messages: Sequence[BaseMessage]) -> list[str]:
    texts = []
    for message in messages:
        if isinstance(message, HumanMessage) or getattr(message, "type", "") == "human":
            content = message.content
            if isinstance(content, list):
                content = " ".join(
                    p.get("text", "") if isinstance(p, dict) else str(p) for p in content
                )
            if str(content).strip():
                texts.append(str(content).strip())
    return texts


def split_task(task: str) -> tuple[str, str | None]:
    """``(request, previous request or None)`` from a task this planner extracted."""
    match = _FOLLOW_UP.match(task.strip())
    if match:
        return match.group("primary").strip(), match.group("previous").strip()
    return task.strip(), None


def _consumed_keys(state: Mapping[str, Any]) -> set[str]:
    """Context keys this turn's steps read as inputs (intermediate results)."""
    plan = state.get("planning_execution_plan") or {}
    steps = list(plan.get("steps") or []) if isinstance(plan, Mapping) else []
    for message in state.get("react_messages") or []:
        if isinstance(message, Mapping) and message.get("type") == "decision":
            steps.append(message.get("step") or {})
    return {
        key
        for step in steps
        if step.get("capability") not in ("respond", "clarify")
        for item in step.get("inputs") or []
        for key in item.values()
    }


def _final_results(summaries: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """The summaries worth showing: results no later step consumed (all, if that is none)."""
    consumed = _consumed_keys(state)
    final = {label: s for label, s in summaries.items() if label.partition(".")[2] not in consumed}
    return final or dict(summaries)


def _all_capabilities() -> list[Any]:
    from osprey_desktop.registry import get_registry

    return get_registry().get_all_capabilities()


class BuiltinPlanner:
    """Implements ``Planner`` without any model; see the module docstring for the rules."""

    name = "builtin"

    # -- task ---------------------------------------------------------------------------

    async def extract_task(
        self, messages: list[BaseMessage], state: Mapping[str, Any]
    ) -> ExtractedTask:
        texts = _human_texts(messages)
        if not texts:
            return ExtractedTask(task="", depends_on_chat_history=False)
        latest = texts[-1]
        refers = references_earlier_results(latest) and (
            len(texts) > 1 or bool(state.get("capability_context_data"))
        )
        task = latest
        if refers and len(texts) > 1:
            task = f'{latest} (follow-up to: "{texts[-2]}")'
        return ExtractedTask(task=task, depends_on_chat_history=refers)

    # -- capabilities and plans ---------------------------------------------------------

    def _goals(self, task: str, capabilities: Sequence[Any]) -> tuple[str, list[Any]]:
        """The text that matched and the goal capabilities, in the order the text names them."""
        primary, previous = split_task(task)
        if is_greeting(primary):
            return primary, []
        by_name = {c.name: c for c in capabilities}
        matches = match_capabilities(primary, capabilities)
        text = primary
        if not matches and previous:
            matches = match_capabilities(previous, capabilities)
            text = previous
        return text, [by_name[m.name] for m in matches]

    async def select_capabilities(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> list[str]:
        return [c.name for c in self._goals(task, capabilities)[1]]

    def _draft(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any], react: bool
    ) -> tuple[str, PlanDraft, dict[str, str]]:
        text, goals = self._goals(task, capabilities)
        produced: dict[str, str] = {}
        done: list[str] = []
        if react:
            known = {c.name: c for c in [*_all_capabilities(), *capabilities]}
            for record in successful_steps(state):
                cap = known.get(str(record.get("capability")))
                if cap is None or cap.name in ("respond", "clarify"):
                    continue
                done.append(cap.name)
                for context_type in cap.provides or []:
                    produced[context_type] = str(record.get("context_key"))
        draft = build_steps(
            text,
            goals,
            capabilities,
            state,
            allow_reuse=bool(state.get("task_depends_on_chat_history")),
            fallback=_all_capabilities(),
            produced=produced,
            done=done,
        )
        return text, draft, produced

    async def create_plan(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> dict[str, Any]:
        text, draft, _ = self._draft(task, capabilities, state, react=False)
        if draft.missing:
            reason = "; ".join(dict.fromkeys(draft.missing))
            return {"steps": [closing_step("clarify", text, draft, reason)]}
        return {"steps": [*draft.steps, closing_step("respond", text, draft)]}

    async def choose_next_step(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> dict[str, Any]:
        text, draft, produced = self._draft(task, capabilities, state, react=True)
        if draft.missing:
            return closing_step("clarify", text, draft, "; ".join(dict.fromkeys(draft.missing)))
        if draft.steps:
            return draft.steps[0]
        respond = closing_step("respond", text, draft)
        for context_type, key in produced.items():
            if {context_type: key} not in respond["inputs"]:
                respond["inputs"].append({context_type: key})
        return respond

    # -- answers ------------------------------------------------------------------------

    async def write_response(
        self, task: str, state: Mapping[str, Any], context_summaries: dict[str, Any]
    ) -> str:
        primary, _ = split_task(task)
        failures = [
            r
            for r in (state.get("execution_step_results") or {}).values()
            if isinstance(r, Mapping) and r.get("success") is False
        ]
        parts: list[str] = []
        if context_summaries:
            parts.append(render_summaries(_final_results(context_summaries, state)))
        else:
            capabilities = _all_capabilities()
            done = [
                r
                for r in successful_steps(state)
                if r.get("capability") not in ("respond", "clarify")
            ]
            if is_greeting(primary):
                parts.append("Hello! I can help with:\n" + render_capability_help(capabilities))
            elif done:
                parts.append(
                    "Done:\n"
                    + "\n".join(
                        f"- `{r['capability']}`: {r.get('task_objective') or 'completed'}"
                        for r in done
                    )
                )
            elif not failures:
                parts.append(
                    f"I could not match “{primary}” to anything I can do. I can:\n"
                    + render_capability_help(capabilities)
                    + "\n\nTry one of the examples, or name the channel or system you mean."
                )
        if failures:
            parts.append(
                "**Not completed:**\n"
                + "\n".join(
                    f"- `{r.get('capability')}`: {r.get('error') or 'failed'}" for r in failures
                )
            )
        return "\n\n".join(parts).strip()

    async def ask_clarification(
        self, task: str, state: Mapping[str, Any], reason: str | None
    ) -> str:
        primary, _ = split_task(task)
        capabilities = _all_capabilities()
        _, goals = self._goals(primary, capabilities)
        examples = [e for cap in goals for e in (cap.examples or [])][:3]
        if not examples:
            examples = [cap.examples[0] for cap in capabilities if cap.examples][:3]
        lines = ["**I need more information before I can do this.**", ""]
        lines.append(reason or f"“{primary}” does not say clearly enough what to do.")
        if examples:
            lines += ["", "For example, you could ask:"] + [f"- “{e}”" for e in examples]
        return "\n".join(lines)


__all__ = ["BuiltinPlanner", "split_task"]
