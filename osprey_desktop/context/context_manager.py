"""``ContextManager``: typed access to the state's ``capability_context_data``.

The stored form is ``{context_type: {context_key: {field: value}}}`` with JSON-able values
(``model_dump(mode="json")``), so LangGraph's SQLite checkpointer stores it as is. Objects are
rebuilt with ``model_validate`` on first read and cached while the stored entry is unchanged.

Writes are copy-on-write: the manager never changes the dict it was given (LangGraph still
holds it); ``get_raw_data()`` returns the updated data, sharing every untouched branch.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from osprey_desktop.catalog import current_catalog
from osprey_desktop.context.base import CapabilityContext, get_context_class, get_context_types
from osprey_desktop.context.constraints import (
    Constraint,
    check_constraint_mode,
    check_constraints,
)
from osprey_desktop.context.namespace import ContextNamespace
from osprey_desktop.context.raw import RawContext

logger = logging.getLogger(__name__)

ContextObject = CapabilityContext | RawContext


class ContextManager:
    """Typed reads and validated writes over ``{type: {key: {field: value}}}`` dicts."""

    def __init__(self, state: Mapping[str, Any], registry: Any = None) -> None:
        """Wrap ``state["capability_context_data"]``.

        Context classes are looked up in ``registry``'s table (default: the registry of the
        running graph, else the process registry once built), then among the imported
        ``CapabilityContext`` classes. Raises TypeError when ``state`` is not a dict and
        ValueError when it has no ``capability_context_data`` key.
        """
        if not isinstance(state, Mapping):
            raise TypeError(
                f"ContextManager expects an AgentState dictionary, got {type(state).__name__}"
            )
        if "capability_context_data" not in state:
            raise ValueError(
                "AgentState must contain a 'capability_context_data' key; "
                "build states with StateManager.create_fresh_state"
            )
        data = state["capability_context_data"]
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise TypeError(
                "capability_context_data must be a dict of {context_type: {context_key: data}}, "
                f"got {type(data).__name__}"
            )
        self._data: dict[str, dict[str, Any]] = data if isinstance(data, dict) else dict(data)
        self._owns_root = False
        self._owned_types: set[str] = set()
        self._cache: dict[tuple[str, str], tuple[Any, ContextObject]] = {}
        if registry is None:
            registry = current_catalog()
        self._registry = registry

    def _context_class(self, context_type: str) -> type | None:
        """The registry's class for the type, else the class an import declared."""
        if self._registry is not None:
            return self._registry.get_context_class(context_type)
        return get_context_class(context_type)

    def __getattr__(self, context_type: str) -> ContextNamespace:
        """``manager.TYPE`` gives the namespace of that type (stored or declared by a class)."""
        if context_type.startswith("_"):
            raise AttributeError(
                f"'{type(self).__name__}' object has no attribute '{context_type}'"
            )
        if context_type in self._data or self._context_class(context_type) is not None:
            return ContextNamespace(self, context_type)
        raise AttributeError(
            f"No context of type '{context_type}'; stored types: {sorted(self._data)}"
        )

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self._data})

    # ----- storage and retrieval -------------------------------------------------------

    def set_context(
        self,
        context_type: str,
        key: str,
        value: CapabilityContext,
        skip_validation: bool = False,
    ) -> None:
        """Store ``value`` as its JSON form under ``context_type``/``key``.

        Unless ``skip_validation``, the type must be declared by a CapabilityContext class and
        ``value`` must be an instance of it (ValueError otherwise).
        """
        _check_name(context_type, "context type")
        _check_name(key, "context key")
        if not isinstance(value, CapabilityContext | RawContext):
            raise TypeError(
                f"Context {context_type}.{key} must be a CapabilityContext, "
                f"got {type(value).__name__}"
            )
        if not skip_validation:
            _validate_value(context_type, value, self._context_class(context_type))
        stored = value.model_dump(mode="json")
        self._writable_branch(context_type)[key] = stored

    def get_context(self, context_type: str, key: str) -> ContextObject | None:
        """The stored context rebuilt with ``model_validate``, or None when there is none.

        Data without a loaded class, or that no longer validates, comes back as a read-only
        ``RawContext`` (attribute access still works).
        """
        return self._load(context_type, key, strict=False)

    def get_all_of_type(self, context_type: str) -> dict[str, ContextObject]:
        """``{key: context}`` for every stored context of ``context_type``."""
        result = {}
        for key in list(self._branch(context_type)):
            context_obj = self._load(context_type, key, strict=False)
            if context_obj is not None:
                result[key] = context_obj
        return result

    def get_all(self) -> dict[str, ContextObject]:
        """Every context, keyed ``"context_type.key"``."""
        flattened = {}
        for context_type in list(self._data):
            for key, context_obj in self.get_all_of_type(context_type).items():
                flattened[f"{context_type}.{key}"] = context_obj
        return flattened

    def get_raw_data(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The stored dict, including writes made through this manager (return it as an update)."""
        return self._data

    # ----- extraction for a step ----------------------------------------------------

    def extract_from_step(
        self,
        step: Mapping[str, Any],
        state: Mapping[str, Any],
        constraints: Sequence[Constraint] | None = None,
        constraint_mode: str = "hard",
    ) -> dict[str, ContextObject | list[ContextObject]]:
        """The contexts named by ``step["inputs"]``: one object per type, or a list when several.

        ``constraints`` lists required types, each a name or ``(type, "single"|"multiple")``;
        ``"hard"`` requires all, ``"soft"`` at least one. ValueError names the missing context,
        the missing type or the cardinality breach. ``state`` is accepted for the spec's
        signature; the contexts come from this manager.
        """
        check_constraint_mode(constraint_mode)
        if not isinstance(step, Mapping):
            raise ValueError(f"A step must be a dict with 'inputs', got {type(step).__name__}")
        inputs = step.get("inputs") or []
        if not isinstance(inputs, list):
            raise ValueError(
                f"Step {step.get('context_key', '?')!r} inputs must be a list of "
                f"{{context_type: context_key}} dicts, got {type(inputs).__name__}"
            )
        grouped: dict[str, dict[str, ContextObject]] = {}
        for item in inputs:
            if not isinstance(item, Mapping):
                raise ValueError(
                    f"Step {step.get('context_key', '?')!r} input {item!r} must be a "
                    "{context_type: context_key} dict"
                )
            for context_type, key in item.items():
                context_obj = self._load(context_type, key, strict=True)
                if context_obj is None:
                    raise ValueError(
                        f"Context {context_type}.{key} not found; stored keys of "
                        f"{context_type}: {list(self._branch(context_type))}"
                    )
                grouped.setdefault(context_type, {})[key] = context_obj

        results: dict[str, ContextObject | list[ContextObject]] = {}
        for context_type, by_key in grouped.items():
            values = list(by_key.values())
            results[context_type] = values[0] if len(values) == 1 else values
        if constraints:
            check_constraints(results, constraints, constraint_mode, bool(inputs))
        return results

    # ----- descriptions and summaries -------------------------------------------------

    def get_context_access_description(
        self, context_filter: list[dict[str, str]] | None = None
    ) -> str:
        """A prompt-ready text of the available contexts and how to reach them.

        ``context_filter`` (``[{type: key}, ...]``) limits it to those contexts.
        """
        if not self._data:
            return "No context data available."
        selected: dict[str, dict[str, ContextObject]] = {}
        if context_filter:
            for item in context_filter:
                for context_type, key in item.items():
                    context_obj = self._load(context_type, key, strict=False)
                    if context_obj is not None:
                        selected.setdefault(context_type, {})[key] = context_obj
            if not selected:
                return "No relevant context data available for the specified context filter."
        else:
            selected = {t: self.get_all_of_type(t) for t in self._data}

        lines = [
            "The agent context is available via the 'context' object with dot notation access:",
            "",
        ]
        for context_type, by_key in selected.items():
            lines.append(f"- context.{context_type}:")
            for key, context_obj in by_key.items():
                try:
                    details = context_obj.get_access_details(key)
                except Exception as exc:  # a broken subclass must not hide the other contexts
                    lines.append(f"  - {key}: {type(context_obj).__name__} (details failed: {exc})")
                    continue
                if isinstance(details, dict):
                    lines.append(f"  - {key}")
                    lines.append(f"    details: {json.dumps(details, indent=2, default=str)}")
                else:
                    lines.append(f"  - {key}: {details}")
            lines.append("")
        return "\n".join(lines)

    def get_summaries(self, step: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """``get_summary()`` of every context, or only of ``step["inputs"]`` when a step is given.

        Inputs that are not stored are skipped; a summary that raises becomes an ``error``
        entry, so one broken context never hides the others.
        """
        summaries: list[dict[str, Any]] = []
        if step is None:
            for context_type in list(self._data):
                context_class = self._context_class(context_type)
                for key, entry in self._branch(context_type).items():
                    self._summarise(summaries, context_type, key, entry, context_class)
            return summaries
        pairs: dict[tuple[str, str], None] = {}
        for item in step.get("inputs") or []:
            if isinstance(item, Mapping):
                pairs.update(dict.fromkeys((t, k) for t, k in item.items() if isinstance(k, str)))
        for context_type, key in pairs:
            entry = self._branch(context_type).get(key)
            self._summarise(summaries, context_type, key, entry, self._context_class(context_type))
        return summaries

    def _summarise(
        self,
        summaries: list[dict[str, Any]],
        context_type: str,
        key: str,
        entry: Any,
        context_class: type | None,
    ) -> None:
        """Append one summary. The object is rebuilt but not remembered: 10,000 kept objects
        made the collector walk them again and again (140 ms instead of ~25 with the gc on)."""
        cached = self._cache.get((context_type, key)) if self._cache else None
        if cached is not None and cached[0] is entry:
            context_obj: ContextObject | None = cached[1]
        elif context_class is not None and type(entry) is dict:
            try:
                context_obj = context_class.model_validate(entry)  # type: ignore[attr-defined]
            except ValidationError:
                context_obj = self._rebuild(context_type, key, entry, strict=False, remember=False)
        else:
            context_obj = self._rebuild(context_type, key, entry, strict=False, remember=False)
        if context_obj is None:
            return
        try:
            summaries.append(context_obj.get_summary())
        except Exception as exc:
            summaries.append({"type": context_type, "key": key, "error": f"summary failed: {exc}"})

    # ----- persistence --------------------------------------------------------------

    def save_context_to_file(self, folder_path: Path | str, filename: str = "context.json") -> Path:
        """Write the context data as JSON to ``folder_path/filename`` atomically; return the path.

        Raises ValueError for an empty or path-like ``filename``, TypeError when the data is
        not JSON-serialisable and OSError when the folder or file cannot be written.
        """
        _check_filename(filename)
        folder = Path(folder_path)
        try:
            text = json.dumps(self._data, indent=2, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"Context data cannot be saved as JSON: {exc}") from exc
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / filename
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{filename}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), 0o644)  # mkstemp makes 0600; readers expect 0644
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp_name, target)
        except BaseException:
            Path(temp_name).unlink(missing_ok=True)
            raise
        return target

    # ----- internals ----------------------------------------------------------------

    def _branch(self, context_type: str) -> Mapping[str, Any]:
        branch = self._data.get(context_type)
        # exact-dict test first: the ABC isinstance check dominates get_summaries otherwise
        return branch if type(branch) is dict or isinstance(branch, Mapping) else {}

    def _writable_branch(self, context_type: str) -> dict[str, Any]:
        """Copy the root and this type's dict once, so the caller's dicts stay untouched."""
        if not self._owns_root:
            self._data = dict(self._data)
            self._owns_root = True
        if context_type not in self._owned_types:
            self._data[context_type] = dict(self._branch(context_type))
            self._owned_types.add(context_type)
        return self._data[context_type]

    def _load(self, context_type: str, key: str, strict: bool) -> ContextObject | None:
        """Rebuild one stored context; ``strict`` turns unusable data into a ValueError."""
        return self._rebuild(context_type, key, self._branch(context_type).get(key), strict)

    def _rebuild(
        self, context_type: str, key: str, entry: Any, strict: bool, remember: bool = True
    ) -> ContextObject | None:
        if entry is None:
            return None
        cached = self._cache.get((context_type, key))
        if cached is not None and cached[0] is entry:
            return cached[1]
        if type(entry) is not dict and not isinstance(entry, Mapping):
            message = (
                f"Context {context_type}.{key} is stored as {type(entry).__name__}, not as a "
                "dict of fields"
            )
            if strict:
                raise ValueError(message)
            logger.warning(message)
            return None
        context_class = self._context_class(context_type)
        if context_class is None:
            context_obj: ContextObject = RawContext(
                context_type, entry, f"no context class declares type '{context_type}'"
            )
        else:
            try:
                context_obj = context_class.model_validate(entry)
            except ValidationError as exc:
                problem = (
                    f"Context {context_type}.{key} does not match {context_class.__name__}: "
                    f"{_first_error(exc)}"
                )
                if strict:
                    raise ValueError(problem) from exc
                logger.warning(problem)
                context_obj = RawContext(context_type, entry, problem)
        if remember:
            self._cache[(context_type, key)] = (entry, context_obj)
        return context_obj


def _validate_value(context_type: str, value: Any, expected: type | None) -> None:
    if expected is None:
        raise ValueError(
            f"Unknown context type: {context_type}. No CapabilityContext class declares "
            f"CONTEXT_TYPE = '{context_type}'; known types: {get_context_types()}"
        )
    if not isinstance(value, expected):
        raise ValueError(
            f"Context type {context_type} expects {expected.__name__}, got {type(value).__name__}"
        )


def _check_name(name: Any, what: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"The {what} must be a non-empty string, got {name!r}")


def _check_filename(filename: Any) -> None:
    if not isinstance(filename, str) or not filename.strip():
        raise ValueError("Filename cannot be empty: give a plain name such as 'context.json'")
    separators = {"/", "\\", os.sep, os.altsep or "/"}
    if any(sep in filename for sep in separators) or filename in {".", ".."} or "\0" in filename:
        raise ValueError(
            f"Filename {filename!r} must be a plain file name without folders; "
            "pass the folder as folder_path"
        )


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return str(exc)
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "(model)"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg')}{more}"


__all__ = ["ContextManager"]
