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
from osprey_desktop.persistence.chunked_saver import ContextChunkingSaver, thread_storage_sizes


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "threads",
        help="list or delete conversation threads",
        description="List the conversation threads, newest first: id, last activity, "
        "the space it takes in the database, whether an approval is pending, and the first "
        "request.",
        epilog=EXIT_CODES_HELP,
        formatter_class=HelpFormatter,
    )
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.add_argument("--delete", metavar="ID", help="delete this thread and its history")
    return parser


def _when(value: datetime | None) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M:%S") if value else "-"


def format_size(size: int | None) -> str:
    """``812 B``, ``14.2 KiB``, ``5.3 MiB``; ``-`` when the size is not known."""
    if size is None:
        return "-"
    if size < 1024:
        return f"{size} B"
    value = size / 1024
    for unit in ("KiB", "MiB"):
        if value < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


#: What the PENDING column says for a thread's last approval, by its ledger status.
_STATE_WORDS = {
    "pending": "approval",
    "approved": "running",
    "executing": "running",
    "sending": "sending",
    "in_doubt": "in doubt",
}


async def approval_states(session: Any, threads: list[Any]) -> dict[str, str]:
    """The ledger status of each listed thread's last approval (``in_doubt`` for a write whose
    console is gone after sending). The checkpoint alone says "pending" for an approval whose
    console was killed after the answer; the ledger says what really happened."""
    ledger = getattr(session, "ledger", None)
    if ledger is None:
        return {}
    states: dict[str, str] = {}
    for thread in threads:
        if not thread.pending_approval:
            continue
        records = await ledger.for_thread(thread.thread_id)
        if records:
            states[thread.thread_id] = str(records[-1].to_dict()["status"])
    return states


def _ledger_fields(status: str | None) -> dict[str, Any]:
    if status is None:
        return {}
    return {"pending_approval": status == "pending", "approval_status": status}


def format_threads(
    threads: list[Any], sizes: dict[str, int] | None = None, states: dict[str, str] | None = None
) -> str:
    """A plain table: id, last activity (local time), size, pending marker, title."""
    if not threads:
        return "no threads yet"
    sizes = sizes or {}
    states = states or {}
    width = max(len(t.thread_id) for t in threads)
    lines = [f"{'THREAD':<{width}}  {'LAST ACTIVITY':<19}  {'SIZE':>10}  {'PENDING':<8}  TITLE"]
    for thread in threads:
        pending = "approval" if thread.pending_approval else ""
        if thread.thread_id in states:
            pending = _STATE_WORDS.get(states[thread.thread_id], "")
        size = format_size(sizes.get(thread.thread_id))
        lines.append(
            f"{thread.thread_id:<{width}}  {_when(thread.last_activity):<19}  {size:>10}  "
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
        chunked = getattr(session.graph, "checkpointer", None)
        if args.delete:
            if not await session.delete_thread(args.delete):
                return fail("threads", f"no thread '{args.delete}' in {path}", EXIT_NO_THREAD)
            if isinstance(chunked, ContextChunkingSaver):
                # the thread's share of the context chunks goes now, not at a later turn
                await chunked.adelete_thread(args.delete)
            print(f"deleted thread {args.delete}")
            return EXIT_OK
        threads = await session.list_threads()
        sizes = await thread_storage_sizes(chunked) or {}
        states = await approval_states(session, threads)
        if args.json:
            print_json(
                [
                    {
                        **t.to_dict(),
                        "size_bytes": sizes.get(t.thread_id),
                        **_ledger_fields(states.get(t.thread_id)),
                    }
                    for t in threads
                ]
            )
        else:
            print(format_threads(threads, sizes, states))
        return EXIT_OK

    return run_session("threads", args.db, body)
