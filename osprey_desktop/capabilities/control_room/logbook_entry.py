"""``logbook_entry``: compose a logbook entry from the operator's words and the thread, show it
for confirmation, and publish it only after a yes.

Order of events, as for a write:

1. the draft (title and text from the operator's words, the thread's values and writes with
   their times, its history plots as PNG attachments) is stored in the local logbook as a
   ``draft`` and an approval is recorded in the ledger under a stable id;
2. the approval interrupt shows the entry (the window lets the operator edit its words, its
   logbook and tags, and add a screenshot, while it is a draft); ``ask`` exits 3;
3. after the answer (claimed once in the ledger), one process publishes the entry as it is
   stored then: to the local logbook, or to Olog (kept locally, *not published*, with the
   server's reason when that fails); a no discards the draft. Both are audited.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Mapping
from typing import Any

from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.logbook_contexts import LogbookEntryContext
from osprey_desktop.logbook.entries import Attachment, Fact, LogbookEntry, compose_entry
from osprey_desktop.logbook.requests import is_entry_request, plot_subject
from osprey_desktop.state import StateManager

logger = logging.getLogger(__name__)

#: At most this many facts and plots from the thread go into one entry.
_MAX_FACTS = 40
_MAX_PLOTS = 4


def logbook_approval_id(thread_id: str, checkpoint_ns: str) -> str:
    """Stable across the node's re-runs (same thread and task namespace)."""
    text = f"logbook\x1f{thread_id}\x1f{checkpoint_ns}"
    return "l-" + hashlib.sha256(text.encode()).hexdigest()[:20]


def _shows(channels: list[str], subject: str) -> bool:
    """Whether a plot of ``channels`` is the "orbit" / "beam current" plot the words name: every
    word is in a channel's name, description or synonyms."""
    from osprey_desktop.connectors import get_configured_channel_database

    words = [w for w in re.findall(r"\w+", subject.lower()) if len(w) > 1]
    try:
        database = get_configured_channel_database()
    except Exception:  # noqa: BLE001 - no list: the names alone
        database = None
    for channel in channels:
        record = database.get(channel) if database is not None else None
        text = " ".join(
            [channel, getattr(record, "description", ""), *getattr(record, "synonyms", ())]
        ).lower()
        if words and all(w in text for w in words):
            return True
    return False


def thread_facts(
    state: Mapping[str, Any], subject: str = ""
) -> tuple[list[Fact], list[Attachment]]:
    """What the thread knows, as entry lines, and its history plots as PNG attachments (only
    those showing ``subject`` when some do: "log the orbit plot")."""
    from osprey_desktop.context import ContextManager
    from osprey_desktop.logbook.plot_png import caption, render, series_of

    manager = ContextManager(dict(state))
    facts: list[Fact] = []
    plots: list[Attachment] = []
    chosen: list[bool] = []
    for name, context in manager.get_all().items():
        kind = name.partition(".")[0]
        if kind == "CHANNEL_VALUES":
            for channel, reading in (getattr(context, "channel_values", None) or {}).items():
                when = getattr(getattr(reading, "timestamp", None), "timestamp", None)
                shown = reading.formatted() if hasattr(reading, "formatted") else reading
                facts.append(
                    Fact("value", f"`{channel}` = {shown}", when() if when else None, (channel,))
                )
        elif kind == "CHANNEL_WRITE_RESULTS":
            for result in getattr(context, "results", None) or []:
                units = f" {result.units}" if result.units else ""
                facts.append(
                    Fact(
                        "write",
                        f"write `{result.channel}` {result.previous_value} → "
                        f"{result.requested_value}{units}: {result.outcome}",
                        result.sent_at,
                        (result.channel,),
                    )
                )
        elif kind == "ARCHIVER_DATA":
            series = series_of(
                getattr(context, "timestamps", {}) or {},
                getattr(context, "time_series_data", {}) or {},
                getattr(context, "units", {}) or {},
            )
            if not series:
                continue
            start, end = context.start_date, context.end_date
            facts.append(
                Fact(
                    "history",
                    f"history of {caption(series)} from {start:%Y-%m-%d %H:%M} to {end:%H:%M}",
                    None,
                    tuple(s.channel for s in series),
                )
            )
            if len(plots) < _MAX_PLOTS:
                named = _shows([s.channel for s in series], subject) if subject else False
                png = Attachment(_plot_name(series, plots), "image/png", render(series))
                plots.append(png)
                chosen.append(named)
    if any(chosen):  # the plots the words name; all of them when none matches
        plots = [p for p, keep in zip(plots, chosen, strict=True) if keep]
    return facts[-_MAX_FACTS:], plots


def _plot_name(series: list[Any], taken: list[Attachment]) -> str:
    """'history-SR-DCCT-Current.png' (a number added when two plots show the same channel)."""
    first = "-".join(p for p in re.split(r"[^\w]+", series[0].channel) if p)
    more = f"-and-{len(series) - 1}-more" if len(series) > 1 else ""
    name = f"history-{first}{more}"
    names = {a.filename for a in taken}
    count = 1
    while f"{name}.png" in names:
        count += 1
        name = f"history-{first}{more}-{count}"
    return f"{name}.png"


