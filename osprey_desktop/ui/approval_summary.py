"""What an approval of many channel writes says at a glance (no Qt here).

Rows in the order an operator checks them: blocked writes first, then the rest as planned;
each with its change (Δ) and a short verdict ("max_step", "read-only"). One summary line
names the group, the target, the largest change and which writes are blocked:
"36 vertical corrector magnets, all → 0 A, |Δ| ≤ 2.5 A, 1 blocked: VCM11 max_step".

A blocked write comes in one of two shapes: inside ``operations`` with its ``violation`` (the
whole approval cannot be given), or in ``blocked_operations`` beside the allowed ones (the
core asks about the allowed ones and never sends these: ``not_sent``). Both read the same.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.ui.values import format_scalar

_LIMIT = re.compile(r"\(limit (\w+)=")
_DEVICE_DIGITS = re.compile(r"[A-Za-z]+\d+")
BLOCKED_NAMES_SHOWN = 3

Describe = Callable[[str], str]  # channel -> its description in the channel list ("" unknown)


def verdict_word(violation: str | None) -> str:
    """A blocked write's reason in a word or two: the limit's key, read-only, unchecked."""
    if not violation:
        return "ok"
    match = _LIMIT.search(violation)
    if match:
        return match.group(1)
    lowered = violation.lower()
    if "read-only" in lowered or "not writable" in lowered:
        return "read-only"
    if "cannot be checked" in lowered or "cannot read" in lowered or "unknown" in lowered:
        return "unchecked"
    if "not a finite number" in lowered:
        return "not a number"
    return "blocked"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def change_of(op: Mapping[str, Any]) -> float | None:
    """New minus current value, when both are numbers."""
    new, now = _number(op.get("new_value")), _number(op.get("current_value"))
    return None if new is None or now is None else new - now


def short_name(channel: str) -> str:
    """The device in a channel name (``SR02C:VCM11:Current:SP`` -> ``VCM11``), else the name."""
    parts = channel.split(":")
    for part in parts:
        if _DEVICE_DIGITS.fullmatch(part) and not part.upper().startswith("SR"):
            return part
    return channel


def format_change(delta: float | None, precision: Any) -> str:
    if delta is None:
        return "—"
    digits = precision if isinstance(precision, int) and 0 <= precision <= 9 else 3
    return f"{delta:+.{digits}f}"


@dataclass(frozen=True)
class WriteRow:
    op: Mapping[str, Any]
    delta: float | None
    verdict: str
    not_sent: bool = False  # carried beside the approval: a yes never sends it

    @property
    def blocked(self) -> bool:
        return self.not_sent or bool(self.op.get("violation"))


def ordered_rows(
    operations: Sequence[Mapping[str, Any]], not_sent: Sequence[Mapping[str, Any]] = ()
) -> list[WriteRow]:
    """Blocked writes first (each in its planned order), then the others; ``not_sent``:
    the writes the core blocked and carries beside the approval (always blocked rows)."""
    rows = [
        WriteRow(op, change_of(op), verdict_word(op.get("violation") or "blocked"), True)
        for op in not_sent
        if isinstance(op, Mapping)
    ]
    rows += [
        WriteRow(op, change_of(op), verdict_word(op.get("violation")))
        for op in operations
        if isinstance(op, Mapping)
    ]
    return [r for r in rows if r.blocked] + [r for r in rows if not r.blocked]


def group_noun(channels: Sequence[str], describe: Describe | None) -> str:
    """What the channels are, from the words their descriptions share ("vertical corrector
    magnets"); "channels" when they share none or none is described."""
    if describe is None:
        return "channels"
    texts = [describe(c) for c in channels]
    if not all(texts):
        return "channels"
    words = [t.split() for t in texts]
    shared: list[str] = []
    for column in zip(*words, strict=False):
        if len({w.lower() for w in column}) != 1 or any(ch.isdigit() for ch in column[0]):
            break
        shared.append(column[0].lower())
    if not shared:
        return "channels"
    if len(channels) > 1 and not shared[-1].endswith("s"):
        shared[-1] += "s"
    return " ".join(shared)


def summary_line(
    operations: Sequence[Mapping[str, Any]],
    describe: Describe | None = None,
    not_sent: Sequence[Mapping[str, Any]] = (),
) -> str:
    """One line for the whole approval (see the module)."""
    rows = ordered_rows(operations, not_sent)
    if not rows:
        return ""
    channels = [str(r.op.get("channel", "?")) for r in rows]
    units = {str(r.op.get("units") or "") for r in rows}
    unit = f" {units.pop()}" if len(units) == 1 and "" not in units else ""
    parts = [f"{len(rows)} {group_noun(channels, describe)}"]
    targets = {format_scalar(r.op.get("new_value")) for r in rows}
    if len(targets) == 1:
        parts.append(f"{'all ' if len(rows) > 1 else ''}→ {targets.pop()}{unit}")
    else:
        numbers = [n for n in (_number(r.op.get("new_value")) for r in rows) if n is not None]
        if numbers:
            parts.append(f"→ {format_scalar(min(numbers))} … {format_scalar(max(numbers))}{unit}")
    deltas = [abs(r.delta) for r in rows if r.delta is not None]
    if deltas:
        parts.append(f"|Δ| ≤ {format_scalar(round(max(deltas), 6))}{unit}")
    blocked = [r for r in rows if r.blocked]
    if blocked:
        named = ", ".join(
            f"{short_name(str(r.op.get('channel', '?')))} {r.verdict}"
            for r in blocked[:BLOCKED_NAMES_SHOWN]
        )
        more = f", {len(blocked) - BLOCKED_NAMES_SHOWN} more" if len(blocked) > 3 else ""
        parts.append(f"{len(blocked)} blocked: {named}{more}")
    return ", ".join(parts)


__all__ = [
    "WriteRow",
    "change_of",
    "format_change",
    "group_noun",
    "ordered_rows",
    "short_name",
    "summary_line",
    "verdict_word",
]
