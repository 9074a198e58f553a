"""The audit log in a shared PostgreSQL conversation database (table ``osprey_audit_log``).

Consoles pointed at one PostgreSQL database record their writes in it, so every console (and
``osprey-desktop audit``) sees who approved what, wherever it was approved. Same entries and
same rules as the SQLite log (``safety.audit``): the intent of a put is committed before the
put, any failure is an ``AuditError`` (and the write it guards is not sent), and history
cannot be rewritten: a trigger makes UPDATE, DELETE and TRUNCATE fail inside the database.

Each entry is one short connection and one transaction: an entry is durable when
``record`` returns, and a server restart between two writes costs nothing but a reconnect.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from osprey_desktop.persistence.postgres import (
    CONNECT_TIMEOUT_SECONDS,
    PostgresDatabase,
    describe_postgres_error,
    prepare_schema_sync,
)
from osprey_desktop.safety.audit_entries import (
    ENTRY_COLUMNS,
    AuditEntry,
    AuditError,
    entry_of_row,
    entry_row,
)

TABLE = "osprey_audit_log"


class PostgresAuditLog:
    """Append-only write log in a PostgreSQL database (the table is made on first write)."""

    def __init__(self, database: PostgresDatabase | str) -> None:
        self.database = (
            database if isinstance(database, PostgresDatabase) else PostgresDatabase(database)
        )
        self._lock = threading.Lock()
        self._ready = False

    @property
    def where(self) -> str:
        """How messages name this log (the URL without its password)."""
        return f"the audit log in PostgreSQL database {self.database}"

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.database.url, connect_timeout=CONNECT_TIMEOUT_SECONDS)

    def _problem(self, exc: BaseException, doing: str) -> str:
        problem = describe_postgres_error(self.database, exc).problem
        return f"{self.where[0].upper()}{self.where[1:]} cannot be used: {problem} [{doing}]."

    def record(self, **fields: Any) -> int:
        """Append one entry (``AuditLog.record``'s arguments); returns its id.

        Raises ``AuditError`` when it cannot be stored, ``ValueError`` for a bad entry.
        """
        import psycopg

        row = entry_row(**fields)
        marks = ", ".join(["%s"] * len(row))
        with self._lock:
            try:
                with self._connect() as conn:
                    if not self._ready:
                        prepare_schema_sync(conn)
                        self._ready = True
                    with conn.transaction():
                        found = conn.execute(
                            f"INSERT INTO {TABLE} ({ENTRY_COLUMNS}) VALUES ({marks}) RETURNING id",
                            row,
                        ).fetchone()
            except psycopg.Error as exc:
                raise AuditError(self._problem(exc, "write")) from exc
        return int(found[0]) if found else 0

    async def arecord(self, **fields: Any) -> int:
        """``record`` in a worker thread, so the event loop never waits on the server."""
        return await asyncio.to_thread(lambda: self.record(**fields))

    def approval_entries(self, approval_id: str) -> list[AuditEntry]:
        """Every entry of one approval, oldest first; ``AuditError`` when the server cannot
        be asked (the write it guards is then not sent)."""
        import psycopg

        with self._lock:
            try:
                with self._connect() as conn:
                    if not self._ready:
                        prepare_schema_sync(conn)
                        self._ready = True
                    rows = conn.execute(
                        f"SELECT id, {ENTRY_COLUMNS} FROM {TABLE} WHERE approval_id = %s"
                        " ORDER BY id",
                        (approval_id,),
                    ).fetchall()
            except psycopg.Error as exc:
                raise AuditError(self._problem(exc, "read")) from exc
        return [entry_of_row(tuple(r)) for r in rows]

    async def aapproval_entries(self, approval_id: str) -> list[AuditEntry]:
        """``approval_entries`` in a worker thread."""
        return await asyncio.to_thread(self.approval_entries, approval_id)

    def entries(self, limit: int | None = None) -> list[AuditEntry]:
        """The last ``limit`` entries (all when None), oldest first; [] before the first write.

        Only reads: a database without the table is not changed.
        """
        import psycopg

        sql = f"SELECT id, {ENTRY_COLUMNS} FROM {TABLE} ORDER BY id DESC"
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT %s"
            params = (max(0, int(limit)),)
        try:
            with self._connect() as conn:
                conn.read_only = True
                (exists,) = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (TABLE,)).fetchone()
                rows = conn.execute(sql, params).fetchall() if exists else []
        except psycopg.Error as exc:
            raise AuditError(self._problem(exc, "read")) from exc
        out = [entry_of_row(tuple(r)) for r in rows]
        out.reverse()
        return out


__all__ = ["PostgresAuditLog"]
