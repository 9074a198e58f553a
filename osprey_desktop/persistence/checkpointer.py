"""Open the SQLite checkpoint database safely: refuse, never repair or overwrite.

``AsyncSqliteSaver`` happily runs ``CREATE TABLE`` on whatever file it is given, and SQLite
turns a zero-length file into a database. An operator's conversation history must never be
replaced that way, so the file is inspected read-only first (header, schema and
``PRAGMA quick_check``) and any doubt is a clear error.

Every storage failure becomes one ``CheckpointDatabaseError`` whose message tells a locked
file, a full disk, a damaged file and a permission problem apart (``describe_sqlite_error``):
each needs a different action from the operator, and only damage calls for moving the file.
"""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from osprey_desktop.persistence.postgres import (
    PostgresDatabase,
    is_postgres_url,
    open_postgres_checkpointer,
)
from osprey_desktop.persistence.storage_errors import WHAT_NEXT as _WHAT_NEXT
from osprey_desktop.persistence.storage_errors import CheckpointDatabaseError, damaged_row_error

SQLITE_HEADER = b"SQLite format 3\x00"
SAVER_TABLES: dict[str, frozenset[str]] = {
    "checkpoints": frozenset(
        {"thread_id", "checkpoint_ns", "checkpoint_id", "parent_checkpoint_id", "checkpoint"}
    ),
    "writes": frozenset({"thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "channel"}),
}
BUSY_TIMEOUT_SECONDS = 10.0
"""How long a statement waits for another program's lock before the file counts as locked."""

# What a damaged checkpoint row raises while it is decoded (msgpack and JSON errors are
# ValueErrors); anything else from a read is a bug, not damage, and keeps its traceback.
_DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, EOFError, OverflowError)


def describe_sqlite_error(path: Path | str, exc: BaseException) -> CheckpointDatabaseError:
    """One clear error for a SQLite (or file-system) failure on the conversation database.

    Reads the primary result code of ``sqlite3.Error`` (``sqlite_errorcode`` & 0xFF, so
    extended codes such as SQLITE_BUSY_SNAPSHOT count as their family) or the errno of an
    ``OSError``; the message of the exception is kept in parentheses for the log.
    """
    if isinstance(exc, CheckpointDatabaseError):
        return exc
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, OSError) and exc.errno is not None:
        detail = f"{errno.errorcode.get(exc.errno, exc.errno)}: {exc.strerror or exc}"
        family = {
            errno.ENOSPC: "full",
            getattr(errno, "EDQUOT", errno.ENOSPC): "full",  # no EDQUOT on Windows
            errno.EACCES: "permissions",
            errno.EPERM: "permissions",
            errno.EROFS: "permissions",
        }.get(exc.errno, "io")
    elif isinstance(code, int):
        name = getattr(exc, "sqlite_errorname", None) or f"SQLite error {code}"
        detail = f"{name}: {exc}"
        family = {
            sqlite3.SQLITE_BUSY: "locked",
            sqlite3.SQLITE_LOCKED: "locked",
            sqlite3.SQLITE_FULL: "full",
            sqlite3.SQLITE_CORRUPT: "damaged",
            sqlite3.SQLITE_NOTADB: "damaged",
            sqlite3.SQLITE_READONLY: "permissions",
            sqlite3.SQLITE_PERM: "permissions",
            sqlite3.SQLITE_CANTOPEN: "permissions",
            sqlite3.SQLITE_AUTH: "permissions",
            sqlite3.SQLITE_IOERR: "io",
        }.get(code & 0xFF, "unusable")
    else:
        detail, family = str(exc) or type(exc).__name__, "unusable"
    problem = {
        "locked": f"locked by another program ({detail}); try again, or close the other "
        "program that has it open",
        "full": f"the disk is full ({detail}); free some space on it, then try again",
        "damaged": f"damaged ({detail}); {_WHAT_NEXT}",
        "permissions": f"cannot be opened or written ({detail}); check the permissions of "
        "the file and of its folder",
        "io": f"cannot be read or written ({detail}); check the disk it is on",
        "unusable": f"SQLite failed ({detail})",
    }[family]
    return CheckpointDatabaseError(path, problem, family)


