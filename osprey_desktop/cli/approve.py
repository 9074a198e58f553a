"""``osprey-desktop approve --thread ID yes|no``: answer a thread's pending approval.

Runs in a new process on the same database: the approval waited in the checkpoint, and the
paused step executes exactly the payload that was shown when it asked.
"""

from __future__ import annotations

import argparse
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_FAILED,
    EXIT_USAGE,
    add_db_option,
    database_path,
    fail,
    missing_thread,
    no_database,
    report_turn,
    run_session,
)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "approve",
        help="answer the pending approval of a thread",
        description="Approve (yes) or reject (no) what a thread is waiting for, then let the "
        "turn finish and print its answer. Exit code 3 when the turn asks for another approval.",
    )
    parser.add_argument("--thread", metavar="ID", required=True, help="the waiting thread")
    parser.add_argument("answer", help="yes or no (also: y, ok, approve / n, cancel, reject...)")
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    from osprey_desktop.infrastructure.gateway import parse_approval_answer

    approved = parse_approval_answer(args.answer)
    if approved is None:
        return fail("approve", f"answer yes or no, not '{args.answer}'", EXIT_USAGE)
    path = database_path(args.db)
    if not path.exists():
        return no_database("approve", args.thread, path)

    async def body(session: Any) -> int:
        if (code := await missing_thread(session, "approve", args.thread)) is not None:
            return code
        if await session.pending_approval(args.thread) is None:
            return fail(
                "approve",
                f"thread '{args.thread}' has no pending approval; nothing was run",
                EXIT_FAILED,
            )
        result = await session.resume(args.thread, approved)
        return report_turn(result, "approve", args.json)

    return run_session("approve", args.db, body)
