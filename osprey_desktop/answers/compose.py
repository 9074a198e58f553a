"""From a turn's contexts to an ``Answer``: facts first, then tables, then the planner's words.

Order and content of the facts are what ``respond`` always guaranteed: every summary's
``facts`` (write outcomes, notes on how channels were found) open the answer word for word.
Live values, histories and write results become tables built from the stored context
objects; the planner writes about whatever is left (and only then is it asked at all), so
it never restates a value or an outcome.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from osprey_desktop.answers.checks import checked_facts
from osprey_desktop.answers.history import history_table, latest_alarms
from osprey_desktop.answers.history_statistics import headline as statistics_headline
from osprey_desktop.answers.history_statistics import statistics_table
from osprey_desktop.answers.model import Answer, Block, Table, TextBlock
from osprey_desktop.answers.tables import values_table, write_table, write_tone
from osprey_desktop.config import ConfigError, get_config

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from osprey_desktop.context import ContextManager

TABLED_TYPES = ("CHANNEL_VALUES", "ARCHIVER_DATA")
WRITE_RESULTS = "CHANNEL_WRITE_RESULTS"


@dataclass
class AnswerPlan:
    """What the answer says before the planner speaks, and what the planner should cover."""

    leading: list[Block] = field(default_factory=list)  # facts and write tables
    tables: list[Table] = field(default_factory=list)  # values and histories
    for_planner: dict[str, dict[str, Any]] = field(default_factory=dict)
    tone: str = "info"
    headline: str = ""

    @property
    def ask_planner(self) -> bool:
        """The planner writes when something is left for it, or when nothing else is said."""
        return bool(self.for_planner) or not (self.leading or self.tables)

    @property
    def has_facts(self) -> bool:
        return bool(self.leading)


def plan_answer(
    state: Mapping[str, Any],
    summaries: Mapping[str, Mapping[str, Any]],
    now: float | None = None,
    contexts: ContextManager | None = None,
) -> AnswerPlan:
    """Split this turn's summaries (``{"TYPE.key": summary}``) into blocks and planner input.

    ``contexts`` (a manager over ``state``) reuses the objects the summaries were made from.
    """
    now = time.time() if now is None else now
    plan = AnswerPlan()
    context_data = state.get("capability_context_data") or {}
    fact_labels = [label for label, s in summaries.items() if s.get("facts")]
    for label in fact_labels:
        facts = [str(line) for line in summaries[label].get("facts") or []]
        context_type, _, key = label.partition(".")
        context = (
            _context(state, context_type, key, contexts)
            if context_type in (WRITE_RESULTS, "ARCHIVER_DATA")
            else None
        )
        if context_type == WRITE_RESULTS and context is not None and context.results:
            plan.leading.append(write_table(context, facts, (context_type, key)))
            tone, headline = write_tone(context)
            plan.tone, plan.headline = _worse((plan.tone, plan.headline), (tone, headline))
        elif context is not None and getattr(context, "statistics", None) and not context.moment:
            # a statistic asked of the history: said first, every figure in a table under it
            first = statistics_headline(
                context.statistics, context.asked_statistics, context.range_words
            )
            plan.leading.append(TextBlock("\n".join(first), "fact"))
            plan.tables.append(statistics_table(context, (context_type, key)))
            simulated = simulated_note()
            if simulated:
                plan.tables[-1].notes.append(simulated)
        else:
            plan.leading.append(TextBlock("\n".join(facts), "fact"))
    rest = {label: dict(s) for label, s in summaries.items() if not s.get("facts")}
    if fact_labels:
        # what only fed the steps that stated facts (the channels a write found) is said
        # by those facts already
        for label in inputs_of_steps(state, {lb.partition(".")[2] for lb in fact_labels}):
            rest.pop(label, None)
    descriptions = channel_descriptions(context_data)
    alarms = latest_alarms(context_data)
    for label in list(rest):
        context_type, _, key = label.partition(".")
        if context_type not in TABLED_TYPES:
            continue
        context = _context(state, context_type, key, contexts)
        if context is None:
            continue
        if context_type == "CHANNEL_VALUES" and context.channel_values:
            plan.tables.append(values_table(context, descriptions, now, (context_type, key)))
        elif context_type == "ARCHIVER_DATA" and context.time_series_data:
            plan.tables.append(history_table(context, alarms, (context_type, key)))
        else:
            continue
        simulated = simulated_note()
        if simulated:
            plan.tables[-1].notes.append(simulated)
        rest.pop(label)
    if plan.tables:
        # the channels and time range behind a table are in the table already
        for label in inputs_of_steps(state, None):
            rest.pop(label, None)
    plan.for_planner = rest
    checked = checked_facts(
        state, lambda kind, key: _context(state, kind, key, contexts), TABLED_TYPES
    )
    if checked:  # "are both tunes within 0.01 of nominal?": the verdict before the values
        plan.leading.insert(0, TextBlock("\n".join(checked), "fact"))
    if plan.tone == "info" and plan.tables:
        plan.tone = "success"
    return plan


def with_notice(plan: AnswerPlan, notice: str | None) -> AnswerPlan:
    """``plan`` with ``notice`` said first (the built-in planner stood in for the model)."""
    if notice:
        plan.leading.insert(0, TextBlock(notice, "fact"))
    return plan


def simulated_note() -> str:
    """Said under every value and history when a facility's channel list runs on the simulated
    ring: its values are made up by the simulation, not read from the machine."""
    try:
        cs = get_config().control_system
    except ConfigError:
        return ""
    if cs.type != "sim" or not cs.channel_database:
        return ""
    return (
        f"Simulated values: control_system.type is sim, so these come from the simulated ring "
        f"for the channels of {cs.channel_database}, not from the machine (set "
        "control_system.type: epics or tango to read it)."
    )


def compose_answer(
    plan: AnswerPlan,
    planner_text: str = "",
    state: Mapping[str, Any] | None = None,
    now: float | None = None,
) -> Answer:
    """The answer: leading facts, tables, planner text, and (when the planner was not asked)
    the steps that failed, so a table never hides a failure."""
    blocks: list[Block] = [*plan.leading, *plan.tables]
    if planner_text.strip():
        blocks.append(TextBlock(planner_text.strip(), "text"))
    tone, headline = plan.tone, plan.headline
    if state is not None and not plan.ask_planner:
        failed = failed_steps(state)
        if failed:
            lines = ["**Not completed:**"] + [
                f"- {r.get('task_objective') or 'a step'}: {r.get('error') or 'failed'}"
                for r in failed
            ]
            blocks.append(TextBlock("\n".join(lines), "problem"))
            if tone in ("info", "success"):
                tone, headline = "failed", "Not everything could be done"
    started = (state or {}).get("execution_start_time")
    return Answer(
        blocks=blocks,
        tone=tone,  # type: ignore[arg-type]
        headline=headline,
        answered_at=time.time() if now is None else now,
        started_at=float(started) if isinstance(started, int | float) else None,
    )


def inputs_of_steps(state: Mapping[str, Any], output_keys: Iterable[str] | None) -> set[str]:
    """``TYPE.key`` of every input of the planned steps (only those producing ``output_keys``
    when given), respond and clarify excluded."""
    wanted = set(output_keys) if output_keys is not None else None
    plan = state.get("planning_execution_plan") or {}
    steps = list(plan.get("steps") or []) if isinstance(plan, Mapping) else []
    for message in state.get("react_messages") or []:
        if isinstance(message, Mapping) and message.get("type") == "decision":
            steps.append(message.get("step") or {})
    inputs: set[str] = set()
    for step in steps:
        if not isinstance(step, Mapping) or step.get("capability") in ("respond", "clarify"):
            continue
        if wanted is not None and step.get("context_key") not in wanted:
            continue
        for item in step.get("inputs") or []:
            if isinstance(item, Mapping):
                inputs.update(f"{ctype}.{key}" for ctype, key in item.items())
    return inputs


def channel_descriptions(context_data: Mapping[str, Any]) -> dict[str, str]:
    """Channel -> description from every stored CHANNEL_ADDRESSES entry."""
    out: dict[str, str] = {}
    for entry in (context_data.get("CHANNEL_ADDRESSES") or {}).values():
        if isinstance(entry, Mapping):
            for name, text in (entry.get("descriptions") or {}).items():
                if text:
                    out.setdefault(str(name), str(text))
    return out


def failed_steps(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [
        r
        for r in (state.get("execution_step_results") or {}).values()
        if isinstance(r, Mapping) and r.get("success") is False
    ]


_RANK = {"info": 0, "success": 1, "refused": 2, "failed": 3}


def _worse(a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
    return b if _RANK.get(b[0], 0) > _RANK.get(a[0], 0) else a


def _context(
    state: Mapping[str, Any], context_type: str, key: str, contexts: ContextManager | None
) -> Any:
    """The stored context object, or None when it cannot be rebuilt (then the planner and
    the generic summary speak for it, as before)."""
    try:
        if contexts is None:
            from osprey_desktop.context import ContextManager

            contexts = ContextManager(dict(state))
        return contexts.get_context(context_type, key)
    except Exception as exc:  # noqa: BLE001 - a broken context must not break the answer
        logger.warning("context %s.%s cannot be shown as a table: %s", context_type, key, exc)
        return None


__all__ = [
    "AnswerPlan",
    "channel_descriptions",
    "compose_answer",
    "inputs_of_steps",
    "plan_answer",
]
