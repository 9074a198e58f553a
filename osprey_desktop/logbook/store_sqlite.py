"""The local logbook in a SQLite file (the conversation database, or its own file), with
full-text search by FTS5 (Porter stemming) over the shared ``search_text`` column.

Triggers keep the FTS index in step with the entries and refuse changes to the logbook's own
audit (``osprey_logbook_events``) and deletions of entries.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from osprey_desktop.logbook.store import LogbookError, SqlLogbook

_SQLITE_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS osprey_logbook (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at REAL NOT NULL,
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
        search_text TEXT NOT NULL
    )
    """,
    "CREATE INDEX IF NOT EXISTS osprey_logbook_time ON osprey_logbook (created_at)",
    """
    CREATE TABLE IF NOT EXISTS osprey_logbook_attachments (
        entry_id INTEGER NOT NULL REFERENCES osprey_logbook (id),
        position INTEGER NOT NULL,
        filename TEXT NOT NULL,
        content_type TEXT NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (entry_id, position)
    )
    """,
    "CREATE VIRTUAL TABLE IF NOT EXISTS osprey_logbook_fts USING fts5(search_text,"
    " content='osprey_logbook', content_rowid='id', tokenize='porter unicode61')",
    "CREATE TRIGGER IF NOT EXISTS osprey_logbook_fts_insert AFTER INSERT ON osprey_logbook"
    " BEGIN INSERT INTO osprey_logbook_fts (rowid, search_text)"
    " VALUES (new.id, new.search_text); END",
    "CREATE TRIGGER IF NOT EXISTS osprey_logbook_fts_update AFTER UPDATE OF search_text"
    " ON osprey_logbook BEGIN"
    " INSERT INTO osprey_logbook_fts (osprey_logbook_fts, rowid, search_text)"
    " VALUES ('delete', old.id, old.search_text);"
    " INSERT INTO osprey_logbook_fts (rowid, search_text) VALUES (new.id, new.search_text);"
    " END",
    """
    CREATE TABLE IF NOT EXISTS osprey_logbook_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time REAL NOT NULL,
        operator TEXT NOT NULL,
        kind TEXT NOT NULL,
        thread_id TEXT,
        entry_id INTEGER,
        what TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT
    )
    """,
    "CREATE TRIGGER IF NOT EXISTS osprey_logbook_events_no_update BEFORE UPDATE ON"
    " osprey_logbook_events BEGIN SELECT RAISE(ABORT, 'the logbook record is append-only');"
    " END",
    "CREATE TRIGGER IF NOT EXISTS osprey_logbook_events_no_delete BEFORE DELETE ON"
    " osprey_logbook_events BEGIN SELECT RAISE(ABORT, 'the logbook record is append-only');"
    " END",
    "CREATE TRIGGER IF NOT EXISTS osprey_logbook_no_delete BEFORE DELETE ON osprey_logbook"
    " BEGIN SELECT RAISE(ABORT, 'logbook entries cannot be deleted'); END",
)


class SqliteLogbook(SqlLogbook):
    """The logbook in a SQLite file (the conversation database, or its own file)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path).expanduser()
        self.where = f"the logbook in {self.path}"

    def _exists(self) -> bool:
        """Reading never creates the file, nor the tables in a database without them."""
        if not self.path.exists():
            return False
        if self._ready:
            return True
        try:
            conn = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro", uri=True)
            try:
                found = conn.execute(
                    "SELECT 1 FROM sqlite_master WHERE name = 'osprey_logbook'"
                ).fetchone()
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise LogbookError(f"cannot read {self.where}: {exc}") from exc
        return found is not None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=5.0)
        except (OSError, sqlite3.Error) as exc:
            raise LogbookError(f"cannot open {self.where}: {exc}") from exc
        try:
            yield conn
        except sqlite3.Error as exc:
            conn.rollback()
            raise LogbookError(f"{self.where} cannot be used: {exc}") from exc
        finally:
            conn.close()

    def _prepare(self, conn: sqlite3.Connection) -> None:
        with conn:
            for statement in _SQLITE_SCHEMA:
                conn.execute(statement)

    def _insert_id(self, conn: Any, sql: str, params: tuple[Any, ...]) -> int:
        return int(conn.execute(sql, params).lastrowid or 0)

    def _match(
        self, conn: Any, terms: Sequence[str], every: bool, since: float | None, limit: int
    ) -> list[tuple[int, float]]:
        query = (" AND " if every else " OR ").join(f'"{t}"' for t in terms)
        sql = (
            "SELECT l.id, -bm25(osprey_logbook_fts) FROM osprey_logbook_fts"
            " JOIN osprey_logbook l ON l.id = osprey_logbook_fts.rowid"
            " WHERE osprey_logbook_fts MATCH ? AND l.status NOT IN ('draft', 'discarded')"
        )
        params: list[Any] = [query]
        if since is not None:
            sql += " AND l.created_at >= ?"
            params.append(since)
        sql += " ORDER BY l.created_at DESC LIMIT ?"
        params.append(limit)
        return [(int(r[0]), float(r[1])) for r in conn.execute(sql, params).fetchall()]


__all__ = ["SqliteLogbook"]
