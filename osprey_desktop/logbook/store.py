"""The local logbook: entries, their attachments and an append-only record of what was done.

It lives in the conversation database, beside the threads: a SQLite file (full-text search
with FTS5: ``logbook.store_sqlite``) or the consoles' shared PostgreSQL database
(``logbook.store_postgres``: a ``tsvector`` column, so every console sees and searches every
entry). Both index the same ``search_text``: title, text, channels and tags with punctuation
turned into spaces, so a PV name ``SR01C:HCM01:Current:SP`` is found by "HCM01" in either.

``osprey_logbook_events`` is the logbook's audit: who composed, published, discarded or
retried an entry, and who asked for an undo, with the outcome. Triggers refuse any change
or deletion of it, as for the write audit log.

Methods are synchronous (short statements); callers on an event loop use
``asyncio.to_thread``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from osprey_desktop.logbook.entries import Attachment, LogbookEntry

#: What the events table accepts as ``kind``.
EVENT_KINDS = ("entry", "undo")

_ENTRY_COLUMNS = (
    "id, created_at, author, title, text, logbook, tags, channels, thread_id, status,"
    " remote_id, publish_error, approval_id"
)
_EVENT_COLUMNS = "id, time, operator, kind, thread_id, entry_id, what, outcome, detail"
#: Fields an operator may still change while the entry is a draft.
_EDITABLE = ("title", "text", "logbook", "tags")
_TERM = re.compile(r"[^\W_]+", re.UNICODE)


class LogbookError(Exception):
    """The logbook cannot be read or written (the message says which and why)."""


@dataclass(frozen=True)
class LogbookEvent:
    """One row of the logbook's audit."""

    id: int
    time: float
    operator: str
    kind: str
    thread_id: str | None
    entry_id: int | None
    what: str
    outcome: str
    detail: str | None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class SearchHit:
    """An entry that matched, with how well (higher is better) and whether all words did."""

    entry: LogbookEntry
    score: float
    all_terms: bool


def search_text(title: str, text: str, channels: Sequence[str], tags: Sequence[str]) -> str:
    """The words both engines index: everything a search may name, punctuation removed."""
    joined = " ".join([title, text, " ".join(channels), " ".join(tags)])
    return " ".join(_TERM.findall(joined.replace(":", " ")))


def search_terms(words: str) -> list[str]:
    """Plain lower-case words of a query (what each engine's query language can take)."""
    return list(dict.fromkeys(w.lower() for w in _TERM.findall(words)))


def _entry_of_row(row: Sequence[Any], attachments: Sequence[Attachment] = ()) -> LogbookEntry:
    return LogbookEntry(
        id=int(row[0]),
        created_at=float(row[1]),
        author=row[2] or "",
        title=row[3],
        text=row[4],
        logbook=row[5],
        tags=tuple(json.loads(row[6] or "[]")),
        channels=tuple(json.loads(row[7] or "[]")),
        thread_id=row[8],
        status=row[9],
        remote_id=row[10],
        publish_error=row[11],
        approval_id=row[12],
        attachments=tuple(attachments),
    )


def _event_of_row(row: Sequence[Any]) -> LogbookEvent:
    return LogbookEvent(
        id=int(row[0]),
        time=float(row[1]),
        operator=row[2],
        kind=row[3],
        thread_id=row[4],
        entry_id=None if row[5] is None else int(row[5]),
        what=row[6],
        outcome=row[7],
        detail=row[8],
    )


