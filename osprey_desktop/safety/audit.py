"""The append-only audit log of every write attempt, in SQLite.

Every write Osprey Desktop is asked to make is recorded, whatever happened to it: ``written``
(sent to the machine), ``rejected`` (the operator said no), ``refused`` (the write policy said
no) or ``failed`` (the machine said no, or the connection broke). SQLite triggers abort any
UPDATE or DELETE, so history cannot be rewritten through SQL. Values are stored as JSON text so
numbers, strings and arrays keep their type.

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
import getpass
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from osprey_desktop.connectors.base import jsonable

Outcome = Literal["written", "rejected", "refused", "failed"]
OUTCOMES: tuple[str, ...] = ("written", "rejected", "refused", "failed")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time REAL NOT NULL,
    thread_id TEXT,
    operator TEXT NOT NULL,
    channel TEXT NOT NULL,
    value_before TEXT,
    requested_value TEXT,
    readback_after TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('written', 'rejected', 'refused', 'failed')),
    approval_id TEXT,
    message TEXT,
    connector TEXT
);
CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be changed'); END;
CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be deleted'); END;
"""


class AuditError(Exception):
    """The audit log cannot be opened or written."""


@dataclass(frozen=True)
class AuditEntry:
    id: int
    time: float
    thread_id: str | None
    operator: str
    channel: str
    value_before: Any
    requested_value: Any
    readback_after: Any
    outcome: str
    approval_id: str | None
    message: str | None
    connector: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def current_operator() -> str:
    """The login name of the person running the app."""
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry / no env (containers): still record something
        return "unknown"


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(jsonable(value))


def _load(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _where_the_log_is() -> str:
    """Where the real audit log is, for errors about a file that is not one."""
    try:
        from osprey_desktop.config import get_audit_db_path

        default = str(get_audit_db_path())
    except Exception:  # a broken config must not hide the error being reported
        default = "<data folder>/audit.sqlite"
    return f"the audit log is file_paths.audit_db, by default {default}"


class AuditLog:
    """Append-only write log in one SQLite file (created with its folder on first use)."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = Path(db_path).expanduser()
        self._lock = threading.Lock()
        self._ready = False

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A read-write connection; creates the file, its folder and the schema on first use."""
        try:
            if not self._ready:
                self.db_path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.db_path, timeout=10.0)
        except (OSError, sqlite3.Error) as exc:
            raise AuditError(
                f"Cannot open the audit log {self.db_path}: {exc}. Check file_paths.audit_db "
                "and the folder's permissions."
            ) from exc
        try:
            if not self._ready:
                try:
                    conn.executescript(_SCHEMA)
                except sqlite3.Error as exc:
                    raise AuditError(
                        f"{self.db_path} is not a usable audit log ({exc}). Point "
                        "file_paths.audit_db at a new file; keep this one for inspection."
                    ) from exc
                self._ready = True
            yield conn
        finally:
            conn.close()

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
        if outcome not in OUTCOMES:
            raise ValueError(f"audit outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
        row = (
            time.time() if when is None else when,
            thread_id,
            operator or current_operator(),
            channel,
            _dump(value_before),
            _dump(requested_value),
            _dump(readback_after),
            outcome,
            approval_id,
            message,
            connector,
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
                raise AuditError(f"Cannot write to the audit log {self.db_path}: {exc}") from exc
            return int(cursor.lastrowid or 0)

    async def arecord(self, **fields: Any) -> int:
        """``record`` in a worker thread, so the event loop never waits on the disk."""
        return await asyncio.to_thread(lambda: self.record(**fields))

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
        out = [
            AuditEntry(
                id=r[0],
                time=r[1],
                thread_id=r[2],
                operator=r[3],
                channel=r[4],
                value_before=_load(r[5]),
                requested_value=_load(r[6]),
                readback_after=_load(r[7]),
                outcome=r[8],
                approval_id=r[9],
                message=r[10],
                connector=r[11],
            )
            for r in rows
        ]
        out.reverse()
        return out
