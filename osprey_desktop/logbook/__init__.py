"""The shift's memory: logbook entries (local, or published to Olog), their search joined with
the write audit log, what an undo restores, and the activity of the consoles.

Qt-free; sits below the capabilities and above safety and persistence.
"""

from __future__ import annotations

from osprey_desktop.lazy_names import lazy_names

# Imported on first use (PEP 562), so that importing one module of this package (the window's
# activity dock, say) does not load every other one with it before the window first paints.
_EXPORTS: dict[str, str] = {
    "ActivityRow": "osprey_desktop.logbook.activity",
    "activity_rows": "osprey_desktop.logbook.activity",
    "load_activity": "osprey_desktop.logbook.activity",
    "Attachment": "osprey_desktop.logbook.entries",
    "Fact": "osprey_desktop.logbook.entries",
    "LogbookEntry": "osprey_desktop.logbook.entries",
    "compose_entry": "osprey_desktop.logbook.entries",
    "HistoryItem": "osprey_desktop.logbook.history",
    "UndoRefused": "osprey_desktop.logbook.history",
    "UndoTarget": "osprey_desktop.logbook.history",
    "history": "osprey_desktop.logbook.history",
    "undo_targets": "osprey_desktop.logbook.history",
    "OlogClient": "osprey_desktop.logbook.olog",
    "OlogError": "osprey_desktop.logbook.olog",
    "OlogSettings": "osprey_desktop.logbook.olog",
    "discard": "osprey_desktop.logbook.publishing",
    "logbook_for": "osprey_desktop.logbook.publishing",
    "logbook_for_database": "osprey_desktop.logbook.publishing",
    "logbook_of_running_graph": "osprey_desktop.logbook.publishing",
    "publish": "osprey_desktop.logbook.publishing",
    "retry": "osprey_desktop.logbook.publishing",
    "LogbookError": "osprey_desktop.logbook.store",
    "LogbookEvent": "osprey_desktop.logbook.store",
    "SearchHit": "osprey_desktop.logbook.store",
    "SqliteLogbook": "osprey_desktop.logbook.store_sqlite",
}


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


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
