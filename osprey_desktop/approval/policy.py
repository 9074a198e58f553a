"""Which capabilities need the operator's approval, from the thread's settings or the config.

House rule first: a capability that writes to the machine (``writes = True``) always needs an
explicit, recorded approval, whatever the mode or its own setting (fail closed: neither
``/approval:disabled`` nor the config can lower it). For everything else the modes decide:
``disabled`` (ask for nothing else), ``selective`` (ask for capabilities enabled under
``approval.capabilities``), ``all_capabilities`` (ask before every capability). The
framework's respond and clarify never ask. ``/approval:<mode>`` changes ``agent_control``
per thread.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from osprey_desktop.catalog import built_catalog

logger = logging.getLogger(__name__)

APPROVAL_MODES = ("disabled", "selective", "all_capabilities")
_NEVER_ASK = frozenset({"respond", "clarify"})


def get_approval_mode(state: Mapping[str, Any] | None) -> str:
    """The effective global mode; an unknown value fails closed to ``all_capabilities``."""
    from osprey_desktop.state.control_settings import config_value

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
    from osprey_desktop.state.control_settings import config_value

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


def _registered_writer(name: str) -> bool:
    """Whether the registered capability ``name`` writes; True when that cannot be checked."""
    try:
        catalog = built_catalog()
        if catalog is None:
            logger.warning("no registry to tell whether %r writes; asking for approval", name)
            return True
        capability = catalog.get_capability(name)
    except Exception as exc:  # noqa: BLE001 - an unreadable registry must not lower the bar
        logger.warning("cannot tell whether %r writes (%s); asking for approval", name, exc)
        return True
    return bool(getattr(capability, "writes", False)) if capability is not None else False


def _identify(capability: Any) -> tuple[str, bool]:
    """``(name, writes)`` of a capability class, instance, or registered name."""
    if isinstance(capability, str):
        return capability, _registered_writer(capability)
    name = getattr(capability, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"requires_approval needs a capability or its name, got {capability!r}")
    return name, getattr(capability, "writes", False) is not False


def requires_approval(capability: Any, state: Mapping[str, Any] | None) -> bool:
    """True when ``capability`` (a class, an instance or a registered name) must be approved
    before it acts in this thread. Machine writes always must."""
    name, writes = _identify(capability)
    if name in _NEVER_ASK:
        return False
    if writes:
        return True
    mode = get_approval_mode(state)
    if mode == "disabled":
        return False
    if mode == "all_capabilities":
        return True
    return _enabled(_capability_settings(state).get(name))


__all__ = ["APPROVAL_MODES", "get_approval_mode", "requires_approval"]
