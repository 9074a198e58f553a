"""``osprey-desktop threads``: list the conversation threads, or delete one."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_CODES_HELP,
    EXIT_NO_THREAD,
    EXIT_OK,
    HelpFormatter,
    add_db_option,
    database_path,
    fail,
    no_database,
    print_json,
    run_session,
)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "threads",
        help="list or delete conversation threads",
        description="List the conversation threads, newest first: id, last activity, "
        "whether an approval is pending, and the first request.",
        epilog=EXIT_CODES_HELP,
        formatter_class=HelpFormatter,
    )
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.add_argument("--delete", metavar="ID", help="delete this thread and its history")
    return parser


def _when(value: datetime | None) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M:%S") if value else "-"


def format_threads(threads: list[Any]) -> str:
    """A plain table: id, last activity (local time), pending marker, title."""
    if not threads:
        return "no threads yet"
    width = max(len(t.thread_id) for t in threads)
    lines = [f"{'THREAD':<{width}}  {'LAST ACTIVITY':<19}  {'PENDING':<8}  TITLE"]
    for thread in threads:
        pending = "approval" if thread.pending_approval else ""
        lines.append(
            f"{thread.thread_id:<{width}}  {_when(thread.last_activity):<19}  "
            f"{pending:<8}  {thread.title}"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    path = database_path(args.db)
    if not path.exists():
        if args.delete:
            return no_database("threads", args.delete, path)
        print("[]" if args.json else f"no threads yet (no database at {path})")
        return EXIT_OK

    async def body(session: Any) -> int:
        if args.delete:
            if not await session.delete_thread(args.delete):
                return fail("threads", f"no thread '{args.delete}' in {path}", EXIT_NO_THREAD)
            print(f"deleted thread {args.delete}")
            return EXIT_OK
        threads = await session.list_threads()
        if args.json:
            print_json([t.to_dict() for t in threads])
        else:
            print(format_threads(threads))
        return EXIT_OK

    return run_session("threads", args.db, body)
