"""Text matching for the built-in planner: tokens, light stemming, and capability scores.

All domain vocabulary comes from the capabilities (``keywords``, ``examples``); this module
only knows generic English: stop words, change verbs, greetings and follow-up references.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP_WORDS = _word_set(
    """a an the of for to in on at by with from and or but is are was were be been being am
    do does did me my i you your we our us it its this that these those there here what which
    who whom how when where why please can could would should will shall may might must
    let lets just some any all each every them they their then than so as if into out up
    about over under again also very much many more most other such only own same too s t
    tell give want need like know"""
)
"""Words that say nothing about which capability is meant."""

CHANGE_VERBS = _word_set(
    """set write change put adjust increase decrease raise lower ramp move apply restore
    reset modify bump scale tune turn switch enable disable zero nudge tweak trim"""
)
"""Explicit change verbs: a capability with ``writes = True`` is selected only if one occurs."""

NOUN_MARKERS = _word_set("the a an this that its each every")
"""A change verb right after one of these is a noun ("the set value", "a change")."""

GREETINGS = _word_set(
    "hello hi hey thanks thank cheers bye goodbye good morning afternoon evening night day"
)

REFERENCE_WORDS = _word_set("those these them it again previous previously earlier same")
"""Words that point back at earlier results ("read those again")."""


def stem(word: str) -> str:
    """A light suffix stripper: plurals, -ing, -ed, final -e, doubled consonants."""
    w = word
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 4 and w.endswith("ed"):
        w = w[:-2]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz" and not w[-1].isdigit():
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def words(text: str) -> list[str]:
    """Lower-case alphanumeric words, in order (no stemming, stop words kept)."""
    return _WORD.findall(str(text).lower())


def content_stems(text: str) -> list[str]:
    """Stems of the words that carry meaning, in order."""
    return [stem(w) for w in words(text) if w not in STOP_WORDS]


_CHANGE_STEMS = frozenset(stem(v) for v in CHANGE_VERBS)


def has_change_verb(text: str) -> bool:
    """True when ``text`` uses a change verb as a verb ("set X to 5", not "the set value")."""
    ws = words(text)
    for i, w in enumerate(ws):
        if w == "zero" and i > 0 and ws[i - 1] in ("to", "at", "from", "is", "be"):
            continue  # "the correctors in sector 8 to zero": the value, not the verb
        if stem(w) in _CHANGE_STEMS and (i == 0 or ws[i - 1] not in NOUN_MARKERS):
            return True
    return False


#: "taking over from the night shift", "just took over": a shift's start, said as a greeting
SHIFT_TAKEN_OVER = (
    r"(?:i'?m\s+|i\s+am\s+|just\s+)?(?:taking|took|taken)\s+over"
    r"(?:\s+from\s+(?:the\s+)?(?:[a-z]+\s+)?(?:shift|crew|team))?"
)
#: a farewell and what goes with it ("good night, handing over to Anna - thanks for the help")
_FAREWELL = re.compile(
    # "morning! taking over from the night shift": a shift's start said with its greeting
    r"\b(?:" + SHIFT_TAKEN_OVER + r"(?:\s+from\s+[a-z]+)?|starting\s+(?:my|the|our)\s+shift|"
    r"handing\s+over(?:\s+to\s+[a-z]+)?|signing\s+off|see\s+you(?:\s+tomorrow|\s+later)?|"
    r"have\s+a\s+(?:good|nice|quiet)\s+(?:one|night|shift|evening|day)|"
    r"for\s+(?:the|your|all\s+the)\s+help|for\s+everything)\b",
    re.I,
)


#: what says goodbye ("good night", "handing over to Anna"), a greeting's other end
_FAREWELL_SAID = re.compile(
    r"\b(?:good\s*night|bye|goodbye|see\s+you|handing\s+over|signing\s+off)\b", re.I
)


def is_farewell(text: str) -> bool:
    """A greeting that says goodbye ("good night, handing over to Anna - thanks")."""
    return is_greeting(text) and _FAREWELL_SAID.search(text) is not None


def is_greeting(text: str) -> bool:
    farewell = _FAREWELL.search(text) is not None
    ws = [w for w in words(_FAREWELL.sub(" ", text)) if w not in STOP_WORDS]
    return (bool(ws) or farewell) and all(w in GREETINGS for w in ws)


def references_earlier_results(text: str) -> bool:
    return any(w in REFERENCE_WORDS for w in words(text))


@dataclass(frozen=True)
class Match:
    """How well one capability fits a request; ``position`` orders goals as the text does."""

    name: str
    score: float
    position: int


def _phrase_position(phrase: Sequence[str], stems: Sequence[str]) -> int | None:
    """Index where ``phrase`` occurs as consecutive stems in ``stems`` (None if it does not)."""
    n = len(phrase)
    if n == 0:
        return None
    for i in range(len(stems) - n + 1):
        if list(stems[i : i + n]) == list(phrase):
            return i
    return None


def score_capability(capability: Any, text: str) -> Match:
    """Score = matched keywords (a phrase counts its length; keywords are matched on every
    word, so "what is" works) + twice the best example overlap (the shared fraction of an
    example's meaningful words, when at least two and half of them match)."""
    all_stems = [stem(w) for w in words(text)]
    score = 0.0
    position = len(all_stems)
    for keyword in getattr(capability, "keywords", []) or []:
        phrase = [stem(w) for w in words(keyword)]
        where = _phrase_position(phrase, all_stems)
        if where is not None:
            score += len(phrase)
            position = min(position, where)
    stem_set = set(content_stems(text))
    best = 0.0
    for example in getattr(capability, "examples", []) or []:
        example_stems = set(content_stems(example))
        shared = len(example_stems & stem_set)
        # One shared word (often a device name) says little; ask for two and half the example.
        if shared >= 2:
            best = max(best, shared / len(example_stems))
    if best >= 0.5:
        score += 2 * best
    return Match(capability.name, score, position)


MIN_SCORE = 1.0


def correct_spelling(text: str, capabilities: Iterable[Any]) -> str:
    """``text`` with misspelt words replaced by the capabilities' own words ("lifetiem" ->
    "lifetime", "currnet" -> "current"): the nearest known word of similar length, only
    for words of five letters or more that no capability knows. Used when nothing matched."""
    import difflib

    known: set[str] = set()
    for capability in capabilities:
        for keyword in getattr(capability, "keywords", None) or []:
            known.update(words(keyword))
    known -= STOP_WORDS

    def fix(found: re.Match[str]) -> str:
        word = found.group(0)
        lowered = word.lower()
        if len(lowered) < 5 or lowered in known or not lowered.isalpha():
            return word
        near = difflib.get_close_matches(
            lowered, [k for k in known if abs(len(k) - len(lowered)) <= 2], n=1, cutoff=0.8
        )
        return near[0] if near else word

    return re.sub(r"[A-Za-z]+", fix, text)


def match_capabilities(
    text: str, capabilities: Iterable[Any], *, exclude: Iterable[str] = ("respond", "clarify")
) -> list[Match]:
    """Capabilities whose declared vocabulary matches ``text``, in the order the text names
    them. Write-type capabilities need an explicit change verb."""
    excluded = set(exclude)
    change = has_change_verb(text)
    matches = []
    for capability in capabilities:
        if capability.name in excluded:
            continue
        if getattr(capability, "writes", False) and not change:
            continue
        decides = getattr(capability, "mentioned_in", None)
        decided = decides(text) if callable(decides) else None
        if decided is False:
            continue
        match = score_capability(capability, text)
        if decided is True and match.score < MIN_SCORE:
            # its own parser found it where no keyword did ("the lifetime at 06:30")
            match = Match(capability.name, MIN_SCORE, match.position)
        if match.score >= MIN_SCORE:
            matches.append(match)
    matches.sort(key=lambda m: (m.position, -m.score))
    return matches


__all__ = [
    "CHANGE_VERBS",
    "GREETINGS",
    "MIN_SCORE",
    "REFERENCE_WORDS",
    "STOP_WORDS",
    "Match",
    "content_stems",
    "has_change_verb",
    "is_farewell",
    "is_greeting",
    "match_capabilities",
    "references_earlier_results",
    "score_capability",
    "stem",
    "words",
]


def typed_case(word: str, typed: str) -> str:
    """``word`` in the case ``typed`` was typed in ("Too" -> "To", "HMC" -> "HCM")."""
    if typed.isupper() and len(typed) > 1:
        return word.upper()
    return word[:1].upper() + word[1:] if typed[:1].isupper() else word
