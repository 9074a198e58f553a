"""One audit entry as every store keeps it: its outcomes, its columns and its row.

The SQLite log (``safety.audit``) and the PostgreSQL log (``safety.audit_postgres``) store the
same entries; what an entry is lives here, below both, so neither imports the other for it.
"""

from __future__ import annotations

import getpass
import json
import time
from dataclasses import asdict, dataclass
from typing import Any

from osprey_desktop.channels.addresses import channel_key
from osprey_desktop.connectors.base import WRITE_OUTCOMES, jsonable

Outcome = str
#: Outcomes written from now on: the intent before a put, the write-result vocabulary, and the
#: resolution of a write in doubt.
OUTCOMES: tuple[str, ...] = ("intent", *WRITE_OUTCOMES, "resolved")
#: Outcomes of entries made by earlier versions; kept readable, never written again.
LEGACY_OUTCOMES: tuple[str, ...] = ("written", "refused", "failed")


class AuditError(Exception):
    """The audit log cannot be opened or written."""


@dataclass(frozen=True)
class AuditEntry:
    id: int
    time: float
    thread_id: str | None
    operator: str
    channel: str
    value_before: Any
    requested_value: Any
    readback_after: Any
    outcome: str
    approval_id: str | None
    message: str | None
    connector: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def key(self) -> str:
        """The channel's identity (``channels.addresses.channel_key``): an entry written to
        ``pva://X`` and one written to ``X`` are entries of the one channel ``X``. The entry
        keeps the name as it was sent; lookups compare keys."""
        return channel_key(self.channel)


def current_operator() -> str:
    """The login name of the person running the app."""
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry / no env (containers): still record something
        return "unknown"


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(jsonable(value))


def _load(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


#: The columns of an entry, in the order ``entry_row`` gives them (every store uses them).
ENTRY_COLUMNS = (
    "time, thread_id, operator, channel, value_before, requested_value, readback_after,"
    " outcome, approval_id, message, connector"
)


def entry_row(
    *,
    channel: str,
    outcome: Outcome,
    requested_value: Any = None,
    value_before: Any = None,
    readback_after: Any = None,
    thread_id: str | None = None,
    approval_id: str | None = None,
    message: str | None = None,
    connector: str | None = None,
    operator: str | None = None,
    when: float | None = None,
) -> tuple[Any, ...]:
    """The checked values of one entry, in ``ENTRY_COLUMNS`` order (values as JSON text)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"audit outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    if not isinstance(channel, str) or not channel:
        raise ValueError("an audit entry needs the channel's name")
    return (
        time.time() if when is None else when,
        thread_id,
        operator or current_operator(),
        channel,
        _dump(value_before),
        _dump(requested_value),
        _dump(readback_after),
        outcome,
        approval_id,
        message,
        connector,
    )


def entry_of_row(r: tuple[Any, ...]) -> AuditEntry:
    """An entry from ``id, <ENTRY_COLUMNS>``."""
    return AuditEntry(
        id=int(r[0]),
        time=float(r[1]),
        thread_id=r[2],
        operator=r[3],
        channel=r[4],
        value_before=_load(r[5]),
        requested_value=_load(r[6]),
        readback_after=_load(r[7]),
        outcome=r[8],
        approval_id=r[9],
        message=r[10],
        connector=r[11],
    )


__all__ = [
    "ENTRY_COLUMNS",
    "LEGACY_OUTCOMES",
    "OUTCOMES",
    "AuditEntry",
    "AuditError",
    "Outcome",
    "current_operator",
    "entry_of_row",
    "entry_row",
]
