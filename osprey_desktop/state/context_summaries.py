"""Summaries of the contexts a turn produced or reused, for responses and error reports."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from osprey_desktop.context import ContextManager

logger = logging.getLogger(__name__)


def successful_steps(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """This turn's successful step records, in execution order."""
    records = [
        dict(record)
        for record in (state.get("execution_step_results") or {}).values()
        if isinstance(record, Mapping) and record.get("success")
    ]
    records.sort(key=lambda r: (r.get("timestamp") or 0.0, r.get("step_index") or 0))
    return records


def context_summary(
    state: Mapping[str, Any], context_type: str, key: str, contexts: ContextManager | None = None
) -> dict[str, Any]:
    """The context's own ``get_summary()``, or its stored fields when it cannot be rebuilt.

    ``contexts`` (a manager over ``state``) rebuilds each context once for all its readers.
    """
    raw = ((state.get("capability_context_data") or {}).get(context_type) or {}).get(key)
    try:
        if contexts is None:
            from osprey_desktop.context import ContextManager

            contexts = ContextManager(dict(state))
        obj = contexts.get_context(context_type, key)
        if obj is not None:
            summary = obj.get_summary()
            if isinstance(summary, Mapping):
                return dict(summary)
    except Exception as exc:  # noqa: BLE001 - a broken context must not break the answer
        logger.warning("summary of %s.%s failed: %s", context_type, key, exc)
    return {"type": context_type, **(dict(raw) if isinstance(raw, Mapping) else {"value": raw})}


def turn_context_summaries(
    state: Mapping[str, Any],
    extra_inputs: Iterable[Mapping[str, str]] = (),
    contexts: ContextManager | None = None,
) -> dict[str, dict[str, Any]]:
    """``{"TYPE.key": summary}`` for this turn's outputs, then for ``extra_inputs`` (reused)."""
    data = state.get("capability_context_data") or {}
    pairs: list[tuple[str, str]] = []
    for record in successful_steps(state):
        key = record.get("context_key")
        for context_type, entries in data.items():
            if key in entries:
                pairs.append((context_type, str(key)))
    for item in extra_inputs or ():
        for context_type, key in item.items():
            if key in (data.get(context_type) or {}):
                pairs.append((context_type, key))
    summaries: dict[str, dict[str, Any]] = {}
    for context_type, key in pairs:
        label = f"{context_type}.{key}"
        if label not in summaries:
            summaries[label] = context_summary(state, context_type, key, contexts)
    return summaries


def compact(summary: Mapping[str, Any], limit: int = 3) -> str:
    """A one-line digest of a summary: its first few scalar fields."""
    parts = []
    for field, value in summary.items():
        if field == "type" or isinstance(value, Mapping):
            continue
        if isinstance(value, list | tuple):
            value = f"{len(value)} item{'s' if len(value) != 1 else ''}"
        if isinstance(value, float):
            value = f"{value:.4g}"
        parts.append(f"{field}={value}")
        if len(parts) >= limit:
            break
    return ", ".join(parts)


__all__ = ["compact", "context_summary", "successful_steps", "turn_context_summaries"]
