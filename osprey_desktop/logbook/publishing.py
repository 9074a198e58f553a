"""Where an approved entry goes, and how a failed publish is kept and retried.

The local logbook always gets the entry first. With ``logbook.type: local`` that is all
(status ``local``). With ``olog`` the entry is then sent to the Olog service: ``published``
with Olog's id, or ``not_published`` with the server's reason (a 401, a service that is
down): never lost, shown as not published, and ``retry`` sends it again on request. Each
step is recorded in the logbook's audit (who, when, what, outcome).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from pathlib import Path
from typing import Any

from osprey_desktop.logbook.entries import LogbookEntry
from osprey_desktop.logbook.olog import OlogClient, OlogError, OlogSettings
from osprey_desktop.logbook.store import LogbookError, SqlLogbook
from osprey_desktop.logbook.store_sqlite import SqliteLogbook
from osprey_desktop.safety.audit import current_operator

_STORES: weakref.WeakKeyDictionary[Any, SqlLogbook] = weakref.WeakKeyDictionary()


def logbook_for_database(database: Any) -> SqlLogbook:
    """The logbook in a conversation database: a SQLite path or a PostgreSQL database/URL."""
    from osprey_desktop.persistence.postgres import PostgresDatabase, is_postgres_url

    if isinstance(database, PostgresDatabase) or is_postgres_url(database):
        from osprey_desktop.logbook.store_postgres import PostgresLogbook

        return PostgresLogbook(database)
    return SqliteLogbook(Path(str(database)))


def logbook_for(checkpointer: Any) -> SqlLogbook:
    """The logbook beside a graph's threads (the conversation database), cached per saver.

    A saver without a file (in memory) keeps its logbook in ``<data dir>/logbook.sqlite``.
    """
    try:
        return _STORES[checkpointer]
    except (KeyError, TypeError):
        pass
    from osprey_desktop.persistence.postgres import database_of, is_postgres_saver

    path = getattr(checkpointer, "db_path", None)
    if checkpointer is not None and is_postgres_saver(checkpointer):
        store = logbook_for_database(database_of(checkpointer))
    elif path is not None:
        store = SqliteLogbook(path)
    else:
        from osprey_desktop.config import get_data_dir

        store = SqliteLogbook(Path(get_data_dir()) / "logbook.sqlite")
    with contextlib.suppress(TypeError):
        _STORES[checkpointer] = store
    return store


def logbook_of_running_graph() -> SqlLogbook:
    """Inside a graph node: the logbook beside the run's threads."""
    from langgraph.config import get_config

    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:
        configurable = {}
    return logbook_for(configurable.get("__pregel_checkpointer"))


def olog_client(config: Any) -> OlogClient | None:
    """The configured Olog service, or None for a local logbook."""
    section = getattr(config, "logbook", None)
    if section is None or section.type != "olog":
        return None
    return OlogClient(OlogSettings.from_config(section.olog))


async def publish(
    store: SqlLogbook,
    entry_id: int,
    config: Any,
    *,
    client: OlogClient | None = None,
    operator: str | None = None,
) -> LogbookEntry:
    """Publish a stored draft (or retry a ``not_published`` entry); returns it as it ends.

    Only one caller moves an entry on (the status update is conditional), so an entry is
    sent to Olog at most once per publish or retry.
    """
    who = operator or current_operator()
    entry = await asyncio.to_thread(store.get, entry_id)
    if entry is None:
        raise LogbookError(f"there is no logbook entry {entry_id} in {store.where}")
    if entry.status not in ("draft", "not_published"):
        return entry
    try:
        client = client if client is not None else olog_client(config)
    except OlogError as exc:
        return await _not_published(store, entry, str(exc), who)
    if client is None:
        await asyncio.to_thread(store.update, entry_id, status="local", from_statuses=("draft",))
        await _event(store, entry, "published in the local logbook", "local", who)
        return await asyncio.to_thread(store.get, entry_id) or entry
    try:
        remote = await client.publish(entry)
    except OlogError as exc:
        return await _not_published(store, entry, str(exc), who)
    await asyncio.to_thread(
        store.update,
        entry_id,
        status="published",
        remote_id=remote,
        publish_error=None,
        from_statuses=("draft", "not_published"),
    )
    await _event(store, entry, f"published to Olog as entry {remote}", "published", who)
    return await asyncio.to_thread(store.get, entry_id) or entry


async def retry(store: SqlLogbook, entry_id: int, config: Any, **kwargs: Any) -> LogbookEntry:
    """Send an entry that was not published again; other entries are returned unchanged."""
    entry = await asyncio.to_thread(store.get, entry_id)
    if entry is None:
        raise LogbookError(f"there is no logbook entry {entry_id} in {store.where}")
    if entry.status != "not_published":
        raise LogbookError(
            f"logbook entry {entry_id} is {entry.status.replace('_', ' ')}; only an entry that "
            "was not published can be retried"
        )
    return await publish(store, entry_id, config, **kwargs)


async def discard(store: SqlLogbook, entry_id: int, operator: str | None = None) -> None:
    """The operator said no: the draft is kept as discarded (never published, never found)."""
    entry = await asyncio.to_thread(store.get, entry_id)
    if entry is None:
        return
    if await asyncio.to_thread(
        store.update, entry_id, status="discarded", from_statuses=("draft",)
    ):
        await _event(
            store, entry, "discarded by the operator", "rejected", operator or current_operator()
        )


async def _not_published(
    store: SqlLogbook, entry: LogbookEntry, reason: str, who: str
) -> LogbookEntry:
    await asyncio.to_thread(
        store.update,
        entry.id,
        status="not_published",
        publish_error=reason,
        from_statuses=("draft", "not_published"),
    )
    await _event(store, entry, f"not published: {reason}", "not_published", who)
    return await asyncio.to_thread(store.get, entry.id) or entry


async def _event(
    store: SqlLogbook, entry: LogbookEntry, detail: str, outcome: str, who: str
) -> None:
    await asyncio.to_thread(
        store.record_event,
        kind="entry",
        what=f"logbook entry {entry.id}: {entry.title}",
        outcome=outcome,
        operator=who,
        thread_id=entry.thread_id,
        entry_id=entry.id,
        detail=detail,
    )


__all__ = [
    "discard",
    "logbook_for",
    "logbook_for_database",
    "logbook_of_running_graph",
    "olog_client",
    "publish",
    "retry",
]
