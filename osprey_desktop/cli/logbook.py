"""``osprey-desktop logbook``: list, show, search and retry logbook entries; ``events`` prints
the logbook's audit (entries made, published, discarded; undos).

The logbook lives in the conversation database (``--db``: the SQLite file, or the consoles'
shared PostgreSQL database). Listing, showing and searching only read (a database without a
logbook is not changed); ``retry`` sends an entry that was not published to the configured
Olog service again, and says why when it fails again (exit 1).
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import datetime
from pathlib import Path
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    add_db_option,
    database_path,
    fail,
    print_json,
)

_STATUS_WORDS = {
    "draft": "waiting for confirmation",
    "local": "in the local logbook",
    "published": "published",
    "not_published": "NOT PUBLISHED",
    "discarded": "discarded",
}


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "logbook",
        help="list, show, search and retry logbook entries",
        description="The logbook entries made from the assistant (newest first). An entry that "
        "could not be published to Olog stays in the local logbook, marked NOT PUBLISHED with "
        "the server's reason; 'retry' sends it again.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="the newest entries (the default action)")
    listing.add_argument("--limit", type=int, default=50, metavar="N", help="0 shows all")
    listing.add_argument(
        "--status", choices=sorted(_STATUS_WORDS), help="only entries in this state"
    )
    show = actions.add_parser("show", help="one entry in full")
    show.add_argument("entry", type=int, metavar="ID")
    show.add_argument(
        "--save-attachments", metavar="DIR", help="write the entry's attachments into DIR"
    )
    search = actions.add_parser("search", help="full-text search of the entries")
    search.add_argument("words", nargs="+")
    events = actions.add_parser(
        "events", help="the logbook's audit: who made, published or discarded entries, undos"
    )
    events.add_argument("--limit", type=int, default=50, metavar="N", help="0 shows all")
    retry = actions.add_parser("retry", help="publish an entry that was not published again")
    retry.add_argument("entry", type=int, metavar="ID", nargs="?")
    retry.add_argument("--all", action="store_true", help="every entry not published")
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    for sub in (listing, show, search, events, retry):
        # given after the action too; SUPPRESS keeps a value given before it
        sub.add_argument(
            "--db",
            metavar="PATH|URL",
            default=argparse.SUPPRESS,
            help="conversation database (as for ask)",
        )
        sub.add_argument(
            "--json", action="store_true", default=argparse.SUPPRESS, help="print JSON"
        )
    return parser


def _store(db: str | None) -> Any:
    from osprey_desktop.logbook import logbook_for_database

    return logbook_for_database(database_path(db))


def _entry_dict(entry: Any) -> dict[str, Any]:
    data = entry.to_json()
    data["attachments"] = [
        {"filename": a.filename, "content_type": a.content_type, "size": a.size}
        for a in entry.attachments
    ]
    data["time"] = datetime.fromtimestamp(entry.created_at).isoformat(timespec="seconds")
    return data


def _line(entry: Any) -> str:
    when = datetime.fromtimestamp(entry.created_at).strftime("%Y-%m-%d %H:%M")
    status = _STATUS_WORDS.get(entry.status, entry.status)
    if entry.status == "published" and entry.remote_id:
        status += f" (Olog {entry.remote_id})"
    line = f"{entry.id:>5}  {when}  {entry.author or '-':<10}  {status:<24}  {entry.title}"
    if entry.status == "not_published" and entry.publish_error:
        line += f"\n       reason: {entry.publish_error}"
    return line


def run(args: argparse.Namespace) -> int:
    from osprey_desktop.logbook import LogbookError

    action = args.action or "list"
    try:
        store = _store(args.db)
        if action == "list":
            return _list(store, args)
        if action == "show":
            return _show(store, args)
        if action == "search":
            return _search(store, args)
        if action == "events":
            return _events(store, args)
        return _retry(store, args)
    except LogbookError as exc:
        return fail("logbook", str(exc), EXIT_FAILED)


def _list(store: Any, args: argparse.Namespace) -> int:
    limit = getattr(args, "limit", 50)
    if limit is not None and limit < 0:
        return fail("logbook", "--limit must be 0 or more", EXIT_USAGE)
    status = getattr(args, "status", None)
    entries = store.entries(limit=limit or None, statuses=[status] if status else None)
    if args.json:
        print_json([_entry_dict(e) for e in entries])
    elif not entries:
        print(f"No logbook entries in {store.where} yet.")
    else:
        print(f"Logbook entries in {store.where} (newest first)")
        for entry in entries:
            print(_line(entry))
    return EXIT_OK


def _show(store: Any, args: argparse.Namespace) -> int:
    entry = store.get(args.entry)
    if entry is None:
        return fail("logbook", f"there is no logbook entry {args.entry} in {store.where}", 2)
    if args.save_attachments:
        folder = Path(args.save_attachments).expanduser()
        folder.mkdir(parents=True, exist_ok=True)
        for attachment in entry.attachments:
            (folder / Path(attachment.filename).name).write_bytes(attachment.data)
    if args.json:
        print_json(_entry_dict(entry))
        return EXIT_OK
    print(_line(entry))
    print(
        f"       logbook: {entry.logbook}"
        + (f" · tags: {', '.join(entry.tags)}" if entry.tags else "")
    )
    if entry.thread_id:
        print(f"       thread: {entry.thread_id}")
    for attachment in entry.attachments:
        print(f"       attachment: {attachment.filename} ({attachment.size} bytes)")
    print()
    print(entry.text)
    return EXIT_OK


def _search(store: Any, args: argparse.Namespace) -> int:
    hits = store.search(" ".join(args.words))
    if args.json:
        print_json([{**_entry_dict(h.entry), "all_words": h.all_terms} for h in hits])
    elif not hits:
        print("No entry matches.")
    else:
        for hit in hits:
            print(_line(hit.entry))
    return EXIT_OK


def _events(store: Any, args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        return fail("logbook", "--limit must be 0 or more", EXIT_USAGE)
    events = store.events(limit=args.limit or None)
    if args.json:
        print_json([e.to_dict() for e in events])
    elif not events:
        print(f"Nothing recorded in {store.where} yet.")
    else:
        for event in events:
            when = datetime.fromtimestamp(event.time).strftime("%Y-%m-%d %H:%M:%S")
            detail = f" — {event.detail}" if event.detail else ""
            print(
                f"{when}  {event.operator:<10}  {event.kind:<5}  {event.outcome:<14}  "
                f"{event.what}{detail}"
            )
    return EXIT_OK


def _retry(store: Any, args: argparse.Namespace) -> int:
    from osprey_desktop.config import get_config
    from osprey_desktop.logbook import retry

    if args.all == (args.entry is not None):
        return fail("logbook", "retry needs an entry id or --all (not both)", EXIT_USAGE)
    ids = (
        [e.id for e in store.entries(limit=None, statuses=["not_published"])]
        if args.all
        else [args.entry]
    )
    config = get_config()

    async def send() -> list[Any]:
        return [await retry(store, entry_id, config) for entry_id in ids]

    done = asyncio.run(send())
    if args.json:
        print_json([_entry_dict(e) for e in done])
    elif not done:
        print("No entry waits to be published.")
    for entry in done:
        if not args.json:
            print(_line(entry))
    return EXIT_FAILED if any(e.status == "not_published" for e in done) else EXIT_OK


__all__ = ["register", "run"]
