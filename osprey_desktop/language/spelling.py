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
    )
)


#: Words one slip from a grammar word that are words of their own.
_NOT_SLIPS = frozenset({"second", "hour", "minute", "values", "hourly", "print", "point"})


def _plural_of(word: str, other: str) -> bool:
    """One is the other with an "s" ("readbacks", "second"): a form, not a slip."""
    return word == f"{other}s" or other == f"{word}s"


def slips_respelled(text: str, facility_words: frozenset[str]) -> str:
    """``text`` with each word of five letters or more that is no word of the grammar or of
    the facility, but one slip from exactly one of the grammar words above, spelled as that
    word ("do 19 insted" -> "do 19 instead"); verbs are the lead's (``verb_spelled``)."""
    known = CHANGE | READ_VERBS | PLOT_VERBS | QUESTION_LEADS | STOP_WORDS | POLITE | DETERMINERS
    targets = sorted(_GRAMMAR_TO_SPELL)

    def respell(found: re.Match[str]) -> str:
        word = found.group(0).lower()
        if word in known or word in facility_words or word in _GRAMMAR_TO_SPELL:
            return found.group(0)
        if word in _NOT_SLIPS or read_number(word) is not None:
            return found.group(0)
        close = [t for t in targets if _close_to(word, t) and not _plural_of(word, t)]
        return close[0] if len(close) == 1 else found.group(0)

    return re.sub(r"\b[A-Za-z]{5,}\b", respell, text)


def verb_spelled(text: str, lead: str, facility_words: frozenset[str]) -> str:
    """``text`` with the word leading it (``lead`` is ``text`` after its politeness), if it is
    no word of the grammar or of the facility but one slip from a verb, spelled as that verb
    ("incraese" -> "increase", "plto" -> "plot")."""
    first = re.match(r"[A-Za-z]+", lead)
    if first is None:
        return text
    word = first.group(0).lower()
    known = CHANGE | READ_VERBS | PLOT_VERBS | QUESTION_LEADS | STOP_WORDS | POLITE | DETERMINERS
    if word in known or word in facility_words:
        return text
    close = [v for v in _VERBS_TO_SPELL if _close_to(word, v)]
    if len(close) != 1:
        return text
    at = text.find(first.group(0), len(text) - len(lead))
    return text[:at] + close[0] + text[at + len(first.group(0)) :]