def check_database_file(path: Path) -> None:
    """Raise ``CheckpointDatabaseError`` unless ``path`` is absent, empty or our SQLite file.

    Reads only: the header, the schema, the columns of the saver's tables and SQLite's
    ``quick_check`` of every page. Damage inside a row's data surfaces when the row is read.
    """
    if not path.exists():
        parent = path.parent
        if parent.exists() and not parent.is_dir():
            raise CheckpointDatabaseError(path, f"{parent} is not a folder")
        if parent.exists() and not os.access(parent, os.W_OK | os.X_OK):
            raise CheckpointDatabaseError(path, f"the folder {parent} is not writable")
        return
    if path.is_dir():
        raise CheckpointDatabaseError(path, "this is a folder, not a database file")
    if not os.access(path, os.R_OK):
        raise CheckpointDatabaseError(path, "the file is not readable (check its permissions)")
    if not os.access(path, os.W_OK):
        raise CheckpointDatabaseError(path, "the file is read-only (check its permissions)")
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise CheckpointDatabaseError(path, f"cannot read the file ({exc.strerror})") from exc
    if not header:
        return  # an empty file is what SQLite itself would create
    if header != SQLITE_HEADER:
        raise CheckpointDatabaseError(
            path, f"not a SQLite database (corrupt or another kind of file); {_WHAT_NEXT}"
        )
    _check_schema(path)


