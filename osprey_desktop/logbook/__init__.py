"""The shift's memory: logbook entries (local, or published to Olog), their search joined with
the write audit log, what an undo restores, and the activity of the consoles.

Qt-free; sits below the capabilities and above safety and persistence.
"""

from osprey_desktop.logbook.activity import ActivityRow, activity_rows, load_activity
from osprey_desktop.logbook.entries import Attachment, Fact, LogbookEntry, compose_entry
from osprey_desktop.logbook.history import (
    HistoryItem,
    UndoRefused,
    UndoTarget,
    history,
    undo_targets,
)
from osprey_desktop.logbook.olog import OlogClient, OlogError, OlogSettings
from osprey_desktop.logbook.publishing import (
    discard,
    logbook_for,
    logbook_for_database,
    logbook_of_running_graph,
    publish,
    retry,
)
from osprey_desktop.logbook.store import LogbookError, LogbookEvent, SearchHit
from osprey_desktop.logbook.store_sqlite import SqliteLogbook

__all__ = [
    "ActivityRow",
    "Attachment",
    "Fact",
    "HistoryItem",
    "LogbookEntry",
    "LogbookError",
    "LogbookEvent",
    "OlogClient",
    "OlogError",
    "OlogSettings",
    "SearchHit",
    "SqliteLogbook",
    "UndoRefused",
    "UndoTarget",
    "activity_rows",
    "compose_entry",
    "discard",
    "history",
    "load_activity",
    "logbook_for",
    "logbook_for_database",
    "logbook_of_running_graph",
    "publish",
    "retry",
    "undo_targets",
]
