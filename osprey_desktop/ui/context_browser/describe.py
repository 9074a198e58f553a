"""Summaries, access details and step objectives for context entries.

The tree shows plain dicts; the core's ``ContextManager`` turns an entry back into its
``CapabilityContext`` so the tooltip and the detail pane can show ``get_summary()`` and
``get_access_details()``. A context type without a registered class still shows its raw
fields: the browser must never fail because one capability's class is missing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from osprey_desktop.ui.step_names import result_name, step_name

_SNAKE_KEY = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def to_json(value: Any, limit: int = 20_000) -> str:
    """Pretty JSON for the detail pane and the clipboard, cut at ``limit`` characters."""
    text = json.dumps(value, indent=2, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "\n… (cut; export context.json)"


class ContextDescriber:
    """Reads the latest state values; answers questions about one context entry."""

    def __init__(self) -> None:
        self._context_data: Mapping[str, Any] = {}
        self._steps_by_key: dict[str, Mapping[str, Any]] = {}
        self._step_numbers: dict[str, int] = {}

    def set_state_values(self, values: Mapping[str, Any]) -> None:
        self._context_data = values.get("capability_context_data") or {}
        plan = values.get("planning_execution_plan") or {}
        steps = plan.get("steps", []) if isinstance(plan, Mapping) else []
        for number, step in enumerate(steps, start=1):
            if isinstance(step, Mapping) and step.get("context_key"):
                self._steps_by_key[str(step["context_key"])] = step
                self._step_numbers[str(step["context_key"])] = number

    def forget_steps(self) -> None:
        """Another thread is shown: its context keys (e.g. ``channel_read_1``) may repeat ours."""
        self._steps_by_key.clear()
        self._step_numbers.clear()

    def step_for(self, context_key: str) -> Mapping[str, Any] | None:
        """The plan step (of this session) that produced ``context_key``, if known."""
        return self._steps_by_key.get(context_key)

    def type_name(self, context_type: str) -> str:
        """``CHANNEL_ADDRESSES`` -> ``Channel addresses``."""
        text = result_name(context_type)
        return text[:1].upper() + text[1:]

    def key_name(self, context_key: str) -> str:
        """What the operator reads for an entry: the step that made it (``Channel finding,
        step 3``); without a known step, an id in words (``channel_finding_3`` -> ``Channel
        finding 3``); any other key (a channel name, a time range's own name) as it is."""
        step = self.step_for(context_key)
        if step is not None:
            name = step_name(str(step.get("capability") or "step"))
            number = self._step_numbers.get(context_key)
            return f"{name}, step {number}" if number is not None else name
        return step_name(context_key) if _SNAKE_KEY.match(context_key) else context_key

    def display_name(self, path: tuple[Any, ...]) -> str | None:
        """The tree's name for a context type (depth 1) or entry (depth 2); None below."""
        if len(path) == 1:
            return self.type_name(str(path[0]))
        if len(path) == 2:
            return self.key_name(str(path[1]))
        return None

    def _context_object(self, context_type: str, context_key: str) -> Any:
        from osprey_desktop.context import ContextManager

        manager = ContextManager({"capability_context_data": dict(self._context_data)})
        return manager.get_context(context_type, context_key)

    def summary(self, context_type: str, context_key: str) -> dict[str, Any] | None:
        obj = self._context_object(context_type, context_key)
        return None if obj is None else obj.get_summary()

    def access_details(self, context_type: str, context_key: str) -> dict[str, Any] | None:
        obj = self._context_object(context_type, context_key)
        return None if obj is None else obj.get_access_details(context_key)

    def tooltip(self, context_type: str, context_key: str, value: Any) -> str:
        lines = [f"{context_type}.{context_key}"]  # the internal name: here, never in the row
        step = self.step_for(context_key)
        if step is not None:
            name = step_name(str(step.get("capability") or "step"))
            lines.append(f"Step: {name} — {step.get('task_objective', '')}")
        try:
            summary = self.summary(context_type, context_key)
        except Exception as exc:  # a broken context class must not break the tooltip
            summary = {"error": f"no summary: {exc}"}
        if summary:
            lines.append(to_json(summary, limit=1500))
        return "\n".join(lines)

    def details_markdown(self, context_type: str, context_key: str) -> str:
        """Markdown for the detail pane: objective, summary and access details."""
        parts = [f"### {self.type_name(context_type)} · {self.key_name(context_key)}"]
        step = self.step_for(context_key)
        if step is not None:
            name = step_name(str(step.get("capability") or "step"))
            parts.append(f"**Step** {name}: {step.get('task_objective', '')}")
        for title, getter in (("Summary", self.summary), ("Access", self.access_details)):
            try:
                info = getter(context_type, context_key)
            except Exception as exc:
                parts.append(f"**{title}:** not available ({exc}).")
                continue
            if info is None:
                parts.append(f"**{title}:** no context class is registered for {context_type}.")
            else:
                parts.append(f"**{title}**\n\n```json\n{to_json(info, limit=4000)}\n```")
        # internal names for whoever debugs a capability: last, below what the operator reads
        parts.append(f"Internal name: `{context_type}` · `{context_key}`")
        return "\n\n".join(parts)

    def export(self, folder: Path) -> Path:
        """Write ``context.json`` with the core's own serializer (blocking: run in a thread)."""
        from osprey_desktop.context import ContextManager

        manager = ContextManager({"capability_context_data": dict(self._context_data)})
        return Path(manager.save_context_to_file(Path(folder)))