def _check_schema(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error as exc:
        raise describe_sqlite_error(path, exc) from exc
    try:
        tables = {
            name: {row[1] for row in conn.execute(f"PRAGMA table_info('{name}')")}
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        _check_tables(path, tables)
        if tables:
            _quick_check(path, conn)
    except sqlite3.Error as exc:
        raise describe_sqlite_error(path, exc) from exc
    finally:
        conn.close()


def _check_tables(path: Path, tables: dict[str, set[str]]) -> None:
    ours = {name for name in tables if name in SAVER_TABLES}
    if tables and not ours:
        listed = ", ".join(sorted(tables)[:5])
        raise CheckpointDatabaseError(
            path,
            f"a SQLite database of another program (tables: {listed}), not a conversation "
            f"database; {_WHAT_NEXT}",
        )
    for name in ours:
        missing = SAVER_TABLES[name] - tables[name]
        if missing:
            raise CheckpointDatabaseError(
                path,
                f"table '{name}' lacks columns {', '.join(sorted(missing))}; {_WHAT_NEXT}",
            )


def _quick_check(path: Path, conn: sqlite3.Connection) -> None:
    """Refuse a file whose pages are damaged before anything is appended to it.

    ``quick_check`` walks every b-tree page (not the index contents, unlike
    ``integrity_check``): on a 50 MB file about 30 ms with the file in the page cache and
    about 1 s from a cold cache on these machines. It cannot see damage inside a row's data;
    that surfaces when the row is decoded (``GuardedSqliteSaver``).
    """
    rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)")]
    if rows != ["ok"]:
        lines = [line for row in rows for line in row.splitlines() if "***" not in line]
        found = "; ".join(lines[:3])
        raise CheckpointDatabaseError(
            path, f"damaged (SQLite's quick_check found: {found}); {_WHAT_NEXT}", "damaged"
        )


class GuardedSqliteSaver(AsyncSqliteSaver):
    """``AsyncSqliteSaver`` whose storage failures are ``CheckpointDatabaseError``s.

    SQLite errors are described by ``describe_sqlite_error``; a row that SQLite returns but
    that cannot be decoded (damage inside a checkpoint's data) is reported as damage instead
    of a msgpack traceback.
    """

    def __init__(self, conn: aiosqlite.Connection, path: Path, **kwargs: Any) -> None:
        super().__init__(conn, **kwargs)
        self.db_path = path

    @contextmanager
    def _storage_errors(self, thread_id: str | None = None, *, reading: bool) -> Iterator[None]:
        try:
            yield
        except CheckpointDatabaseError:
            raise
        except (sqlite3.Error, OSError) as exc:
            raise describe_sqlite_error(self.db_path, exc) from exc
        except _DECODE_ERRORS as exc:
            if not reading:
                raise  # a value that cannot be serialised is a bug of the caller, not damage
            raise damaged_row_error(self.db_path, exc, thread_id) from exc

    async def setup(self) -> None:
        with self._storage_errors(reading=False):
            await super().setup()

    async def aget_tuple(self, config: Any) -> Any:
        with self._storage_errors(_thread_of(config), reading=True):
            return await super().aget_tuple(config)

    async def alist(self, config: Any, **kwargs: Any) -> AsyncIterator[Any]:
        rows = super().alist(config, **kwargs)
        while True:
            with self._storage_errors(_thread_of(config), reading=True):
                try:
                    item = await anext(rows)
                except StopAsyncIteration:
                    return
            yield item

    async def aget_delta_channel_history(self, *, config: Any, channels: Any) -> Any:
        with self._storage_errors(_thread_of(config), reading=True):
            return await super().aget_delta_channel_history(config=config, channels=channels)

    async def aput(self, config: Any, *args: Any, **kwargs: Any) -> Any:
        with self._storage_errors(reading=False):
            return await super().aput(config, *args, **kwargs)

    async def aput_writes(self, config: Any, *args: Any, **kwargs: Any) -> None:
        with self._storage_errors(reading=False):
            await super().aput_writes(config, *args, **kwargs)

    async def adelete_thread(self, thread_id: str) -> None:
        with self._storage_errors(reading=False):
            await super().adelete_thread(thread_id)


def _thread_of(config: Any) -> str | None:
    configurable = (config or {}).get("configurable") or {}
    thread_id = configurable.get("thread_id")
    return str(thread_id) if thread_id is not None else None


async def _probe_write_lock(conn: aiosqlite.Connection) -> None:
    """Take and release the write lock: a file another program holds locked is refused now,
    before a turn acts on the machine, not when the turn's checkpoint cannot be written."""
    await conn.execute("BEGIN IMMEDIATE")
    await conn.rollback()


@asynccontextmanager
async def open_checkpointer(db_path: str | Path | Any) -> AsyncIterator[Any]:
    """A ``GuardedSqliteSaver`` on ``db_path``, set up and closed with the context.

    A ``postgresql://`` URL (or a ``PostgresDatabase``) opens the shared PostgreSQL database
    instead (``persistence.postgres``). Open it inside the coroutine of the loop that will use
    it (the saver captures the running loop) and leave the context before that loop ends.
    """
    if is_postgres_url(db_path):
        db_path = PostgresDatabase(str(db_path).strip())
    if isinstance(db_path, PostgresDatabase):
        async with open_postgres_checkpointer(db_path) as saver:
            yield saver
        return
    path = Path(db_path).expanduser().absolute()
    # Sync file and SQLite reads (up to a 5 s busy wait, and quick_check): off the loop,
    # which may be the UI's.
    await asyncio.to_thread(check_database_file, path)
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    try:
        conn = await aiosqlite.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS)
    except (sqlite3.Error, OSError) as exc:
        raise describe_sqlite_error(path, exc) from exc
    try:
        saver = GuardedSqliteSaver(conn, path)
        await saver.setup()
        try:
            await _probe_write_lock(conn)
        except sqlite3.Error as exc:
            raise describe_sqlite_error(path, exc) from exc
        yield saver
    finally:
        await conn.close()


__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "CheckpointDatabaseError",
    "GuardedSqliteSaver",
    "check_database_file",
    "damaged_row_error",
    "describe_sqlite_error",
    "open_checkpointer",
]
