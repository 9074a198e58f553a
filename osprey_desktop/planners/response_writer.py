"""Markdown answers from context summaries, for the built-in planner.

Summaries are whatever each context's ``get_summary()`` returns, so the rendering is
generic: a title per context, one bullet per field, ``value`` + ``units`` joined ("1.52 A"),
lists shortened, floats to five significant digits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MAX_LIST_ITEMS = 10
_UNIT_FIELDS = ("units", "unit", "egu")


def format_number(value: float | int) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.5g}"


def _units_of(data: Mapping[str, Any]) -> str | None:
    for field in _UNIT_FIELDS:
        unit = data.get(field)
        if isinstance(unit, str) and unit.strip():
            return unit.strip()
    return None


def format_scalar(value: Any) -> str:
    if isinstance(value, float | int) and not isinstance(value, bool):
        return format_number(value)
    if value is None:
        return "—"
    return str(value)


def format_inline(data: Mapping[str, Any]) -> str:
    """One line for a small dict, e.g. ``SR:DCCT:CURRENT: 500.2 mA``."""
    units = _units_of(data)
    parts = []
    for field, value in data.items():
        if field in _UNIT_FIELDS and units:
            continue
        if isinstance(value, Mapping):
            parts.append(f"{_label(field)}: {format_inline(value)}")
        elif isinstance(value, list | tuple):
            parts.append(f"{_label(field)}: {_short_list(value)}")
        else:
            text = format_scalar(value)
            if units and field in ("value", "current_value", "mean", "last", "latest"):
                text = f"{text} {units}"
            parts.append(f"{_label(field)}: {text}")
    return ", ".join(parts)


def _short_list(values: Sequence[Any]) -> str:
    shown = [
        format_inline(v) if isinstance(v, Mapping) else format_scalar(v)
        for v in list(values)[:MAX_LIST_ITEMS]
    ]
    more = len(values) - len(shown)
    return ", ".join(shown) + (f" … and {more} more" if more > 0 else "")


def _label(field: str) -> str:
    return str(field).replace("_", " ")


def render_summary(label: str, summary: Mapping[str, Any]) -> list[str]:
    """Markdown lines for one context summary."""
    context_type, _, key = label.partition(".")
    title = summary.get("type") or context_type
    lines = [f"**{title}** (`{key or context_type}`)"]
    units = _units_of(summary)
    for field, value in summary.items():
        if field == "type" or (field in _UNIT_FIELDS and units):
            continue
        if isinstance(value, Mapping):
            inner_units = _units_of(value)
            if "value" in value and inner_units:
                lines.append(f"- {field}: {format_scalar(value['value'])} {inner_units}")
            elif len(value) > 1 and not any(isinstance(v, Mapping | list) for v in value.values()):
                # e.g. several channels read at once: one line each reads better than one long line
                lines.append(f"- {_label(field)}:")
                shown = list(value.items())[:MAX_LIST_ITEMS]
                lines.extend(f"  - {name}: {format_scalar(item)}" for name, item in shown)
                if len(value) > MAX_LIST_ITEMS:
                    lines.append(f"  - … and {len(value) - MAX_LIST_ITEMS} more")
            else:
                lines.append(f"- {_label(field)}: {format_inline(value)}")
        elif isinstance(value, list | tuple):
            if value and all(isinstance(v, Mapping) for v in value):
                lines.append(f"- {_label(field)}:")
                for item in list(value)[:MAX_LIST_ITEMS]:
                    lines.append(f"  - {format_inline(item)}")
                if len(value) > MAX_LIST_ITEMS:
                    lines.append(f"  - … and {len(value) - MAX_LIST_ITEMS} more")
            else:
                lines.append(f"- {_label(field)}: {_short_list(value)}")
        else:
            text = format_scalar(value)
            if units and field in ("value", "current_value", "mean", "last", "latest"):
                text = f"{text} {units}"
            lines.append(f"- {_label(field)}: {text}")
    return lines


def render_summaries(summaries: Mapping[str, Mapping[str, Any]]) -> str:
    blocks = ["\n".join(render_summary(label, summary)) for label, summary in summaries.items()]
    return "\n\n".join(blocks)


def render_capability_help(capabilities: Sequence[Any]) -> str:
    """A bullet list of what the assistant can do, with one example each."""
    lines = []
    for cap in capabilities:
        if cap.name in ("respond", "clarify"):
            continue
        line = f"- **{cap.name.replace('_', ' ')}**: {cap.description}"
        examples = list(getattr(cap, "examples", []) or [])
        if examples:
            line += f" (e.g. “{examples[0]}”)"
        lines.append(line)
    return "\n".join(lines)


__all__ = [
    "format_inline",
    "format_number",
    "render_capability_help",
    "render_summaries",
    "render_summary",
]
