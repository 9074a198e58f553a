"""Prompts of the chat-model planner: what the model is told about the task, the
capabilities and the context already gathered.

Everything the model sees is built here, bounded in size: a thread may hold thousands of
contexts and a long chat, and a prompt that grows with them would slow every turn.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from osprey_desktop.state.execution_summary import get_execution_steps_summary

logger = logging.getLogger(__name__)

MAX_CHAT_MESSAGES = 20
MAX_MESSAGE_CHARS = 2000
MAX_CONTEXTS_PER_TYPE = 10
MAX_SUMMARY_CHARS = 6000

_ROLE = (
    "You are the planner of Osprey Desktop, an assistant for particle accelerator "
    "control-room operators. You never operate the machine yourself: you decide which "
    "capabilities run, in which order, and on which data."
)


# ---- building blocks -------------------------------------------------------------------
def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 15] + " …[truncated]"


def _requirement(entry: Any) -> str:
    if isinstance(entry, tuple | list) and len(entry) == 2:
        return f"{entry[0]} ({entry[1]})"
    return str(entry)


def _example(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, Mapping):
        return str(entry.get("query") or entry.get("text") or json.dumps(entry, default=str))
    return str(getattr(entry, "query", None) or entry)


def describe_capabilities(capabilities: Iterable[Any]) -> str:
    """One block per capability: name, description, requires, provides, parameters, examples."""
    blocks = []
    for capability in capabilities:
        lines = [f"- name: {getattr(capability, 'name', '?')}"]
        description = getattr(capability, "description", "") or ""
        lines.append(f"  description: {description.strip()}")
        requires = [_requirement(r) for r in getattr(capability, "requires", None) or []]
        provides = [str(p) for p in getattr(capability, "provides", None) or []]
        lines.append(f"  requires: {', '.join(requires) if requires else 'nothing'}")
        lines.append(f"  provides: {', '.join(provides) if provides else 'nothing'}")
        if getattr(capability, "writes", False) is True:
            lines.append(
                "  changes the machine: select it only when the request explicitly asks for a "
                "change"
            )
        parameters = getattr(capability, "parameters", None)
        if isinstance(parameters, Mapping) and parameters:
            listed = "; ".join(f"{name} ({help_text})" for name, help_text in parameters.items())
            lines.append(f"  step parameters: {listed}")
        keywords = [str(k) for k in getattr(capability, "keywords", None) or []]
        if keywords:
            lines.append(f"  keywords: {', '.join(keywords)}")
        examples = [_example(e) for e in getattr(capability, "examples", None) or []]
        if examples:
            lines.append("  example requests: " + "; ".join(f'"{e}"' for e in examples[:5]))
        blocks.append("\n".join(lines))
    return "\n".join(blocks) if blocks else "(no capabilities available)"


def describe_available_context(state: Mapping[str, Any]) -> str:
    """The stored contexts a step may read, newest last, at most a few keys per type."""
    data = state.get("capability_context_data") or {}
    if not isinstance(data, Mapping) or not data:
        return "No context data is stored yet."
    shown: list[dict[str, str]] = []
    lines = []
    for context_type, branch in data.items():
        keys = list(branch) if isinstance(branch, Mapping) else []
        recent = keys[-MAX_CONTEXTS_PER_TYPE:]
        shown.extend({context_type: key} for key in recent)
        hidden = len(keys) - len(recent)
        note = f" (and {hidden} older)" if hidden else ""
        lines.append(f"- {context_type}: {', '.join(recent)}{note}")
    listing = "Stored contexts as context_type: context_key list:\n" + "\n".join(lines)
    details = _access_description(state, shown)
    return listing if not details else f"{listing}\n\n{_clip(details, MAX_SUMMARY_CHARS)}"


def _access_description(state: Mapping[str, Any], shown: list[dict[str, str]]) -> str:
    # The ContextManager knows each context class's own access details; a context that
    # cannot be loaded must not stop planning, so any failure leaves just the key listing.
    try:
        from osprey_desktop.context.context_manager import ContextManager

        return ContextManager(state).get_context_access_description(context_filter=shown)
    except Exception as exc:  # noqa: BLE001 - planning goes on with the key listing only
        logger.warning("context access details left out of the planning prompt: %s", exc)
        return ""


def render_conversation(messages: Sequence[BaseMessage]) -> str:
    """The recent chat as 'User:' / 'Assistant:' lines, oldest first."""
    lines = []
    for message in list(messages)[-MAX_CHAT_MESSAGES:]:
        role = {"human": "User", "ai": "Assistant", "system": "System"}.get(
            getattr(message, "type", ""), str(getattr(message, "type", "Message")).title()
        )
        content = message.content if hasattr(message, "content") else str(message)
        if not isinstance(content, str):
            content = " ".join(
                str(block.get("text", "")) if isinstance(block, Mapping) else str(block)
                for block in content
            )
        lines.append(f"{role}: {_clip(content.strip(), MAX_MESSAGE_CHARS)}")
    return "\n".join(lines) if lines else "(empty conversation)"


def _execution_history(state: Mapping[str, Any]) -> str:
    steps = get_execution_steps_summary(state)
    results = state.get("execution_step_results") or {}
    lines = []
    for line, result in zip(steps, _ordered_results(results), strict=False):
        status = "succeeded" if result.get("success", True) else "failed"
        capability = result.get("capability", "?")
        key = result.get("context_key")
        where = f", stored as {key}" if key else ""
        lines.append(f"{line} [{capability}, {status}{where}]")
    return "\n".join(lines) if lines else "No steps have run yet."


def _ordered_results(results: Any) -> list[Mapping[str, Any]]:
    if not isinstance(results, Mapping):
        return []
    entries = [r for r in results.values() if isinstance(r, Mapping)]
    indexed = [r for r in entries if isinstance(r.get("step_index"), int | float)]
    others = [r for r in entries if r not in indexed]
    return sorted(indexed, key=lambda r: r["step_index"]) + others


def _recent_problem(state: Mapping[str, Any]) -> str:
    parts = []
    reason = state.get("control_reclassification_reason")
    if reason:
        parts.append(f"The previous plan was rejected: {reason}")
    current = state.get("control_error_info") if state.get("control_has_error") else None
    earlier = state.get("control_last_error")
    if isinstance(current, Mapping) and current:
        parts.append(f"The last step failed: {_error_text(current)}")
    elif isinstance(earlier, Mapping) and earlier:
        parts.append(f"An earlier attempt failed: {_error_text(earlier)}")
    return "\n".join(parts)


def _error_text(error: Mapping[str, Any]) -> str:
    text = error.get("user_message") or error.get("message") or json.dumps(error, default=str)
    node = error.get("capability_name") or error.get("node")
    return _clip(f"{text} (in {node})" if node else str(text), 500)


def _observations(state: Mapping[str, Any]) -> str:
    """React mode's observation log (what each step returned), newest last."""
    entries = [e for e in state.get("react_messages") or [] if isinstance(e, Mapping)]
    lines = []
    for entry in entries[-MAX_CHAT_MESSAGES:]:
        outcome = "succeeded" if entry.get("success") else "failed"
        detail = entry.get("context_key") or entry.get("error") or ""
        lines.append(
            f"- {entry.get('capability', '?')} {outcome}" + (f": {detail}" if detail else "")
        )
    return "\n".join(lines)


