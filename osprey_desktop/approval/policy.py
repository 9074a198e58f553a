"""Which capabilities need the operator's approval, from the thread's settings or the config.

Modes: ``disabled`` (never ask), ``selective`` (ask for capabilities enabled under
``approval.capabilities``), ``all_capabilities`` (ask before every capability except the
framework's respond and clarify). ``/approval:<mode>`` changes ``agent_control`` per thread.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

logger = logging.getLogger(__name__)

APPROVAL_MODES = ("disabled", "selective", "all_capabilities")
_NEVER_ASK = frozenset({"respond", "clarify"})


def get_approval_mode(state: Mapping[str, Any] | None) -> str:
    """The effective global mode; an unknown value fails closed to ``all_capabilities``."""
    from osprey_desktop.infrastructure.control_settings import config_value

    control = (state or {}).get("agent_control") or {}
    mode = control.get("approval_global_mode")
    if mode is None:
        mode = config_value("approval.global_mode", "selective")
    if mode not in APPROVAL_MODES:
        logger.warning(
            "approval mode %r is not one of %s; asking for every capability", mode, APPROVAL_MODES
        )
        return "all_capabilities"
    return str(mode)


def _capability_settings(state: Mapping[str, Any] | None) -> Mapping[str, Any]:
    from osprey_desktop.infrastructure.control_settings import config_value

    control = (state or {}).get("agent_control") or {}
    settings = control.get("approval_capabilities")
    if settings is None:
        settings = config_value("approval.capabilities", {})
    return settings if isinstance(settings, Mapping) else {}


def _enabled(entry: Any) -> bool:
    if isinstance(entry, bool):
        return entry
    if isinstance(entry, Mapping):
        return bool(entry.get("enabled", True))
    enabled = getattr(entry, "enabled", None)  # a pydantic CapabilityApprovalConfig
    return bool(enabled) if enabled is not None else False


def requires_approval(capability_name: str, state: Mapping[str, Any] | None) -> bool:
    """True when ``capability_name`` must be approved before it acts in this thread."""
    if capability_name in _NEVER_ASK:
        return False
    mode = get_approval_mode(state)
    if mode == "disabled":
        return False
    if mode == "all_capabilities":
        return True
    return _enabled(_capability_settings(state).get(capability_name))


__all__ = ["APPROVAL_MODES", "get_approval_mode", "requires_approval"]
