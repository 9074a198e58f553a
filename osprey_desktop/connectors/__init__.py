"""Control-system and archiver connectors, the channel database and the simulated ring.

Capabilities import from here::

    from osprey_desktop.connectors import (
        get_control_system_connector, get_archiver_connector, get_configured_channel_database,
        ChannelValue, ChannelWriteResult, ChannelNotFoundError, ConnectorError,
    )

The EPICS (caproto) and Archiver Appliance (httpx) modules are imported only when the
configuration selects them.
"""

from osprey_desktop.channels import (
    ChannelDatabase,
    ChannelDatabaseError,
    ChannelMatch,
    ChannelRecord,
    get_channel_database,
    load_channel_database,
)
from osprey_desktop.connectors.archiver_base import (
    ArchiverConnector,
    ArchiverData,
    ArchiverNotConfiguredError,
    ArchiverSample,
    ArchiverSeries,
)
from osprey_desktop.connectors.base import (
    ALARM_SEVERITIES,
    ArchiverError,
    ChannelAccessError,
    ChannelMetadata,
    ChannelNotFoundError,
    ChannelValue,
    ChannelWriteResult,
    ConnectorError,
    ControlSystemConnector,
    format_value,
    to_float,
)
from osprey_desktop.connectors.factory import (
    close_connectors,
    get_archiver_connector,
    get_configured_channel_database,
    get_control_system_connector,
    get_sim_machine,
    set_sim_machine,
)
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector
from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector
from osprey_desktop.connectors.sim_machine import SimMachine

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
