"""``osprey-desktop verify --thread ID``: read back the writes in doubt on a thread.

A write is in doubt when its console stopped (crash, kill, power) after the put left and
before its outcome was recorded. It is never sent again by itself; this command reads every
channel of it, compares with the value sent, and records the finding in the audit log
(``resolved``) and in the approval ledger. It sends nothing.
"""

from __future__ import annotations

import argparse
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_CODES_HELP,
    EXIT_FAILED,
    EXIT_OK,
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
        results = await session.verify_writes(args.thread)
        if args.json:
            print_json([r.model_dump(mode="json") for r in results])
        elif not results:
            print(f"no write in doubt on thread {args.thread}; nothing to verify")
        else:
            for r in results:
                print(f"- {r.channel}: {r.outcome.replace('_', ' ')} — {r.message}")
        return EXIT_FAILED if any(r.outcome == "in_doubt" for r in results) else EXIT_OK

    return run_session("verify", args.db, body)
