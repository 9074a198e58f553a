"""Slips of typing in the word that leads a request.

A request leads with its verb; a verb typed with one slip ("incraese", "decrase", "plto",
"raed") would otherwise be a verb nobody taught the grammar and be asked about. A word is read
as a verb when it is no word of the grammar or of the facility's channel list and exactly one
verb is one slip away: two neighbouring letters swapped, or (in words of five letters or
more) one letter missing, extra or wrong. Channel words are never respelled: the channel
finder has its own correction of them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from osprey_desktop.language.lexicon import (
    CHANGE,
    DETERMINERS,
    PLOT_VERBS,
    POLITE,
    QUESTION_LEADS,
    READ_VERBS,
)
from osprey_desktop.language.numbers import read_number
from osprey_desktop.language.words import STOP_WORDS

__all__ = ["slips_respelled", "verb_spelled"]

#: Words of the grammar, never respelled as another.
_KNOWN = CHANGE | READ_VERBS | PLOT_VERBS | QUESTION_LEADS | STOP_WORDS | POLITE | DETERMINERS
_VERBS_TO_SPELL = sorted(w for w in CHANGE | READ_VERBS | PLOT_VERBS if len(w) >= 4)


def _close_to(word: str, verb: str) -> bool:
    """One slip of typing: two letters swapped, or a letter missing, extra or wrong."""
    if abs(len(word) - len(verb)) > 1 or word[0] != verb[0]:
        return False
    if len(word) == len(verb):
        differ = [i for i in range(len(word)) if word[i] != verb[i]]
        if len(differ) == 1:
            return len(word) >= 5
        return (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and word[differ[0]] == verb[differ[1]]
            and word[differ[1]] == verb[differ[0]]
        )
    short, long_ = sorted((word, verb), key=len)
    # a letter missing from a word of five or more ("chek" for check); added or wrong, at five
    least = 4 if short is word else 5
    return len(short) >= least and any(
        long_[:i] + long_[i + 1 :] == short for i in range(len(long_))
    )


#: Words the parse leans on beyond verbs: one slip in them ("insted", "yesterdy") loses a slot.
#: None is one slip from a word a channel list may use ("value" is one from "valve").
_GRAMMAR_TO_SPELL = frozenset(
    (
        *("instead", "again", "before", "between", "since", "until"),
        *("setpoint", "readback", "yesterday", "morning", "afternoon", "evening", "tonight"),
        *("minutes", "hours", "seconds", "average", "maximum", "minimum", "previous"),
        *("thanks", "please", "hello", "morning", "evening", "plus", "minus"),
    )
)
#: Chat spellings of grammar words, each one word for another.
_CHAT_SPELLINGS = {
    "wat": "what",
    "wht": "what",
    "whts": "what's",
    "hows": "how's",
    "whats": "what's",
    "thx": "thanks",
    "thnx": "thanks",
    "tnx": "thanks",
    "plz": "please",
    "pls": "please",
    "ty": "thanks",
    # the shorthand of a shift's notes ("rd QF45 SP", "SP hist 3h, no chg")
    "rd": "read",
    "hist": "history",
    "chg": "change",
    "chng": "change",
    "tp": "to",
    "amsp": "amps",
    # "can u pull the lifetime", "r they ok": a pronoun or a verb by its sound
    "u": "you",
    "ur": "your",
    "r": "are",
    "cud": "could",
    "wud": "would",
    "shud": "should",
    "abt": "about",
    "b4": "before",
}


#: Words one slip from a grammar word that are words of their own.
_NOT_SLIPS = frozenset({"second", "hour", "minute", "values", "hourly", "print", "point"})


def _plural_of(word: str, other: str) -> bool:
    """One is the other with an "s" ("readbacks", "second"): a form, not a slip."""
    return word == f"{other}s" or other == f"{word}s"


def slips_respelled(text: str, facility_words: frozenset[str]) -> str:
    """``text`` with each word of five letters or more that is no word of the grammar or of
    the facility, but one slip from exactly one of the grammar words above, spelled as that
    word ("do 19 insted" -> "do 19 instead"); verbs are the lead's (``verb_spelled``)."""
    known = _KNOWN
    targets = sorted(_GRAMMAR_TO_SPELL)

    def respell(found: re.Match[str]) -> str:
        word = found.group(0).lower()
        if word in known or word in facility_words or word in _GRAMMAR_TO_SPELL:
            return found.group(0)
        if word in _NOT_SLIPS or read_number(word) is not None:
            return found.group(0)
        single = re.sub(r"(.)\1", r"\1", word)
        if single != word and single in _GRAMMAR_TO_SPELL:
            return single  # "pluss", "thankss"
        close = [t for t in targets if _close_to(word, t) and not _plural_of(word, t)]
        return close[0] if len(close) == 1 else found.group(0)

    text = re.sub(
        r"\b[A-Za-z][A-Za-z0-9]{0,4}\b",
        lambda m: (
            m.group(0)
            if m.group(0).lower() in facility_words or m.group(0) in ("U", "R")
            else _CHAT_SPELLINGS.get(m.group(0).lower(), m.group(0))
        ),
        text,
    )
    text = re.sub(r"\b[A-Za-z]{5,}\b", respell, text)
    if not facility_words:
        return text
    return re.sub(
        r"\b[A-Za-z]{4,}\b",
        lambda m: _channel_word_spelled(m.group(0), facility_words, known),
        text,
    )


