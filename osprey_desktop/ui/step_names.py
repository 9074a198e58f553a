"""Operator words for the plan's internal names (no Qt here).

Plans name steps by capability id (``channel_finding``), their results by context type and
key (``CHANNEL_ADDRESSES`` / ``channel_finding_3``) and settings by config key
(``planning_mode_enabled=True``). The window shows none of those: a step is named in words
("Channel finding"), a result by what it holds ("channel addresses") and the step that made
it ("from step 1"), a setting as "planning mode: on". Internal names stay one click away in
the Context dock's details.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_SETTING = re.compile(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)=([^,\s]+)")
_CODE_STEP = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`")
_CODE_RESULT = re.compile(r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`")
_STEP_PHRASE = re.compile(r"\b(the|a) ([a-z][a-z0-9]*(?:_[a-z0-9]+)+) step\b")


def step_name(capability: str) -> str:
    """``channel_finding`` -> ``Channel finding`` (any id: words joined by underscores)."""
    words = capability.replace("-", "_").split("_")
    text = " ".join(w for w in words if w)
    return text[:1].upper() + text[1:] if text else "Step"


def result_name(context_type: str) -> str:
    """``CHANNEL_ADDRESSES`` -> ``channel addresses``."""
    return context_type.replace("_", " ").strip().lower() or "result"


def inputs_text(
    inputs: Sequence[Mapping[str, str]], producers: Mapping[str, int] | None = None
) -> str:
    """What a step uses: ``channel addresses from step 1`` (the step that made each)."""
    producers = producers or {}
    parts = []
    for item in inputs:
        for context_type, key in item.items():
            step = producers.get(key)
            where = f" from step {step + 1}" if step is not None else ""
            parts.append(f"{result_name(context_type)}{where}")
    return ", ".join(parts) or "—"


def setting_text(key: str, value: str) -> str:
    """``planning_mode_enabled``, ``True`` -> ``planning mode: on``."""
    words = [w for w in key.split("_") if w and w != "enabled"]
    shown = {"true": "on", "false": "off"}.get(value.lower(), value.replace("_", " "))
    return f"{' '.join(words)}: {shown}"


def humane_note(text: str) -> str:
    """Settings written as ``key=value`` in a note, in words."""
    return _SETTING.sub(lambda m: setting_text(m.group(1), m.group(2)), text)


def humane_text(text: str) -> str:
    """An error or answer from the agent with its internal names in words: a step id in code
    (`task_extraction`) or in "the task_extraction step", a result type in code
    (`CHANNEL_ADDRESSES`), settings as ``key=value``. Channel names, paths and dotted config
    keys are left as they are."""
    text = _CODE_STEP.sub(lambda m: step_name(m.group(1)), text)
    text = _CODE_RESULT.sub(lambda m: result_name(m.group(1)), text)
    text = _STEP_PHRASE.sub(lambda m: f"{m.group(1)} {step_name(m.group(2))} step", text)
    return humane_note(text)


def step_line(
    step: Mapping[str, object],
    number: int | None = None,
    producers: Mapping[str, int] | None = None,
) -> str:
    """One plan step in words: ``1. **Channel finding** — find the magnet (gives: channel
    addresses)``; parameters as ``name: value``."""
    name = step_name(str(step.get("capability") or "?"))
    head = f"{number}. " if number is not None else "- "
    line = f"{head}**{name}**"
    objective = str(step.get("task_objective") or "")
    if objective:
        line += f" — {objective}"
    raw_inputs = step.get("inputs") or []
    inputs = (
        [i for i in raw_inputs if isinstance(i, Mapping)] if isinstance(raw_inputs, list) else []
    )
    extras = []
    if inputs:
        extras.append("uses: " + inputs_text(inputs, producers))
    output = step.get("expected_output")
    if output:
        extras.append(f"gives: {result_name(str(output))}")
    params = step.get("parameters")
    if isinstance(params, Mapping) and params:
        extras.append(", ".join(f"{str(k).replace('_', ' ')}: {v}" for k, v in params.items()))
    return line + (f" ({'; '.join(extras)})" if extras else "")


def operator_message(payload: Mapping[str, object]) -> str | None:
    """A plan or step approval told in words, from its structured fields (None: keep the
    payload's own message, e.g. a channel write, which names channels and values only)."""
    resume = payload.get("resume_payload")
    if not isinstance(resume, Mapping):
        return None
    kind = resume.get("approval_type")
    plan = resume.get("execution_plan")
    step = resume.get("step")
    if kind == "plan" and isinstance(plan, Mapping):
        steps = [s for s in plan.get("steps") or [] if isinstance(s, Mapping)]
        producers = {str(s.get("context_key")): i for i, s in enumerate(steps)}
        body = [step_line(s, i + 1, producers) for i, s in enumerate(steps)]
        question = "**Approve this plan before anything runs?**"
        answer = "Answer **yes** to run it or **no** to cancel (nothing will be executed)."
    elif kind in ("reactive_step", "step") and isinstance(step, Mapping):
        body = [step_line(step)]
        question = str(payload.get("user_message") or "").splitlines()[0] or "**Approve?**"
        answer = "Answer **yes** to run this step or **no** to stop here."
    else:
        return None
    task = resume.get("task")
    lines = [question, ""]
    if task:
        lines += [f"Task: {task}", ""]
    return "\n".join([*lines, *body, "", answer])


__all__ = [
    "humane_note",
    "humane_text",
    "inputs_text",
    "operator_message",
    "result_name",
    "setting_text",
    "step_line",
    "step_name",
]
