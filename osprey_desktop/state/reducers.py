"""LangGraph reducers for the two fields that persist across conversation turns.

Both reducers are pure: they never mutate their inputs, because LangGraph hands the previous
value to nodes, to stream consumers and to the checkpointer at the same time.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

ContextData = dict[str, dict[str, dict[str, Any]]]


def merge_capability_context_data(
    existing: Mapping[str, Mapping[str, Any]] | None,
    new: Mapping[str, Mapping[str, Any]] | None,
) -> ContextData:
    """Merge ``new`` into ``existing``: a ``{type: {key: entry}}`` in ``new`` replaces that entry.

    The result never shares an object with ``new``: each entry taken from it is deep-copied,
    so the caller may go on changing what it passed. Cost follows the update, not the whole
    context: entries of ``existing`` that ``new`` leaves out, or hands back equal, are shared
    (never copied) and so is each type dict nothing changes in; treat the result as
    immutable, as LangGraph does. (The spec deep-copies everything; sharing ``existing`` is
    this implementation's documented departure.)
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
        if entries is current:
            continue  # the same branch handed back (e.g. from ContextManager.get_raw_data)
        if current is None:
            merged[context_type] = {key: _copy_value(entry) for key, entry in entries.items()}
            continue
        branch: dict[str, Any] | None = None
        for key, entry in entries.items():
            old = current.get(key, _ABSENT)
            # an equal entry (a state read back from the checkpoint and sent again) keeps
            # the stored object: nothing to copy, and the type dict stays the same object
            if old is entry or (old is not _ABSENT and old == entry):
                continue
            if branch is None:
                branch = dict(current)
            branch[key] = _copy_value(entry)
        if branch is not None:
            merged[context_type] = branch
    return merged


_ABSENT = object()
_ATOMS = frozenset((str, int, float, bool, type(None)))


def _copy_value(value: Any) -> Any:
    """A deep copy of JSON-shaped data (the stored form of contexts), fast for that shape."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {key: _copy_value(item) for key, item in value.items()}
    if kind is list:
        # A flat list of immutable atoms (a history's samples) is copied whole: the new list
        # shares only those atoms, as the item-by-item copy did, at a fraction of the cost
        # (the type test runs in C; a day of 72 BPMs went from 37 ms to about 12).
        if _ATOMS.issuperset(map(type, value)):
            return value[:]
        return [_copy_value(item) for item in value]
    return copy.deepcopy(value)


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
