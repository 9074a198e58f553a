"""The append-only audit log of every write attempt, in SQLite (or, for consoles that share a
PostgreSQL conversation database, in that database: ``safety.audit_postgres``).

Every write Osprey Desktop is asked to make is recorded, whatever happened to it. A write that
is sent gets two entries: ``intent`` (approval id, operator, channel, value before, value to
send), stored durably *before* the put, and its outcome after it, in the words of
``connectors.base.WRITE_OUTCOMES`` (``verified``, ``in_doubt`` ...). A write that is not sent
gets one entry (``blocked``, ``rejected``, ``not_sent``). ``resolved`` records what an operator
found when reading back a write that was in doubt. Entries made before this vocabulary keep
their words (``written``, ``refused``, ``failed``).

SQLite triggers abort any UPDATE or DELETE, so history cannot be rewritten through SQL. Values
are stored as JSON text so numbers, strings and arrays keep their type. The file carries its
own application id, and the writer refuses a SQLite file that belongs to another program
(tables of its own, or another application id) instead of adding a table to it.

Only ``record`` creates the file and its schema. Reading (``entries``, ``osprey-desktop audit``)
opens the file read-only and refuses a file without an ``audit_log`` table, so pointing the
reader at another database (the thread database, say) never changes it.

Usage::

    audit = AuditLog(get_audit_db_path())
    await audit.arecord(channel="SR01C:HCM01:Current:SP", requested_value=1.5,
                        value_before=1.2, readback_after=1.49, outcome="written",
                        thread_id="t-1", approval_id="a-7", message="...")
    for entry in audit.entries(limit=20): ...
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from osprey_desktop.safety.audit_entries import (
    ENTRY_COLUMNS,
    LEGACY_OUTCOMES,
    OUTCOMES,
    AuditEntry,
    AuditError,
    Outcome,
    current_operator,
    entry_of_row,
    entry_row,
)

#: ``PRAGMA application_id`` of an audit log ("OSPA"): marks the file as ours.
APPLICATION_ID = 0x4F535041

_CHECKED = ", ".join(f"'{o}'" for o in (*OUTCOMES, *LEGACY_OUTCOMES))
_SCHEMA: tuple[str, ...] = (
    f"""
CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time REAL NOT NULL,
    thread_id TEXT,
    operator TEXT NOT NULL,
    channel TEXT NOT NULL,
    value_before TEXT,
    requested_value TEXT,
    readback_after TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ({_CHECKED})),
    approval_id TEXT,
    message TEXT,
    connector TEXT
)""",
    "CREATE INDEX IF NOT EXISTS audit_log_approval ON audit_log (approval_id)",
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log BEGIN"
    " SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be changed'); END",
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log BEGIN"
    " SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be deleted'); END",
)


def _where_the_log_is() -> str:
    """Where the real audit log is, for errors about a file that is not one."""
    try:
        from osprey_desktop.config import get_audit_db_path

        default = str(get_audit_db_path())
    except Exception:  # a broken config must not hide the error being reported
        default = "<data folder>/audit.sqlite"
    return f"the audit log is file_paths.audit_db, by default {default}"


def _accepts_current_outcomes(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'audit_log'"
    ).fetchone()
    return row is not None and all(f"'{o}'" in row[0] for o in OUTCOMES)


def _migrate_outcomes(conn: sqlite3.Connection) -> None:
    """Move a log of the earlier schema (four outcome words) under the current one.

    The old table is renamed, kept as it was (its triggers still forbid changes), and its
    entries are copied with their ids into the new table.
    """
    stamp = time.strftime("%Y%m%d%H%M%S")
    old = f"audit_log_before_{stamp}"
    conn.execute(f"ALTER TABLE audit_log RENAME TO {old}")
    for trigger in ("audit_log_no_update", "audit_log_no_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute(_SCHEMA[0])
    conn.execute(
        "INSERT INTO audit_log (id, time, thread_id, operator, channel, value_before,"
        " requested_value, readback_after, outcome, approval_id, message, connector)"
        f" SELECT id, time, thread_id, operator, channel, value_before, requested_value,"
        f" readback_after, outcome, approval_id, message, connector FROM {old}"
    )
    for suffix, verb in (("update", "UPDATE"), ("delete", "DELETE")):
        conn.execute(
            f"CREATE TRIGGER IF NOT EXISTS {old}_no_{suffix} BEFORE {verb} ON {old} "
            "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
        )


class AuditLog:
    """Append-only write log in one SQLite file (created with its folder on first use)."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = Path(db_path).expanduser()
        self._lock = threading.Lock()
        self._ready = False

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A read-write connection; creates the file, its folder and the schema on first use.

        Every failure is an ``AuditError`` whose message says whether the log is locked,
        read-only, damaged, full or another program's file: the write it guards is not sent.
        """
        try:
            if not self._ready:
                self.db_path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.db_path, timeout=5.0)
        except (OSError, sqlite3.Error) as exc:
            raise AuditError(self._problem(exc, "open")) from exc
        try:
            if not self._ready:
                try:
                    self._prepare(conn)
                except sqlite3.Error as exc:
                    raise AuditError(self._problem(exc, "prepare")) from exc
                self._ready = True
            yield conn
        finally:
            conn.close()

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Create the schema in a new file, or check that an existing file is an audit log."""
        tables = {
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id not in (0, APPLICATION_ID) or (tables and "audit_log" not in tables):
            listed = ", ".join(sorted(tables)[:5]) or f"application id {app_id:#x}"
            raise AuditError(
                f"{self.db_path} belongs to another program ({listed}); the audit log was not "
                f"added to it and nothing was sent; {_where_the_log_is()}."
            )
        with conn:  # one transaction: a migration is all or nothing
            if "audit_log" in tables and not _accepts_current_outcomes(conn):
                _migrate_outcomes(conn)
            for statement in _SCHEMA:
                conn.execute(statement)
        if app_id != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def _problem(self, exc: BaseException, doing: str) -> str:
        """One line that tells locked, read-only, full and damaged apart."""
        name = getattr(exc, "sqlite_errorname", "") or ""
        text = str(exc)
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
            what = "is locked by another program; try again when it is released"
        elif name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN")) or (
            isinstance(exc, PermissionError) or "readonly" in text or "read-only" in text
        ):
            what = "cannot be written (read-only file or folder: check its permissions)"
        elif name.startswith("SQLITE_FULL") or getattr(exc, "errno", None) == 28:
            what = "cannot grow: the disk is full"
        elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text:
            what = "is damaged; keep it for inspection and point file_paths.audit_db elsewhere"
        else:
            what = f"cannot be used ({text})"
        return f"The audit log {self.db_path} {what} [{doing}: {text}]."

    @contextmanager
    def _connect_readonly(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection to an existing audit log: never creates or changes a file."""
        if self.db_path.is_dir():
            raise AuditError(
                f"{self.db_path} is a folder, not an audit log file; {_where_the_log_is()}."
            )
        uri = self.db_path.absolute().as_uri()
        self._require_audit_table(uri)
        try:
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=10.0)
        except sqlite3.Error as exc:
            raise AuditError(
                f"Cannot open the audit log {self.db_path} for reading: {exc}. Check the path "
                f"and its permissions; {_where_the_log_is()}."
            ) from exc
        try:
            yield conn
        finally:
            conn.close()

    def _require_audit_table(self, uri: str) -> None:
        """Refuse a file that is not an audit log before opening it for real.

        ``immutable=1`` reads the main file only: a read-only open of a WAL database (the thread
        database is one) would otherwise leave ``-wal`` and ``-shm`` files beside it.
        """
        try:
            probe = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True)
        except sqlite3.Error as exc:
            raise AuditError(
                f"Cannot open the audit log {self.db_path} for reading: {exc}. Check the path "
                f"and its permissions; {_where_the_log_is()}."
            ) from exc
        try:
            found = probe.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_log'"
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise AuditError(
                f"{self.db_path} cannot be read as an SQLite database ({exc}): it is not an "
                f"Osprey Desktop audit log, or it is damaged; {_where_the_log_is()}."
            ) from exc
        finally:
            probe.close()
        if found is None:
            raise AuditError(
                f"{self.db_path} is not an Osprey Desktop audit log (no audit_log table); "
                f"{_where_the_log_is()}."
            )

    def record(
        self,
        *,
        channel: str,
        outcome: Outcome,
        requested_value: Any = None,
        value_before: Any = None,
        readback_after: Any = None,
        thread_id: str | None = None,
        approval_id: str | None = None,
        message: str | None = None,
        connector: str | None = None,
        operator: str | None = None,
        when: float | None = None,
    ) -> int:
        """Append one entry; returns its id. Raises ``AuditError`` if it cannot be stored."""
        row = entry_row(
            channel=channel,
            outcome=outcome,
            requested_value=requested_value,
            value_before=value_before,
            readback_after=readback_after,
            thread_id=thread_id,
            approval_id=approval_id,
            message=message,
            connector=connector,
            operator=operator,
            when=when,
        )
        with self._lock, self._connect() as conn:
            try:
                with conn:
                    cursor = conn.execute(
                        "INSERT INTO audit_log (time, thread_id, operator, channel, value_before,"
                        " requested_value, readback_after, outcome, approval_id, message,"
                        " connector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        row,
                    )
            except sqlite3.Error as exc:
                raise AuditError(self._problem(exc, "write")) from exc
            return int(cursor.lastrowid or 0)

    async def arecord(self, **fields: Any) -> int:
        """``record`` in a worker thread, so the event loop never waits on the disk."""
        return await asyncio.to_thread(lambda: self.record(**fields))

    def approval_entries(self, approval_id: str) -> list[AuditEntry]:
        """Every entry of one approval, oldest first (opens the log as a write would: the
        log is the witness consulted right before a put, so a log that cannot be used stops
        the write with the same ``AuditError``)."""
        with self._lock, self._connect() as conn:
            try:
                rows = conn.execute(
                    f"SELECT id, {ENTRY_COLUMNS} FROM audit_log WHERE approval_id = ? ORDER BY id",
                    (approval_id,),
                ).fetchall()
            except sqlite3.Error as exc:
                raise AuditError(self._problem(exc, "read")) from exc
        return [entry_of_row(r) for r in rows]

    async def aapproval_entries(self, approval_id: str) -> list[AuditEntry]:
        """``approval_entries`` in a worker thread."""
        return await asyncio.to_thread(self.approval_entries, approval_id)

    def entries(self, limit: int | None = None) -> list[AuditEntry]:
        """The last ``limit`` entries (all when None), oldest first; [] when there is no file.

        Raises ``AuditError`` when the file is not an audit log; the file is never modified.
        """
        if not self.db_path.exists():
            return []
        sql = (
            "SELECT id, time, thread_id, operator, channel, value_before, requested_value,"
            " readback_after, outcome, approval_id, message, connector"
            " FROM audit_log ORDER BY id DESC"
        )
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (max(0, int(limit)),)
        with self._connect_readonly() as conn:
            try:
                rows = conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise AuditError(f"Cannot read the audit log {self.db_path}: {exc}") from exc
        out = [entry_of_row(r) for r in rows]
        out.reverse()
        return out


def audit_log_for(checkpointer: Any) -> Any:
    """Where the writes of a graph on ``checkpointer`` are audited.

    Consoles that share a PostgreSQL conversation database share its audit log too
    (``PostgresAuditLog``, table ``osprey_audit_log``), so each sees who approved what on the
    others; otherwise the configured file (``file_paths.audit_db``).
    """
    from osprey_desktop.persistence.postgres import database_of, is_postgres_saver

    if checkpointer is not None and is_postgres_saver(checkpointer):
        from osprey_desktop.safety.audit_postgres import PostgresAuditLog

        return PostgresAuditLog(database_of(checkpointer))
    from osprey_desktop.config import get_audit_db_path

    return AuditLog(get_audit_db_path())


def audit_log_of_running_graph() -> Any:
    """Inside a graph node: ``audit_log_for`` the run's checkpointer; elsewhere the file."""
    from langgraph.config import get_config

    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # not inside a run
        configurable = {}
    return audit_log_for(configurable.get("__pregel_checkpointer"))


__all__ = [
    "OUTCOMES",
    "AuditEntry",
    "AuditError",
    "AuditLog",
    "audit_log_for",
    "audit_log_of_running_graph",
    "current_operator",
    "entry_of_row",
    "entry_row",
]
