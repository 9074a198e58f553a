"""The local logbook in the consoles' shared PostgreSQL database (full-text search with a
``tsvector`` column and a GIN index): every console sees and searches every entry.

Same tables and rules as the SQLite logbook (``logbook.store``); the events table refuses
UPDATE, DELETE and TRUNCATE through a trigger. Each call is one short connection.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from osprey_desktop.logbook.store import LogbookError, SqlLogbook
from osprey_desktop.persistence.postgres import (
    CONNECT_TIMEOUT_SECONDS,
    SCHEMA_LOCK_KEY,
    PostgresDatabase,
    describe_postgres_error,
)

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS osprey_logbook (
        id BIGSERIAL PRIMARY KEY,
        created_at DOUBLE PRECISION NOT NULL,
        author TEXT,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        logbook TEXT NOT NULL,
        tags TEXT,
        channels TEXT,
        thread_id TEXT,
        status TEXT NOT NULL,
        remote_id TEXT,
        publish_error TEXT,
        approval_id TEXT,
        search_text TEXT NOT NULL,
        search_vector TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED
    )
    """,
    "CREATE INDEX IF NOT EXISTS osprey_logbook_time ON osprey_logbook (created_at)",
    "CREATE INDEX IF NOT EXISTS osprey_logbook_search ON osprey_logbook USING GIN (search_vector)",
    """
    CREATE TABLE IF NOT EXISTS osprey_logbook_attachments (
        entry_id BIGINT NOT NULL REFERENCES osprey_logbook (id),
        position INTEGER NOT NULL,
        filename TEXT NOT NULL,
        content_type TEXT NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (entry_id, position)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS osprey_logbook_events (
        id BIGSERIAL PRIMARY KEY,
        time DOUBLE PRECISION NOT NULL,
        operator TEXT NOT NULL,
        kind TEXT NOT NULL,
        thread_id TEXT,
        entry_id BIGINT,
        what TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT
    )
    """,
    """
    CREATE OR REPLACE FUNCTION osprey_logbook_events_append_only() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'the logbook record is append-only'; END $$ LANGUAGE plpgsql
    """,
    "DROP TRIGGER IF EXISTS osprey_logbook_events_no_change ON osprey_logbook_events",
    "CREATE TRIGGER osprey_logbook_events_no_change BEFORE UPDATE OR DELETE OR TRUNCATE"
    " ON osprey_logbook_events FOR EACH STATEMENT"
    " EXECUTE FUNCTION osprey_logbook_events_append_only()",
)


class PostgresLogbook(SqlLogbook):
    """The logbook in a PostgreSQL database (tables made on first use)."""

    placeholder = "%s"

    def __init__(self, database: PostgresDatabase | str) -> None:
        super().__init__()
        self.database = (
            database if isinstance(database, PostgresDatabase) else PostgresDatabase(database)
        )
        self.where = f"the logbook in PostgreSQL database {self.database}"

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        import psycopg

        try:
            conn = psycopg.connect(self.database.url, connect_timeout=CONNECT_TIMEOUT_SECONDS)
        except psycopg.Error as exc:
            problem = describe_postgres_error(self.database, exc).problem
            raise LogbookError(f"{self.where} cannot be used: {problem}") from exc
        try:
            yield conn
        except psycopg.Error as exc:
            conn.rollback()
            problem = describe_postgres_error(self.database, exc).problem
            raise LogbookError(f"{self.where} cannot be used: {problem}") from exc
        finally:
            conn.close()

    def _exists(self) -> bool:
        """Reading never creates the tables in a database without a logbook."""
        if self._ready:
            return True
        with self._connect() as conn:
            (found,) = conn.execute("SELECT to_regclass('osprey_logbook') IS NOT NULL").fetchone()
        return bool(found)

    def _prepare(self, conn: Any) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            (exists,) = conn.execute(
                "SELECT to_regclass('osprey_logbook_events') IS NOT NULL"
            ).fetchone()
            statements = _SCHEMA if not exists else _SCHEMA[:5]
            for statement in statements:
                conn.execute(statement)

    def _insert_id(self, conn: Any, sql: str, params: tuple[Any, ...]) -> int:
        row = conn.execute(self._sql(sql) + " RETURNING id", params).fetchone()
        return int(row[0])

    def _match(
        self, conn: Any, terms: Sequence[str], every: bool, since: float | None, limit: int
    ) -> list[tuple[int, float]]:
        query = (" & " if every else " | ").join(terms)
        sql = (
            "SELECT id, ts_rank(search_vector, to_tsquery('english', %s)) FROM osprey_logbook"
            " WHERE search_vector @@ to_tsquery('english', %s)"
            " AND status NOT IN ('draft', 'discarded')"
        )
        params: list[Any] = [query, query]
        if since is not None:
            sql += " AND created_at >= %s"
            params.append(since)
        sql += " ORDER BY created_at DESC LIMIT %s"
        params.append(limit)
        return [(int(r[0]), float(r[1])) for r in conn.execute(sql, params).fetchall()]


__all__ = ["PostgresLogbook"]