class SqlLogbook:
    """What both engines share; subclasses give ``_connect``, ``_prepare`` and ``_match``."""

    placeholder = "?"
    where = "the logbook"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready = False

    # -- engine hooks ----------------------------------------------------------------------

    @contextmanager
    def _connect(self) -> Iterator[Any]:  # pragma: no cover - overridden
        raise NotImplementedError
        yield

    def _prepare(self, conn: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _match(
        self, conn: Any, terms: Sequence[str], every: bool, since: float | None, limit: int
    ) -> list[tuple[int, float]]:  # pragma: no cover - overridden
        raise NotImplementedError

    def _exists(self) -> bool:
        return True

    # -- plumbing --------------------------------------------------------------------------

    def _sql(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    @contextmanager
    def _ready_connection(self) -> Iterator[Any]:
        with self._lock, self._connect() as conn:
            if not self._ready:
                self._prepare(conn)
                self._ready = True
            yield conn

    def _insert_id(self, conn: Any, sql: str, params: tuple[Any, ...]) -> int:
        raise NotImplementedError  # pragma: no cover - overridden

    # -- entries ---------------------------------------------------------------------------

    def add(self, entry: LogbookEntry) -> LogbookEntry:
        """Store a new entry with its attachments; returns it with its id."""
        params = (
            entry.created_at,
            entry.author,
            entry.title,
            entry.text,
            entry.logbook,
            json.dumps(list(entry.tags)),
            json.dumps(list(entry.channels)),
            entry.thread_id,
            entry.status,
            entry.remote_id,
            entry.publish_error,
            entry.approval_id,
            search_text(entry.title, entry.text, entry.channels, entry.tags),
        )
        with self._ready_connection() as conn:
            entry_id = self._insert_id(
                conn,
                "INSERT INTO osprey_logbook (created_at, author, title, text, logbook, tags,"
                " channels, thread_id, status, remote_id, publish_error, approval_id,"
                " search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                params,
            )
            for position, attachment in enumerate(entry.attachments):
                conn.execute(
                    self._sql(
                        "INSERT INTO osprey_logbook_attachments (entry_id, position, filename,"
                        " content_type, data) VALUES (?, ?, ?, ?, ?)"
                    ),
                    (
                        entry_id,
                        position,
                        attachment.filename,
                        attachment.content_type,
                        attachment.data,
                    ),
                )
            self._commit(conn)
        return entry.with_changes(id=entry_id)

    def _commit(self, conn: Any) -> None:
        conn.commit()

    def get(self, entry_id: int) -> LogbookEntry | None:
        if not self._exists():
            return None
        with self._ready_connection() as conn:
            row = conn.execute(
                self._sql(f"SELECT {_ENTRY_COLUMNS} FROM osprey_logbook WHERE id = ?"),
                (int(entry_id),),
            ).fetchone()
            if row is None:
                return None
            files = conn.execute(
                self._sql(
                    "SELECT filename, content_type, data FROM osprey_logbook_attachments"
                    " WHERE entry_id = ? ORDER BY position"
                ),
                (int(entry_id),),
            ).fetchall()
        return _entry_of_row(row, [Attachment(f[0], f[1], bytes(f[2])) for f in files])

    def entries(
        self, limit: int | None = 50, statuses: Sequence[str] | None = None
    ) -> list[LogbookEntry]:
        """The newest ``limit`` entries (all when None), newest first, without attachments."""
        if not self._exists():
            return []
        sql = f"SELECT {_ENTRY_COLUMNS} FROM osprey_logbook"
        params: list[Any] = []
        if statuses:
            sql += f" WHERE status IN ({', '.join('?' for _ in statuses)})"
            params += list(statuses)
        sql += " ORDER BY created_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        with self._ready_connection() as conn:
            rows = conn.execute(self._sql(sql), tuple(params)).fetchall()
        return [_entry_of_row(r) for r in rows]

    def update(
        self, entry_id: int, *, from_statuses: Sequence[str] | None = None, **changes: Any
    ) -> bool:
        """Change an entry's status, remote id, error, or (while a draft) its words.

        ``from_statuses``: only when the entry is in one of them (one process wins a
        publish). Returns whether a row changed.
        """
        allowed = {"status", "remote_id", "publish_error", *_EDITABLE}
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"cannot change {', '.join(sorted(unknown))} of a logbook entry")
        edits = set(changes) & set(_EDITABLE)
        if edits and from_statuses is None:
            from_statuses = ("draft",)
        if edits and set(from_statuses or ()) - {"draft"}:
            raise ValueError("only a draft's title, text, logbook and tags can be edited")
        sets, params = [], []
        for key, value in changes.items():
            sets.append(f"{key} = ?")
            params.append(json.dumps(list(value)) if key == "tags" else value)
        with self._ready_connection() as conn:
            if edits:
                current = self._row(conn, entry_id)
                if current is None:
                    return False
                merged = {**current.__dict__, **changes}
                sets.append("search_text = ?")
                params.append(
                    search_text(merged["title"], merged["text"], merged["channels"], merged["tags"])
                )
            sql = f"UPDATE osprey_logbook SET {', '.join(sets)} WHERE id = ?"
            params.append(int(entry_id))
            if from_statuses:
                sql += f" AND status IN ({', '.join('?' for _ in from_statuses)})"
                params += list(from_statuses)
            count = conn.execute(self._sql(sql), tuple(params)).rowcount
            self._commit(conn)
        return count == 1

    def add_attachment(self, entry_id: int, attachment: Attachment) -> bool:
        """Attach a file to a draft (a screenshot taken while confirming); False otherwise."""
        with self._ready_connection() as conn:
            current = self._row(conn, entry_id)
            if current is None or current.status != "draft":
                return False
            (count,) = conn.execute(
                self._sql("SELECT COUNT(*) FROM osprey_logbook_attachments WHERE entry_id = ?"),
                (int(entry_id),),
            ).fetchone()
            conn.execute(
                self._sql(
                    "INSERT INTO osprey_logbook_attachments (entry_id, position, filename,"
                    " content_type, data) VALUES (?, ?, ?, ?, ?)"
                ),
                (
                    int(entry_id),
                    int(count),
                    attachment.filename,
                    attachment.content_type,
                    attachment.data,
                ),
            )
            self._commit(conn)
        return True

    def _row(self, conn: Any, entry_id: int) -> LogbookEntry | None:
        row = conn.execute(
            self._sql(f"SELECT {_ENTRY_COLUMNS} FROM osprey_logbook WHERE id = ?"), (entry_id,)
        ).fetchone()
        return None if row is None else _entry_of_row(row)

    # -- search ----------------------------------------------------------------------------

    def search(self, words: str, *, since: float | None = None, limit: int = 20) -> list[SearchHit]:
        """Entries matching the words, those with every word first, each group newest first.

        Drafts and discarded entries are never results.
        """
        terms = search_terms(words)
        if not terms or not self._exists():
            return []
        with self._ready_connection() as conn:
            every = self._match(conn, terms, True, since, limit)
            some = self._match(conn, terms, False, since, limit) if len(terms) > 1 else []
            seen = {i for i, _ in every}
            ranked = [(i, s, True) for i, s in every] + [
                (i, s, False) for i, s in some if i not in seen
            ]
            ranked = ranked[:limit]
            rows = {}
            if ranked:
                marks = ", ".join("?" for _ in ranked)
                found = conn.execute(
                    self._sql(f"SELECT {_ENTRY_COLUMNS} FROM osprey_logbook WHERE id IN ({marks})"),
                    tuple(i for i, _, _ in ranked),
                ).fetchall()
                rows = {int(r[0]): _entry_of_row(r) for r in found}
            hits = [
                SearchHit(rows[i], score, every_term)
                for i, score, every_term in ranked
                if i in rows
            ]
        hits.sort(key=lambda h: (not h.all_terms, -h.entry.created_at))
        return hits

    # -- the logbook's audit ---------------------------------------------------------------

    def record_event(
        self,
        *,
        kind: str,
        what: str,
        outcome: str,
        operator: str,
        thread_id: str | None = None,
        entry_id: int | None = None,
        detail: str | None = None,
        when: float | None = None,
    ) -> int:
        """Append one event (who, when, what, outcome); returns its id."""
        if kind not in EVENT_KINDS:
            raise ValueError(f"logbook event kind must be one of {', '.join(EVENT_KINDS)}")
        params = (
            time.time() if when is None else when,
            operator,
            kind,
            thread_id,
            entry_id,
            what,
            outcome,
            detail,
        )
        with self._ready_connection() as conn:
            event_id = self._insert_id(
                conn,
                "INSERT INTO osprey_logbook_events (time, operator, kind, thread_id, entry_id,"
                " what, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                params,
            )
            self._commit(conn)
        return event_id

    def events(self, limit: int | None = 200, since: float | None = None) -> list[LogbookEvent]:
        """The newest events, newest first."""
        if not self._exists():
            return []
        sql = f"SELECT {_EVENT_COLUMNS} FROM osprey_logbook_events"
        params: list[Any] = []
        if since is not None:
            sql += " WHERE time >= ?"
            params.append(since)
        sql += " ORDER BY time DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        with self._ready_connection() as conn:
            rows = conn.execute(self._sql(sql), tuple(params)).fetchall()
        return [_event_of_row(r) for r in rows]


__all__ = [
    "EVENT_KINDS",
    "LogbookError",
    "LogbookEvent",
    "SearchHit",
    "SqlLogbook",
    "search_terms",
    "search_text",
]
