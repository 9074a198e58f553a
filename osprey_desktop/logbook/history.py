"""The shift's history: logbook entries joined with the write audit log, and what an undo
restores.

"When was HCM01 last changed and why?" is answered from both records: the audit log says
when each write happened, who approved it and how it ended; the logbook says why (the
entries that mention the channel), and both carry the thread, so the answer links to it.

An undo takes its values from the audit log: the value each write replaced (``value
before``), taking the newest writes (any console's; "my change" takes the operator's own).
It is refused, with the reason, when the write was not verified (nothing is known to have
changed), when someone else wrote the channel after "my" change, or when the channel does not
read what the write left (it moved since, outside this assistant).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.channels.addresses import channel_key
from osprey_desktop.connectors.base import CONFIRMED_OUTCOMES, SENT_OUTCOMES, to_float
from osprey_desktop.logbook.store import SearchHit, search_terms
from osprey_desktop.safety.audit import AuditEntry

#: Audit outcomes of a put that left (kept readable: ``written`` from earlier versions).
CHANGE_OUTCOMES = frozenset({*SENT_OUTCOMES, "written"})
#: Outcomes after which the machine is known to hold the value that was sent.
VERIFIED_OUTCOMES = frozenset({*CONFIRMED_OUTCOMES, "written"})


@dataclass(frozen=True)
class HistoryItem:
    """One result of a history search: a logbook entry or an audited write."""

    kind: str  # "entry" or "write"
    time: float
    title: str
    detail: str
    thread_id: str | None
    channels: tuple[str, ...]
    entry_id: int | None = None
    audit_id: int | None = None
    all_terms: bool = True
    olog_id: str | None = None  # an entry found on the Olog service (made anywhere)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def link(self) -> str:
        """Where it comes from, as the answer names it (entry, audit entry, thread)."""
        parts = []
        if self.entry_id is not None:
            parts.append(f"logbook entry {self.entry_id}")
        if self.olog_id is not None:
            parts.append(f"Olog entry {self.olog_id}")
        if self.audit_id is not None:
            parts.append(f"audit entry {self.audit_id}")
        if self.thread_id:
            parts.append(f"thread {self.thread_id}")
        return ", ".join(parts)


def clock(when: float | None, with_date: bool = False) -> str:
    pattern = "%Y-%m-%d %H:%M:%S" if with_date else "%H:%M:%S"
    return time.strftime(pattern, time.localtime(when or 0))


def describe_write(entry: AuditEntry) -> str:
    """'HCM01:SP 1.2 → 1.5 (verified) by ops'."""
    return (
        f"`{entry.channel}` {_value(entry.value_before)} → {_value(entry.requested_value)} "
        f"({entry.outcome}) by {entry.operator}"
    )


def _value(value: Any) -> str:
    number = to_float(value)
    return f"{number:g}" if number is not None else str(value)


def changes(audit_entries: Iterable[AuditEntry], channels: Sequence[str] = ()) -> list[AuditEntry]:
    """The writes that left for the machine (the outcome entry of each put), newest first."""
    wanted = {channel_key(c) for c in channels}  # pva://X and X are one channel
    found = [
        e for e in audit_entries if e.outcome in CHANGE_OUTCOMES and (not wanted or e.key in wanted)
    ]
    return sorted(found, key=lambda e: (e.time, e.id), reverse=True)


def history(
    hits: Sequence[SearchHit],
    audit_entries: Iterable[AuditEntry],
    words: str,
    channels: Sequence[str] = (),
    since: float | None = None,
    limit: int = 20,
) -> list[HistoryItem]:
    """Logbook hits and audited writes that match, newest first (full matches before partial).

    A write matches when its channel is one of ``channels``, or when its channel, operator
    or message contains one of the words.
    """
    items = [
        HistoryItem(
            kind="entry",
            time=h.entry.created_at,
            title=h.entry.title,
            detail=_first_line(h.entry.text),
            thread_id=h.entry.thread_id,
            channels=h.entry.channels,
            entry_id=h.entry.id,
            all_terms=h.all_terms,
        )
        for h in hits
        if since is None or h.entry.created_at >= since
    ]
    terms = [t for t in search_terms(words) if len(t) > 2]
    for entry in changes(audit_entries):
        if since is not None and entry.time < since:
            continue
        if channels:
            if entry.key not in {channel_key(c) for c in channels}:
                continue
        elif not terms or not any(_mentions(entry, t) for t in terms):
            continue
        items.append(
            HistoryItem(
                kind="write",
                time=entry.time,
                title=f"write to {entry.channel}",
                detail=describe_write(entry),
                thread_id=entry.thread_id,
                channels=(entry.channel,),
                audit_id=entry.id,
            )
        )
    items.sort(key=lambda i: (not i.all_terms, -i.time))
    return items[:limit]


def olog_items(
    found: Sequence[Mapping[str, Any]], known: set[str], since: float | None = None
) -> list[HistoryItem]:
    """Olog search results (``OlogClient.search``) as history items, without the entries
    the local logbook already holds (``known``: their Olog ids)."""
    items = []
    for log in found:
        created = log.get("created")
        if str(log.get("id")) in known or (since is not None and (created or 0) < since):
            continue
        items.append(
            HistoryItem(
                kind="entry",
                time=float(created or 0.0),
                title=str(log.get("title") or ""),
                detail=_first_line(str(log.get("description") or "")),
                thread_id=None,
                channels=(),
                olog_id=str(log.get("id")),
            )
        )
    return items


def merged(
    items: Sequence[HistoryItem], more: Sequence[HistoryItem], limit: int = 20
) -> list[HistoryItem]:
    """Two result lists as one, ranked like ``history``."""
    out = [*items, *more]
    out.sort(key=lambda i: (not i.all_terms, -i.time))
    return out[:limit]


def _mentions(entry: AuditEntry, term: str) -> bool:
    text = f"{entry.channel} {entry.operator} {entry.message or ''}".lower()
    return term in text.replace(":", " ").split() or term in text


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


# -- undo --------------------------------------------------------------------------------


class UndoRefused(Exception):
    """An undo that cannot be done; the message says why (nothing is asked or sent).

    ``entry`` is the audit entry the refusal is about, when there is one.
    """

    def __init__(self, message: str, entry: AuditEntry | None = None) -> None:
        super().__init__(message)
        self.entry = entry


@dataclass(frozen=True)
class UndoTarget:
    """One channel to restore: its oldest write undone (whose value before is restored) and
    its newest (what the channel should read now); the same entry when one write is undone."""

    entry: AuditEntry
    latest: AuditEntry | None = None

    @property
    def last(self) -> AuditEntry:
        return self.latest or self.entry

    @property
    def channel(self) -> str:
        return self.entry.channel

    @property
    def restore(self) -> Any:
        return self.entry.value_before

    def origin(self, operator: str | None = None) -> dict[str, Any]:
        """Where the value comes from, for the approval (plain JSON)."""
        return {
            "kind": "undo",
            "audit_id": self.entry.id,
            "time": self.entry.time,
            "channel": self.entry.channel,
            "set_to": self.entry.requested_value,
            "value_before": self.entry.value_before,
            "operator": self.entry.operator,
            "by_you": operator is not None and self.entry.operator == operator,
            "outcome": self.entry.outcome,
            "also": [self.latest.id] if self.latest and self.latest.id != self.entry.id else [],
        }


def describe_origin(origin: Mapping[str, Any], units: str = "") -> str:
    """'from audit entry 42, 10:14:03, you set 1.5 A (it was 1.2 A)'."""
    who = "you" if origin.get("by_you") else str(origin.get("operator") or "someone")
    unit = f" {units}" if units else ""
    return (
        f"from audit entry {origin.get('audit_id')}, {clock(origin.get('time'))}, {who} set "
        f"{_value(origin.get('set_to'))}{unit} (it was {_value(origin.get('value_before'))}{unit})"
        + (
            f"; also undoes audit entr{'ies' if len(origin['also']) > 1 else 'y'} "
            + ", ".join(str(i) for i in origin["also"])
            if origin.get("also")
            else ""
        )
    )


def undo_targets(
    audit_entries: Iterable[AuditEntry],
    *,
    count: int = 1,
    channels: Sequence[str] = (),
    operator: str | None = None,
) -> list[UndoTarget]:
    """The ``count`` newest writes (to ``channels``, when named; by ``operator``, when given:
    "my change"), newest first.

    One target per channel: undoing the last three writes of one magnet restores the value
    before the oldest of them. Refuses (``UndoRefused``) when there are not that many, and
    when someone else wrote one of the channels after the operator's own write.
    """
    entries = list(audit_entries)
    everyone = changes(entries, channels)
    found = [e for e in everyone if operator is None or e.operator == operator]
    if not found:
        named = f" to {', '.join(channels)}" if channels else ""
        whose = f" by {operator}" if operator else ""
        raise UndoRefused(f"the audit log has no write{named}{whose} to undo")
    chosen = found[: max(1, count)]
    if len(chosen) < count:
        raise UndoRefused(
            f"the audit log has only {len(chosen)} write{'s' if len(chosen) != 1 else ''}"
            f"{' to ' + ', '.join(channels) if channels else ''}; {count} were asked to be undone"
        )
    by_channel: dict[str, AuditEntry] = {}
    newest_chosen: dict[str, AuditEntry] = {}
    for entry in chosen:  # newest first: the oldest of a channel's writes wins
        by_channel[entry.key] = entry
        newest_chosen.setdefault(entry.key, entry)
    for entry in chosen:
        if entry.outcome not in VERIFIED_OUTCOMES:
            raise UndoRefused(
                f"audit entry {entry.id} ({entry.channel}, {clock(entry.time)}) was not verified "
                f"({entry.outcome}): what the machine took is not known, so there is nothing "
                "known to undo; read it back first (osprey-desktop verify)",
                entry,
            )
    for channel, newest in newest_chosen.items():
        later = [
            e for e in everyone if e.key == channel and (e.time, e.id) > (newest.time, newest.id)
        ]
        if later:
            raise UndoRefused(
                f"{channel} was written again after your change (audit entry {later[-1].id}, "
                f"{clock(later[-1].time)}, by {later[-1].operator}); undo that write first",
                newest,
            )
    for channel, entry in by_channel.items():
        if entry.value_before is None:
            raise UndoRefused(
                f"audit entry {entry.id} ({channel}) does not record the value before the write",
                entry,
            )
    ordered = sorted(by_channel.values(), key=lambda e: (e.time, e.id), reverse=True)
    return [UndoTarget(e, newest_chosen[e.key]) for e in ordered]


def moved_since(target: UndoTarget, now: Any, precision: int | None) -> str | None:
    """Why the channel no longer holds what the write left, or None when it still does."""
    last = target.last
    left = last.readback_after
    if left is None:
        left = last.requested_value
    sent = last.requested_value
    a, b, s = to_float(left), to_float(now), to_float(sent)
    digits = 3 if precision is None else max(0, int(precision))
    tolerance = 0.5 * 10.0 ** (-digits)
    if a is None or b is None:
        same = now in (left, sent)
    else:
        same = abs(a - b) <= max(tolerance, 1e-12) or (
            s is not None and abs(s - b) <= max(tolerance, 1e-12)
        )
    if same:
        return None
    return (
        f"{target.channel} now reads {_value(now)}, not the {_value(sent)} set at "
        f"{clock(last.time)} (audit entry {last.id}): it moved since; "
        "the undo was refused"
    )


__all__ = [
    "CHANGE_OUTCOMES",
    "VERIFIED_OUTCOMES",
    "HistoryItem",
    "UndoRefused",
    "UndoTarget",
    "changes",
    "clock",
    "describe_origin",
    "describe_write",
    "history",
    "merged",
    "moved_since",
    "olog_items",
    "undo_targets",
]
