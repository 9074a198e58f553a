"""``osprey-desktop audit``: print the audit log of channel writes, as a table or as JSON.

Read-only: a missing file is reported as "no entries yet" and not created; a file that is not an
audit log (such as the thread database, which ``--db`` names for the other commands) is refused
and left byte-for-byte unchanged.

Consoles that share a PostgreSQL conversation database keep their audit log in it: ``--db`` with
that ``postgresql://`` URL (or ``file_paths.checkpoint_db`` set to it) reads that log, with
every console's writes.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from typing import Any

from osprey_desktop.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, fail, print_json

COLUMNS = (
    "id",
    "time",
    "operator",
    "thread",
    "channel",
    "before",
    "requested",
    "readback",
    "outcome",
    "approval",
    "message",
)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "audit",
        help="show the audit log of channel writes",
        description="Print every write attempt recorded in the audit log (written, rejected by "
        "the operator, refused by the limits, failed), oldest first.",
    )
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the audit log file (default: file_paths.audit_db, i.e. <data folder>/audit.sqlite); "
        "not the conversation database that --db means for ask, approve and threads, except a "
        "shared postgresql:// database, which holds its consoles' audit log (the default when "
        "file_paths.checkpoint_db is such a URL). Only read, never created or changed",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=50,
        metavar="N",
        help="show the last N entries (default 50; 0 shows all)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the entries as a JSON list, oldest first (an empty list when there are none)",
    )
    return parser


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def format_table(entries: list[Any]) -> str:
    """Aligned text table; the message column is last and never truncated."""
    rows = [
        [
            str(e.id),
            datetime.fromtimestamp(e.time).strftime("%Y-%m-%d %H:%M:%S"),
            e.operator,
            _cell(e.thread_id),
            e.channel,
            _cell(e.value_before),
            _cell(e.requested_value),
            _cell(e.readback_after),
            e.outcome,
            _cell(e.approval_id),
            _cell(e.message),
        ]
        for e in entries
    ]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(COLUMNS)]
    widths[-1] = 0  # message: no padding

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [line(list(COLUMNS)), line(["-" * w if w else "-------" for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def _shared_database(db: str | None) -> Any:
    """The PostgreSQL database whose audit log is meant, or None for an audit file."""
    from osprey_desktop.persistence.postgres import PostgresDatabase, is_postgres_url

    if db:
        return PostgresDatabase(db.strip()) if is_postgres_url(db) else None
    from osprey_desktop.config import get_config

    configured = get_config().file_paths.checkpoint_db
    return PostgresDatabase(configured.strip()) if is_postgres_url(configured) else None


def run(args: argparse.Namespace) -> int:
    from osprey_desktop.safety.audit import AuditError, AuditLog

    if args.limit is not None and args.limit < 0:
        return fail("audit", "--limit must be 0 or more", EXIT_USAGE)
    shared = _shared_database(args.db)
    if shared is not None:
        return _print_shared(shared, args)
    if args.db:
        path = Path(args.db).expanduser()
    else:
        from osprey_desktop.config import get_audit_db_path

        path = get_audit_db_path()
    try:
        entries = AuditLog(path).entries(limit=args.limit or None)  # [] when there is no file
    except AuditError as exc:
        return fail("audit", str(exc), EXIT_FAILED)
    if args.json:
        print_json([e.to_dict() for e in entries])
    elif not path.exists():
        print(f"No audit log at {path} yet: no write has been attempted with this configuration.")
    elif not entries:
        print(f"The audit log {path} is empty.")
    else:
        print(f"Audit log {path} ({len(entries)} entries shown, oldest first)")
        print(format_table(entries))
    return EXIT_OK


def _print_shared(database: Any, args: argparse.Namespace) -> int:
    """The audit log that consoles sharing ``database`` (PostgreSQL) write into."""
    from osprey_desktop.safety.audit import AuditError
    from osprey_desktop.safety.audit_postgres import PostgresAuditLog

    log = PostgresAuditLog(database)
    try:
        entries = log.entries(limit=args.limit or None)
    except AuditError as exc:
        return fail("audit", str(exc), EXIT_FAILED)
    if args.json:
        print_json([e.to_dict() for e in entries])
    elif not entries:
        print(f"No entries in {log.where} yet: no write has been attempted through it.")
    else:
        print(
            f"Audit log in PostgreSQL database {database} ({len(entries)} entries shown, "
            "oldest first)"
        )
        print(format_table(entries))
    return EXIT_OK
