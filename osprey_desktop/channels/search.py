"""Ranked search of channel records by meaning: the words operators use, not PV names.

Operators never type ``SR03C:BPM13:X``; they say "horizontal orbit in sector 3", so
``ChannelSearchIndex.search`` ranks channels:

1. the query is (or contains) a channel name -> score 1.0; it equals a synonym -> 0.95;
2. otherwise IDF-weighted token overlap of the query with each channel's name, description,
   synonyms and family; "sector N" (or "SRNN") filters to that sector; a synonym phrase found
   inside the query adds a small bonus; misspelt words are matched to the nearest known word;
3. ``suggest`` offers the nearest names (difflib) for a clarification when nothing matches.

``top_matches`` returns the whole top group (every channel scoring within a small margin of
the best), which is what "the horizontal orbit in sector 3" means: six BPMs, not one.
Pass ``writable=True`` when resolving the target of a write, so ``corrector HCM01`` resolves
to its setpoint only. The index is built once per channel database (``ChannelDatabase``).
"""

from __future__ import annotations

import difflib
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from osprey_desktop.language.numbers import NUMBER_WORD_PATTERN, NUMBER_WORDS

if TYPE_CHECKING:  # records are only read here
    from osprey_desktop.channels.records import ChannelRecord


@dataclass(frozen=True)
class ChannelMatch:
    """A search hit: the channel, how well it matched (0..1), and why."""

    channel: ChannelRecord
    score: float
    reason: str

    @property
    def name(self) -> str:
        return self.channel.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.channel.name,
            "score": round(self.score, 4),
            "reason": self.reason,
            "description": self.channel.description,
            "units": self.channel.units,
            "writable": self.channel.writable,
        }


_STOPWORDS_RAW = frozenset(
    """
    a an the of in at on for to from by with and or me my us our show display give get read
    tell what whats what's is are was be please now value values channel channels pv pvs
    all every each its it this that these those there here about which set write change put
    move plot history trend over last past during since until hours hour minutes minute min
    seconds day days today yesterday i you can could would see check look up down new
    """.split()  # noqa: SIM905 - a word list reads better as text
)
# "current" stays meaningful (beam current, magnet current); so do "x" and "y".

_SECTOR_RE = re.compile(
    r"\b(?:sector|sect|sec)\s*#?\s*(\d{1,2}|" + NUMBER_WORD_PATTERN + r")\b"
    r"|\bsr\s*(\d{1,2})\s*c?\b",
    re.IGNORECASE,
)
# Values and "to 5" in a write request are not part of the channel's description.
_VALUE_RE = re.compile(r"[-+]?\d+\.\d*(?:e[-+]?\d+)?|\bto\s+[-+]?\d+\b", re.IGNORECASE)
_SECTOR_PREFIX_RE = re.compile(r"^sr\d+c?$", re.IGNORECASE)
_WORD_RE = re.compile(r"[a-z0-9]+")
_ALNUM_SPLIT_RE = re.compile(r"[a-z]+|\d+")


def _normalize_word(word: str) -> str:
    """Lower-case, strip leading zeros of digit groups (HCM01 == HCM1), drop plural s."""
    word = re.sub(r"\d+", lambda m: str(int(m.group())), word.lower())
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word.isalpha():
        word = word[:-1]
    return word


#: Request words that never describe a channel, as typed and as normalised ("hours", "hour").
STOPWORDS = _STOPWORDS_RAW | frozenset(_normalize_word(w) for w in _STOPWORDS_RAW)


def _words(text: str) -> list[str]:
    return [_normalize_word(w) for w in _WORD_RE.findall(text.lower())]


def _with_parts(words: Iterable[str]) -> set[str]:
    """Each word plus its letter and digit parts, so "bpm 13" matches "BPM13"."""
    out: set[str] = set()
    for w in words:
        out.add(w)
        parts = _ALNUM_SPLIT_RE.findall(w)
        if len(parts) > 1:
            out.update(_normalize_word(p) for p in parts)
    return out


