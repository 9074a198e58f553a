"""Conversation persistence: the SQLite checkpointer and the thread list built on it.

Every name here is imported on first use: the checkpointer and the thread list import
LangGraph's savers (and with them LangChain and LangSmith, about 1 s), which a command that
only names the database (``audit``, ``logbook``: ``persistence.postgres``) never needs.
"""

from __future__ import annotations

from osprey_desktop.lazy_names import lazy_names

_EXPORTS: dict[str, str] = {
    "CheckpointDatabaseError": "osprey_desktop.persistence.storage_errors",
    "check_database_file": "osprey_desktop.persistence.checkpointer",
    "open_checkpointer": "osprey_desktop.persistence.checkpointer",
    "ThreadInfo": "osprey_desktop.persistence.threads",
    "delete_thread": "osprey_desktop.persistence.threads",
    "list_threads": "osprey_desktop.persistence.threads",
    "thread_exists": "osprey_desktop.persistence.threads",
}


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


__all__ = [
    "CheckpointDatabaseError",
    "ThreadInfo",
    "check_database_file",
    "delete_thread",
    "list_threads",
    "open_checkpointer",
    "thread_exists",
]
