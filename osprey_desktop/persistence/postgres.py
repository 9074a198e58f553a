"""Conversations in a PostgreSQL database that several consoles share.

A ``postgresql://`` URL in ``--db`` or ``file_paths.checkpoint_db`` puts the threads
(``AsyncPostgresSaver``, their contexts as shared chunks in ``osprey_context_chunks`` and
``osprey_context_roots``), the approval ledger (``osprey_approvals``,
``osprey_deleted_threads``) and the audit log (``osprey_audit_log``) in one database. Every
console pointed at it sees the same threads and pending approvals, and the claim that makes an
approval answered once and carried out once is a row of that database: the same conditional
statements as on SQLite, whose row locks decide between consoles.

psycopg and the PostgreSQL saver are imported only when a URL is used: a console on SQLite
does not pay for them.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

from osprey_desktop.persistence.statements import Executor, StatementResult
from osprey_desktop.persistence.storage_errors import CheckpointDatabaseError, damaged_row_error
from osprey_desktop.persistence.transcript import POSTGRES_SCHEMA as TRANSCRIPT_SCHEMA

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

URL_SCHEMES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT_SECONDS = 10
"""How long a console waits for the server before it says the database cannot be reached."""
SCHEMA_LOCK_KEY = 0x4F535052  # "OSPR": serialises schema creation between consoles

#: The tables Osprey Desktop adds beside LangGraph's. Times are seconds since the epoch in
#: DOUBLE PRECISION (PostgreSQL's REAL has 24 bits: a timestamp would lose its seconds).
SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS osprey_approvals (
        approval_id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        payload TEXT,
        asked_at DOUBLE PRECISION NOT NULL,
        expires_at DOUBLE PRECISION,
        answer INTEGER,
        answered_at DOUBLE PRECISION,
        answered_by TEXT,
        owner TEXT,
        sent_at DOUBLE PRECISION,
        results TEXT,
        note TEXT,
        updated_at DOUBLE PRECISION NOT NULL
    )
    """,
    "CREATE INDEX IF NOT EXISTS osprey_approvals_thread ON osprey_approvals (thread_id)",
    """
    CREATE TABLE IF NOT EXISTS osprey_deleted_threads (
        thread_id TEXT PRIMARY KEY,
        deleted_at DOUBLE PRECISION NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS osprey_audit_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        time DOUBLE PRECISION NOT NULL,
        thread_id TEXT,
        operator TEXT NOT NULL,
        channel TEXT NOT NULL,
        value_before TEXT,
        requested_value TEXT,
        readback_after TEXT,
        outcome TEXT NOT NULL,
        approval_id TEXT,
        message TEXT,
        connector TEXT
    )
    """,
    # Append-only: changing or removing history fails inside the database, whoever asks.
    """
    CREATE OR REPLACE FUNCTION osprey_audit_log_append_only() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the audit log is append-only: entries cannot be changed or deleted';
    END
    $$
    """,
    "CREATE OR REPLACE TRIGGER osprey_audit_log_no_change BEFORE UPDATE OR DELETE ON"
    " osprey_audit_log FOR EACH ROW EXECUTE FUNCTION osprey_audit_log_append_only()",
    "CREATE OR REPLACE TRIGGER osprey_audit_log_no_truncate BEFORE TRUNCATE ON"
    " osprey_audit_log FOR EACH STATEMENT EXECUTE FUNCTION osprey_audit_log_append_only()",
    # The context dictionary as shared chunks (persistence.context_chunks_postgres).
    """
    CREATE TABLE IF NOT EXISTS osprey_context_chunks (
        hash BYTEA PRIMARY KEY,
        kind INTEGER NOT NULL,
        type TEXT NOT NULL,
        data BYTEA NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS osprey_context_roots (
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        root BYTEA NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    )
    """,
    # Every message of every thread, beside the recent ones the state keeps (transcript.py).
    *TRANSCRIPT_SCHEMA,
)


