"""How plain state values read on screen: short text, alarm state and colours.

Shared by the context tree, the approval table and the strip chart so an alarm or a
disconnected channel looks the same everywhere (operator convention: visible on every value).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PySide6.QtGui import QColor

MAX_TEXT = 160

# Field names the connectors use for alarm information; the first present wins.
_SEVERITY_FIELDS = ("alarm_severity", "severity")
_CONNECTED_FIELDS = ("connected",)

# Text colours on white (tree rows, labels): yellow text is unreadable, so MINOR is a dark
# yellow here; value cells use the full alarm colours of ALARM_CELL as their background.
ALARM_COLOURS: dict[str, QColor] = {
    "MINOR": QColor("#9e7c00"),
    "MAJOR": QColor("#c62828"),
    "INVALID": QColor("#b000b0"),
    "DISCONNECTED": QColor("#616161"),
}
#: (background, text) of a value cell in alarm: MINOR yellow, MAJOR red, INVALID magenta,
#: disconnected grey — the colours of operator displays (PyDM, Phoebus).
ALARM_CELL: dict[str, tuple[str, str]] = {
    "MINOR": ("#ffeb3b", "#000000"),
    "MAJOR": ("#e53935", "#ffffff"),
    "INVALID": ("#e040fb", "#000000"),
    "DISCONNECTED": ("#757575", "#ffffff"),
}


def format_scalar(value: Any) -> str:
    """One line for a scalar: floats to 6 significant digits, long strings cut."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return f"{value:.6g}"
    text = str(value).replace("\n", " ")
    if len(text) > MAX_TEXT:
        return text[: MAX_TEXT - 1] + "…"
    return text


def format_value(value: Any) -> str:
    """Short text for any value; containers show their size, not their content."""
    if isinstance(value, Mapping):
        n = len(value)
        return f"{{{n} field{'s' if n != 1 else ''}}}"
    if isinstance(value, (list, tuple)):
        n = len(value)
        return f"[{n} item{'s' if n != 1 else ''}]"
    return format_scalar(value)


def alarm_state(value: Any) -> str | None:
    """``DISCONNECTED``, ``MINOR``, ``MAJOR`` or ``INVALID`` when a record says so, else None."""
    if not isinstance(value, Mapping):
        return None
    for name in _CONNECTED_FIELDS:
        if name in value and value[name] is False:
            return "DISCONNECTED"
    for name in _SEVERITY_FIELDS:
        severity = value.get(name)
        if isinstance(severity, str) and severity.upper() in ALARM_COLOURS:
            return severity.upper()
        if isinstance(severity, int) and not isinstance(severity, bool) and 1 <= severity <= 3:
            return ("MINOR", "MAJOR", "INVALID")[severity - 1]
    return None


_RANK = {"MINOR": 1, "MAJOR": 2, "INVALID": 3, "DISCONNECTED": 4}


def worst_alarm(value: Any, depth: int = 3, budget: int = 2000) -> str | None:
    """The worst alarm state found in ``value`` and its nested dicts, down to ``depth`` levels.

    Lets a collapsed context entry show that a channel inside it is in alarm. Lists are not
    searched and at most ``budget`` dict items are visited, so a huge entry stays cheap.
    """
    worst: str | None = None
    stack = [(value, 0)]
    while stack and budget > 0:
        item, level = stack.pop()
        state = alarm_state(item)
        if state is not None and (worst is None or _RANK[state] > _RANK[worst]):
            worst = state
        if level < depth and isinstance(item, Mapping):
            for child in item.values():
                budget -= 1
                if isinstance(child, Mapping):
                    stack.append((child, level + 1))
                if budget <= 0:
                    break
    return worst
