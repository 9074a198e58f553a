"""``osprey-desktop approve --thread ID yes|no``: answer a thread's pending approval.

Runs in a new process on the same database: the approval waited in the checkpoint, and the
paused step executes exactly the payload that was shown when it asked.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_ALREADY_ANSWERED,
    EXIT_CODES_HELP,
    EXIT_FAILED,
    EXIT_NOT_WRITTEN,
    EXIT_OK,
    EXIT_STORAGE,
    EXIT_USAGE,
    PROG,
    HelpFormatter,
    add_db_option,
    database_path,
    fail,
    missing_thread,
    no_database,
    report_turn,
    run_session,
    unfinished_writes,
)
from osprey_desktop.cli.read_only import add_read_only_option


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "approve",
        help="answer the pending approval of a thread",
        description="Approve (yes) or reject (no) what a thread is waiting for, then let the "
        "turn finish and print its answer. Exit code 3 when the turn asks for another approval, "
        "4 when the approval was already answered (nothing is run then).",
        epilog=EXIT_CODES_HELP,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--thread", metavar="ID", required=True, help="the waiting thread")
    parser.add_argument("answer", help="yes or no (also: y, ok, approve / n, cancel, reject...)")
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_read_only_option(parser)
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
        # an approval answered before a crash or a Stop is brought up to date first (its
        # outcome, or its write in doubt, is reported; nothing is sent again)
        settled = await session.settle(args.thread)
        if await session.pending_approval(args.thread) is None:
            if settled is not None and settled.response and not args.json:
                print(settled.response)
            return await _nothing_pending(session, args.thread)
        result = await session.resume(args.thread, approved)
        if not args.json and _deleted_during(result):
            # the write was carried out; the thread is gone since: say both, exit as the write
            print(result.response)
            sys.stdout.flush()
            fail("approve", f"{result.error}; the write above was carried out before that")
            return EXIT_NOT_WRITTEN if unfinished_writes(result) else EXIT_OK
        return report_turn(result, "approve", args.json)

    from osprey_desktop.safety.audit_spool import pending

    kept_before = len(pending())
    code = run_session("approve", args.db, body)
    if code == EXIT_STORAGE:
        return _kept_outcomes(args.thread, pending()[kept_before:]) or code
    return code


def _kept_outcomes(thread_id: str, kept: list[dict[str, Any]]) -> int | None:
    """The database went away after puts had left: say which, and where their outcomes are
    kept (``EXIT_NOT_WRITTEN``), instead of a bare storage error."""
    from osprey_desktop.safety.audit_spool import spool_path

    mine = [e for e in kept if e.get("thread_id") == thread_id]
    if not mine:
        return None
    print(
        f"{len(mine)} write(s) of thread '{thread_id}' were sent before the database became "
        f"unreachable; their outcomes are kept in {spool_path()} and go into the audit log "
        f"when it can be reached (the next write or '{PROG} verify --thread {thread_id}'):",
        file=sys.stderr,
    )
    for entry in mine:
        print(
            f"- {entry.get('channel')}: {str(entry.get('outcome')).replace('_', ' ')} "
            f"({entry.get('requested_value')})",
            file=sys.stderr,
        )
    return EXIT_NOT_WRITTEN


def _deleted_during(result: Any) -> bool:
    """The thread was deleted while the approved step ran, and that step reported writes."""
    error = str(result.error or "")
    return error.endswith("was deleted during this turn") and bool(result.response)


async def _nothing_pending(session: Any, thread_id: str) -> int:
    """No approval waits: ``EXIT_ALREADY_ANSWERED`` when the thread's last approval was
    answered (by another process, the window, or an earlier ``approve``), else ``EXIT_FAILED``.

    The approval ledger says who answered and when; without one, the thread's state says
    whether its last turn's approval was answered.
    """
    refused = await _answered_in_ledger(session, thread_id)
    if refused is None:
        answered = (await session.get_state_values(thread_id)).get("approval_approved")
        if isinstance(answered, bool):
            verdict = "approved" if answered else "rejected"
            refused = f"the approval on thread '{thread_id}' was already answered ({verdict})"
    if refused is not None:
        return fail(
            "approve",
            f"{refused}; this answer was not applied and nothing was run",
            EXIT_ALREADY_ANSWERED,
        )
    return fail(
        "approve", f"thread '{thread_id}' has no pending approval; nothing was run", EXIT_FAILED
    )


async def _answered_in_ledger(session: Any, thread_id: str) -> str | None:
    ledger = getattr(session, "ledger", None)
    if ledger is None:
        return None
    from osprey_desktop.persistence.checkpointer import describe_sqlite_error

    try:
        records = await ledger.for_thread(thread_id)
    except sqlite3.Error as exc:
        raise describe_sqlite_error(session.db_path or "?", exc) from exc
    last = records[-1] if records else None
    if last is None or last.status == "pending":
        return None
    text = f"the approval on thread '{thread_id}' was already {last.describe_answer()}"
    if getattr(last, "in_doubt", False):
        text += (
            "; its write is in doubt (sent, outcome never recorded): read it back with "
            f"'{PROG} verify --thread {thread_id}'"
        )
    return text