def is_postgres_url(value: Any) -> bool:
    """True for ``postgresql://...`` and ``postgres://...`` (a Path never is one)."""
    return isinstance(value, str) and value.strip().lower().startswith(URL_SCHEMES)


def redact(url: str) -> str:
    """The URL without its password (in the user part or as ``?password=``), for messages."""
    parts = urlsplit(url)
    if parts.password is not None:
        host = parts.netloc.rpartition("@")[2]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    query = re.sub(r"(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    return urlunsplit(parts._replace(query=query))


@dataclass(frozen=True)
class PostgresDatabase:
    """Where a shared conversation database is: what ``--db`` names when it is a URL.

    Shown (``str``) without its password. ``exists()`` is True: a database on a server is not
    a file that may be missing; an unreachable server is reported when the session opens.
    """

    url: str = field(repr=False)

    def __post_init__(self) -> None:
        if not is_postgres_url(self.url):
            raise ValueError(f"not a PostgreSQL URL: {redact(self.url)!r}")

    def exists(self) -> bool:
        return True

    def __str__(self) -> str:
        return redact(self.url)

    def __repr__(self) -> str:
        return f"PostgresDatabase({str(self)!r})"


def conversation_database(
    value: str | Path | PostgresDatabase | None = None, config: Any = None
) -> Path | PostgresDatabase:
    """The conversation database that ``value`` (``--db``) or ``file_paths.checkpoint_db`` names.

    A URL is kept as it is (a ``Path`` would fold its ``//``); anything else is a file.
    """
    if isinstance(value, PostgresDatabase):
        return value
    if value is not None and str(value):
        if is_postgres_url(value):
            return PostgresDatabase(str(value).strip())
        return Path(value).expanduser().absolute()
    from osprey_desktop.config import get_checkpoint_db_path, get_config

    cfg = config if config is not None else get_config()
    configured = cfg.file_paths.checkpoint_db
    if is_postgres_url(configured):
        return PostgresDatabase(configured.strip())
    return get_checkpoint_db_path(cfg).absolute()


# -- errors ------------------------------------------------------------------------------------


def describe_postgres_error(
    db: PostgresDatabase | str, exc: BaseException
) -> CheckpointDatabaseError:
    """One clear error for a failure of the shared database: unreachable, refused, full..."""
    import psycopg
    from psycopg import errors

    if isinstance(exc, CheckpointDatabaseError):
        return exc
    where = str(db) if isinstance(db, PostgresDatabase) else redact(str(db))
    text = " ".join(str(exc).split())
    detail = f"{type(exc).__name__}: {text or type(exc).__name__}"
    # A failed connection carries no SQLSTATE: the server's words say what was refused.
    refused_login = any(
        words in text
        for words in ("password authentication failed", "no pg_hba.conf entry", 'role "')
    )
    if refused_login or isinstance(
        exc,
        errors.InvalidPassword
        | errors.InvalidAuthorizationSpecification
        | errors.InsufficientPrivilege,
    ):
        kind = "permissions"
        problem = (
            f"the server refused this user ({detail}); check the user name and password in "
            "the URL and the user's rights on the database"
        )
    elif isinstance(exc, errors.InvalidCatalogName) or (
        'database "' in text and "does not exist" in text
    ):
        kind = "unusable"
        problem = f"no such database on the server ({detail}); create it first (createdb NAME)"
    elif isinstance(exc, errors.DiskFull | errors.OutOfMemory):
        kind = "full"
        problem = f"the database server is out of space ({detail}); free some, then try again"
    elif isinstance(
        exc, errors.LockNotAvailable | errors.DeadlockDetected | errors.SerializationFailure
    ):
        kind = "locked"
        problem = f"locked by another session ({detail}); try again"
    elif isinstance(exc, psycopg.OperationalError):
        kind = "unreachable"
        problem = (
            f"the server cannot be reached ({detail}); check that PostgreSQL runs and that "
            "the host and port in the URL are right"
        )
    else:
        kind = "unusable"
        problem = f"PostgreSQL failed ({detail})"
    return CheckpointDatabaseError(where, problem, kind)


@contextmanager
def _mapped(
    db: PostgresDatabase | str, thread_id: str | None = None, *, reading: bool
) -> Iterator[None]:
    import psycopg

    try:
        yield
    except CheckpointDatabaseError:
        raise
    except psycopg.Error as exc:
        raise describe_postgres_error(db, exc) from exc
    except (ValueError, TypeError, KeyError, IndexError, EOFError, OverflowError) as exc:
        if not reading:
            raise  # a value that cannot be serialised is the caller's bug, not damage
        raise damaged_row_error(str(db), exc, thread_id) from exc


# -- the saver ---------------------------------------------------------------------------------


def _saver_class() -> type[AsyncPostgresSaver]:
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    class GuardedPostgresSaver(AsyncPostgresSaver):
        """``AsyncPostgresSaver`` whose failures are ``CheckpointDatabaseError``s."""

        database: PostgresDatabase

        async def setup(self) -> None:
            with _mapped(self.database, reading=False):
                await super().setup()

        async def aget_tuple(self, config: Any) -> Any:
            with _mapped(self.database, _thread_of(config), reading=True):
                return await super().aget_tuple(config)

        async def alist(self, config: Any, **kwargs: Any) -> AsyncIterator[Any]:
            rows = super().alist(config, **kwargs)
            while True:
                with _mapped(self.database, _thread_of(config), reading=True):
                    try:
                        item = await anext(rows)
                    except StopAsyncIteration:
                        return
                yield item

        async def aget_delta_channel_history(self, *, config: Any, channels: Any) -> Any:
            with _mapped(self.database, _thread_of(config), reading=True):
                return await super().aget_delta_channel_history(config=config, channels=channels)

        async def aput(self, config: Any, *args: Any, **kwargs: Any) -> Any:
            with _mapped(self.database, reading=False):
                return await super().aput(config, *args, **kwargs)

        async def aput_writes(self, config: Any, *args: Any, **kwargs: Any) -> None:
            with _mapped(self.database, reading=False):
                await super().aput_writes(config, *args, **kwargs)

        async def adelete_thread(self, thread_id: str) -> None:
            with _mapped(self.database, reading=False):
                await super().adelete_thread(thread_id)

    return GuardedPostgresSaver


def _thread_of(config: Any) -> str | None:
    thread_id = ((config or {}).get("configurable") or {}).get("thread_id")
    return None if thread_id is None else str(thread_id)


def is_postgres_saver(saver: Any) -> bool:
    """True for a LangGraph PostgreSQL saver (checked without importing it when unused)."""
    return any(
        cls.__name__ == "AsyncPostgresSaver" and cls.__module__.startswith("langgraph.")
        for cls in type(saver).__mro__
    )


def database_of(saver: Any) -> PostgresDatabase:
    """The database a PostgreSQL saver stores in, password included (for new connections).

    A saver opened here knows it; one built elsewhere is asked for its connection's
    parameters.
    """
    database = getattr(saver, "database", None)
    if isinstance(database, PostgresDatabase):
        return database
    from psycopg.conninfo import conninfo_to_dict

    conn = saver.conn
    if hasattr(conn, "info"):
        params = {k: v for k, v in conn.info.get_parameters().items() if v}
        if conn.info.password:
            params["password"] = conn.info.password
    else:  # a connection pool
        params = {k: str(v) for k, v in conninfo_to_dict(conn.conninfo).items() if v}
    host = params.pop("host", "127.0.0.1")
    port = params.pop("port", "5432")
    dbname = quote(params.pop("dbname", ""), safe="")
    user = quote(params.pop("user", ""), safe="")
    password = params.pop("password", None)
    auth = f"{user}:{quote(password, safe='')}@" if password else (f"{user}@" if user else "")
    query = f"?{urlencode(params)}" if params else ""
    return PostgresDatabase(f"postgresql://{auth}{host}:{port}/{dbname}{query}")


async def connect(db: PostgresDatabase) -> Any:
    """An autocommit ``AsyncConnection``: every statement is its own transaction."""
    from psycopg import AsyncConnection
    from psycopg.rows import dict_row

    with _mapped(db, reading=False):
        return await AsyncConnection.connect(
            db.url,
            autocommit=True,
            prepare_threshold=0,
            row_factory=dict_row,
            connect_timeout=CONNECT_TIMEOUT_SECONDS,
        )


async def prepare_schema(conn: Any) -> None:
    """Create Osprey Desktop's tables, one console at a time (concurrent ``CREATE ... IF NOT
    EXISTS`` of one table can fail in PostgreSQL), in one transaction."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
        for statement in SCHEMA:
            await conn.execute(statement)


def prepare_schema_sync(conn: Any) -> None:
    """``prepare_schema`` on a synchronous connection (the audit log's)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
        for statement in SCHEMA:
            conn.execute(statement)


@asynccontextmanager
async def open_postgres_checkpointer(
    db: PostgresDatabase, *, serde: Any = None
) -> AsyncIterator[AsyncPostgresSaver]:
    """A set-up PostgreSQL saver on ``db`` (our tables too), closed with the context.

    LangGraph's migrations are not safe to run from two consoles at once on a new database,
    so they run under the same advisory lock as our schema.
    """
    conn = await connect(db)
    try:
        saver = _saver_class()(conn, serde=serde)
        saver.database = db
        with _mapped(db, reading=False):
            await conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
            try:
                await saver.setup()
            finally:
                await conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK_KEY,))
            await prepare_schema(conn)
        saver.schema_ready = True
        yield saver
    finally:
        await conn.close()