_STEP_RULES = """Step rules:
- capability: one of the capability names listed above, spelled exactly.
- context_key: a new unique snake_case key for this step's result (e.g. "beam_current_values").
- expected_output: the context type the capability provides (from its provides), or null.
- inputs: one {"context_type", "context_key"} entry per context the step reads: a stored context
  listed above or the context_key of an earlier step whose expected_output has that type. Every
  requirement of the capability must be met this way.
- parameters: extra name/value settings for the capability (empty list when none).
- task_objective: what this step must achieve; success_criteria: how to tell it did."""


# ---- prompts per planner method --------------------------------------------------------
def _capability_system(instruction: str, capabilities: Sequence[Any], step_rules: bool) -> str:
    """The system prompt of the three methods that choose capabilities: role, instruction,
    JSON-only, the step rules when the reply is a step, then the capability list."""
    rules = f"\n\n{_STEP_RULES}" if step_rules else ""
    return (
        f"{_ROLE}\n\n{instruction} Answer only with JSON matching the schema.{rules}"
        f"\n\nCapabilities:\n{describe_capabilities(capabilities)}"
    )


def _task_and_context(task: str, state: Mapping[str, Any]) -> str:
    return f"Task: {task}\n\nAvailable context:\n{describe_available_context(state)}"


def task_extraction_messages(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    system = (
        f"{_ROLE}\n\nRead the conversation and state the user's LATEST request as one clear, "
        "self-contained task. Resolve references such as 'it', 'that channel' or 'again' "
        "from earlier turns, and keep channel names, numbers and units exactly as written. "
        "Answer only with JSON matching the schema."
    )
    return [SystemMessage(system), HumanMessage(f"Conversation:\n{render_conversation(messages)}")]


def selection_messages(
    task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
) -> list[BaseMessage]:
    system = _capability_system(
        "Select every capability needed to complete the task, including the ones that provide "
        "data another selected capability requires. Do not select respond or clarify: they are "
        "always available. Use the names exactly as listed.",
        capabilities,
        step_rules=False,
    )
    return [SystemMessage(system), HumanMessage(_task_and_context(task, state))]


_REQUEST_FORMS = """Request forms:
- A question about a concept or about you ("what is a BPM?", "can you write without my
  approval?") is answered by respond alone: read nothing.
- A value at a moment in the past ("at 06:30", "3 hours ago") is a time range step and an
  archive retrieval; comparing now with that moment also reads the channels now.
- A write needs its value and its target from the user. A value taken from another channel
  ("the same as VCM07") reads that channel before the write step and passes its values as an
  input of the write; a value restored from a moment looks up the archive first and passes
  the archived data; a write on a condition ("if ... is below ...") reads first, and the
  write step checks the condition and writes nothing when it does not hold.
- Several channels of one write ("all vertical correctors", "HCM01 to HCM04") are one
  channel finding step and one write step.
- Never guess: a write whose value, unique target or time is missing or vague finds the
  candidates and ends with clarify, without a write step."""


def plan_messages(
    task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
) -> list[BaseMessage]:
    system = _capability_system(
        "Write an execution plan: the ordered steps that complete the task using only the "
        "capabilities below. End with a step of the respond capability that answers the user "
        "(or clarify when the request is too ambiguous to act on).",
        capabilities,
        step_rules=True,
    )
    system += f"\n\n{_REQUEST_FORMS}"
    problem = _recent_problem(state)
    human = _task_and_context(task, state)
    if problem:
        human += f"\n\n{problem}\nFix this in the new plan."
    return [SystemMessage(system), HumanMessage(human)]


def next_step_messages(
    task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
) -> list[BaseMessage]:
    system = _capability_system(
        "You work step by step. Given the task, the steps already run and the context stored "
        "so far, choose the single next step. When the task is complete, or cannot progress, "
        "choose the respond capability (or clarify to ask the user).",
        capabilities,
        step_rules=True,
    )
    system += f"\n\n{_REQUEST_FORMS}"
    human = f"Task: {task}\n\nSteps run so far:\n{_execution_history(state)}"
    observations = _observations(state)
    if observations:
        human += f"\n\nObservations:\n{observations}"
    human += f"\n\nAvailable context:\n{describe_available_context(state)}"
    problem = _recent_problem(state)
    if problem:
        human += f"\n\n{problem}"
    return [SystemMessage(system), HumanMessage(human)]


def response_messages(
    task: str, state: Mapping[str, Any], context_summaries: Mapping[str, Any] | Sequence[Any]
) -> list[BaseMessage]:
    system = (
        f"{_ROLE}\n\nWrite the answer to the operator. Use only the results below; never "
        "invent values, channel names or units. Be brief and precise, quote values with their "
        "units and say plainly when something failed or is missing. Markdown is allowed."
    )
    summaries = json.dumps(context_summaries, indent=2, default=str)
    human = (
        f"Task: {task}\n\nSteps run:\n{_execution_history(state)}\n\n"
        f"Results (context summaries):\n{_clip(summaries, MAX_SUMMARY_CHARS)}"
    )
    problem = _recent_problem(state)
    if problem:
        human += f"\n\nProblems:\n{problem}"
    return [SystemMessage(system), HumanMessage(human)]


def clarification_messages(
    task: str, state: Mapping[str, Any], reason: str | None
) -> list[BaseMessage]:
    system = (
        f"{_ROLE}\n\nThe request cannot be acted on yet. Ask the operator one short, specific "
        "question that would let you proceed (for example which channel, which time range, "
        "which value). Ask only the question."
    )
    messages = state.get("messages") or []
    human = f"Task: {task}\n\nConversation:\n{render_conversation(messages)}"
    if reason:
        human += f"\n\nWhat is unclear: {reason}"
    return [SystemMessage(system), HumanMessage(human)]


def correction_message(reason: str) -> HumanMessage:
    """Sent after an invalid reply so the retry knows what to fix."""
    return HumanMessage(
        f"Your previous reply was rejected: {reason}. Reply again with only one JSON object "
        "that matches the required schema exactly."
    )
