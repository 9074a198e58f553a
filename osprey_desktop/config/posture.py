"""What this process is connected to and whether it may write: the operator's first question.

``describe_posture(config)`` is the one description the window title, the status bar and the
command line show, so the words never differ: the control system ("Simulated ring", "EPICS CA
(address list 10.0.0.255)") and the write posture (armed, disarmed or read-only) with the key
that decides it. Qt-free; the address lists come from the environment the connector reads.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from osprey_desktop.config.models import AppConfig

WritePosture = Literal["armed", "disarmed", "read-only"]

# type (or epics.protocol) -> label, address list variable, automatic address list variable,
# and the variable of the port searched at an address given without one (with its default).
_EPICS_PROTOCOLS: dict[str, tuple[str, str, str, str, str]] = {
    "ca": (
        "EPICS CA",
        "EPICS_CA_ADDR_LIST",
        "EPICS_CA_AUTO_ADDR_LIST",
        "EPICS_CA_SERVER_PORT",
        "5064",
    ),
    "pva": (
        "EPICS PVA",
        "EPICS_PVA_ADDR_LIST",
        "EPICS_PVA_AUTO_ADDR_LIST",
        "EPICS_PVA_BROADCAST_PORT",
        "5076",
    ),
}


@dataclass(frozen=True)
class Posture:
    """The connection and write posture of one process, in the operator's words."""

    control_system: str  # "Simulated ring", "EPICS CA (address list 127.0.0.1:5064)"
    writes: WritePosture
    reason: str  # which key (or flag) decides ``writes``
    machine: str | None = None  # machine.name when the facility set one
    live: bool = False  # a real control system, not the simulated ring

    @property
    def writes_text(self) -> str:
        return "read-only" if self.writes == "read-only" else f"writes {self.writes}"

    @property
    def parts(self) -> list[str]:
        return [p for p in (self.machine, self.control_system, self.writes_text) if p]

    @property
    def summary(self) -> str:
        """One line for a status bar or a log: ``Simulated ring · writes armed``."""
        return " · ".join(self.parts)

    def window_title(self, version: str) -> str:
        return " — ".join([f"Osprey Desktop {version}", *self.parts])


def _protocol(config: AppConfig) -> str | None:
    """``ca`` or ``pva`` for an EPICS connection (the protocol of names without a ``ca://``
    or ``pva://`` prefix), None for the simulated ring."""
    cs = config.control_system
    if cs.type == "sim":
        return None
    if cs.type in _EPICS_PROTOCOLS:
        return cs.type
    protocol = str(getattr(cs.epics, "default_protocol", "ca") or "ca").lower()
    return protocol if protocol in _EPICS_PROTOCOLS else "ca"


def _address_list(env: Mapping[str, str], protocol: str) -> str:
    _, list_var, auto_var, port_var, default_port = _EPICS_PROTOCOLS[protocol]
    addresses = " ".join(env.get(list_var, "").split())
    auto = env.get(auto_var, "YES").strip().upper() != "NO"
    port = env.get(port_var, "").strip()
    if port and port != default_port:
        addresses = " ".join(a if ":" in a else f"{a}:{port}" for a in addresses.split())
    if addresses and auto:
        return f"address list {addresses} + local broadcast"
    if addresses:
        return f"address list {addresses}"
    if auto:
        return "address list: local broadcast"
    return f"address list empty: {list_var} unset and {auto_var}=NO"


def describe_control_system(config: AppConfig, env: Mapping[str, str] | None = None) -> str:
    if config.control_system.type == "tango":
        environ = os.environ if env is None else env
        host = environ.get("TANGO_HOST", "").strip()
        return f"Tango (TANGO_HOST {host})" if host else "Tango (TANGO_HOST unset)"
    protocol = _protocol(config)
    if protocol is None:
        return "Simulated ring"
    label = _EPICS_PROTOCOLS[protocol][0]
    return f"{label} ({_address_list(os.environ if env is None else env, protocol)})"


def describe_posture(config: AppConfig, env: Mapping[str, str] | None = None) -> Posture:
    """The posture of a process running with ``config`` (``env``: its environment)."""
    cs = config.control_system
    if cs.read_only:
        writes: WritePosture = "read-only"
        reason = "control_system.read_only (or --read-only): no write is planned or sent"
    elif cs.writes_enabled is not None:
        writes = "armed" if cs.writes_enabled else "disarmed"
        reason = f"control_system.writes_enabled: {str(cs.writes_enabled).lower()}"
    else:
        writes = "armed" if cs.effective_writes_enabled else "disarmed"
        reason = f"control_system.{cs.type}.writes_enabled: {str(writes == 'armed').lower()}"
    return Posture(
        control_system=describe_control_system(config, env),
        writes=writes,
        reason=reason,
        machine=config.machine.name or None,
        live=cs.type != "sim",
    )


def with_read_only(config: AppConfig) -> AppConfig:
    """``config`` with ``control_system.read_only: true`` (the ``--read-only`` flag)."""
    control_system = config.control_system.model_copy(update={"read_only": True})
    return config.model_copy(update={"control_system": control_system})


def read_only_in_effect() -> bool:
    """Whether this process may not write: its own configuration (``--read-only`` sets it) or
    the running graph's says ``read_only``. A configuration that cannot be loaded counts as
    read-only (fail closed)."""
    from osprey_desktop.config import runtime
    from osprey_desktop.config.errors import ConfigError

    try:
        configs = [runtime.get_config()]
    except ConfigError:
        return True
    process = runtime._current  # the process's own, also while a graph's config is in scope
    if process is not None:
        configs.append(process)
    return any(config.control_system.read_only for config in configs)
