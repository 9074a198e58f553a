"""What each thread's last approval really is, from the approval ledger (no Qt here).

The checkpoint of a thread whose console was killed mid-approval still holds the interrupt, so
the thread list says "pending" although the answer was given, the write may be on its way or
done, or a put may have left without an outcome (in doubt). ``osprey-desktop threads`` reads
the ledger for those threads; the window's Threads menu and its "approval waiting" notice read
it the same way, so the two never disagree. Read-only: nothing here changes the ledger.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: The ledger's words for a thread's last approval, as the Threads menu shows them before the
#: title (the states ``osprey-desktop threads`` names: approval, running, sending, in doubt).
STATE_MARKS = {
    "pending": ("⚠ ", "Waiting for your approval"),
    "approved": ("▶ running: ", "Approved: a console is carrying it out"),
    "executing": ("▶ running: ", "Approved: a console is carrying it out"),
    "sending": ("▶ sending: ", "A console is sending the writes"),
    "in_doubt": (
        "⚠ in doubt: ",
        "In doubt: a write may have reached the machine and its console stopped without an "
        "outcome. Open the thread to see which channel; verify reads it back.",
    ),
    "done": ("", "Answered and carried out; opening the thread shows the outcome"),
    "rejected": ("", "Answered no; nothing was written"),
}


@dataclass(frozen=True)
class ThreadState:
    """A listed thread and the ledger's status of its last approval (None: not in the ledger,
    the checkpoint's word stands)."""

    info: Any  # persistence.threads.ThreadInfo
    status: str | None

    @property
    def waiting(self) -> bool:
        """Still waiting for an answer: the checkpoint says so and the ledger agrees."""
        return bool(self.info.pending_approval) and self.status in (None, "pending")

    @property
    def in_doubt(self) -> bool:
        return self.status == "in_doubt"

    @property
    def mark(self) -> str:
        if not self.info.pending_approval:
            return ""
        return STATE_MARKS.get(self.status or "pending", ("", ""))[0]

    @property
    def tooltip(self) -> str:
        if not self.info.pending_approval:
            return ""
        if self.waiting:
            return f"Waiting for approval: {self.info.pending_message or ''}".rstrip(": ")
        words = STATE_MARKS.get(str(self.status), ("", ""))[1]
        return words or f"Approval answered ({self.status}); open the thread to see the outcome."


async def thread_states(session: Any, threads: Sequence[Any]) -> list[ThreadState]:
    """Each of ``threads`` with its ledger status, read as ``osprey-desktop threads`` reads it:
    only threads the checkpoint calls pending are looked up (the last record of the thread).
    A ledger that cannot be read leaves the checkpoint's word (logged, never raised)."""
    ledger = getattr(session, "ledger", None)
    states = []
    for info in threads:
        status = None
        if ledger is not None and info.pending_approval:
            try:
                records = await ledger.for_thread(info.thread_id)
            except Exception:  # noqa: BLE001 - the menu falls back to the checkpoint's word
                log.warning("approval ledger not readable for %s", info.thread_id, exc_info=True)
                records = []
            if records:
                status = str(records[-1].to_dict()["status"])
        states.append(ThreadState(info, status))
    return states


__all__ = ["STATE_MARKS", "ThreadState", "thread_states"]
