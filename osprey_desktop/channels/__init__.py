"""Channel lists and finding channels in them.

A channel list (``resources/channels.yaml`` or a facility's own, in any format ``formats``
reads, or a ChannelFinder / Archiver Appliance service: ``sources``) is loaded into a
``ChannelDatabase`` (``loading``); ``find(phrase, database)`` (``finding``) turns one phrase
naming channels ("the 3rd horizontal corrector setpoint") into the channels it names, with an
account of every word, a confidence, and candidates when unsure.

This package sits below ``connectors`` (which reach the channels on a control system) and
imports only ``language``, ``events`` and ``config``.
"""

from __future__ import annotations

from osprey_desktop.lazy_names import lazy_names

# Imported on first use: a module that needs one small piece (``addresses``, ``records``) does
# not load the finder, the formats and the list sources with it.
_EXPORTS: dict[str, str] = {
    "ChannelDatabase": "osprey_desktop.channels.database",
    "ChannelMatch": "osprey_desktop.channels.database",
    "ChannelNotFoundError": "osprey_desktop.channels.errors",
    "ConnectorError": "osprey_desktop.channels.errors",
    "Finding": "osprey_desktop.channels.finding",
    "find": "osprey_desktop.channels.finding",
    "get_channel_database": "osprey_desktop.channels.loading",
    "load_channel_database": "osprey_desktop.channels.loading",
    "AlarmLimits": "osprey_desktop.channels.records",
    "ChannelDatabaseError": "osprey_desktop.channels.records",
    "ChannelLimits": "osprey_desktop.channels.records",
    "ChannelRecord": "osprey_desktop.channels.records",
    "Role": "osprey_desktop.channels.records",
}


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


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
