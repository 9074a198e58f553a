"""Answers to questions about concepts and about the assistant, without reading the machine.

"What is a DCCT?", "why does a readback differ from its setpoint?", "can you change anything
without my approval?" ask for an explanation, not a value. The explanations live in
``resources/knowledge.yaml`` (topics named by their words; a facility adds its own under
``knowledge.topics`` in its config), the abbreviations in the channel vocabulary, and the
facility's own channels in its channel list: an answer names the channels of the kind asked
about, so "what is a DCCT?" also says which DCCT channels this facility has.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

_WORD = re.compile(r"[a-z0-9]+")
#: Shown channels of the kind asked about.
_SHOWN_CHANNELS = 4


@dataclass(frozen=True)
class Topic:
    """One explanation and the terms (each a set of word stems) that name it."""

    id: str
    terms: tuple[frozenset[str], ...]
    answer: str

    def score(self, stems: set[str]) -> int:
        """How many words of its best-matching term the question holds (0: not named)."""
        return max((len(term) for term in self.terms if term <= stems), default=0)


def _stem(word: str) -> str:
    from osprey_desktop.language.words import stem

    return stem(word)


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower())}


def topics_from(entries: Sequence[Mapping[str, Any]]) -> list[Topic]:
    """Topics from YAML entries ``{id, terms: [...], answer}``; malformed ones are skipped."""
    topics = []
    for entry in entries:
        if not isinstance(entry, Mapping) or not entry.get("answer") or not entry.get("terms"):
            continue
        terms = tuple(frozenset(_stems(str(t))) for t in entry["terms"] if str(t).strip())
        topics.append(Topic(str(entry.get("id") or terms), terms, str(entry["answer"]).strip()))
    return topics


@lru_cache(maxsize=1)
def _shipped_topics() -> tuple[Topic, ...]:
    from osprey_desktop.config.paths import resources_dir

    path = Path(resources_dir()) / "knowledge.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return tuple(topics_from(data.get("topics") or []))


def configured_topics() -> list[Topic]:
    """The facility's topics (config ``knowledge.topics``) first, then the shipped ones; a
    facility topic with a shipped id replaces it."""
    from osprey_desktop.config import get_config_value

    own = topics_from(get_config_value("knowledge.topics", None) or [])
    ids = {t.id for t in own}
    return own + [t for t in _shipped_topics() if t.id not in ids]


def answer_question(
    question: str,
    topics: Sequence[Topic] | None = None,
    database: Any = None,
    abbreviations: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The explanation for ``question``: the best topic, what an abbreviation stands for,
    and the facility's channels of that kind. Never reads a value."""
    topics = configured_topics() if topics is None else list(topics)
    stems = _stems(question)
    scored = sorted(
        ((t.score(stems), i, t) for i, t in enumerate(topics)), key=lambda x: (-x[0], x[1])
    )
    best = [t for score, _, t in scored if score and score == scored[0][0]][:2]
    parts: list[str] = []
    words = _WORD.findall(question.lower())
    expanded = [
        f"**{w.upper()}** stands for {_spelled_out(w, abbreviations[w])}."
        for w in dict.fromkeys(words)
        if abbreviations and w in abbreviations and len(w) <= 5
    ]
    parts.extend(expanded)
    parts.extend(t.answer for t in best)
    channels = (
        _channels_of_kind(question, best, database, abbreviations) if database is not None else ""
    )
    if channels:
        parts.append(channels)
    if not parts:
        return (
            "I have no explanation of that. I can read channels, show their history, find "
            "channels by name or description, and change setpoints after your approval: "
            "ask for example “what is the beam current?” or “plot the lifetime since 08:00”."
        )
    parts.append("*Nothing was read or changed to answer this.*")
    return "\n\n".join(parts)


def _spelled_out(abbreviation: str, phrases: Sequence[str]) -> str:
    """The phrase an abbreviation abbreviates: the one whose initials spell it, else the
    longest (the vocabulary also lists related words: DCCT -> "beam current")."""
    letters = abbreviation.lower()
    for phrase in phrases:
        words = str(phrase).lower().split()
        if "".join(w[0] for w in words) == letters or "".join(words).startswith(letters):
            return str(phrase)
    return max((str(p) for p in phrases), key=lambda p: len(p.split()), default=abbreviation)


def _channels_of_kind(
    question: str,
    topics: Sequence[Topic],
    database: Any,
    abbreviations: Mapping[str, Any] | None,
) -> str:
    """ "This facility's channel list has 2 such channels: …" for the kind asked about: the
    question's words that name the topic (or are abbreviations), longest first."""
    stems = _stems(question)
    term_stems = {s for t in topics for term in t.terms if term <= stems for s in term}
    words = dict.fromkeys(_WORD.findall(question.lower()))
    named = [w for w in words if _stem(w) in term_stems or (abbreviations and w in abbreviations)]
    for word in sorted(named, key=len, reverse=True):
        matches = database.top_matches(word)
        if matches and len(matches) <= 200:
            shown = ", ".join(
                f"`{m.name}` ({m.channel.description})" if m.channel.description else f"`{m.name}`"
                for m in matches[:_SHOWN_CHANNELS]
            )
            extra = len(matches) - _SHOWN_CHANNELS
            more = f" and {extra} more" if extra > 0 else ""
            return f"This facility's channel list has {len(matches)} such channels: {shown}{more}."
    return ""


def configured_abbreviations() -> dict[str, list[str]]:
    """Abbreviation -> what it stands for: the shipped vocabulary and the facility's own
    (config ``channel_finding.vocabulary.abbreviations``)."""
    from osprey_desktop.channels.finder import _shipped_vocabulary
    from osprey_desktop.config import get_config_value

    out: dict[str, list[str]] = {}
    own = (get_config_value("channel_finding.vocabulary", None) or {}).get("abbreviations")
    for source in (_shipped_vocabulary().get("abbreviations") or {}, own or {}):
        for term, phrases in source.items():
            if isinstance(phrases, list):
                out[str(term).lower()] = [str(p) for p in phrases]
    return out


__all__ = [
    "Topic",
    "answer_question",
    "configured_abbreviations",
    "configured_topics",
    "topics_from",
]