def _channel_word_spelled(typed: str, facility_words: frozenset[str], known: frozenset[str]) -> str:
    """A word of the channel list typed with a slip that makes no other word: a letter
    doubled ("gapp"), two letters swapped ("volatge"), one left out ("lifetme"); never a
    letter changed ("value" and "valve" are both words)."""
    word = typed.lower()
    if word in facility_words or word in known or word.rstrip("s") in facility_words:
        return typed  # a word of the list, of the grammar, or a plural of the list's
    single = re.sub(r"(.)\1", r"\1", word)
    if single != word and single in facility_words:
        return single
    if single != word:  # the wrong letter doubled: "vaccum" for "vacuum", "curent" likewise
        moved = [w for w in _words_near(facility_words, len(word) - 1) if _undoubled(w) == single]
        moved = [w for w in moved if len(w) in (len(word), len(word) + 1)]
        if len(moved) == 1:
            return moved[0]
    close = [
        w
        for w in _words_near(facility_words, len(word))
        if w[0] == word[0] and not _plural_of(word, w) and _swapped_or_missing(word, w)
    ]
    return close[0] if len(close) == 1 else typed


def _undoubled(word: str) -> str:
    return re.sub(r"(.)\1", r"\1", word)


def _words_near(words: frozenset[str], length: int) -> list[str]:
    """The words of five letters or more that are ``length`` or one longer."""
    by_length = _by_length(words)
    return [*by_length.get(length, ()), *by_length.get(length + 1, ())]


@lru_cache(maxsize=4)
def _by_length(words: frozenset[str]) -> dict[int, tuple[str, ...]]:
    table: dict[int, list[str]] = {}
    for word in words:
        if len(word) >= 5 and word.isalpha():
            table.setdefault(len(word), []).append(word)
    return {length: tuple(sorted(found)) for length, found in table.items()}


def _swapped_or_missing(word: str, other: str) -> bool:
    """``word`` is ``other`` with two neighbouring letters swapped, or with one letter missing."""
    if len(word) == len(other):
        differ = [i for i in range(len(word)) if word[i] != other[i]]
        return (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and word[differ[0]] == other[differ[1]]
            and word[differ[1]] == other[differ[0]]
        )
    return len(other) == len(word) + 1 and any(
        other[:i] + other[i + 1 :] == word for i in range(len(other))
    )


def verb_spelled(text: str, lead: str, facility_words: frozenset[str]) -> str:
    """``text`` with the word leading it (``lead`` is ``text`` after its politeness), if it is
    no word of the grammar or of the facility but one slip from a verb, spelled as that verb
    ("incraese" -> "increase", "plto" -> "plot")."""
    first = re.match(r"[A-Za-z]+", lead)
    if first is None:
        return text
    word = first.group(0).lower()
    if word in _KNOWN or word in facility_words:
        return text
    close = [v for v in _VERBS_TO_SPELL if _close_to(word, v)]
    if len(close) != 1:
        return text
    at = text.find(first.group(0), len(text) - len(lead))
    return text[:at] + close[0] + text[at + len(first.group(0)) :]
