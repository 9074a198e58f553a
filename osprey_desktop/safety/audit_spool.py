"""Outcomes the audit log could not take, kept on this computer until it can.

The intent of a put is recorded before the put, or nothing is sent. Its outcome comes after
the put has left: when the audit log is unreachable then (a PostgreSQL server stopped in the
middle of a batch, a full disk), the outcome is a fact that must not be lost. It is appended
to a local file beside the data (``audit_spool.jsonl``, one JSON entry per line, flushed to
disk) and written into the audit log, in order and with its original time, the next time a
write or ``verify`` reaches the log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

from osprey_desktop.safety.audit import AuditError

logger = logging.getLogger(__name__)

SPOOL_NAME = "audit_spool.jsonl"
_LOCK = threading.Lock()


def spool_path() -> Path:
    """``<data dir>/audit_spool.jsonl``."""
    from osprey_desktop.config import get_data_dir

    return Path(get_data_dir()) / SPOOL_NAME


def keep(fields: dict[str, Any], path: Path | None = None) -> Path:
    """Append one entry (``AuditLog.record``'s arguments, with ``when``) to the spool."""
    path = path or spool_path()
    line = json.dumps(fields, default=str)
    with _LOCK:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    return path


def pending(path: Path | None = None) -> list[dict[str, Any]]:
    """The entries waiting for the audit log, oldest first (a damaged line is skipped)."""
    path = path or spool_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line)
            if isinstance(entry, dict):
                out.append(entry)
    return out


def flush_into(audit: Any, path: Path | None = None) -> int:
    """Write every waiting entry into ``audit``, oldest first; returns how many went in.

    Stops at the first one the log refuses (it stays, with the ones after it, for next time).
    """
    path = path or spool_path()
    with _LOCK:
        entries = pending(path)
        written = 0
        for entry in entries:
            try:
                audit.record(**entry)
            except (AuditError, OSError):
                break
            written += 1
        if written == 0:
            return 0
        rest = entries[written:]
        if rest:
            tmp = path.with_suffix(".tmp")
            tmp.write_text("".join(json.dumps(e, default=str) + "\n" for e in rest))
            os.replace(tmp, path)
        else:
            path.unlink(missing_ok=True)
    logger.warning("%d audit entries kept locally were added to the audit log", written)
    return written


async def aflush_into(audit: Any, path: Path | None = None) -> int:
    """``flush_into`` in a worker thread."""
    import asyncio

    return await asyncio.to_thread(flush_into, audit, path)


__all__ = ["SPOOL_NAME", "aflush_into", "flush_into", "keep", "pending", "spool_path"]
