"""``osprey-desktop verify --thread ID``: read back the writes in doubt on a thread.

A write is in doubt when its console stopped (crash, kill, power) after the put left and
before its outcome was recorded, or when the control system could not say whether a put
arrived (a connection reset during it). A write that a live console is still carrying out
(its heartbeat is fresh) is not read back. A write in doubt is never sent again by itself;
this command reads every channel of it, compares with the value sent, and records the finding
in the audit log (``resolved``) and in the approval ledger. It sends nothing.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_CODES_HELP,
    EXIT_FAILED,
    EXIT_OK,
    PROG,
    HelpFormatter,
    add_db_option,
    database_path,
    missing_thread,
    no_database,
    print_json,
    run_session,
)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "verify",
        help="read back the writes in doubt on a thread and record what they did",
        description="Read every channel of a write left in doubt (its console stopped after "
        "sending and before recording the outcome), compare it with the value sent, and record "
        "the finding in the audit log. Sends nothing. Exit code 1 when a channel could not be "
        "read (still in doubt).",
        epilog=EXIT_CODES_HELP,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--thread", metavar="ID", required=True, help="the thread to check")
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    path = database_path(args.db)
    if not path.exists():
        return no_database("verify", args.thread, path)

    async def body(session: Any) -> int:
        if (code := await missing_thread(session, "verify", args.thread)) is not None:
            return code
        busy, results = await _verify(session, args.thread)
        for line in busy:
            print(line, file=sys.stderr)
        if busy and not results:
            return EXIT_FAILED
        if args.json:
            print_json([r.model_dump(mode="json") for r in results])
        elif not results:
            print(f"no write in doubt on thread {args.thread}; nothing to verify")
        else:
            for r in results:
                print(f"- {r.channel}: {r.outcome.replace('_', ' ')} — {r.message}")
        return EXIT_FAILED if any(r.outcome == "in_doubt" for r in results) else EXIT_OK

    return run_session("verify", args.db, body)


async def _verify(session: Any, thread_id: str) -> tuple[list[str], list[Any]]:
    """(writes a live console is still carrying out, findings of reading back the rest).

    A write is read back when its console is gone after sending (in doubt), or when it was
    reported in doubt when it ran (a connection reset during the put). One that a console
    still carries out (its heartbeat is fresh) is left alone: reading it now could record
    "not on the machine" for a channel that console is about to write.
    """
    from osprey_desktop.capabilities.control_room.write_execution import (
        describe_owner,
        doubtful_outcomes,
        resolve_in_doubt,
    )
    from osprey_desktop.connectors import get_control_system_connector
    from osprey_desktop.safety.audit import audit_log_for

    results = list(await session.verify_writes(thread_id))
    ledger = session.ledger
    if ledger is None:
        return [], results
    records = await ledger.for_thread(thread_id)
    busy = [
        f"{PROG} verify: approval {r.approval_id} is being carried out by {describe_owner(r)}; "
        "not read back now (run verify again when it is done)"
        for r in records
        if r.status in ("executing", "sending") and r.owner_alive()
    ]
    doubtful = [r for r in records if doubtful_outcomes(r)]
    if doubtful:
        connector = await get_control_system_connector()
        audit = audit_log_for(session.checkpointer)
        for record in doubtful:
            results += await resolve_in_doubt(ledger, record, connector, audit)
    return busy, results
