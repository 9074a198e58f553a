"""Conversation persistence: the SQLite checkpointer and the thread list built on it."""

from osprey_desktop.persistence.checkpointer import (
    CheckpointDatabaseError,
    check_database_file,
    open_checkpointer,
)
from osprey_desktop.persistence.threads import (
    ThreadInfo,
    delete_thread,
    list_threads,
    thread_exists,
)

__all__ = [
    "CheckpointDatabaseError",
    "ThreadInfo",
    "check_database_file",
    "delete_thread",
    "list_threads",
    "open_checkpointer",
    "thread_exists",
]
