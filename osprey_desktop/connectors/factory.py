"""Choose, build, connect and cache the connectors the configuration asks for.

``control_system.type: sim | epics`` and ``archiver.type: sim | archiver_appliance | none`` pick
the backend (``archiver.type`` unset: ``sim`` with the simulated ring, ``none`` with EPICS; the
simulated archive is never paired with a real control system). Connectors hold loop-bound
resources (caproto contexts, httpx clients, subscription tasks), so they are cached per running
event loop: every coroutine on the GUI's qasync loop gets the same connected instance, a test's
fresh loop gets a fresh one. The simulated machine is one
per process (per channel-database file and state file), shared by the simulated connector and
archiver, so a write shows up in the archived history; it keeps its setpoints in
``<data dir>/sim_machine.json`` so the next process starts where this one left off. Call
``close_connectors()`` before a loop ends.

Usage::

    connector = await get_control_system_connector()        # config: get_config()
    archiver = await get_archiver_connector(config)
    ...
    await close_connectors()
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from osprey_desktop.channels import ChannelDatabase, get_channel_database
from osprey_desktop.channels.sources import is_source
from osprey_desktop.connectors.archiver_base import ArchiverConnector, ArchiverNotConfiguredError
from osprey_desktop.connectors.base import ChannelAccessError, ControlSystemConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.connectors.sim_state import STATE_FILE_NAME

if TYPE_CHECKING:
    from osprey_desktop.config import AppConfig

_lock = threading.Lock()
_machines: dict[tuple[str, str], SimMachine] = {}
_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[Any, ...], Any]] = (
    weakref.WeakKeyDictionary()
)


def _config(config: AppConfig | None) -> AppConfig:
    if config is not None:
        return config
    from osprey_desktop.config import get_config

    return get_config()


def channel_database_path(config: AppConfig | None = None) -> Path | str:
    """The channel database file the configuration names (the shipped one when null), or the
    URL of the service it names as it is (``channelfinder+…``, ``archiver+…``)."""
    from osprey_desktop.config import resolve_resource_file

    value = _config(config).control_system.channel_database
    if is_source(value):
        return str(value)
    return resolve_resource_file(value, "channels.yaml")


def get_configured_channel_database(config: AppConfig | None = None) -> ChannelDatabase:
    """The configured channel database (loaded once per file); on the simulated ring replaying
    a scenario, the ring's own list (a scenario may add channels, e.g. RF cavities)."""
    cfg = _config(config)
    if cfg.control_system.type == "sim" and cfg.control_system.sim.scenario:
        return get_sim_machine(cfg).database
    return get_channel_database(channel_database_path(cfg))


def sim_state_path(config: AppConfig | None = None) -> Path:
    """``<data dir>/sim_machine.json``: the simulated ring's setpoints, kept between processes.

    Deleting the file resets the ring to nominal for every process started afterwards.
    """
    from osprey_desktop.config import get_data_dir

    return get_data_dir(_config(config)) / STATE_FILE_NAME


def _machine_key(config: AppConfig | None) -> tuple[str, str]:
    cfg = _config(config)
    return str(channel_database_path(cfg)), str(sim_state_path(cfg))


def get_sim_machine(config: AppConfig | None = None) -> SimMachine:
    """The process-wide simulated ring for the configured channel database and data folder."""
    key = _machine_key(config)
    with _lock:
        machine = _machines.get(key)
        if machine is None:
            machine = SimMachine(get_channel_database(key[0]), state_file=key[1])
            _machines[key] = machine
        return machine


def set_sim_machine(machine: SimMachine, config: AppConfig | None = None) -> None:
    """Use ``machine`` as the simulated ring (tests: a fast-lag or fake-clock machine).

    Connectors already built on the old machine keep it; call ``close_connectors()`` first.
    """
    with _lock:
        _machines[_machine_key(config)] = machine


def _loop_cache() -> dict[tuple[Any, ...], Any]:
    loop = asyncio.get_running_loop()
    with _lock:
        return _by_loop.setdefault(loop, {})


def _network_connector(cfg: AppConfig) -> ControlSystemConnector:
    """Channel Access, PV Access and Tango behind one router (``ca://``, ``pva://``,
    ``tango://``, bare names: the list's prefix, else the default protocol)."""
    from osprey_desktop.connectors.protocol_router import ProtocolRouterConnector

    cs = cfg.control_system
    database = get_configured_channel_database(cfg)
    settings: dict[str, Any] = {
        "timeout": cs.epics.timeout,
        "database": database,
        "default_tolerance": cs.verification_tolerance,
    }

    def channel_access() -> ControlSystemConnector:
        from osprey_desktop.connectors.epics import EpicsControlSystemConnector

        return EpicsControlSystemConnector(**settings)

    def pv_access() -> ControlSystemConnector:
        from osprey_desktop.connectors.pva import PvaControlSystemConnector

        return PvaControlSystemConnector(**settings)

    def tango() -> ControlSystemConnector:
        try:
            from osprey_desktop.connectors.tango import TangoControlSystemConnector
        except ImportError as exc:  # PyTango is a wheel of its own
            raise ChannelAccessError(
                "tango://",
                f"Tango channels need PyTango, which is not installed ({exc}); install it "
                "with 'pip install pytango' in Osprey Desktop's environment.",
            ) from exc
        return TangoControlSystemConnector(**{**settings, "timeout": cs.tango.timeout})

    default = "tango" if cs.type == "tango" else getattr(cs.epics, "default_protocol", "ca")
    return ProtocolRouterConnector(
        {"ca": channel_access, "pva": pv_access, "tango": tango},
        default_protocol=default,
        database=database,
    )


