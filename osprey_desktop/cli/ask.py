"""``osprey-desktop ask "request"``: one turn of the agent, headless.

Exit codes (shared with ``approve`` and ``threads``): 0 done, 1 the turn or the database
failed, 2 bad usage or configuration, 3 an approval is pending (answer it with
``osprey-desktop approve``), 4 no such thread.
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

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PENDING = 3
EXIT_NO_THREAD = 4


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "ask",
        help="send one request to the agent and print the answer",
        description="Run one turn of the agent and print its answer. When the turn needs an "
        "approval, print what is to be approved and the thread id, and exit with code 3; "
        "answer with 'osprey-desktop approve --thread ID yes|no'. Slash commands work as in "
        "the window ('/planning:on move HCM01 to 1.5 A').",
    )
    parser.add_argument("request", nargs="+", help="the request (words are joined by spaces)")
    parser.add_argument("--thread", metavar="ID", help="continue this thread (default: a new one)")
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="conversation database (default: file_paths.checkpoint_db, i.e. "
        "<data folder>/threads.sqlite; the data folder follows $OSPREY_DESKTOP_DATA_DIR)",
    )


def fail(command: str, message: str, code: int = EXIT_FAILED) -> int:
    print(f"osprey-desktop {command}: {message}", file=sys.stderr)
    return code


def quiet_logging() -> None:
    """Errors reach the operator as one line each; log records would repeat them as tracebacks."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.CRITICAL)


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


def print_pending(result: Any, command: str) -> None:
    """What is to be approved, then how to answer it (stderr keeps stdout for the request)."""
    pending = result.pending_approval or {}
    print(pending.get("user_message") or "(the approval request has no message)")
    print(f"\nthread: {result.thread_id}")
    print(
        f"approval pending: answer with 'osprey-desktop approve --thread {result.thread_id} "
        "yes' or '... no'",
        file=sys.stderr,
    )


def report_turn(result: Any, command: str, as_json: bool) -> int:
    """Print a TurnResult for a person or a script; returns the exit code."""
    pending_refusal = result.error is not None and result.pending_approval is not None
    code = EXIT_OK
    if result.pending_approval is not None:
        code = EXIT_PENDING
    elif result.error is not None:
        code = EXIT_FAILED
    if as_json:
        print(json.dumps(result.to_dict(), indent=2, default=str))
        return code
    if pending_refusal:
        print(f"osprey-desktop {command}: {result.error}", file=sys.stderr)
        print_pending(result, command)
        return code
    if result.error is not None:
        return fail(command, f"{result.error} (thread {result.thread_id})")
    if result.message:
        print(result.message)
    if result.pending_approval is not None:
        print_pending(result, command)
        return code
    if result.response:
        print(result.response)
    if result.response or result.is_state_only_update:
        print(f"thread: {result.thread_id}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    request = " ".join(args.request).strip()
    if not request:
        return fail("ask", "the request is empty; type what you want done", EXIT_USAGE)

    async def body(session: Any) -> int:
        if args.thread and not await session.thread_exists(args.thread):
            return fail(
                "ask",
                f"no thread '{args.thread}' in {session.db_path}; list them with "
                "'osprey-desktop threads', or leave out --thread to start a new one",
                EXIT_NO_THREAD,
            )
        result = await session.submit(request, args.thread)
        return report_turn(result, "ask", args.json)

    return run_session("ask", args.db, body)
