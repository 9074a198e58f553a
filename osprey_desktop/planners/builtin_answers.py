"""The built-in planner's answer to a turn, written once its steps have run.

The results no later step consumed, rendered (``response_writer``); without results, help, an
explanation, a thank-you, what was done, or the words of a request nothing matched; then what
failed. Facility knowledge comes from ``knowledge``, the capabilities from the registry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from osprey_desktop.language.clauses import only_refuses_changes, takes_itself_back
from osprey_desktop.language.questions import (
    asks_for_help,
    asks_for_limits,
    is_knowledge_question,
    is_thanks,
)
from osprey_desktop.language.words import is_farewell, is_greeting
from osprey_desktop.planners.change_requests import (
    LATER_CHANGE_ANSWER,
    change_for_later,
    registered_capabilities,
)
from osprey_desktop.planners.channel_words import parse
from osprey_desktop.planners.limits_answer import limits_answer
from osprey_desktop.planners.response_writer import render_capability_help, render_summaries
from osprey_desktop.state.context_summaries import successful_steps


def written_answer(
    primary: str, state: Mapping[str, Any], context_summaries: Mapping[str, Any]
) -> str:
    """The Markdown answer to ``primary`` (the request without a follow-up note): the
    results, or what can be said without any, and then the steps that failed."""
    failures = [
        r
        for r in (state.get("execution_step_results") or {}).values()
        if isinstance(r, Mapping) and r.get("success") is False
    ]
    parts: list[str] = []
    if context_summaries:
        parts.append(render_summaries(_final_results(context_summaries, state)))
    else:
        capabilities = registered_capabilities()
        done = [
            r for r in successful_steps(state) if r.get("capability") not in ("respond", "clarify")
        ]
        later = change_for_later(primary)
        if asks_for_help(primary):
            parts.append("I can help with:\n" + render_capability_help(capabilities))
        elif later is not None:
            parts.append(LATER_CHANGE_ANSWER.format(later=later))
            parts.append(limits_answer(primary))
        elif asks_for_limits(primary):
            parts.append(limits_answer(primary))
        elif is_knowledge_question(primary) or parse(primary).intent == "knowledge":
            parts.append(_explanation(primary))
        elif is_thanks(primary):
            thanked = re.search(r"\b(?:thanks?|thx|cheers|ta)\b", primary, re.I)
            parts.append(
                "You're welcome. Ask me anything else about the machine."
                if thanked
                else "OK. Nothing was read or changed; ask me anything about the machine."
            )
        elif takes_itself_back(primary):
            parts.append(
                "Understood: you took that back, so nothing was read or changed. Ask again "
                "whenever you are ready."
            )
        elif only_refuses_changes(primary):
            parts.append(
                "Understood: nothing was changed. Nothing is ever written unless you ask for a "
                "change and approve it in the dialog. A standing limit for a channel belongs in "
                "the write policy (`limits.yaml`), which checks every write."
            )
        elif is_farewell(primary):
            parts.append("Goodbye, and thanks. Nothing was read or changed.")
        elif is_greeting(primary):
            parts.append("Hello! I can help with:\n" + render_capability_help(capabilities))
        elif done:
            parts.append(
                "Done:\n"
                + "\n".join(
                    f"- `{r['capability']}`: {r.get('task_objective') or 'completed'}" for r in done
                )
            )
        elif not failures:
            parts.append(
                f"I could not match “{primary}” to anything I can do"
                f"{_unplaced_note(primary)}. I can:\n"
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


def _unplaced_note(text: str) -> str:
    """The words a request nothing matched could not place, for its answer ("bake a cake")."""
    request = parse(text)
    words = list(dict.fromkeys([*request.unused]))
    if not words:
        return ""
    listed = ", ".join(f"“{w}”" for w in words)
    return f" ({listed}: no word of the channel list or of what I can do)"


def _explanation(question: str) -> str:
    """A knowledge answer, naming the facility's channels of the kind asked about."""
    from osprey_desktop.knowledge import answer_question, configured_abbreviations

    try:
        from osprey_desktop.connectors import get_configured_channel_database

        database = get_configured_channel_database()
    except Exception:  # noqa: BLE001 - an unreadable list must not stop an explanation
        database = None
    return answer_question(question, database=database, abbreviations=configured_abbreviations())
