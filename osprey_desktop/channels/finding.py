"""Find the channels one target phrase names, with an account of every word of it.

This is the function the request parser (``osprey_desktop.language``) calls once per target
phrase it read from a request; channels does not read whole requests (what to do, when, how
much), only what a phrase says about channels::

    from osprey_desktop.channels import find

    finding = find("the last two horizontal corrector setpoints", database, intent="read")
    finding.channels           # ['SR:MAG:HCM:71:CURRENT:SP', 'SR:MAG:HCM:72:CURRENT:SP']
    finding.explained_words    # {'last': 'ordinal', 'two': 'ordinal', 'horizontal': 'name',
                               #  'corrector': 'name', 'setpoints': 'setpoint'}
    finding.unexplained_words  # []
    finding.confidence         # 1.0
    finding.assumed_area       # 'SR': no area named, the main machine assumed
    finding.candidates         # []: nothing to offer, the answer is sure

``intent``: ``"read"`` (default: readbacks where a device has both, unless the phrase says
setpoint), ``"write"`` (setpoints only: the channels a write may go to).

Every content word of the phrase is *explained* by the channels found (``explained_words``:
word -> how: ``name`` (a PV or list name, or an abbreviation of one), ``description``,
``context`` (a heading above the channel in a hierarchy), ``number``, ``sector``,
``ordinal``, ``setpoint`` / ``readback``, ``all``, ``alias``) or is not
(``unexplained_words``). ``confidence`` is the share of the phrase's weight explained, each
word weighing by how rare it is in the list (a word the list does not have weighs most).
Below ``CONFIDENT`` the finding gives no channels, only ``candidates`` (the nearest real
channels) and a ``question`` to ask: a phrase whose words the list does not explain gets
"no channel for ...", never channels that match its other words.

``assumed_area``: when the phrase names no area and the kind of device exists in several
(a storage ring, a booster and the lines between them), the answer is narrowed to the main
one: config ``channel_finding.default_area``, else the area with the most devices.

An alias learned from the operator (``channels.aliases``) answers its phrase directly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from osprey_desktop.channels import index_cache
from osprey_desktop.channels.aliases import AliasStore
from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.channels.finder import (
    CONTEXT,
    OWN,
    ChannelFinder,
    load_vocabulary,
    normalize,
)
from osprey_desktop.channels.query import (
    EVERYTHING_WORDS,
    FILLER,
    ORDINALS,
    READBACK_WORDS,
    SETPOINT_WORDS,
)
from osprey_desktop.channels.search import STOPWORDS
from osprey_desktop.config import get_config_value
from osprey_desktop.language.numbers import NUMBER_WORDS

__all__ = ["CONFIDENT", "Finding", "configured_finder", "find"]

#: The share of a phrase's weight its channels must explain for an answer without asking.
CONFIDENT = 0.6
_SELECTORS = frozenset({"first", "last", "final", "initial"})
_SECTOR_WORDS = frozenset(
    {"sector", "sectors", "sect", "sec", "cell", "cells", "girder", "girders"}
)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@dataclass(frozen=True)
class Finding:
    """The channels one target phrase names, and how sure that is."""

    channels: list[str]
    explained_words: dict[str, str] = field(default_factory=dict)
    unexplained_words: list[str] = field(default_factory=list)
    confidence: float = 0.0
    assumed_area: str | None = None
    candidates: list[str] = field(default_factory=list)
    #: What to ask the operator when the finding is not sure ("" when it is).
    question: str = ""

    @property
    def sure(self) -> bool:
        return bool(self.channels) and not self.question

    def to_dict(self) -> dict[str, Any]:
        return {
            "channels": list(self.channels),
            "explained_words": dict(self.explained_words),
            "unexplained_words": list(self.unexplained_words),
            "confidence": round(self.confidence, 3),
            "assumed_area": self.assumed_area,
            "candidates": list(self.candidates),
            "question": self.question,
        }


def configured_finder(database: ChannelDatabase) -> ChannelFinder:
    """The database's finder with the configured vocabulary and default area (built once per
    list and configuration)."""
    extra = get_config_value("channel_finding.vocabulary", {}) or {}
    area = get_config_value("channel_finding.default_area", None)
    sectors = get_config_value("channel_finding.sectors", {}) or {}
    placed = repr(sorted((int(k), list(v)) for k, v in sectors.items()))
    key = (id(database), repr(sorted(extra.items())) if isinstance(extra, dict) else "", area)
    key = (*key, placed)
    found = _FINDERS.get(key)
    if found is not None and found[0] is database:
        return found[1]
    kept: dict[str, ChannelFinder] = getattr(database, "finders", None) or {}
    vocabulary_key = (repr(sorted(extra.items())) if isinstance(extra, dict) else "") + placed
    finder = kept.get(vocabulary_key)
    if finder is None:
        finder = ChannelFinder(database.records, load_vocabulary(extra))
        if sectors:
            finder.place_in_sectors(sectors, database.channels_named)
        finder.warm()
        database.finders = {**kept, vocabulary_key: finder}
        if getattr(database, "index_key", None):  # loaded from a file: kept for next time
            index_cache.keep(database)
    finder.default_area = str(area) if area else None
    _FINDERS.clear()  # one list at a time: the configured one
    _FINDERS[key] = (database, finder)
    return finder


_FINDERS: dict[Any, tuple[ChannelDatabase, ChannelFinder]] = {}


def find(
    phrase: str,
    database: ChannelDatabase,
    *,
    intent: str = "read",
    finder: ChannelFinder | None = None,
) -> Finding:
    """The channels ``phrase`` (one target: "the 3rd BPM's x") names in ``database``."""
    if intent not in ("read", "write"):
        raise ValueError(f"intent must be 'read' or 'write', not {intent!r}")
    finder = finder or configured_finder(database)
    writable = intent == "write"
    learned = AliasStore.default().lookup(phrase, database.source)
    if learned is not None and all(c in database for c in learned.channels):
        names = [database.require(c).name for c in learned.channels]
        if not writable or all(database.require(n).writable for n in names):
            return Finding(names, {phrase: "alias"}, [], 1.0)
    # "vmc 7", "HMC21": a device prefix typed with two letters swapped, accounted as the list's
    spelled = finder.prefix_slips_respelled(phrase)
    found = finder.find(spelled, writable=True if writable else None)
    names = found.names
    if writable:
        names = [n for n in names if database.require(n).writable]
    explained, unexplained, confidence = _account(finder, spelled, found, names)
    if names and confidence >= CONFIDENT and not unexplained:
        return Finding(names, explained, unexplained, confidence, found.assumed_area)
    candidates = names[:5] or database.suggest(phrase, limit=5)
    missing = (
        f" (no channel has '{' '.join(unexplained)}' with the other words)" if unexplained else ""
    )
    question = f"No channel for '{phrase.strip()}'{missing}. " + (
        "The nearest channels are below; which one do you mean?"
        if candidates
        else "Which channel do you mean?"
    )
    return Finding([], explained, unexplained, confidence, found.assumed_area, candidates, question)


def _in_a_phrase_found(finder: ChannelFinder, word: str, query: Any, chosen: set[int]) -> bool:
    """Whether ``word`` is part of what the channels found have as one: a path
    ("booster-to-storage"), or a phrase the vocabulary reads as a term ("vacuum level")."""
    for start, end in query.paths:
        if word in (normalize(start), normalize(end)):
            path = f"{normalize(start)}to{normalize(end)}"
            if chosen & set(finder.word_matches(path)[0].tolist()):
                return True
    for term, phrases in finder.vocabulary.phrases.items():
        spelled = any(
            word in p and all(w in query.words or normalize(w) in query.words for w in p)
            for p in phrases
        )
        if spelled and chosen & set(finder.word_matches(term)[0].tolist()):
            return True
    return False


def _account(
    finder: ChannelFinder, phrase: str, found: Any, names: list[str]
) -> tuple[dict[str, str], list[str], float]:
    """(word -> what explains it, words nothing explains, the share of weight explained)."""
    query = found.query
    positions = (finder.records.position(n) for n in names)
    chosen = {p for p in positions if p is not None}
    total = len(finder.records) or 1
    explained: dict[str, str] = {}
    unexplained: list[str] = []
    weight_in = weight_all = 0.0
    for raw in _WORD.findall(phrase.lower()):
        word = normalize(raw)
        if raw.isdigit() or raw in NUMBER_WORDS:
            number = int(raw) if raw.isdigit() else NUMBER_WORDS[raw]
            if number in query.sectors:
                explained[raw] = "sector"
            elif number in query.numbers or query.ordinal is not None:
                explained[raw] = "number" if number in query.numbers else "ordinal"
            continue
        if raw in ORDINALS or raw in _SELECTORS or re.fullmatch(r"\d+(st|nd|rd|th)", raw):
            explained[raw] = "ordinal"
            continue
        if raw in _SECTOR_WORDS:
            explained[raw] = "sector"
            continue
        if raw in SETPOINT_WORDS or raw in READBACK_WORDS:
            explained[raw] = "setpoint" if raw in SETPOINT_WORDS else "readback"
            continue
        if raw in EVERYTHING_WORDS:
            explained[raw] = "all"
            continue
        if raw in FILLER or raw in STOPWORDS:
            continue
        indices, strengths, sure = finder.word_matches(word)
        weight = math.log((total + 1) / ((sure or len(indices)) + 1)) + 0.05
        weight_all += weight
        strongest = max(
            (s for i, s in zip(indices.tolist(), strengths.tolist(), strict=True) if i in chosen),
            default=0.0,
        )
        if strongest > 0.0:
            weight_in += weight
            explained[raw] = (
                "name" if strongest > OWN else "description" if strongest > CONTEXT else "context"
            )
        elif _in_a_phrase_found(finder, word, query, chosen):
            weight_in += weight
            explained[raw] = "name"
        else:
            unexplained.append(raw)
    if not names:
        return explained, unexplained, 0.0
    confidence = weight_in / weight_all if weight_all else 1.0
    return explained, unexplained, confidence