async def get_control_system_connector(config: AppConfig | None = None) -> ControlSystemConnector:
    """The connected control-system connector for this loop and configuration."""
    cfg = _config(config)
    cs = cfg.control_system
    key: tuple[Any, ...] = (
        "control_system",
        cs.type,
        str(channel_database_path(cfg)),
        cs.verification_tolerance,
        cs.epics.timeout,
        getattr(cs.epics, "default_protocol", "ca"),
        cs.tango.timeout,
    )
    cache = _loop_cache()
    connector = cache.get(key)
    if connector is None:
        if cs.type == "sim":
            from osprey_desktop.connectors.sim import SimulatedControlSystemConnector

            connector = SimulatedControlSystemConnector(
                get_sim_machine(cfg), default_tolerance=cs.verification_tolerance
            )
        elif cs.type in ("epics", "tango"):
            connector = _network_connector(cfg)
        else:  # the config model already restricts the type; keep the message for dict configs
            raise ValueError(
                f"control_system.type '{cs.type}' is not supported; use 'sim', 'epics' or 'tango'."
            )
        await connector.connect()
        cache[key] = connector
    return connector


ARCHIVER_EXAMPLE = """\
  archiver:
    type: archiver_appliance
    archiver_appliance:
      url: http://archiver.example.org:17665/retrieval"""


def archiver_refusal(config: AppConfig | None = None) -> str | None:
    """Why this configuration has no history to offer (None when it has an archiver).

    The simulated archive describes only the simulated ring: paired with a real control
    system it would present made-up history as the machine's, so it is refused too.
    """
    cfg = _config(config)
    cs_type = cfg.control_system.type
    kind = cfg.archiver.effective_type(cs_type)
    setup = (
        "To plot history, point Osprey Desktop at your EPICS Archiver Appliance in the config "
        f"file (the url is the data_retrieval_url of its appliances.xml):\n{ARCHIVER_EXAMPLE}"
    )
    if kind == "none" and cfg.archiver.type is None:
        return (
            f"No archiver is configured for the {cs_type.upper()} control system, so there is "
            f"no history to show (archiver.type is not set). {setup}"
        )
    if kind == "none":
        return f"archiver.type is 'none': no archived history is available. {setup}"
    if kind == "sim" and cs_type != "sim":
        return (
            f"archiver.type is 'sim', but the simulated archive only describes the simulated "
            f"ring, and control_system.type is '{cs_type}': its history would be made up. "
            f"{setup}"
        )
    return None


async def get_archiver_connector(config: AppConfig | None = None) -> ArchiverConnector:
    """The connected archiver connector for this loop and configuration.

    Raises ``ArchiverNotConfiguredError`` (an ``ArchiverError``) with the config to set when
    no archiver serves the configured control system.
    """
    cfg = _config(config)
    refusal = archiver_refusal(cfg)
    if refusal is not None:
        raise ArchiverNotConfiguredError(refusal)
    arch = cfg.archiver
    kind = arch.effective_type(cfg.control_system.type)
    key: tuple[Any, ...] = ("archiver", kind, str(channel_database_path(cfg)))
    if kind == "archiver_appliance":
        key += (arch.archiver_appliance.url, arch.archiver_appliance.timeout)
        key += (cfg.control_system.type,)
    cache = _loop_cache()
    connector = cache.get(key)
    if connector is None:
        if kind == "sim":
            from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector

            connector = SimulatedArchiverConnector(get_sim_machine(cfg))
        elif kind == "archiver_appliance":
            from osprey_desktop.connectors.archiver_appliance import ArchiverApplianceConnector

            connector = ArchiverApplianceConnector(
                arch.archiver_appliance.url,
                timeout=arch.archiver_appliance.timeout,
                enum_labels=_live_enum_labels(cfg) if cfg.control_system.type != "sim" else None,
            )
        else:
            raise ValueError(
                f"archiver.type '{kind}' is not supported; use 'sim', 'archiver_appliance' or "
                "'none'."
            )
        await connector.connect()
        cache[key] = connector
    return connector


def _live_enum_labels(cfg: AppConfig) -> Callable[[str], Awaitable[Sequence[str] | None]]:
    """Enum state strings from the live control system (DBR_CTRL), for archived enum PVs."""

    async def labels(name: str) -> Sequence[str] | None:
        connector = await get_control_system_connector(cfg)
        return (await connector.get_metadata(name)).enum_strings

    return labels


async def close_connectors() -> None:
    """Disconnect every connector of the running loop and forget them."""
    loop = asyncio.get_running_loop()
    with _lock:
        cache = _by_loop.pop(loop, {})
    for connector in cache.values():
        await connector.disconnect()


def reset_sim_machines() -> None:
    """Forget the simulated machines (tests); the next use builds a fresh ring."""
    with _lock:
        _machines.clear()
