"""The error node: one clear, structured report instead of a traceback, then the turn ends.

The report says what failed (step, capability, objective), the error, its severity and
retries, what had already succeeded (with outputs, which stay stored and reusable), and
what the operator can do next.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage

from osprey_desktop.base.nodes import BaseInfrastructureNode
from osprey_desktop.decorators import infrastructure_node
from osprey_desktop.events import ErrorEvent, Result, emit
from osprey_desktop.state.context_summaries import (
    compact,
    context_summary,
    successful_steps,
)

logger = logging.getLogger(__name__)

_NEXT_STEPS = {
    "retriable": "The service kept failing (timeouts or lost connections). Check that it is "
    "reachable, then ask again.",
    "replanning": "No working plan was found. Rephrase the request as smaller, explicit steps "
    "(for example first find the channels, then read them).",
    "reclassification": "The request did not match the available capabilities. Rephrase it "
    "naming what you want done; /help lists the commands.",
    "fatal": "The request was stopped. Ask a narrower question, or raise the limit named above "
    "in the configuration.",
    "critical": "Check the names, values and time ranges in the request and try again. Results "
    "listed above are kept; you can ask about them without running the steps again.",
}


def _succeeded(state: Mapping[str, Any]) -> list[str]:
    data = state.get("capability_context_data") or {}
    lines = []
    for record in successful_steps(state):
        if record.get("capability") in ("respond", "clarify"):
            continue
        key = str(record.get("context_key"))
        line = f"- step {int(record.get('step_index') or 0) + 1}: `{record.get('capability')}`"
        if record.get("task_objective"):
            line += f" — {record['task_objective']}"
        outputs = [t for t, entries in data.items() if key in entries]
        for context_type in outputs:
            digest = compact(context_summary(state, context_type, key))
            line += f"\n  - {context_type} `{key}`" + (f": {digest}" if digest else "")
        lines.append(line)
    return lines


def build_error_report(state: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The Markdown report and the error info it describes."""
    info = dict(state.get("control_error_info") or state.get("control_last_error") or {})
    if not info and state.get("control_is_killed"):
        info = {"severity": "fatal", "user_message": f"Stopped: {state.get('control_kill_reason')}"}
    if not info:
        info = {
            "severity": "critical",
            "user_message": "The request stopped for an unknown reason.",
        }
    severity = str(info.get("severity") or "critical")
    node = info.get("capability_name") or info.get("node") or "the request"
    lines = ["**The request could not be completed.**", ""]
    what = f"`{node}`"
    if info.get("step_index") is not None and info.get("capability_name"):
        what = f"step {int(info['step_index']) + 1}, {what}"
    if info.get("task_objective"):
        what += f" ({info['task_objective']})"
    lines.append(f"**What failed:** {what}")
    lines.append(f"**Error:** {info.get('user_message') or 'no message'}")
    attempts = int(info.get("attempt") or 1)
    tried = f", {attempts} attempts" if attempts > 1 else ""
    lines.append(f"**Severity:** {severity}{tried}")
    lines.append("")
    done = _succeeded(state)
    if done:
        lines.append("**Completed before the failure:**")
        lines += done
    else:
        lines.append("**Completed before the failure:** nothing.")
    lines.append("")
    advice = (info.get("metadata") or {}).get("suggestion") or _NEXT_STEPS.get(
        severity, _NEXT_STEPS["critical"]
    )
    lines.append(f"**What to do next:** {advice}")
    return "\n".join(lines), info


@infrastructure_node
class ErrorNode(BaseInfrastructureNode):
    name = "error"
    description = "Error Response Generation"

    @staticmethod
    async def execute(state: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        try:
            report, info = build_error_report(state)
        except Exception as exc:  # noqa: BLE001 - the last resort must always answer
            logger.exception("error report failed")
            info = dict(state.get("control_error_info") or {})
            report = f"The request could not be completed: {info.get('user_message') or exc}"
        emit(
            ErrorEvent(
                message=str(info.get("user_message") or ""),
                capability=info.get("capability_name") or info.get("node"),
                severity=info.get("severity"),
            )
        )
        emit(Result(response=report))
        updates: dict[str, Any] = {"messages": [AIMessage(content=report)]}
        started = state.get("execution_start_time")
        if started:
            updates["execution_total_time"] = time.time() - float(started)
        return updates


__all__ = ["ErrorNode", "build_error_report"]