# -- plain SQL on the saver's connection ----------------------------------------------------------


async def fetchall(saver: Any, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of one read on the saver's connection (under its lock), as tuples."""
    result = await execute(saver, sql, params)
    return result[0]


async def execute(
    saver: Any, sql: str, params: Sequence[Any] = ()
) -> tuple[list[tuple[Any, ...]], int]:
    """One statement, its own transaction, on the saver's connection: (rows, rowcount)."""
    from langgraph.checkpoint.postgres import _ainternal
    from psycopg.rows import tuple_row

    with _mapped(getattr(saver, "database", None) or "PostgreSQL", reading=False):
        async with (
            saver.lock,
            _ainternal.get_connection(saver.conn) as conn,
            conn.cursor(row_factory=tuple_row) as cursor,
        ):
            await cursor.execute(sql, tuple(params))
            rows = await cursor.fetchall() if cursor.description is not None else []
            return [tuple(r) for r in rows], cursor.rowcount


_QMARK = re.compile(r"\?")


def postgres_statements(saver: Any) -> tuple[Executor, Callable[[], Awaitable[None]]]:
    """What the approval ledger needs of the saver's database: ``(execute, prepare)``.

    ``execute`` runs the ledger's statements with PostgreSQL's ``%s`` placeholders, each one
    its own transaction on the saver's connection; ``prepare`` creates the tables.
    """

    async def run(sql: str, params: tuple[Any, ...]) -> StatementResult:
        rows, count = await execute(saver, _QMARK.sub("%s", sql), params)
        return StatementResult(rows, count)

    async def prepare() -> None:
        from langgraph.checkpoint.postgres import _ainternal

        if getattr(saver, "schema_ready", False):
            return  # open_postgres_checkpointer made the tables
        with _mapped(getattr(saver, "database", None) or "PostgreSQL", reading=False):
            async with saver.lock, _ainternal.get_connection(saver.conn) as conn:
                await prepare_schema(conn)

    return run, prepare


__all__ = [
    "SCHEMA",
    "PostgresDatabase",
    "conversation_database",
    "database_of",
    "describe_postgres_error",
    "execute",
    "fetchall",
    "is_postgres_saver",
    "is_postgres_url",
    "open_postgres_checkpointer",
    "postgres_statements",
    "prepare_schema",
    "prepare_schema_sync",
    "redact",
]
