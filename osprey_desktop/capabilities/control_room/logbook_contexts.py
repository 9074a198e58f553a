"""The contexts of the logbook capabilities: an entry as it ended, and a history search.

Their summaries carry ``facts``: lines the answer repeats word for word (whether an entry was
published, where, and why not), whichever planner writes the rest.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from pydantic import Field

from osprey_desktop.context import CapabilityContext


class LogbookEntryContext(CapabilityContext):
    """One logbook entry the operator confirmed (or declined)."""

    CONTEXT_TYPE: ClassVar[str] = "LOGBOOK_ENTRY"
    CONTEXT_CATEGORY: ClassVar[str] = "METADATA"

    entry_id: int
    title: str
    status: str
    logbook: str
    tags: list[str] = Field(default_factory=list)
    attachments: list[str] = Field(default_factory=list)
    remote_id: str | None = None
    publish_error: str | None = None
    where: str = ""

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "entry_id": self.entry_id,
            "status": self.status,
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.entry_id",
        }

    def headline(self) -> str:
        files = f" with {len(self.attachments)} attachment" + (
            "s" if len(self.attachments) != 1 else ""
        )
        files = files if self.attachments else ""
        if self.status == "published":
            return (
                f"**Logbook entry {self.entry_id} published** to Olog (entry {self.remote_id}, "
                f"logbook {self.logbook}){files}: “{self.title}”."
            )
        if self.status == "local":
            return (
                f"**Logbook entry {self.entry_id} made** in the local logbook "
                f"'{self.logbook}'{files}: “{self.title}”."
            )
        if self.status == "not_published":
            return (
                f"**Logbook entry {self.entry_id} was not published**: {self.publish_error}. "
                "It is kept in the local logbook, marked not published; retry it with "
                f"`osprey-desktop logbook retry {self.entry_id}`."
            )
        return f"**Nothing was logged**: the entry “{self.title}” was declined."

    def get_summary(self) -> dict[str, Any]:
        return {
            "type": "Logbook Entry",
            "facts": [self.headline()],
            "entry": self.entry_id,
            "status": self.status,
        }


class LogbookSearchContext(CapabilityContext):
    """What the logbook and the audit log say about a subject, newest first."""

    CONTEXT_TYPE: ClassVar[str] = "LOGBOOK_SEARCH"
    CONTEXT_CATEGORY: ClassVar[str] = "METADATA"

    query: str
    channels: list[str] = Field(default_factory=list)
    since: float | None = None
    #: ``HistoryItem.to_dict()`` rows: kind, time, title, detail, thread_id, entry/audit id.
    items: list[dict[str, Any]] = Field(default_factory=list)
    reason_asked: bool = False
    #: Why the Olog service could not be searched too (None: searched, or not configured).
    remote_problem: str | None = None

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "items": self.items,
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.items",
            "data_structure": "list of {kind, time, title, detail, thread_id, entry_id, audit_id}",
        }

    def get_summary(self) -> dict[str, Any]:
        subject = ", ".join(self.channels) or self.query or "everything"
        period = (
            f" since {time.strftime('%Y-%m-%d %H:%M', time.localtime(self.since))}"
            if self.since
            else ""
        )
        if not self.items:
            facts = [f"**Nothing found** in the logbook or the audit log about {subject}{period}."]
        else:
            facts = [f"**{len(self.items)} found** about {subject}{period}, newest first:"]
            facts += [_line(item) for item in self.items]
            writes = [i for i in self.items if i.get("kind") == "write"]
            entries = [i for i in self.items if i.get("kind") == "entry"]
            if self.reason_asked and writes and not entries:
                facts.append(
                    "No logbook entry gives a reason; the thread named with the write shows "
                    "the request that made it."
                )
        if self.remote_problem:
            facts.append(f"⚠ The Olog service was not searched: {self.remote_problem}.")
        return {"type": "Logbook Search", "facts": facts, "found": len(self.items)}


def _line(item: dict[str, Any]) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(item.get("time") or 0)))
    links = []
    if item.get("entry_id") is not None:
        links.append(f"logbook entry {item['entry_id']}")
    if item.get("olog_id") is not None:
        links.append(f"Olog entry {item['olog_id']}")
    if item.get("audit_id") is not None:
        links.append(f"audit entry {item['audit_id']}")
    if item.get("thread_id"):
        thread = item["thread_id"]
        links.append(f"[thread {thread}](osprey-desktop://thread/{thread})")
    where = f" ({', '.join(links)})" if links else ""
    if item.get("kind") == "write":
        return f"- {when} — {item.get('detail')}{where}"
    shown = item.get("detail")
    detail = f": {shown}" if shown and shown != item.get("title") else ""
    return f"- {when} — logbook: “{item.get('title')}”{detail}{where}"


__all__ = ["LogbookEntryContext", "LogbookSearchContext"]
