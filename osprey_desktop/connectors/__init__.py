"""Control-system and archiver connectors, the channel database and the simulated ring.

Capabilities import from here::

    from osprey_desktop.connectors import (
        get_control_system_connector, get_archiver_connector, get_configured_channel_database,
        ChannelValue, ChannelWriteResult, ChannelNotFoundError, ConnectorError,
    )

Every name here is imported on first use; the EPICS (caproto) and Archiver Appliance (httpx)
modules only when the configuration selects them.
"""

from __future__ import annotations

from osprey_desktop.lazy_names import lazy_names

# Imported on first use, so that importing one connector module (``connectors.base``, say) does
# not load the channel list package, the simulated ring and the archivers with it.
_EXPORTS: dict[str, str] = {
    "ChannelDatabase": "osprey_desktop.channels",
    "ChannelDatabaseError": "osprey_desktop.channels",
    "ChannelMatch": "osprey_desktop.channels",
    "ChannelRecord": "osprey_desktop.channels",
    "get_channel_database": "osprey_desktop.channels",
    "load_channel_database": "osprey_desktop.channels",
    "ArchiverConnector": "osprey_desktop.connectors.archiver_base",
    "ArchiverData": "osprey_desktop.connectors.archiver_base",
    "ArchiverNotConfiguredError": "osprey_desktop.connectors.archiver_base",
    "ArchiverSample": "osprey_desktop.connectors.archiver_base",
    "ArchiverSeries": "osprey_desktop.connectors.archiver_base",
    "ALARM_SEVERITIES": "osprey_desktop.connectors.base",
    "ArchiverError": "osprey_desktop.connectors.base",
    "ChannelAccessError": "osprey_desktop.connectors.base",
    "ChannelMetadata": "osprey_desktop.connectors.base",
    "ChannelNotFoundError": "osprey_desktop.connectors.base",
    "ChannelValue": "osprey_desktop.connectors.base",
    "ChannelWriteResult": "osprey_desktop.connectors.base",
    "ConnectorError": "osprey_desktop.connectors.base",
    "ControlSystemConnector": "osprey_desktop.connectors.base",
    "format_value": "osprey_desktop.connectors.base",
    "to_float": "osprey_desktop.connectors.base",
    "close_connectors": "osprey_desktop.connectors.factory",
    "get_archiver_connector": "osprey_desktop.connectors.factory",
    "get_configured_channel_database": "osprey_desktop.connectors.factory",
    "get_control_system_connector": "osprey_desktop.connectors.factory",
    "get_sim_machine": "osprey_desktop.connectors.factory",
    "set_sim_machine": "osprey_desktop.connectors.factory",
    "SimulatedControlSystemConnector": "osprey_desktop.connectors.sim",
    "SimulatedArchiverConnector": "osprey_desktop.connectors.sim_archiver",
    "SimMachine": "osprey_desktop.connectors.sim_machine",
}


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


__all__ = [
    "ALARM_SEVERITIES",
    "ArchiverConnector",
    "ArchiverData",
    "ArchiverError",
    "ArchiverNotConfiguredError",
    "ArchiverSample",
    "ArchiverSeries",
    "ChannelAccessError",
    "ChannelDatabase",
    "ChannelDatabaseError",
    "ChannelMatch",
    "ChannelMetadata",
    "ChannelNotFoundError",
    "ChannelRecord",
    "ChannelValue",
    "ChannelWriteResult",
    "ConnectorError",
    "ControlSystemConnector",
    "SimMachine",
    "SimulatedArchiverConnector",
    "SimulatedControlSystemConnector",
    "close_connectors",
    "format_value",
    "get_archiver_connector",
    "get_channel_database",
    "get_configured_channel_database",
    "get_control_system_connector",
    "get_sim_machine",
    "load_channel_database",
    "set_sim_machine",
    "to_float",
]
