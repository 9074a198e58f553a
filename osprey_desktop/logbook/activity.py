"""What this console did (on PostgreSQL: what every console did), as one list for the Activity
dock: writes and their outcomes, refusals, rejected approvals, logbook entries and undos.

Rows come from the two durable records (the write audit log and the logbook's audit), so the
list survives restarts; each row names its thread, so the window can open it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.logbook.history import CHANGE_OUTCOMES, clock, describe_write
from osprey_desktop.logbook.store import LogbookEvent
from osprey_desktop.safety.audit import AuditEntry

#: The kinds of row, in the order the dock's filter offers them.
KINDS = ("write", "refusal", "rejected", "logbook", "undo")
_REFUSALS = frozenset({"blocked", "not_sent"})


@dataclass(frozen=True)
class ActivityRow:
    time: float
    kind: str
    operator: str
    what: str
    outcome: str
    thread_id: str | None
    source: str  # "audit 42" or "logbook event 7"
    entry_id: int | None = None  # the logbook entry a logbook row is about

    def matches(self, kinds: Iterable[str] | None = None, text: str = "") -> bool:
        if kinds is not None and self.kind not in set(kinds):
            return False
        needle = text.strip().lower()
        if not needle:
            return True
        haystack = f"{self.what} {self.operator} {self.outcome} {self.thread_id or ''}".lower()
        return all(word in haystack for word in needle.split())

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "clock": clock(self.time, with_date=True)}


def _audit_row(entry: AuditEntry) -> ActivityRow | None:
    if entry.outcome in CHANGE_OUTCOMES or entry.outcome == "resolved":
        kind, what = "write", describe_write(entry)
    elif entry.outcome in _REFUSALS or entry.outcome == "refused":
        kind, what = "refusal", f"`{entry.channel}`: {entry.message or entry.outcome}"
    elif entry.outcome == "rejected":
        kind, what = "rejected", f"`{entry.channel}` → {entry.requested_value} rejected"
    else:
        return None  # an intent: its outcome row follows (or the write is in doubt)
    return ActivityRow(
        time=entry.time,
        kind=kind,
        operator=entry.operator,
        what=what,
        outcome=entry.outcome,
        thread_id=entry.thread_id,
        source=f"audit {entry.id}",
    )


def _event_row(event: LogbookEvent) -> ActivityRow:
    kind = "undo" if event.kind == "undo" else "logbook"
    what = event.what + (f" — {event.detail}" if event.detail else "")
    return ActivityRow(
        time=event.time,
        kind=kind,
        operator=event.operator,
        what=what,
        outcome=event.outcome,
        thread_id=event.thread_id,
        source=f"logbook event {event.id}",
        entry_id=event.entry_id,
    )


def activity_rows(
    audit_entries: Iterable[AuditEntry], events: Iterable[LogbookEvent], limit: int = 500
) -> list[ActivityRow]:
    """Every row, newest first."""
    rows = [r for r in map(_audit_row, audit_entries) if r is not None]
    rows += [_event_row(e) for e in events]
    rows.sort(key=lambda r: r.time, reverse=True)
    return rows[:limit]


def load_activity(audit: Any, logbook: Any, limit: int = 500) -> list[ActivityRow]:
    """Read both records (blocking: call it off the event loop). A record that cannot be
    read yet (no write made, no entry logged) contributes nothing."""
    entries: Sequence[AuditEntry] = audit.entries(limit=limit) if audit is not None else []
    events = logbook.events(limit=limit) if logbook is not None else []
    return activity_rows(entries, events, limit)


class ActivityLog:
    """The two records one console reads its activity from (on PostgreSQL: every console's)."""

    def __init__(self, audit: Any, logbook: Any) -> None:
        self.audit = audit
        self.logbook = logbook

    @classmethod
    def for_checkpointer(cls, checkpointer: Any) -> ActivityLog:
        """The audit log and the logbook beside a session's threads."""
        from osprey_desktop.logbook.publishing import logbook_for
        from osprey_desktop.safety.audit import audit_log_for

        return cls(audit_log_for(checkpointer), logbook_for(checkpointer))

    async def retry(self, entry_id: int, config: Any) -> Any:
        """Publish a logbook entry that was not published again (``publishing.retry``)."""
        from osprey_desktop.logbook.publishing import retry

        return await retry(self.logbook, entry_id, config)

    async def rows(self, limit: int = 500) -> list[ActivityRow]:
        """Every row, newest first, read off the event loop."""
        import asyncio

        return await asyncio.to_thread(load_activity, self.audit, self.logbook, limit)


__all__ = ["KINDS", "ActivityLog", "ActivityRow", "activity_rows", "load_activity"]
