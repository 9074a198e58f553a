"""Which requests are about the logbook, its history, or an undo, and what they ask for.

Three forms, each recognised by how it is built rather than by single words ("log" is also in
"logarithmic", "undo" in a question about undo), so a request about the machine is never
taken for one of these:

* an entry: "make a logbook entry: ...", "log this", "log the orbit plot with a note ...",
  "put this in the logbook";
* a search: "what did we log about QF07 this week?", "search the logbook for RF trips",
  "when was HCM01 last changed and why?", "who changed QF07?";
* an undo: "undo the last write", "revert the last three writes", "put HCM01 back to where it
  was before my change", "roll back my last change".
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from osprey_desktop.language.numbers import NUMBER_WORDS

_POLITE = re.compile(
    r"^(?:please|kindly|now|ok(?:ay)?|(?:can|could|would|will) you(?: please)?|"
    r"i(?:'d| would)? (?:want|like|need) to|let'?s|go ahead and)\s+",
    re.I,
)
_ENTRY = re.compile(
    r"^(?:(?:make|create|add|write|post|open|start|record|enter)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?"
    r"(?:e-?log(?:book)?|log(?:book)?)\s+(?:entry|note)"
    r"|log\s+(?:this|that|it|these|those)\b"
    r"|log\s+(?:the|my|our)\s+[\w\s-]{0,40}?\b(?:plot|chart|orbit|values?|writes?|changes?|"
    r"readings?|results?|history|screenshot)\b"
    r"|(?:put|note|record|write)\s+(?:this|that|it)\s+(?:down\s+)?in(?:to)?\s+the\s+"
    r"(?:e-?)?log(?:book)?"
    r"|(?:e-?)?log(?:book)?\s+entry\s*:)",
    re.I,
)
_SEARCH = re.compile(
    r"(?:\bwhat\s+(?:did|have)\s+(?:we|i|you|they|the\s+\w+\s+shift)\s+(?:log|logged|note|noted)"
    r"|\b(?:search|look\s+in|look\s+through|check)\s+the\s+(?:e-?)?log(?:book)?"
    r"|\b(?:find|show|list)\s+(?:the\s+|all\s+|any\s+)?(?:e-?)?log(?:book)?\s+entries"
    r"|\b(?:e-?)?log(?:book)?\s+entries\s+(?:about|on|for|mentioning)"
    r"|\bwhen\s+(?:was|were|did)\s+.{1,60}?\b(?:last\s+)?(?:changed|changes?|set|written|"
    r"modified|adjusted|touched)\b"
    r"|\bwho\s+(?:changed|set|wrote|modified|adjusted|touched)\b"
    r"|\bwhy\s+(?:was|were|did)\s+.{1,60}?\b(?:changed|set|modified|adjusted)\b"
    r"|\b(?:history|record)\s+of\s+(?:the\s+)?(?:changes|writes)\s+(?:to|of|on)\b)",
    re.I,
)
_UNDO = re.compile(
    r"^(?:undo|revert|roll\s*back|reverse|take\s+back)\s+"
    r"(?:(?:the|my|our|that|this|those|these)\s+)?(?:last\s+|latest\s+|previous\s+|most\s+"
    r"recent\s+)?(?P<count>(?:\d+|[a-z-]+)\s+)?(?:last\s+)?"
    r"(?P<what>writes?|changes?|settings?|puts?|it|that|this)\b"
    r"(?P<rest>.*)$"
    r"|^(?:put|set|bring|return|restore)\s+(?P<target>.{1,80}?)\s+back\b(?P<tail>.*?)"
    r"\bbefore\s+(?:my|our|the|that|his|her|their)\s+(?:last\s+)?(?:change|write|setting|put)s?\b",
    re.I,
)
_QUESTION = re.compile(r"^(?:how|what|why|can|could|is|are|does|do|should|would)\b", re.I)
_PERIODS = (
    (re.compile(r"\btoday\b", re.I), "today"),
    (re.compile(r"\byesterday\b", re.I), "yesterday"),
    (re.compile(r"\bthis\s+shift\b|\blast\s+8\s*h(?:ours)?\b", re.I), 8 * 3600.0),
    (re.compile(r"\b(?:this|past|last)\s+week\b", re.I), 7 * 86400.0),
    (re.compile(r"\b(?:this|past|last)\s+month\b", re.I), 30 * 86400.0),
)
_FILLER_WORDS = """what did we i you they log logged note noted about on for the a an this that week
    today yesterday shift month past last search look in through check logbook elog entries
    entry find show list all any mentioning when was were did who why changed change changes set
    written modified adjusted touched and history record of to by is it has been have had there
    since please"""
_FILLER = frozenset(_FILLER_WORDS.split())


def _lead(text: str) -> str:
    text, previous = text.strip(), None
    while text != previous:
        previous, text = text, _POLITE.sub("", text).strip()
    return text


def is_entry_request(text: str) -> bool:
    """'make a logbook entry: ...', 'log this', 'log the orbit plot with a note ...'."""
    return bool(_ENTRY.match(_lead(text)))


def is_search_request(text: str) -> bool:
    """'what did we log about QF07?', 'when was HCM01 last changed and why?'."""
    return not is_entry_request(text) and bool(_SEARCH.search(_lead(text)))


@dataclass(frozen=True)
class UndoRequest:
    count: int
    target: str  # the words naming channels ("HCM01"), "" for "the last write"
    mine: bool = False  # "my change", "my last write": only the operator's own writes


def parse_undo(text: str) -> UndoRequest | None:
    """The writes an undo request names, or None when it is not an undo request."""
    lead = _lead(text).rstrip(" .!")
    if _QUESTION.match(lead):
        return None  # "how do I undo a write?" asks about undo, it does not ask for one
    match = _UNDO.match(lead)
    if match is None:
        return None
    mine = bool(re.search(r"\bmy\b", lead, re.I))
    if match.group("target") is not None:
        return UndoRequest(1, match.group("target").strip(), mine)
    count_text = (match.group("count") or "").strip().lower()
    if count_text.isdigit():
        count = int(count_text)
    elif count_text in NUMBER_WORDS:
        count = NUMBER_WORDS[count_text]
    elif count_text in ("", "last", "latest", "previous"):
        count = 1
    else:
        return None
    rest = (match.group("rest") or "").strip()
    target = re.sub(r"^(?:to|of|on)\s+", "", rest, flags=re.I).strip()
    return UndoRequest(max(1, count), target, mine)


def is_undo_request(text: str) -> bool:
    return parse_undo(text) is not None


_PLOT_SUBJECT = re.compile(
    r"\blog\s+(?:the|my|our)\s+(?P<subject>[\w\s-]{1,40}?)\s+(?:plot|chart|history)\b", re.I
)


def plot_subject(text: str) -> str:
    """What a named plot shows: "log the orbit plot ..." -> "orbit" ("" when none is named)."""
    match = _PLOT_SUBJECT.search(_lead(text))
    return match.group("subject").strip() if match else ""


_DEVICE_APART = re.compile(
    r"\b(?!(?:at|to|for|of|in|on|by|and|the|last|from|than|since|cell|no)\b)([A-Za-z]{2,5})[\s#-]+"
    r"(\d{1,3})\b(?![.:]\d)",
    re.I,
)


def search_words(text: str) -> str:
    """The words worth searching for (a channel, a topic), without the question's frame; a
    device's number typed apart is joined to its name ("QF 5" is "QF5", not "QF")."""
    text = _DEVICE_APART.sub(lambda m: m.group(1) + m.group(2), text)
    kept = [
        w
        for w in re.findall(r"[\w:.\-]+", text)
        if w.lower().strip(".") not in _FILLER and not w.isdigit()
    ]
    return " ".join(kept)


def search_since(text: str, now: float | None = None) -> float | None:
    """The start of the period a search names ("this week", "today"), or None."""
    now = time.time() if now is None else now
    for pattern, period in _PERIODS:
        if pattern.search(text):
            if period == "today":
                return _midnight(now)
            if period == "yesterday":
                return _midnight(now) - 86400.0
            return now - float(period)
    return None


def wants_reason(text: str) -> bool:
    """'... and why?': the answer names the logbook entries and the thread behind a change."""
    return bool(re.search(r"\bwhy\b|\breason\b", text, re.I))


def _midnight(now: float) -> float:
    local = time.localtime(now)
    return time.mktime((local.tm_year, local.tm_mon, local.tm_mday, 0, 0, 0, 0, 0, -1))


__all__ = [
    "UndoRequest",
    "is_entry_request",
    "is_search_request",
    "is_undo_request",
    "parse_undo",
    "plot_subject",
    "search_since",
    "search_words",
    "wants_reason",
]
