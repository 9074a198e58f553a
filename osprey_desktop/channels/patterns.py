"""Names typed as shell patterns: "SR07C:IG*", "ig1? pressures", "SR0[1-3]C:HCM*:Current:RB".

An engineer used to the EPICS tools names several channels at once with the patterns of a
shell (``*`` any run of characters, ``?`` one character, ``[1-3]`` one of a set). A pattern
with a colon is matched against whole channel names; one without is matched against device
names ("qf*" is every QF). The pattern is then said as the names it matches, so the finder
reads them as if each had been typed; a pattern that matches nothing, or too many to read at
once, is left as typed (the finder asks about it).

A question mark ends many a question ("HCM14 rb?", "QF3? QD4?"): after a name it is a pattern
only when a word of the channel list follows it ("ig1? pressures"), never at the end.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["MAX_MATCHES", "patterns_expanded"]

#: More names than this are never read from one pattern: the pattern is asked about instead.
MAX_MATCHES = 100

_TOKEN = re.compile(r"(?<![\w:.*?\[\]-])[A-Za-z0-9_:.*?\[\]-]*[A-Za-z][A-Za-z0-9_:.*?\[\]-]*")
_NEXT_WORD = re.compile(r"\s+([a-z]+)\b", re.I)
_ROLES = frozenset({"rb", "sp", "rbs", "sps", "readback", "readbacks", "setpoint", "setpoints"})


def patterns_expanded(text: str, database: Any, list_words: Iterable[str] = ()) -> str:
    """``text`` with each shell pattern said as the channel (or device) names it matches."""
    if not any(c in text for c in "*?["):
        return text
    words = {w.lower() for w in list_words}
    out: list[str] = []
    last = 0
    for found in _TOKEN.finditer(text):
        token = found.group(0)
        if not _is_pattern(token, text, found.end(), words):
            continue
        names = _matches(token, database)
        if not names or len(names) > MAX_MATCHES:
            continue
        out.append(text[last : found.start()])
        out.append(", ".join(names))
        last = found.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _is_pattern(token: str, text: str, end: int, words: set[str]) -> bool:
    if "*" in token or re.search(r"\[[^\]]+\]", token):
        return True
    if "?" not in token.rstrip("?"):
        if not token.endswith("?") or not re.search(r"\d\?$", token):
            return False
        # "ig1? pressures": a word of the list after it; "QF3? QD4?" asks twice
        after = _NEXT_WORD.match(text, end)
        said = after.group(1).lower() if after is not None else ""
        return bool(said) and (said in words or said.rstrip("s") in words or said in _ROLES)
    return True


def _matches(pattern: str, database: Any) -> list[str]:
    wanted = pattern.lower()
    records = list(database)
    if ":" in pattern:
        return [r.name for r in records if fnmatch.fnmatchcase(r.name.lower(), wanted)]
    devices: dict[str, None] = {}
    for record in records:
        device = (getattr(record, "device", None) or "").strip()
        if device and fnmatch.fnmatchcase(device.lower(), wanted):
            devices.setdefault(device, None)
    return list(devices)
