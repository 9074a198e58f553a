"""The process-wide configuration and the accessors every layer reads it through."""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from osprey_desktop.config.loader import load_config
from osprey_desktop.config.models import AppConfig

_lock = threading.Lock()
_current: AppConfig | None = None
# create_graph(config=...): the graph's own configuration while its nodes run (this task only)
_scoped: contextvars.ContextVar[AppConfig | None] = contextvars.ContextVar(
    "osprey_desktop_config", default=None
)


@contextlib.contextmanager
def config_scope(config: AppConfig) -> Iterator[AppConfig]:
    """Make ``config`` what ``get_config()`` returns inside the block (this task only)."""
    if not isinstance(config, AppConfig):
        raise TypeError(f"config_scope needs an AppConfig, got {type(config).__name__}")
    token = _scoped.set(config)
    try:
        yield config
    finally:
        _scoped.reset(token)


def get_config() -> AppConfig:
    """The configuration of the running graph, else of this process (loaded on first use)."""
    global _current
    scoped = _scoped.get()
    if scoped is not None:
        return scoped
    with _lock:
        if _current is None:
            _current = load_config()
        return _current


def set_config(config: AppConfig) -> None:
    """Replace the process-wide configuration (the CLI after ``--config``; tests)."""
    global _current
    if not isinstance(config, AppConfig):
        raise TypeError(f"set_config needs an AppConfig, got {type(config).__name__}")
    with _lock:
        _current = config


def reset_config() -> None:
    """Forget the loaded configuration; the next ``get_config()`` reads the files again."""
    global _current
    with _lock:
        _current = None


_MISSING = object()


def get_config_value(path: str, default: Any = None) -> Any:
    """Read a dotted key such as ``"execution_control.limits.max_step_retries"``.

    Sections come back as their pydantic models, dict-valued sections (``launchers``,
    ``approval.capabilities``) as dicts; ``default`` when any part of the path is absent.
    """
    node: Any = get_config()
    for part in path.split("."):
        if isinstance(node, BaseModel):
            node = getattr(node, part, _MISSING) if part in type(node).model_fields else _MISSING
        elif isinstance(node, dict):
            node = node.get(part, _MISSING)
        else:
            node = _MISSING
        if node is _MISSING:
            return default
    return node


def get_agent_control_defaults(config: AppConfig | None = None) -> dict[str, Any]:
    """The ``agent_control`` dict of a fresh state, as plain JSON-able values.

    ``writes_enabled`` is the effective value: on for the simulated machine, off for EPICS
    unless the config sets it. Slash commands later update a copy of this per turn.
    """
    cfg = config if config is not None else get_config()
    agent = cfg.execution_control.agent_control
    limits = cfg.execution_control.limits
    return {
        "orchestration_mode": agent.orchestration_mode,
        "planning_mode_enabled": agent.planning_mode_enabled,
        "task_extraction_bypass_enabled": agent.task_extraction_bypass_enabled,
        "capability_selection_bypass_enabled": agent.capability_selection_bypass_enabled,
        "approval_global_mode": cfg.approval.global_mode,
        "approval_capabilities": {
            name: entry.model_dump(mode="json") for name, entry in cfg.approval.capabilities.items()
        },
        "max_reclassifications": limits.max_reclassifications,
        "max_planning_attempts": limits.max_planning_attempts,
        "max_step_retries": limits.max_step_retries,
        "max_execution_time_seconds": limits.max_execution_time_seconds,
        "max_concurrent_classifications": limits.max_concurrent_classifications,
        "max_react_iterations": limits.max_react_iterations,
        "writes_enabled": cfg.control_system.effective_writes_enabled,
    }
