"""The words that name channels in one list, for the planner to recognise a request about them.

Names, families, devices, synonyms, and the description words that tell channels apart (in
fewer than half of them: "quadrupole", "dose"; not "ring" on a one-ring list). Read from the
list's columns (no record is built) once per list and kept on the database, so the kept index
(``channels.index_cache``) carries them to the next start.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

__all__ = ["channel_words"]

_WORD = re.compile(r"[a-z][a-z0-9]+")
_DESCRIBING = re.compile(r"[a-z]{4,}")


def channel_words(database: Any, generic: frozenset[str], stop: frozenset[str]) -> tuple[str, ...]:
    """The words of ``database`` that name channels, without ``generic`` and ``stop`` words."""
    kept = database.__dict__.get("_channel_words")
    key = (generic, stop)
    if kept is not None and kept[0] == key:
        return kept[1]
    records = database.records
    found: dict[str, None] = {}
    columns = zip(
        records.names,
        records.column("family"),
        records.column("device"),
        records.column("synonyms"),
        strict=True,
    )
    for name, family, device, synonyms in columns:
        for text in (family, device or "", *synonyms, name):
            for word in _WORD.findall(text.lower()):
                if word not in generic and word not in stop:
                    found.setdefault(word, None)
    described: Counter[str] = Counter()
    for description in records.column("description"):
        described.update(set(_DESCRIBING.findall(description.lower())))
    half = max(1, len(records) // 2)
    for word, count in described.items():
        if count < half and word not in generic and word not in stop:
            found.setdefault(word, None)
    words = tuple(found)
    database._channel_words = (key, words)
    return words
