"""``osprey-desktop audit``: print the audit log of channel writes as a table."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

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
        "--db", metavar="PATH", help="audit database (default: file_paths.audit_db of the config)"
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=50,
        metavar="N",
        help="show the last N entries (default 50; 0 shows all)",
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


def run(args: argparse.Namespace) -> int:
    from osprey_desktop.safety.audit import AuditError, AuditLog

    if args.limit is not None and args.limit < 0:
        print("osprey-desktop audit: --limit must be 0 or more", file=sys.stderr)
        return 2
    if args.db:
        path = Path(args.db).expanduser()
    else:
        from osprey_desktop.config import get_audit_db_path

        path = get_audit_db_path()
    if not path.exists():
        print(f"No audit log at {path} yet: no write has been attempted with this configuration.")
        return 0
    try:
        entries = AuditLog(path).entries(limit=args.limit or None)
    except AuditError as exc:
        print(f"osprey-desktop audit: {exc}", file=sys.stderr)
        return 1
    if not entries:
        print(f"The audit log {path} is empty.")
        return 0
    print(f"Audit log {path} ({len(entries)} entries shown, oldest first)")
    print(format_table(entries))
    return 0
