"""The control-room capabilities, registered by default (``registry`` loads this module).

Context names follow the Osprey reference: TIME_RANGE, CHANNEL_ADDRESSES, CHANNEL_VALUES,
CHANNEL_WRITE_RESULTS, ARCHIVER_DATA. A facility replaces or extends them with its own
registration module (``registry.modules`` in the config) that lists ``CAPABILITIES``.
"""

from osprey_desktop.capabilities.control_room.alarm_overview import AlarmOverviewCapability
from osprey_desktop.capabilities.control_room.archiver_retrieval import ArchiverRetrievalCapability
from osprey_desktop.capabilities.control_room.channel_finding import ChannelFindingCapability
from osprey_desktop.capabilities.control_room.channel_read import ChannelReadCapability
from osprey_desktop.capabilities.control_room.channel_write import ChannelWriteCapability
from osprey_desktop.capabilities.control_room.contexts import (
    ArchiverDataContext,
    ChannelAddressesContext,
    ChannelValuesContext,
    ChannelWriteResultsContext,
    TimeRangeContext,
)
from osprey_desktop.capabilities.control_room.investigation import InvestigationCapability
from osprey_desktop.capabilities.control_room.investigation_contexts import (
    AlarmOverviewContext,
    InvestigationContext,
)
from osprey_desktop.capabilities.control_room.logbook_contexts import (
    LogbookEntryContext,
    LogbookSearchContext,
)
from osprey_desktop.capabilities.control_room.logbook_entry import LogbookEntryCapability
from osprey_desktop.capabilities.control_room.logbook_search import LogbookSearchCapability
from osprey_desktop.capabilities.control_room.time_range_parsing import (
    TimeRangeParsingCapability,
)
from osprey_desktop.capabilities.control_room.undo import UndoWriteCapability
from osprey_desktop.decorators import capability_node

CAPABILITIES = [
    capability_node(TimeRangeParsingCapability),
    capability_node(ChannelFindingCapability),
    capability_node(ChannelReadCapability),
    capability_node(ChannelWriteCapability),
    capability_node(ArchiverRetrievalCapability),
    capability_node(LogbookEntryCapability),
    capability_node(LogbookSearchCapability),
    capability_node(UndoWriteCapability),
    capability_node(AlarmOverviewCapability),
    capability_node(InvestigationCapability),
]
CONTEXT_CLASSES = [
    TimeRangeContext,
    ChannelAddressesContext,
    ChannelValuesContext,
    ChannelWriteResultsContext,
    ArchiverDataContext,
    LogbookEntryContext,
    LogbookSearchContext,
    AlarmOverviewContext,
    InvestigationContext,
]

__all__ = [
    "CAPABILITIES",
    "CONTEXT_CLASSES",
    "ArchiverDataContext",
    "ArchiverRetrievalCapability",
    "ChannelAddressesContext",
    "ChannelFindingCapability",
    "ChannelReadCapability",
    "ChannelValuesContext",
    "ChannelWriteCapability",
    "ChannelWriteResultsContext",
    "TimeRangeContext",
    "TimeRangeParsingCapability",
]
