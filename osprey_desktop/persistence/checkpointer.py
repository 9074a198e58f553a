"""Open the SQLite checkpoint database safely: refuse, never repair or overwrite.

``AsyncSqliteSaver`` happily runs ``CREATE TABLE`` on whatever file it is given, and SQLite
turns a zero-length file into a database. An operator's conversation history must never be
replaced that way, so the file is inspected read-only first and any doubt is a clear error.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

SQLITE_HEADER = b"SQLite format 3\x00"
SAVER_TABLES: dict[str, frozenset[str]] = {
    "checkpoints": frozenset(
        {"thread_id", "checkpoint_ns", "checkpoint_id", "parent_checkpoint_id", "checkpoint"}
    ),
    "writes": frozenset({"thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "channel"}),
}
_WHAT_NEXT = "it was left untouched; move it away or pass --db with another file"


class CheckpointDatabaseError(Exception):
    """The conversation database cannot be used; ``str()`` says which file and what to do."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"conversation database {self.path}: {problem}")


def check_database_file(path: Path) -> None:
    """Raise ``CheckpointDatabaseError`` unless ``path`` is absent, empty or our SQLite file.

    Reads only: the header, the schema and the columns of the saver's tables. A page that is
    damaged deeper in the file surfaces later as a SQLite error, which callers wrap the same way.
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
        raise CheckpointDatabaseError(path, f"cannot open it read-only ({exc})") from exc
    try:
        tables = {
            name: {row[1] for row in conn.execute(f"PRAGMA table_info('{name}')")}
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.Error as exc:
        raise CheckpointDatabaseError(
            path, f"the database is corrupt ({exc}); {_WHAT_NEXT}"
        ) from exc
    finally:
        conn.close()
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


@asynccontextmanager
async def open_checkpointer(db_path: str | Path) -> AsyncIterator[AsyncSqliteSaver]:
    """An ``AsyncSqliteSaver`` on ``db_path``, set up and closed with the context.

    Open it inside the coroutine of the loop that will use it (the saver captures the running
    loop) and leave the context before that loop ends.
    """
    path = Path(db_path).expanduser().absolute()
    # Sync file and SQLite reads (up to a 5 s busy wait): off the loop, which may be the UI's.
    await asyncio.to_thread(check_database_file, path)
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    try:
        conn = await aiosqlite.connect(str(path), timeout=10.0)
    except sqlite3.Error as exc:
        raise CheckpointDatabaseError(path, f"cannot open it ({exc})") from exc
    try:
        saver = AsyncSqliteSaver(conn)
        try:
            await saver.setup()
        except sqlite3.Error as exc:
            raise CheckpointDatabaseError(path, f"cannot prepare its tables ({exc})") from exc
        yield saver
    finally:
        await conn.close()


__all__ = ["CheckpointDatabaseError", "check_database_file", "open_checkpointer"]
