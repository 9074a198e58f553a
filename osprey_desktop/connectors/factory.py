"""Choose, build, connect and cache the connectors the configuration asks for.

``control_system.type: sim | epics`` and ``archiver.type: sim | archiver_appliance`` pick the
backend. Connectors hold loop-bound resources (caproto contexts, httpx clients, subscription
tasks), so they are cached per running event loop: every coroutine on the GUI's qasync loop gets
the same connected instance, a test's fresh loop gets a fresh one. The simulated machine is one
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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from osprey_desktop.connectors.archiver_base import ArchiverConnector
from osprey_desktop.connectors.base import ControlSystemConnector
from osprey_desktop.connectors.channel_database import ChannelDatabase, get_channel_database
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


def channel_database_path(config: AppConfig | None = None) -> Path:
    """The channel database file the configuration names (the shipped one when null)."""
    from osprey_desktop.config import resolve_resource_file

    return resolve_resource_file(_config(config).control_system.channel_database, "channels.yaml")


def get_configured_channel_database(config: AppConfig | None = None) -> ChannelDatabase:
    """The configured channel database (loaded once per file)."""
    return get_channel_database(channel_database_path(config))


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
    )
    cache = _loop_cache()
    connector = cache.get(key)
    if connector is None:
        if cs.type == "sim":
            from osprey_desktop.connectors.sim import SimulatedControlSystemConnector

            connector = SimulatedControlSystemConnector(
                get_sim_machine(cfg), default_tolerance=cs.verification_tolerance
            )
        elif cs.type == "epics":
            from osprey_desktop.connectors.epics import EpicsControlSystemConnector

            connector = EpicsControlSystemConnector(
                timeout=cs.epics.timeout,
                database=get_configured_channel_database(cfg),
                default_tolerance=cs.verification_tolerance,
            )
        else:  # the config model already restricts the type; keep the message for dict configs
            raise ValueError(
                f"control_system.type '{cs.type}' is not supported; use 'sim' or 'epics'."
            )
        await connector.connect()
        cache[key] = connector
    return connector


async def get_archiver_connector(config: AppConfig | None = None) -> ArchiverConnector:
    """The connected archiver connector for this loop and configuration."""
    cfg = _config(config)
    arch = cfg.archiver
    key: tuple[Any, ...] = ("archiver", arch.type, str(channel_database_path(cfg)))
    if arch.type == "archiver_appliance":
        key += (arch.archiver_appliance.url, arch.archiver_appliance.timeout)
    cache = _loop_cache()
    connector = cache.get(key)
    if connector is None:
        if arch.type == "sim":
            from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector

            connector = SimulatedArchiverConnector(get_sim_machine(cfg))
        elif arch.type == "archiver_appliance":
            from osprey_desktop.connectors.archiver_appliance import ArchiverApplianceConnector

            connector = ArchiverApplianceConnector(
                arch.archiver_appliance.url, timeout=arch.archiver_appliance.timeout
            )
        else:
            raise ValueError(
                f"archiver.type '{arch.type}' is not supported; use 'sim' or 'archiver_appliance'."
            )
        await connector.connect()
        cache[key] = connector
    return connector


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
