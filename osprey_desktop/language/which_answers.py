"""The answer to "which one do you mean?": the request asked about, with the one named.

After "set the undulator gap to 14 mm" was asked back ("Which undulator? 6 fit"), the answer
"ID 9", "the one in sector 9", "9" or "all of them" is no request of its own (a bare "ID 9"
elsewhere reads ID 9): it names the device the question left open, and the request asked
about is planned again with it, its change, value and time kept.
"""

from __future__ import annotations

import re
from dataclasses import replace

from osprey_desktop.language.one_of_a_kind import DEFINITE, device_kind_named
from osprey_desktop.language.request import Request, Vocabulary, parse_request

__all__ = ["answer_to_which"]

_ALL = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|yes|yeah|well|oh)\W+)?(?:all|every|each|both)(?:\s+(?:of\s+)?"
    r"(?:them|those|these|the\s+\w+s?|ones?))?(?:\s+(?:please|pls|then|of\s+them))*[\s.!?]*$",
    re.I,
)
#: "the one in sector 9", "the one in sector 7 is better": the place said of "one"
_THE_ONE = re.compile(
    r"^\W*(?:the\s+)?one\s+(?P<place>(?:in|at|of|for|near|by)\s+[^,.;!?]+?)"
    r"(?:\s+(?:is|would|will|should|please|pls|thanks)\b.*)?[\s.!?]*$",
    re.I,
)
_BARE_NUMBER = re.compile(r"^\W*(?:no\.?\s*|number\s+|#\s*)?(?P<n>\d{1,3})\W*$", re.I)
_POLITE = re.compile(r"\s*\b(?:please|pls|thanks|thank\s+you|i\s+mean|i\s+meant)\b[\s,.!]*", re.I)


def answer_to_which(
    asked: Request, answer: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """``asked`` (the request a question of which device followed) with the device the
    ``answer`` names, or None when the answer is a request of its own (it has a verb, a
    value or a time: "read the current", "0.3 then")."""
    phrase = _one_phrase(asked) if asked.targets else ""
    words_of_list = vocabulary.channel_words if vocabulary is not None else frozenset()
    kind = device_kind_named(phrase, _prefixes(vocabulary), words_of_list) if phrase else None
    said = _POLITE.sub(" ", answer.text).strip()
    if kind is None or not said:
        return None
    words = re.sub(rf"^{DEFINITE}\s+", "", phrase, flags=re.I)  # "undulator gap"
    if _ALL.match(said):
        named = f"all {words}"
    elif (number := _BARE_NUMBER.match(said)) is not None:
        named = re.sub(
            rf"\b({re.escape(kind)})\b", rf"\1 {number['n']}", words, count=1, flags=re.I
        )
    elif (one := _THE_ONE.match(said)) is not None:
        named = f"{phrase} {one['place']}"
    elif (
        answer.verb is None
        and answer.quantity is None
        and answer.time is None
        and answer.targets
        and re.search(r"\d", said)
    ):
        # what the phrase asks of the device beside its kind: "gap" of "the undulator gap"
        rest = re.sub(rf"\b{re.escape(kind)}\b", " ", words, count=1, flags=re.I).split()
        named = " and ".join(f"{t} {' '.join(rest)}".strip() for t in answer.targets)
    else:
        return None
    canonical = asked.canonical.replace(phrase, named, 1)
    again = parse_request(canonical, vocabulary)
    return replace(again, text=answer.text)


def _one_phrase(asked: Request) -> str:
    """The words of ``asked`` naming the one device ("the undulator gap")."""
    target = asked.targets[0]
    where = asked.canonical.find(target)
    if where < 0:
        return ""
    article = re.search(rf"\b{DEFINITE}\s+$", asked.canonical[:where], re.I)
    start = article.start() if article else where
    return asked.canonical[start : where + len(target)]


def _prefixes(vocabulary: Vocabulary | None) -> frozenset[str]:
    return frozenset(vocabulary.device_prefixes) if vocabulary is not None else frozenset()
