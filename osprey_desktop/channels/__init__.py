"""Channel lists and finding channels in them.

A channel list (``resources/channels.yaml`` or a facility's own, in any format ``formats``
reads, or a ChannelFinder / Archiver Appliance service: ``sources``) is loaded into a
``ChannelDatabase`` (``loading``); ``find(phrase, database)`` (``finding``) turns one phrase
naming channels ("the 3rd horizontal corrector setpoint") into the channels it names, with an
account of every word, a confidence, and candidates when unsure.

This package sits below ``connectors`` (which reach the channels on a control system) and
imports only ``language``, ``events`` and ``config``.
"""

from osprey_desktop.channels.database import ChannelDatabase, ChannelMatch
from osprey_desktop.channels.errors import ChannelNotFoundError, ConnectorError
from osprey_desktop.channels.finding import Finding, find
from osprey_desktop.channels.loading import get_channel_database, load_channel_database
from osprey_desktop.channels.records import (
    AlarmLimits,
    ChannelDatabaseError,
    ChannelLimits,
    ChannelRecord,
    Role,
)

__all__ = [
    "AlarmLimits",
    "ChannelDatabase",
    "ChannelDatabaseError",
    "ChannelLimits",
    "ChannelMatch",
    "ChannelNotFoundError",
    "ChannelRecord",
    "ConnectorError",
    "Finding",
    "Role",
    "find",
    "get_channel_database",
    "load_channel_database",
]
