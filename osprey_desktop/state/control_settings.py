"""Where a node reads its settings: the thread's ``agent_control`` first, then the config.

The Gateway copies the configured defaults into ``state["agent_control"]`` and slash commands
change that copy per thread, so the state wins; the config (and then a built-in default)
covers states built by hand, e.g. in tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_LIMIT_DEFAULTS: dict[str, int | float] = {
    "max_reclassifications": 1,
    "max_planning_attempts": 2,
    "max_step_retries": 2,
    "max_execution_time_seconds": 300,
    "max_concurrent_classifications": 5,
    "max_react_iterations": 12,
    "graph_recursion_limit": 100,
    "retry_backoff_seconds": 0.2,
}

_CONTROL_DEFAULTS: dict[str, Any] = {
    "orchestration_mode": "plan_first",
    "planning_mode_enabled": False,
    "task_extraction_bypass_enabled": False,
    "capability_selection_bypass_enabled": False,
}


def config_value(dotted: str, default: Any) -> Any:
    """``get_config_value`` with the default used when no config can be loaded at all."""
    from osprey_desktop.config import ConfigError, get_config_value

    try:
        value = get_config_value(dotted, default)
    except ConfigError:
        # A broken user config is reported by the CLI/session at startup; a node keeps
        # working on the state's own settings rather than failing mid-turn.
        return default
    return default if value is None else value


def _agent_control(state: Mapping[str, Any] | None) -> Mapping[str, Any]:
    control = (state or {}).get("agent_control") or {}
    return control if isinstance(control, Mapping) else {}


def control_setting(state: Mapping[str, Any] | None, key: str) -> Any:
    """An ``agent_control`` switch (orchestration mode, planning mode, bypasses)."""
    control = _agent_control(state)
    if key in control and control[key] is not None:
        return control[key]
    return config_value(f"execution_control.agent_control.{key}", _CONTROL_DEFAULTS.get(key))


def get_limit(state: Mapping[str, Any] | None, name: str) -> Any:
    """A limit from ``execution_control.limits`` (state copy first)."""
    control = _agent_control(state)
    if name in control and control[name] is not None:
        return control[name]
    return config_value(f"execution_control.limits.{name}", _LIMIT_DEFAULTS[name])


def get_orchestration_mode(state: Mapping[str, Any] | None) -> str:
    """``"plan_first"`` or ``"react"``; anything else falls back to plan_first."""
    mode = str(control_setting(state, "orchestration_mode") or "plan_first")
    return mode if mode in ("plan_first", "react") else "plan_first"


def is_planning_mode_enabled(state: Mapping[str, Any] | None) -> bool:
    return bool(control_setting(state, "planning_mode_enabled"))


__all__ = [
    "config_value",
    "control_setting",
    "get_limit",
    "get_orchestration_mode",
    "is_planning_mode_enabled",
]
