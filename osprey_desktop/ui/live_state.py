"""The window's running copy of a thread's state, advanced by the ``updates`` stream.

The session checkpoints once per turn (``durability="exit"``), so ``aget_state`` cannot show
a turn's progress; the window instead folds each node's update into its copy with the same
merge rules the graph uses. The state read after the turn replaces the copy (it is the truth).

Context data is merged without the graph reducer's deep copy: the graph's channel already
holds its own copy, and the update a node returned is not changed afterwards, so the window's
copy may share it. That copy cost 50-100 ms of the event loop per 72-channel, 2,000-point
history (bench/ui_latency.py, stack sampler), on top of the graph's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

_SKIPPED = frozenset({"messages"})  # the transcript shows the conversation; not needed here


class LiveState:
    """Plain dict of state values with ``apply_updates`` for one ``updates`` stream item."""

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        self.values: dict[str, Any] = dict(values or {})

    def replace(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)

    def apply_updates(self, payload: Any) -> set[str]:
        """Fold ``{node: update}`` into the values; returns the keys that changed."""
        changed: set[str] = set()
        if not isinstance(payload, Mapping):
            return changed
        reducers = _reducers()
        for node, update in payload.items():
            if str(node).startswith("__") or not isinstance(update, Mapping):
                continue  # "__interrupt__" and friends are not state
            for key, value in update.items():
                if key in _SKIPPED:
                    continue
                reducer = reducers.get(key)
                try:
                    new = reducer(self.values.get(key), value) if reducer else value
                except (TypeError, ValueError):
                    continue  # the graph rejects such an update itself; the copy just skips it
                if new is not self.values.get(key):
                    self.values[key] = new
                    changed.add(key)
        return changed


def _reducers() -> dict[str, Callable[[Any, Any], Any]]:
    """The graph's own reducers (imported late: the state package pulls in LangGraph)."""
    from osprey_desktop.state.reducers import merge_session_state

    return {
        "capability_context_data": merge_context_shared,
        "session_state": merge_session_state,
    }


def merge_context_shared(
    existing: Mapping[str, Mapping[str, Any]] | None, new: Mapping[str, Mapping[str, Any]] | None
) -> dict[str, Any]:
    """``state.reducers.merge_capability_context_data``'s rule — a ``{type: {key: entry}}`` in
    ``new`` replaces that entry — sharing the entries instead of deep-copying them."""
    if not new or new is existing:  # nothing to fold in: the same object, "unchanged"
        return existing if isinstance(existing, dict) else dict(existing or {})
    merged = dict(existing or {})
    for context_type, entries in new.items():
        if not isinstance(entries, Mapping):
            raise TypeError(f"context data for {context_type!r} is not a mapping")
        current = merged.get(context_type)
        if entries is current:
            continue
        merged[context_type] = {**(current or {}), **entries}
    return merged
