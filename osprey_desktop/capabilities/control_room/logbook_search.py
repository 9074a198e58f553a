"""``logbook_search``: what the logbook and the audit log say about a subject.

"what did we log about QF07 this week?", "when was HCM01 last changed and why?": a full-text
search of the logbook (SQLite FTS5 or PostgreSQL full text) joined with the writes of the
audit log, newest first, each result naming its logbook entry, audit entry and thread.
Reads only.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.logbook_contexts import LogbookSearchContext
from osprey_desktop.logbook.history import merged
from osprey_desktop.logbook.requests import (
    is_search_request,
    search_since,
    search_words,
    wants_reason,
)
from osprey_desktop.state import StateManager

#: a device or PV name: letters and a number ("HCM01", "SR02C:QF07"), never a bare number
_DEVICE_WORD = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[\w:.\-]+$")


def named_channels(words: str) -> list[str]:
    """The channels the words name by a device or PV name ("HCM01", "SR02C:QF07")."""
    from osprey_desktop.connectors import get_configured_channel_database

    try:
        database = get_configured_channel_database()
    except Exception:  # noqa: BLE001 - no channel list: search the words alone
        return []
    found: list[str] = []
    # "QF 9": a name said with a space is one name (never "QF" and every device numbered 9)
    words = re.sub(r"\b([A-Za-z]{1,5})[\s-](\d{1,3})\b", r"\1\2", words)
    for word in words.split():
        if _DEVICE_WORD.match(word):
            found += [c for c in database.channels_named(word) if c not in found]
    return found


class LogbookSearchCapability(ControlRoomCapability):
    """Search the logbook and the audit log (who changed what, when, and why)."""

    name = "logbook_search"
    description = (
        "Search the logbook and the audit log of writes: what was logged about a device or "
        "topic, when a channel was last changed, by whom and why"
    )
    provides = ["LOGBOOK_SEARCH"]
    requires = []
    keywords = ["logbook", "log entries", "last changed"]
    examples = [
        "what did we log about QF07 this week?",
        "when was HCM01 last changed and why?",
        "search the logbook for RF trips",
    ]

    @classmethod
    def claims(cls, text: str) -> bool:
        return is_search_request(text)

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        return is_search_request(text)

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.logbook.history import history
        from osprey_desktop.logbook.publishing import logbook_of_running_graph
        from osprey_desktop.safety.audit import audit_log_of_running_graph

        request = StateManager.get_user_query(self._state) or self.request_text()
        words = search_words(request)
        since = search_since(request)
        channels = named_channels(words)
        store = logbook_of_running_graph()
        audit = audit_log_of_running_graph()
        # a channel's short name finds entries that spell it either way ("HCM01", the PV)
        query = " ".join([words, *(_device(c) for c in channels)])

        def gather() -> list[Any]:
            hits = store.search(query, since=since, limit=40)
            if channels:
                devices = {_device(c).lower() for c in channels}
                hits = [h for h in hits if _mentions_device(h.entry, devices)] or hits
            return history(hits, audit.entries(limit=None), words, channels, since, limit=20)

        items = await asyncio.to_thread(gather)
        remote, problem = await _search_olog(store, query, since)
        items = merged(items, remote)
        if wants_reason(request) and channels:
            items = _last_change_first(items)
        return self.store_output_context(
            LogbookSearchContext(
                query=words,
                channels=channels,
                since=since,
                items=[i.to_dict() for i in items],
                reason_asked=wants_reason(request),
                remote_problem=problem,
            )
        )


async def _search_olog(store: Any, words: str, since: float | None) -> tuple[list[Any], str | None]:
    """Entries on the configured Olog service (made there, or from any console) that the
    local logbook does not hold; ``([], None)`` for a local logbook. A service that cannot
    be searched is said, not hidden: ``([], reason)``."""
    from osprey_desktop.config import get_config
    from osprey_desktop.logbook.history import olog_items
    from osprey_desktop.logbook.olog import OlogError
    from osprey_desktop.logbook.publishing import olog_client
    from osprey_desktop.logbook.store import search_terms

    terms = search_terms(words)
    if not terms:
        return [], None
    try:
        client = olog_client(get_config())
        if client is None:
            return [], None
        found = await client.search(" ".join(terms))
    except OlogError as exc:
        return [], str(exc)
    published = await asyncio.to_thread(store.entries, None, ["published"])
    known = {str(e.remote_id) for e in published if e.remote_id}
    return olog_items(found, known, since), None


def _device(channel: str) -> str:
    """'SR01C:HCM01:Current:SP' -> 'HCM01': the part operators type."""
    parts = channel.split(":")
    with_digits = [p for p in parts[1:] if any(ch.isdigit() for ch in p)]
    return (with_digits or parts)[0]


def _mentions_device(entry: Any, devices: set[str]) -> bool:
    text = f"{entry.title} {entry.text} {' '.join(entry.channels)}".lower()
    return any(d in text for d in devices)


def _last_change_first(items: list[Any]) -> list[Any]:
    """'When was it last changed and why?': the newest write, then the entries that say why
    (newest first), then the rest."""
    writes = [i for i in items if i.kind == "write"]
    if not writes:
        return items
    last = writes[0]
    why = [i for i in items if i.kind == "entry"]
    rest = [i for i in items if i is not last and i not in why]
    return [last, *why, *rest]


__all__ = ["LogbookSearchCapability", "named_channels"]
