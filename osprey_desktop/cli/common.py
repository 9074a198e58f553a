"""What the headless commands share: exit codes, the database option, one-line errors, the
session runner and how a turn is reported.

Exit codes (``ask``, ``approve``, ``threads``, ``audit``): 0 done, 1 the turn or the database
failed, 2 bad usage or configuration, 3 an approval is pending (answer it with
``osprey-desktop approve``), 4 no such thread.

Only the standard library is imported at module level: ``--help`` and usage errors stay fast.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

PROG = "osprey-desktop"
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PENDING = 3
EXIT_NO_THREAD = 4


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="conversation database (default: file_paths.checkpoint_db, i.e. "
        "<data folder>/threads.sqlite; the data folder follows $OSPREY_DESKTOP_DATA_DIR)",
    )


def fail(command: str | None, message: str, code: int = EXIT_FAILED) -> int:
    """Print ``osprey-desktop <command>: <message>`` on stderr and return ``code``."""
    where = f"{PROG} {command}" if command else PROG
    print(f"{where}: {message}", file=sys.stderr)
    return code


def print_json(value: Any) -> None:
    """Machine-readable output: indented JSON, anything unusual shown as text."""
    print(json.dumps(value, indent=2, default=str))


def quiet_logging() -> None:
    """Errors reach the operator as one line each; log records would repeat them as tracebacks."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.CRITICAL, format="osprey-desktop: %(message)s")
        # A damaged saved state of the simulated ring is not an error, but the operator should
        # know why the ring came back at its nominal setpoints.
        logging.getLogger("osprey_desktop.connectors.sim_state").setLevel(logging.WARNING)


def database_path(db: str | None) -> Path:
    from osprey_desktop.config import get_checkpoint_db_path

    return Path(db).expanduser().absolute() if db else get_checkpoint_db_path()


def run_session(command: str, db: str | None, body: Callable[[Any], Awaitable[int]]) -> int:
    """Open the session on the database and run ``body(session)``; database errors -> exit 1."""
    from osprey_desktop.persistence import CheckpointDatabaseError
    from osprey_desktop.session import AgentSession

    quiet_logging()
    path = database_path(db)

    async def main() -> int:
        async with AgentSession.open(db_path=path) as session:
            return await body(session)

    try:
        return asyncio.run(main())
    except CheckpointDatabaseError as exc:
        return fail(command, str(exc))


async def missing_thread(session: Any, command: str, thread_id: str, hint: str = "") -> int | None:
    """``EXIT_NO_THREAD`` (after saying so) when the thread is not in the session's database."""
    if await session.thread_exists(thread_id):
        return None
    return fail(
        command,
        f"no thread '{thread_id}' in {session.db_path}; list them with '{PROG} threads'{hint}",
        EXIT_NO_THREAD,
    )


def no_database(command: str, thread_id: str, path: Path) -> int:
    """``EXIT_NO_THREAD`` (after saying so) when there is no conversation database at all."""
    return fail(
        command,
        f"no thread '{thread_id}': there is no conversation database at {path} yet",
        EXIT_NO_THREAD,
    )


def print_pending(result: Any) -> None:
    """What is to be approved, then how to answer it (stderr keeps stdout for the request)."""
    pending = result.pending_approval or {}
    print(pending.get("user_message") or "(the approval request has no message)")
    print(f"\nthread: {result.thread_id}")
    print(
        f"approval pending: answer with '{PROG} approve --thread {result.thread_id} "
        "yes' or '... no'",
        file=sys.stderr,
    )


EXIT_ONLY_MESSAGE = "nothing to run: /exit ends an interactive session"


def report_turn(result: Any, command: str, as_json: bool, thread_known: bool = True) -> int:
    """Print a TurnResult for a person or a script; returns the exit code.

    ``thread_known=False`` when the turn stopped before its thread was created (a bad slash
    command on a new thread): no thread id is named, since there is nothing to continue.
    """
    code = EXIT_OK
    if result.pending_approval is not None:
        code = EXIT_PENDING
    elif result.error is not None:
        code = EXIT_FAILED
    if as_json:
        data = result.to_dict()
        if not thread_known:
            data["thread_id"] = None
        print_json(data)
        return code
    if result.error is not None and result.pending_approval is not None:
        fail(command, str(result.error))
        print_pending(result)
        return code
    if result.error is not None:
        where = f" (thread {result.thread_id})" if thread_known else ""
        return fail(command, f"{result.error}{where}")
    if result.message:
        print(result.message)
    if result.exit_requested:
        print(EXIT_ONLY_MESSAGE)
    if result.pending_approval is not None:
        print_pending(result)
        return code
    if result.response:
        print(result.response)
    if result.response or result.is_state_only_update:
        sys.stdout.flush()  # the answer first, then the thread id, also when both go to a terminal
        print(f"thread: {result.thread_id}", file=sys.stderr)
    return code