class LogbookEntryCapability(ControlRoomCapability):
    """Write a logbook entry of the thread, after the operator confirms it."""

    name = "logbook_entry"
    description = (
        "Make a logbook entry (elog) from the operator's words and this conversation's values, "
        "writes and plots; shown for confirmation before it is published"
    )
    provides = ["LOGBOOK_ENTRY"]
    requires = []
    handles_own_approval = True
    keywords = ["logbook entry", "log this", "elog entry"]
    examples = [
        "make a logbook entry: corrected the orbit in sector 3",
        "log this",
        "log the orbit plot with a note: orbit after the correction",
    ]

    @classmethod
    def claims(cls, text: str) -> bool:
        """The built-in planner gives this capability alone a request it claims."""
        return is_entry_request(text)

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        return is_entry_request(text)

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.config import get_config
        from osprey_desktop.logbook.publishing import logbook_of_running_graph
        from osprey_desktop.persistence.approvals import ledger_of_running_graph

        ledger, namespace = ledger_of_running_graph()
        if ledger is None:
            raise RuntimeError(
                "logbook entries need a thread database that records approvals; nothing was logged"
            )
        config = get_config()
        store = logbook_of_running_graph()
        thread = self.thread_id() or "-"
        approval_id = logbook_approval_id(thread, namespace)
        record = await ledger.get(approval_id)
        if record is None:
            request = StateManager.get_user_query(self._state) or self.request_text()
            # a run stopped between storing its draft and asking left the draft to reuse
            stored = await asyncio.to_thread(_draft_of, store, approval_id)
            if stored is None:
                stored = await self._compose(store, request, approval_id, config, thread)
            record = await ledger.ask(
                approval_id, thread, "logbook_entry", {"entry_id": stored.id, "request": request}
            )
        entry_id = int((record.payload or {}).get("entry_id") or 0)
        entry = await asyncio.to_thread(store.get, entry_id)
        if entry is None:
            raise RuntimeError(f"logbook entry {entry_id} vanished from {store.where}")
        decision = self.request_approval(
            confirmation_message(entry, config),
            "logbook_entry",
            approval_id=approval_id,
            entry_id=entry.id,
            title=entry.title,
            text=entry.text,
            logbook=entry.logbook,
            tags=list(entry.tags),
            attachments=[{"filename": a.filename, "size": a.size} for a in entry.attachments],
            destination=destination(config),
            thread_id=thread,
        )
        # -- only after the operator answered ----------------------------------------------
        return await self._carry_out(ledger, store, record, decision.approved, config)

    async def _compose(
        self, store: Any, request: str, approval_id: str, config: Any, thread: str
    ) -> LogbookEntry:
        """The draft of this step, stored in the logbook."""
        from osprey_desktop.safety.audit import current_operator

        facts, plots = thread_facts(self._state, plot_subject(request))
        draft = compose_entry(
            request,
            facts,
            logbook=self._logbook_name(config),
            tags=list(config.logbook.tags),
            author=current_operator(),
            thread_id=thread,
            attachments=plots,
        ).with_changes(approval_id=approval_id)
        return await asyncio.to_thread(store.add, draft)

    async def _carry_out(
        self, ledger: Any, store: Any, record: Any, approved: bool, config: Any
    ) -> dict[str, Any]:
        from osprey_desktop.logbook.publishing import discard, publish
        from osprey_desktop.persistence.approvals import operator_label

        approval_id = record.approval_id
        entry_id = int((record.payload or {}).get("entry_id") or 0)
        current = await ledger.get(approval_id) or record
        if current.status == "pending":  # resumed without the Gateway: claim it now
            claim = await ledger.claim_answer(
                approval_id,
                current.thread_id,
                "logbook_entry",
                approved,
                answered_by=f"{operator_label()}, graph resumed directly",
            )
            current = claim.record
        if current.status == "rejected" and await ledger.transition(
            approval_id, ["rejected"], "done"
        ):
            await discard(store, entry_id)
        elif current.status == "approved" and await ledger.transition(
            approval_id, ["approved"], "executing", take_ownership=True
        ):
            try:
                await publish(store, entry_id, config)
            finally:
                await ledger.transition(approval_id, ["executing"], "done")
        entry = await asyncio.to_thread(store.get, entry_id)
        if entry is None:
            raise RuntimeError(f"logbook entry {entry_id} vanished from {store.where}")
        return self.store_output_context(_context_of(entry, store))

    @staticmethod
    def _logbook_name(config: Any) -> str:
        section = config.logbook
        return section.olog.logbook if section.type == "olog" else section.logbook


def _draft_of(store: Any, approval_id: str) -> LogbookEntry | None:
    """A draft this approval already stored, if any."""
    drafts = store.entries(limit=50, statuses=["draft"])
    return next((e for e in drafts if e.approval_id == approval_id), None)


def destination(config: Any) -> str:
    section = config.logbook
    if section.type == "olog":
        return f"Olog at {section.olog.url or '(logbook.olog.url not set)'}"
    return "the local logbook"


def confirmation_message(entry: LogbookEntry, config: Any) -> str:
    """What the operator confirms: the whole entry and where it goes."""
    return "\n".join(
        [
            f"**Publish this logbook entry to {destination(config)}?**",
            "",
            entry.describe(),
            "",
            "Answer **yes** to publish it as shown (in the window you can edit its words first) "
            "or **no** to discard it; nothing is logged without a yes.",
        ]
    )


def _context_of(entry: LogbookEntry, store: Any) -> LogbookEntryContext:
    return LogbookEntryContext(
        entry_id=entry.id,
        title=entry.title,
        status=entry.status,
        logbook=entry.logbook,
        tags=list(entry.tags),
        attachments=[a.filename for a in entry.attachments],
        remote_id=entry.remote_id,
        publish_error=entry.publish_error,
        where=store.where,
    )


__all__ = [
    "LogbookEntryCapability",
    "confirmation_message",
    "logbook_approval_id",
    "thread_facts",
]