def _record_tokens(record: ChannelRecord) -> frozenset[str]:
    name_words: list[str] = []
    for segment in record.name.split(":"):
        if _SECTOR_PREFIX_RE.match(segment):
            continue  # the sector is matched through the sector field, not as a word
        name_words += _words(segment)
    text = " ".join([record.description, *record.synonyms, record.family, record.device or ""])
    words = [w for w in _words(_SECTOR_RE.sub(" ", text)) if w not in STOPWORDS]
    tokens = _with_parts(name_words + words)
    if record.role == "setpoint":
        tokens.update({"setpoint", "sp"})
    elif record.role == "readback":
        tokens.update({"readback", "rb"})
    return frozenset(t for t in tokens if t not in ("sector",))


class ChannelSearchIndex:
    """Tokens, IDF weights and synonyms of a set of channel records, ranked against a query."""

    SEARCH_MIN_SCORE = 0.3

    def __init__(self, records: Sequence[ChannelRecord]) -> None:
        self._records: dict[str, ChannelRecord] = {r.name: r for r in records}
        self._by_lower: dict[str, ChannelRecord] = {r.name.lower(): r for r in records}
        self._tokens = {r.name: _record_tokens(r) for r in records}
        counts: Counter[str] = Counter()
        for tokens in self._tokens.values():
            counts.update(tokens)
        total = max(1, len(records))
        self._idf = {t: math.log(1.0 + total / c) for t, c in counts.items()}
        self._max_idf = math.log(1.0 + total)
        self._vocabulary = sorted(counts)
        self._synonyms: dict[str, list[str]] = {}
        for record in records:
            for syn in record.synonyms:
                key = " ".join(_words(syn))
                names = self._synonyms.setdefault(key, [])
                if record.name not in names:
                    names.append(record.name)

    def search(
        self,
        query: str,
        limit: int = 10,
        writable: bool | None = None,
        min_score: float | None = None,
    ) -> list[ChannelMatch]:
        """Channels ranked by how well they match ``query`` (best first, scores 0..1)."""
        threshold = self.SEARCH_MIN_SCORE if min_score is None else min_score
        matches = [
            m
            for m in self._score_all(query)
            if m.score >= threshold and (writable is None or m.channel.writable == writable)
        ]
        role_order = {"monitor": 0, "readback": 1, "setpoint": 2}
        matches.sort(key=lambda m: (-m.score, role_order[m.channel.role], m.channel.name))
        return matches[: max(0, limit)]

    def top_matches(
        self, query: str, writable: bool | None = None, margin: float = 0.03, limit: int = 50
    ) -> list[ChannelMatch]:
        """Every channel scoring within ``margin`` of the best match (the answer group)."""
        ranked = self.search(query, limit=limit, writable=writable)
        if not ranked:
            return []
        best = ranked[0].score
        return [m for m in ranked if m.score >= best - margin]

    def suggest(self, query: str, limit: int = 5) -> list[str]:
        """Nearest channel names for a "did you mean" clarification."""
        out: list[str] = [m.name for m in self.search(query, limit=limit, min_score=0.2)]
        candidates = list(self._records) + list(self._synonyms)
        for hit in difflib.get_close_matches(query.strip(), candidates, n=limit, cutoff=0.5):
            names = [hit] if hit in self._records else self._synonyms.get(hit, [])
            out += names
        lowered = " ".join(_words(query))
        for hit in difflib.get_close_matches(lowered, list(self._synonyms), n=limit, cutoff=0.5):
            out += self._synonyms[hit]
        seen: dict[str, None] = {}
        for name in out:
            seen.setdefault(name, None)
        return list(seen)[:limit]

    def _score_all(self, query: str) -> list[ChannelMatch]:
        text = query.strip()
        if not text:
            return []
        exact = self._exact_names(text)
        if exact:
            return [ChannelMatch(self._records[n], 1.0, "exact channel name") for n in exact]
        phrase = " ".join(_words(text))
        if phrase in self._synonyms:
            return [
                ChannelMatch(self._records[n], 0.95, f"synonym '{phrase}'")
                for n in self._synonyms[phrase]
            ]
        sector, remainder = _extract_sector(_VALUE_RE.sub(" ", text))
        qwords = [w for w in _words(remainder) if w not in STOPWORDS and w != "sector"]
        weighted = self._query_weights(qwords)
        if not weighted and sector is None:
            return []
        sector_weight = self._max_idf if sector is not None else 0.0
        total = sum(w for _, w, _ in weighted) + sector_weight
        contained = self._contained_synonyms(qwords)
        out: list[ChannelMatch] = []
        for name, tokens in self._tokens.items():
            record = self._records[name]
            if sector is not None and record.sector != sector:
                continue
            matched = sector_weight
            hits: list[str] = []
            for token, weight, factor in weighted:
                if token in tokens:
                    matched += weight * factor
                    hits.append(token)
            if not hits and sector is None:
                continue
            score = 0.9 * (matched / total if total else 0.0)
            reason = f"matched {', '.join(hits) or 'sector'}"
            if sector is not None:
                reason += f" in sector {sector}"
            if name in contained:
                score += 0.05
                reason += f"; synonym '{contained[name]}'"
            out.append(ChannelMatch(record, min(score, 0.949), reason))
        return out

    def _exact_names(self, text: str) -> list[str]:
        if text.lower() in self._by_lower:
            return [self._by_lower[text.lower()].name]
        found = []
        for piece in re.split(r"[\s,;]+", text):
            record = self._by_lower.get(piece.strip("'\"()[]?.!").lower())
            if record is not None and record.name not in found:
                found.append(record.name)
        return found

    def _query_weights(self, words: list[str]) -> list[tuple[str, float, float]]:
        """(token, idf weight, match factor) for each query word; typos map to known words."""
        out: list[tuple[str, float, float]] = []
        for word in dict.fromkeys(words):
            if word in self._idf:
                out.append((word, self._idf[word], 1.0))
                continue
            parts = [_normalize_word(p) for p in _ALNUM_SPLIT_RE.findall(word)]
            if len(parts) > 1 and all(p in self._idf for p in parts):
                for p in parts:
                    out.append((p, self._idf[p], 1.0))
                continue
            near = _close_word(word, tuple(self._vocabulary)) if len(word) > 3 else None
            if near is not None:
                out.append((near, self._idf[near], 0.8))
            else:
                out.append((word, self._max_idf, 1.0))
        return out

    def _contained_synonyms(self, qwords: list[str]) -> dict[str, str]:
        """Channels one of whose synonyms appears as a phrase inside the query."""
        joined = f" {' '.join(qwords)} "
        out: dict[str, str] = {}
        for phrase, names in self._synonyms.items():
            if phrase and f" {phrase} " in joined:
                for name in names:
                    if len(phrase) > len(out.get(name, "")):
                        out[name] = phrase
        return out


@lru_cache(maxsize=4096)
def _close_word(word: str, vocabulary: tuple[str, ...]) -> str | None:
    hits = difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.8)
    return hits[0] if hits else None


def is_sector_reference(word: str) -> bool:
    """True for a word the search reads as a sector ("sector3", "sr3", "SR03C")."""
    return _SECTOR_RE.fullmatch(word.strip()) is not None


def without_sector(text: str) -> str:
    """``text`` without its sector reference ("sector 3", "SR03C"): the search filters on it."""
    return _extract_sector(text)[1]


def _extract_sector(text: str) -> tuple[int | None, str]:
    match = _SECTOR_RE.search(text)
    if not match:
        return None, text
    raw = match.group(1) or match.group(2)
    value = int(raw) if raw.isdigit() else NUMBER_WORDS[raw.lower()]
    return value, text[: match.start()] + " " + text[match.end() :]
