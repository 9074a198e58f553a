"""When a request or an answer was made, as the transcript shows it (no agent imports: the
window paints before the agent stack loads)."""

from __future__ import annotations

import time
from datetime import datetime


def stamp_text(epoch: float | None, now: float | None = None) -> str:
    """``14:02:55`` for today, ``2026-11-23 14:02`` for another day; '' when unknown."""
    if epoch is None:
        return ""
    moment = datetime.fromtimestamp(epoch)
    today = datetime.fromtimestamp(time.time() if now is None else now).date()
    if moment.date() == today:
        return f"{moment:%H:%M:%S}"
    return f"{moment:%Y-%m-%d %H:%M}"
