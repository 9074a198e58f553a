"""LangGraph reducers for the two fields that persist across conversation turns.

Both reducers are pure: they never mutate their inputs, because LangGraph hands the previous
value to nodes, to stream consumers and to the checkpointer at the same time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ContextData = dict[str, dict[str, dict[str, Any]]]


def merge_capability_context_data(
    existing: Mapping[str, Mapping[str, Any]] | None,
    new: Mapping[str, Mapping[str, Any]] | None,
) -> ContextData:
    """Merge ``new`` into ``existing``: a ``{type: {key: entry}}`` in ``new`` replaces that entry.

    Cost follows the update, not the whole context: the result is a fresh top-level dict,
    each context type named in ``new`` gets a fresh key dict, and every other type dict and
    every entry dict is shared with the inputs (never copied, never deep-copied). Treat the
    result as immutable, as LangGraph does.
    """
    if existing is None:
        existing = {}
    if not new:
        return existing if isinstance(existing, dict) else dict(existing)
    if new is existing:
        return existing if isinstance(existing, dict) else dict(existing)
    _check_shape(new)
    merged = dict(existing)
    for context_type, entries in new.items():
        current = merged.get(context_type)
        if current is None:
            merged[context_type] = dict(entries)
        elif entries is current:
            continue  # the same branch handed back (e.g. from ContextManager.get_raw_data)
        else:
            branch = dict(current)
            branch.update(entries)
            merged[context_type] = branch
    return merged


def _check_shape(new: Mapping[str, Any]) -> None:
    """A wrong shape would corrupt the checkpoint silently; say what and where instead."""
    for context_type, entries in new.items():
        if not isinstance(entries, Mapping):
            raise TypeError(
                f"capability_context_data[{context_type!r}] must be a dict of "
                f"{{context_key: entry}}, got {type(entries).__name__}; "
                "store contexts with StateManager.store_context"
            )


def merge_session_state(
    existing: Mapping[str, Any] | None, new: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Shallow merge of a thread's own settings: keys in ``new`` replace keys in ``existing``."""
    if existing is None:
        existing = {}
    if not new:
        return existing if isinstance(existing, dict) else dict(existing)
    if not isinstance(new, Mapping):
        raise TypeError(f"session_state updates must be a dict, got {type(new).__name__}")
    return {**existing, **new}


__all__ = ["ContextData", "merge_capability_context_data", "merge_session_state"]
