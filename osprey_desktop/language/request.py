"""The parse of a whole request: intent, targets, quantity, time, reference, unused words.

A request is read as one structure, not matched against triggers:

* **intent**: read, history, plot, statistic, compare, write, copy, restore, state,
  knowledge, conversation, or ``unknown`` when a clause leads with a word that is no verb
  this grammar knows and no channel word ("straighten the orbit": asked about, not read);
* **targets**: the phrases naming channels, split at commas, "and", "as well as", "plus"
  ("beam current, lifetime and RF"); a phrase that is only a modifier takes the head of the
  next one ("horizontal and vertical tune" is "horizontal tune", "vertical tune");
* **quantity**: absolute ("to 98 A"), relative ("by 2 mm", "0.2 A higher"), percent ("by 2
  %"), comparative without a number ("a touch lower": a write that must be asked about);
* **time**: a qualified clock time (``language.times``) or the words the time parser reads;
* **reference**: another channel ("match QD04", "in line with VCM12", "the same as"), the
  archive ("back to where it was", "its value from 9:30"), a golden value ("nominal"), or
  the previous value;
* **used / unused**: every content word is placed (verb, target, quantity, time, reference,
  politeness) or listed as unused, so a planner can ask about exactly those words.

Verbs: a change verb acts on a target with a value, a state, a reference or a comparative;
without one the request is still a change (asked about, never read). A word that is a noun
and a verb ("tune", "trim", "scan", "set") is a verb only in verb position: first in its
clause (after "please", "can you", "I want to") and followed by what it acts on.

``canonical`` is the request in the forms the capabilities' parsers read: device names written
with a space joined ("qd 08" -> "QD08"), qualified clock times made absolute, a comparative
made a relative change ("HCM09 0.2 A higher" -> "increase HCM09 by 0.2 A"), a copy made "set
X to the same value as Y". A follow-up ("0.55 then", "close it by 1 mm", "same for the vacuum
in sector 4") is the previous parse with the slots the new turn names replaced
(``follow_ups``). Amounts are read by ``quantities``, the generic words are in ``lexicon``.

Facility words (which letters start a device name, which words describe channels) come in as
a ``Vocabulary`` from the caller: this package knows English, not a channel list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

from osprey_desktop.language.lexicon import (
    ASKERS,
    CHANGE,
    COMPARE_WORDS,
    DETERMINERS,
    DOWN_WORDS,
    GOLDEN_WORDS,
    HISTORY_WORDS,
    NEGATIONS,
    NOUN_VERB_STEMS,
    NOUN_VERBS,
    ORDINALS,
    PAST_VERBS,
    PHRASAL_CHANGES,
    PLACE_WORDS,
    PLOT_VERBS,
    POLITE,
    PRONOUNS,
    QUESTION_LEADS,
    RANGE_WORDS,
    READ_VERBS,
    ROLE_WORDS,
    STATE_VERBS,
    STATISTIC_WORDS,
    UP_WORDS,
    VAGUE_AMOUNTS,
    VALUE_OFFERS,
)
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN
from osprey_desktop.language.quantities import Quantity, amounts, read_quantity
from osprey_desktop.language.references import (
    Reference,
    copy_relation,
    find_reference,
)
from osprey_desktop.language.spelling import verb_spelled
from osprey_desktop.language.targets import (
    split_targets,
    with_roles,
    without_slot_words,
)
from osprey_desktop.language.time_words import (
    dotted_clock_times,
    duration_statistics,
    spoken_times,
)
from osprey_desktop.language.times import ClockSpan, find_clock_spans, replace_clock_spans
from osprey_desktop.language.units import lookup_unit
from osprey_desktop.language.words import STOP_WORDS, stem

__all__ = [
    "Quantity",
    "Reference",
    "Request",
    "TimeSlot",
    "Vocabulary",
    "leading_verb",
    "parse_request",
]

Intent = Literal[
    "read",
    "history",
    "plot",
    "statistic",
    "compare",
    "write",
    "copy",
    "restore",
    "state",
    "knowledge",
    "conversation",
    "unknown",
]
#: Intents that change the machine.
CHANGE_INTENTS = frozenset({"write", "copy", "restore", "state"})


@dataclass(frozen=True)
class Vocabulary:
    """The facility's words, given by the caller (built from its channel list)."""

    #: Lower-case letters that start a device name ("hcm" for HCM01, "qd" for QD08).
    device_prefixes: frozenset[str] = frozenset()
    #: Lower-case words of the channels' descriptions and synonyms ("lifetime", "gap").
    channel_words: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TimeSlot:
    kind: Literal["moment", "since", "range", "words"]
    words: str
    canonical: str


@dataclass(frozen=True)
class Request:
    """One request, parsed. ``canonical`` is what the capabilities are given to read."""

    text: str
    intent: Intent
    targets: tuple[str, ...] = ()
    quantity: Quantity | None = None
    time: TimeSlot | None = None
    reference: Reference | None = None
    state: str | None = None
    verb: str | None = None
    used: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    canonical: str = ""
    refers_back: bool = False
    #: a clause that reads or asks comes before the change ("look at HCM3 and set it to 0")
    reads_first: bool = False

    @property
    def changes(self) -> bool:
        return self.intent in CHANGE_INTENTS

    def explain(self) -> dict[str, object]:
        """The parse as plain data (``ask --explain``, the chat-model planner's schema)."""
        return {
            "intent": self.intent,
            "targets": list(self.targets),
            "quantity": self.quantity.describe() if self.quantity else None,
            "time": self.time.canonical if self.time else None,
            "reference": f"{self.reference.kind}: {self.reference.words}"
            if self.reference
            else None,
            "state": self.state,
            "verb": self.verb,
            "unused_words": list(self.unused),
            "canonical": self.canonical,
        }


_CLAUSES = re.compile(r"(?<=[?!;])\s+|(?<=\.)\s+(?=[a-z])|\bthen\b", re.I)
_POLITE_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|so|now|also|just|please|kindly|hi|hello|hey|and|then|right|alright|first|"
    r"go ahead and|(?:can|could|would|will) you(?: please)?|i(?:'d| would)? (?:want|like|need) "
    r"(?:to|you to)|we (?:want|need) to|let'?s)\b[\s,]*)+",
    re.I,
)
_WISH = re.compile(r"\b(?:i|we)(?:'d|\s+would)?\s+(?:want|need|like)\b", re.I)


# -- device names with a space -----------------------------------------------------------------
def join_device_names(text: str, vocabulary: Vocabulary) -> str:
    """ "qd 08" -> "QD08", "hcm 5" -> "HCM5": a device prefix of the facility, a space, and a
    number that is not an amount (no unit after it)."""
    if not vocabulary.device_prefixes:
        return text
    prefixes = "|".join(sorted(map(re.escape, vocabulary.device_prefixes), key=len, reverse=True))
    # "qd 08", "HCM-14", "vcm_3", "QF #7": a space, a dash or a mark between name and number
    pattern = re.compile(
        rf"\b({prefixes})(?:\s*[-#_]\s*|\s+)(\d{{1,3}})\b(?!\.\d)(?!\s*[-–]\s*\d)", re.I
    )

    def join(m: re.Match[str]) -> str:
        after = text[m.end() :].lstrip()
        unit = re.match(r"[a-zµ%]+", after, re.I)
        word = unit.group(0).lower() if unit else ""
        if word and lookup_unit(word) and word not in ("a", "x", "y"):
            return m.group(0)  # "at 5 mm": an amount, not a device number
        return f"{m.group(1).upper()}{m.group(2)}"

    return pattern.sub(join, text)


def leading_verb(clause: str, vocabulary: Vocabulary | None = None) -> str | None:
    """The verb leading ``clause`` after politeness, or None: "tune the RF" leads with
    "tune", "tunes, chromaticity and lifetime" and "trim values of ..." with no verb."""
    found, known = _verb_of(_lead_stripped(clause), vocabulary or Vocabulary())
    return found if known else None


# -- clauses, verbs, intents ---------------------------------------------------------------------
def _lead_stripped(clause: str) -> str:
    previous = None
    clause = clause.strip(" ,.!")
    while clause != previous:
        previous, clause = clause, _POLITE_LEAD.sub("", clause).strip(" ,")
    return clause


#: The particles of a phrasal verb ("power down QF7", "dial back the RF").
_PARTICLES = frozenset({"up", "down", "back", "off", "on", "out"})
_GIVEN_A_VALUE = re.compile(r"\b(?:to|by)\s+(?:[-+−]?\.?\d|minus\b|zero\b)", re.I)


def _verb_of(clause: str, vocabulary: Vocabulary) -> tuple[str | None, bool]:
    """The verb leading a clause and whether it is one this grammar knows. ``(None, True)``
    when the clause leads with something else (a name, a question word, a number)."""
    ws = re.findall(r"[a-z]+\d*|\d+", clause.lower())
    if not ws:
        return None, True
    first, nxt = ws[0], (ws[1] if len(ws) > 1 else "")
    acts_on = (
        nxt in DETERMINERS
        or nxt in _PARTICLES
        # "set horizontal corrector 9 to 0.1 A": what follows is given a value
        or (
            nxt not in ("of", "values", "value", "point", "points", "and", "or")
            and bool(_GIVEN_A_VALUE.search(clause))
        )
        or bool(re.match(r"[a-z]+\d|\d", nxt) or re.search(rf"\b{first}\s+[A-Z]{{2,}}\d", clause))
        or bool(re.search(rf"\b{first}\s+(?:\w+://)?[A-Za-z][\w-]*:\w", clause))  # a PV name
        # "set rf voltage 2.4 MV": what follows is given an amount in a unit
        or (nxt not in ("of", "point", "points") and any(a.unit for a in amounts(clause)))
    )
    # "go back to this morning's value", "roll HCM4 back", "go to 0.3 A on HCM14"
    particle = next((w for w in ws[1:5] if w in PHRASAL_CHANGES.get(first, ())), None)
    with_a_value = particle != "to" or re.match(r"to\s+[-+−]?\.?\d", " ".join(ws[1:3]))
    if particle is not None and (particle == nxt or first == "roll") and with_a_value:
        return first, True
    if first in NOUN_VERBS or stem(first) in NOUN_VERB_STEMS:
        # "tune the RF", never "tunes, chromaticity and lifetime" (a plural is a noun)
        return (first, True) if acts_on and first in NOUN_VERBS else (None, True)
    if stem(first) in {stem(v) for v in CHANGE} or first in CHANGE:
        if nxt in ("in", "of"):
            return None, True  # "increase in lifetime since 8": a change as a noun
        return first, True
    if first in READ_VERBS or first in PLOT_VERBS or first in COMPARE_WORDS:
        return first, True
    if first in QUESTION_LEADS or first in STOP_WORDS or first in POLITE:
        return None, True
    if first in vocabulary.channel_words or first in STATISTIC_WORDS or first in HISTORY_WORDS:
        return None, True
    if first in vocabulary.device_prefixes or re.match(r"[a-z]+\d", first):
        return None, True
    if acts_on and (nxt in DETERMINERS or nxt in _PARTICLES) and first not in PLACE_WORDS:
        return first, False  # "straighten the orbit": a verb nobody taught this grammar
    return None, True


def _is_question(clause: str) -> bool:
    stripped = _lead_stripped(clause).lower()
    first = re.findall(r"[a-z]+", stripped)[:1]
    return clause.strip().endswith("?") or bool(first and first[0] in QUESTION_LEADS)


def _negated(clause: str) -> bool:
    ws = re.findall(r"[a-z]+", clause.lower().replace("n't", " not"))
    return any(w in NEGATIONS for w in ws)


# -- targets -------------------------------------------------------------------------------------
_TARGET_NOISE = re.compile(
    r"\b(?:on\s+one\s+plot|together|in\s+one\s+(?:plot|chart|graph)|side\s+by\s+side|"
    r"for\s+me|right\s+now|at\s+the\s+moment|currently|please|pls|thanks|now|too|as\s+well(?!\s+as))\b"
    r"|\bfirst\b(?=\s*(?:$|[,;.?!]|\band\b|\bthen\b))",  # "check HCM8 first and ..."
    re.I,
)


# Words after which a number is an amount ("above 0.5", "at 1.2", "by 2"), not a device's number.
_AMOUNT_MARKERS = frozenset(
    (
        *("at", "to", "by", "above", "below", "over", "under", "than", "is", "was", "are"),
        *("equals", "equal", "from", "between", "plus", "minus", "about", "around", "near"),
        *("exceeds", "exceeded", "reach", "reached"),
    )
)


def _names_a_device(text: str, quantity: Quantity | None, changes: bool) -> bool:
    """Whether the request's only number names a device ("focusing quad 18 current", "QF 18")
    rather than giving an amount: nothing is changed, the number has no unit, and it follows a
    name word instead of a word that introduces an amount."""
    if changes or quantity is None or quantity.kind != "absolute" or quantity.unit:
        return False
    found = [a for a in amounts(text) if a.unit is None]
    if not found:
        return False
    before = re.findall(r"[A-Za-z][\w-]*|[^\w\s]", text[: found[0].start])
    run = list(before)
    while run and run[-1].lower() in (",", "and", "or", "&"):
        run.pop()
    if run and re.search(r"\d$", run[-1]):
        before = run  # "VCM3, 4 and 5": the numbers continue a device name ("ok, 0.55" does not)
    listed = re.findall(r"[A-Za-z][\w-]*|\d+|[^\w\s]", text[: found[0].start])
    while listed and (listed[-1].isdigit() or listed[-1].lower() in (",", "and", "or", "&")):
        listed.pop()
    numbers_before = re.findall(r"\d+", text[: found[0].start])
    if (
        numbers_before
        and listed
        and re.search(r"(?:\d|,)\s*(?:and|or|&)?\s*$", text[: found[0].start])
    ):
        before = listed  # "sectors 1, 2 and 3": a list of numbers after a name word
    return (
        bool(before)
        and before[-1][0].isalpha()
        and before[-1].lower() not in _AMOUNT_MARKERS
        and before[-1].lower() not in VALUE_OFFERS
    )


def _target_phrase(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without the spans the other slots took, leading verbs and politeness."""
    keep, last = [], 0
    for start, end in sorted(spans):
        if start >= last:
            keep.append(text[last:start])
            last = end
    keep.append(text[last:])
    rest = " ".join("".join(keep).split())
    rest = _TARGET_NOISE.sub(" ", rest)
    rest = _lead_stripped(rest)
    return " ".join(rest.split()).strip(" ,.?!")


# -- times the capabilities' parser reads (words only: recorded, not resolved here) -------------
_UNITS_OF_TIME = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|shifts?)"
_COUNT = (
    r"(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|few|"
    r"couple\s+of|half(?:\s+an?)?)"
)
#: "from 9" or "from 9:30", not the "2" of "from 2 hours ago"
_CLOCK_NOT_A_DURATION = rf"\d{{1,2}}(?::\d{{2}})?(?![\d:]|\s*{_UNITS_OF_TIME}\b)"
_TIME_WORDS = re.compile(
    rf"\b(?:(?:for|over|during|in|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+(?:{_COUNT}\s*)?"
    rf"{_UNITS_OF_TIME}\b"
    rf"|\b{_COUNT}\s*{_UNITS_OF_TIME}\s+ago\b"
    rf"|\b(?:for|over|during)\s+(?:the\s+)?(?:next\s+)?{_COUNT}\s*{_UNITS_OF_TIME}\b"
    r"|\b(?:(?:since|from|after|until|till|before)\s+)?(?:this|yesterday|last)\s+"
    r"(?:morning|afternoon|evening|night)\b"
    r"|\b(?:since|from|after|until|till|before|between)\s+(?:(?:yesterday|today)\s+(?:at\s+)?"
    r"\d{1,2}:\d{2}|yesterday|today|noon|midnight|"
    rf"\d{{4}}-\d{{2}}-\d{{2}}(?:[ T]\d{{1,2}}:\d{{2}})?|{_CLOCK_NOT_A_DURATION})"
    r"(?:\s+(?:and|to|until|till|-)\s+(?:\d{4}-\d{2}-\d{2}\s+)?\d{1,2}(?::\d{2})?)?"
    r"|\bat\s+(?:\d{4}-\d{2}-\d{2}\s+)?\d{1,2}:\d{2}\b|(?<=\bits\s)\d{1,2}:\d{2}\b"
    r"|\b\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}\b"  # a clock time made absolute ("its 7 am value")
    r"|\b(?:yesterday|(?:earlier\s+)?today|overnight|tonight|last\s+night|last\s+week|"
    r"this\s+(?:morning|afternoon|evening|week|shift)|(?:the|this|last|past)\s+weekend)\b"
    r"|\bnow\b(?=.*\bthan\b)",
    re.I,
)
_NOW_THAN_THEN = re.compile(
    r"\b(?:now|currently|at\s+present)\b.*\b(?:than|with|to|against)\b"
    # "worse than yesterday at noon": a comparative whose other side is a time
    r"|\b(?:[a-z]{2,}er|more|less|better|worse|different)\s+than\s+(?:at\s+|on\s+|in\s+)?"
    r"(?:\d|yesterday|today|this|last|noon|midnight|before)"
    # "is the vertical tune different from an hour ago?"
    r"|\bdifferent\s+(?:from|to)\s+(?:\d|an?\b|yesterday|today|this|last|noon|"
    r"midnight|before|earlier)",
    re.I,
)


# "is the lifetime over 8 hours?": a duration after "is X over" is a threshold for X's value
# (a lifetime is counted in hours), not a range of history
_THRESHOLD_QUESTION = re.compile(
    r"^\W*(?:is|are|isn'?t|aren'?t)\b(?!.*\b(?:was|were|been|did|had)\b).*\s(?:over|under)$", re.I
)


def _time_slot(
    canonical: str, spans: list[ClockSpan]
) -> tuple[TimeSlot | None, list[tuple[int, int]]]:
    found = [
        (m.start(), m.end())
        for m in _TIME_WORDS.finditer(canonical)
        if not (
            re.match(r"(?:over|under)\s+[\d.]", m.group(0), re.I)
            and _THRESHOLD_QUESTION.match(canonical[: m.start()] + m.group(0).split()[0])
        )
    ]
    spans = [s for s in spans if s.kind != "day"]
    if spans:
        first = spans[0]
        return TimeSlot(first.kind, first.words, first.canonical()), found
    if found:
        words = " ".join(canonical[a:b] for a, b in found)
        kind = "moment" if re.search(r"\bago\b|\bat\s+\d", words, re.I) else "words"
        return TimeSlot(kind, words, words), found
    return None, []


# -- the parse -----------------------------------------------------------------------------------
def _verb_clauses(text: str) -> list[str]:
    """Pieces that may each lead with a verb: sentences, "then", ", " and "and" before a verb."""
    verbs = "|".join(sorted(CHANGE | READ_VERBS | PLOT_VERBS, key=len, reverse=True))
    pieces = re.split(
        rf"[;?!]|\.(?!\d)|\bthen\b|\bafterwards\b|\bafter\s+that\b|"
        rf",\s*(?=(?:and\s+)?(?:just\s+)?(?:{verbs})\b)|"
        rf"\band\s+(?=(?:then\s+)?(?:{verbs})\b)",
        text,
        flags=re.I,
    )
    return [p.strip() for p in pieces if p and p.strip(" ,.")]


_AFTERWARDS = re.compile(r"(?:,?\s*\band)?\s*\b(?:afterwards|after\s+that|next)\b,?", re.I)
_FIRST = re.compile(
    r"(?:^|(?<=[,;.?!]))\s*first(?:ly)?\b,?\s*|\s+first\b(?=\s*(?:$|[,;.?!]|\band\b|\bthen\b))",
    re.I,
)


def _in_order(text: str) -> str:
    """The words that order clauses said as "then": "first read X, afterwards set it" is
    "read X, then set it" (no channel is called "first" or "afterwards")."""
    if not re.search(r"\b(?:first(?:ly)?|afterwards|after\s+that|next)\b", text, re.I):
        return text
    text = _FIRST.sub(lambda m: " " if m.group(0).startswith(" ") else "", text)
    if re.search(r"\b(?:afterwards|after\s+that)\b", text, re.I) or re.search(
        r"[,;.]\s*next\b|\band\s+next\b", text, re.I
    ):
        text = _AFTERWARDS.sub(" then", text)
    return " ".join(text.split())


def _names_a_channel(clause: str, vocabulary: Vocabulary) -> bool:
    """A device name or a word of the channel list, and no amount ("HCM 7 readback please")."""
    if amounts(clause):
        return False
    words = re.findall(r"[a-z]+\d*", clause.lower())
    return any(re.fullmatch(r"[a-z]{1,5}\d+", w) or w in vocabulary.channel_words for w in words)


def _content(words: list[str]) -> list[str]:
    return [
        w
        for w in words
        if w not in STOP_WORDS and w not in POLITE and not w.isdigit() and len(w) > 1
    ]


def parse_request(
    text: str, vocabulary: Vocabulary | None = None, now: datetime | None = None
) -> Request:
    """The structure of ``text`` (see the module docstring). ``now`` (timezone-aware, in the
    facility's zone) resolves qualified clock times; without it they stay as typed."""
    resolved = _with_references_resolved(_in_order(str(text)), vocabulary, now)
    request = _parse(resolved, vocabulary, now)
    if resolved != text:
        request = replace(request, text=" ".join(str(text).split()))
    dotted = dotted_clock_times(request.canonical)
    if not request.changes and dotted != request.canonical:
        # "lifetime at 9.30": a clock time with a dot, in a request that changes nothing
        again = _parse(dotted, vocabulary, now)
        return replace(again, text=request.text)
    return request


_VALUE_NOUNS = frozenset({"value", "values", "reading", "readings", "level", "number"})
_BACK_REFERENCE = re.compile(r"\b(?:it|them)\b", re.I)


def _with_references_resolved(
    text: str, vocabulary: Vocabulary | None, now: datetime | None
) -> str:
    """``text`` with a change clause that points back ("HCM 7 readback please, then bump it
    0.05 A", "give me VCM 12 then 0.1 A on it") naming what the first clause named, said the
    way the writers read it ("... then increase HCM7 by 0.05 A")."""
    clauses = _verb_clauses(text)
    if len(clauses) < 2 or _CONDITIONAL.search(text):
        return text  # one clause, or a condition ("when QF3 is above 121 A, lower it")
    first = _parse(clauses[0], vocabulary, now)
    if first.changes or first.intent in ("conversation", "knowledge") or not first.targets:
        return text
    if not _names_a_channel(" ".join(first.targets), vocabulary or Vocabulary()):
        return text  # "no, make it 0.35": "it" is the previous turn's, not a word of this one
    named = " and ".join(
        " ".join(w for w in target.split() if w.lower() not in ROLE_WORDS | _VALUE_NOUNS)
        for target in first.targets
    ).strip()
    if not named:
        return text
    out = text
    for clause in clauses[1:]:
        if _BACK_REFERENCE.search(clause):
            said = _BACK_REFERENCE.sub(named, clause, count=1)
        else:  # "HCM 3 value? set to 0.2 A": the change names no target of its own
            alone = _parse(clause, vocabulary, now)
            if not alone.changes or alone.targets or not alone.verb:
                continue
            said = re.sub(
                rf"\b({re.escape(alone.verb)})\b", rf"\1 {named}", clause, count=1, flags=re.I
            )
        change = _parse(said, vocabulary, now)
        if change.changes and not change.unused:
            out = out.replace(clause, change.canonical, 1)
    return out


def _parse(text: str, vocabulary: Vocabulary | None, now: datetime | None) -> Request:
    from osprey_desktop.language.questions import asks_for_help, is_knowledge_question, is_thanks
    from osprey_desktop.language.words import is_greeting

    vocabulary = vocabulary or Vocabulary()
    original = " ".join(str(text).split())
    work = join_device_names(original, vocabulary)
    work = re.sub(r"\bzero\s+out\b", "zero", work, flags=re.I)  # a phrasal verb, one verb
    work = _in_order(work)  # "check HCM8 first and afterwards set it": "... then set it"
    work = spoken_times(work)  # "a quarter past nine", "an hour and a half ago"
    work = duration_statistics(work)  # "one hour average of X": X's average over the last hour
    work = _set_to_question(work)  # "what frequency is cavity 1 set to?": its setpoint
    # "incraese QF 3 by 1 A", "plto the lifetime": a verb one slip of typing away
    work = verb_spelled(
        work, _lead_stripped(work), vocabulary.channel_words | vocabulary.device_prefixes
    )
    if not _is_question(work):
        work = _MODAL_VALUE.sub(" to ", work)  # "HCM04 should be 0.25 A": a value given
    spans = find_clock_spans(work, now) if now is not None else []
    canonical = replace_clock_spans(work, spans)
    time_slot, time_spans = _time_slot(canonical, spans)
    lowered = canonical.lower()
    all_words = re.findall(r"[a-z][a-z'-]*[a-z]|[a-z]", lowered.replace("n't", " not"))
    used: set[str] = set()
    for a, b in time_spans:
        used.update(re.findall(r"[a-z]+", lowered[a:b]))

    if is_greeting(original) or is_thanks(original) or asks_for_help(original):
        return Request(original, "conversation", canonical=canonical, used=tuple(all_words))
    if is_knowledge_question(original) or _names_a_concept(original, vocabulary):
        return Request(original, "knowledge", canonical=canonical, used=tuple(all_words))

    # verbs, clause by clause
    verb: str | None = None
    change_verb: str | None = None
    unknown: list[str] = []
    read_before = reads_first = False
    for clause in _verb_clauses(canonical):
        stripped = _lead_stripped(clause)
        found, known = _verb_of(stripped, vocabulary)
        if found is None:
            # "what's the ID04 gap? then open it", "HCM 7 readback please, then bump it":
            # a question or a channel named before the change
            read_before = read_before or (
                not change_verb and (_is_question(clause) or _names_a_channel(clause, vocabulary))
            )
            continue
        if not known:
            unknown.append(found)  # a verb nobody taught the grammar: unused, asked about
            continue
        used.add(found)
        verb = verb or found
        is_change = (
            found in CHANGE or stem(found) in {stem(v) for v in CHANGE} or found in PHRASAL_CHANGES
        )
        # the verb leads its clause, so a negation ("don't set") leaves no verb to find
        if is_change and found not in READ_VERBS and not _is_question(clause) and not change_verb:
            change_verb = found
            reads_first = read_before
        elif not is_change and not change_verb:
            read_before = True  # "show me the ID04 gap and then open it to 20 mm"
    wish = bool(_WISH.search(canonical)) and not _is_question(canonical)

    without_times = canonical
    for m in _TARGET_NOISE.finditer(canonical):
        time_spans_and_noise = (m.start(), m.end())
        a, b = time_spans_and_noise
        without_times = without_times[:a] + " " * (b - a) + without_times[b:]
    for a, b in time_spans:
        without_times = without_times[:a] + " " * (b - a) + without_times[b:]
    quantity, quantity_words = read_quantity(without_times, all_words)
    wished = bool(_WISH.search(canonical))
    if _names_a_device(without_times, quantity, change_verb is not None or wished):
        quantity, quantity_words = None, set()
    used |= quantity_words
    # A comparative with a number and no verb ("HCM09 0.2 A higher") is a change too.
    comparative_change = (
        quantity is not None
        and quantity.kind in ("relative", "comparative", "percent")
        and not _is_question(canonical)
        and not _negated(canonical)
    )
    changes = change_verb is not None or comparative_change
    # "give HCM13 the same setting as HCM14": a relation of equality is a copy, whatever verb
    relation = copy_relation(canonical)
    changes = changes or relation is not None
    if not changes and _GIVEN_A_REFERENCE.search(canonical) and not _is_question(canonical):
        # "HCM4 back to its 10:00 value", "HCM2 to golden": a value from elsewhere, no verb
        changes = not _negated(canonical)
    reference, reference_words = find_reference(canonical, changes or wish)
    if relation is not None and (reference is None or reference.kind != "channel"):
        # "put QF9 where QF11 is", "align QF9 with QF11": the relation names the source
        reference = Reference("channel", relation[1])
    if relation is not None:
        unknown = []  # "use the QF11 setpoint for QF9": the relation places its verb
    used |= reference_words
    state = None
    if change_verb in STATE_VERBS and (quantity is None or quantity.kind == "comparative"):
        state = STATE_VERBS[change_verb]

    if changes:
        if reference is not None and reference.kind == "archive":
            intent: Intent = "restore"
        elif reference is not None and reference.kind == "channel":
            intent = "copy"
        elif state is not None and reference is None:
            intent = "state"
        else:
            intent = "write"
    elif unknown:
        intent = "unknown"
    elif any(w in COMPARE_WORDS for w in all_words) or (
        time_slot is not None and _NOW_THAN_THEN.search(canonical)
    ):
        intent = "compare"
    elif any(w in STATISTIC_WORDS for w in all_words) and time_slot is not None:
        intent = "statistic"
    elif any(w in PLOT_VERBS for w in all_words) or re.search(r"\bon\s+one\s+plot\b", lowered):
        intent = "plot"
    elif (
        time_slot is not None
        or any(w in HISTORY_WORDS for w in all_words)
        or (
            (_is_question(canonical) or _EMBEDDED_QUESTION.search(canonical))
            and any(w in PAST_VERBS for w in all_words)
        )
    ):
        intent = "history"
    else:
        intent = "read"

    # targets: what the other slots leave
    taken = list(time_spans)
    amount_spans = [(a.start, a.end) for a in amounts(without_times)]
    if quantity is not None and quantity.value is not None and amount_spans:
        taken.append(amount_spans[-1])
    body = canonical
    for a, b in sorted(taken, reverse=True):
        body = body[:a] + " " * (b - a) + body[b:]
    source = reference.words if reference is not None and reference.kind == "channel" else ""
    phrase = body
    if source:
        phrase = re.split(
            r"\b(?:match(?:es)?|in\s+line\s+with|the\s+same\s+|equals?(?:\s+to)?|identical\s+to|"
            r"to\s+what(?:ever)?)\b",
            phrase,
            maxsplit=1,
            flags=re.I,
        )[0]
    phrase = _TARGET_NOISE.sub(" ", phrase)  # "HCM14 at 0.3 A please": no trailing "at"
    # "yesterday's value of QD8" without its time: the possessive's words name no channel
    phrase = _OF_A_TIME.sub(" ", phrase)
    if intent == "restore":
        phrase = _BARE_CLOCK.sub(" ", phrase)  # "roll HCM4 back to 10:00"
    words_out = set(quantity_words) | set(VAGUE_AMOUNTS) | UP_WORDS | DOWN_WORDS
    words_out -= {"open", "close"}
    phrase = re.sub(
        rf"\b(?:{'|'.join(sorted(words_out))})\b(?=\s*(?:$|[,.?!]))", " ", phrase, flags=re.I
    )
    trailing = words_out | {
        "a",
        "an",
        "up",
        "down",
        "back",
        "to",
        "by",
        "at",
        "then",
        "over",
        "under",
    }
    pattern = rf"(?:\s+|^)(?:{'|'.join(sorted(map(re.escape, trailing)))})\s*(?=[,.?!]|$)"
    previous = None
    while previous != phrase:
        previous, phrase = phrase, re.sub(pattern, "", phrase.rstrip(), flags=re.I)
    if change_verb or verb:
        phrase = re.sub(
            rf"^\W*(?:\w+\W+){{0,6}}?\b{re.escape(change_verb or verb or '')}\b",
            " ",
            _lead_stripped(phrase),
            count=1,
            flags=re.I,
        )
    for lead in unknown:
        phrase = re.sub(
            rf"\b{re.escape(lead)}\b(?:\s+(?:up|down|back|off|on|out)\b)?",
            " ",
            phrase,
            count=1,
            flags=re.I,
        )
    phrase = re.sub(
        r"^\s*(?:(?:what|how|where|which)\s*(?:'s\b|is\b|are\b|was\b|were\b)?|'s\b|is\b|are\b|was\b)",
        " ",
        phrase,
        flags=re.I,
    )
    phrase = _target_phrase(phrase, [])
    phrase = without_slot_words(phrase, intent, reference)
    phrase = re.sub(
        r"\b(?:the\s+)?(?:history|trend|value|values|reading|readings)\s+of\b",
        " ",
        phrase,
        flags=re.I,
    )
    phrase = re.sub(r"^(?:me|us)\b", "", phrase.strip(), flags=re.I).strip(" ,.?!")
    if quantity is not None:
        # "set 0.3 A on HCM14", "apply 2 A to QF3": the amount came first, the target after
        phrase = re.sub(r"^(?:(?:on|onto|to|for|into|at)\s+)+", "", phrase, flags=re.I)
    if _is_question(canonical):
        phrase = re.sub(r"^\s*there\b", " ", phrase, flags=re.I).strip()  # "was there a drop ..."
        # "what is the RF frequency doing / reading?": the question's verb, no channel's word
        phrase = re.sub(r"\s+(?:doing|reading|showing|saying)\s*$", "", phrase, flags=re.I)
    phrase = _WISH.sub(" ", phrase)
    past = "|".join(sorted(PAST_VERBS | ASKERS | {"has", "have", "had", "how"}))
    embedded = _EMBEDDED_QUESTION.search(canonical)
    if embedded:  # "tell me when the ID09 gap was last changed"
        phrase = re.sub(r"^\s*(?:when|whether|if|how)\b|\b(?:was|were)\s+last\b", " ", phrase)
    if _is_question(canonical) or time_slot is not None or embedded:
        phrase = re.sub(rf"\b(?:{past})\b", " ", phrase, flags=re.I)
        used.update(w for w in all_words if w in PAST_VERBS or w in ASKERS)
    phrase = re.sub(r"\s*(?:->|→|:?=|:)\s*$", "", phrase.strip())
    targets = tuple(
        t.strip(" :=")
        for t in split_targets(phrase)
        if re.search(r"[a-z0-9]", t, re.I) and t.lower() not in PRONOUNS
    )
    if source:
        targets = (*targets, source)
    if relation is not None:
        targets = relation
    targets = with_roles(targets, lowered, vocabulary.channel_words)

    # words: used by a slot, by a target the vocabulary knows, or unused
    target_words = set(re.findall(r"[a-z]+", " ".join(targets).lower()))
    known = vocabulary.channel_words
    unplaced = []
    for word in _content(all_words):
        if word in used or word in READ_VERBS or word in PLOT_VERBS or word in QUESTION_LEADS:
            continue
        if word in STATISTIC_WORDS or word in HISTORY_WORDS or word in COMPARE_WORDS:
            continue
        if word in target_words and (not known or word in known or stem(word) in _stems(known)):
            used.add(word)
            continue
        if word in PLACE_WORDS or word in ORDINALS or word in NEGATIONS or word in RANGE_WORDS:
            continue
        if (
            word in target_words
            and re.fullmatch(r"[a-z]{1,5}", word)
            and word in vocabulary.device_prefixes
        ):
            continue
        if word in target_words or word in unknown:
            unplaced.append(word)
    if intent in ("read", "history") and _gives_a_value(
        without_times, quantity, verb, unknown, targets, vocabulary
    ):
        # "QD08 to 98 A", "HCM5 at 0.4", "QF to 120": a value given to a device, no verb
        intent = "write"
        amount = [a for a in amounts(without_times)][-1]
        head = canonical[: amount.start]
        if quantity is not None and quantity.unit is None:
            head = re.sub(r"\bat\s*$", "to ", head)
        canonical = head + canonical[amount.start :]
    if not unplaced:  # every word placed: the change is said the way the writers read it
        canonical = _canonical_change(
            canonical,
            intent,
            quantity,
            targets,
            reference,
            change_verb or verb,
            relation is not None,
        )
    if intent == "restore":
        canonical = _canonical_restore(canonical, targets, time_slot, bool(unplaced))
    return Request(
        text=original,
        intent=intent,
        targets=targets,
        quantity=quantity,
        time=time_slot,
        reference=reference,
        state=state,
        verb=change_verb or verb or (unknown[0] if unknown else None),
        used=tuple(sorted(used)),
        unused=tuple(dict.fromkeys(unplaced)),
        canonical=canonical,
        refers_back=bool(re.search(r"\b(?:it|that|them|those|these|same)\b", lowered)),
        reads_first=reads_first and intent in CHANGE_INTENTS,
    )


_OF_A_TIME = re.compile(
    r"(?:\b(?:back\s+)?to\s+)?(?:'s|’s)(?:\s+(?:value|setting|setpoint|reading|level)s?"
    r"(?:\s+(?:for|of|on)\b)?)?",
    re.I,
)
_BARE_CLOCK = re.compile(r"\b(?:to|at|from)\s+(?P<clock>\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?)", re.I)


def _canonical_restore(
    canonical: str, targets: tuple[str, ...], time: TimeSlot | None, unplaced: bool
) -> str:
    """A restore said as the restore parser reads it: "restore <targets> to its value from
    <moment>" ("go back to this morning's value for QD8", "roll HCM4 back to 10:00") when
    every word is placed; otherwise "back the way it was" said "back to what it was"."""
    moment = time.canonical if time is not None else ""
    if not moment:
        clock = _BARE_CLOCK.search(canonical)
        moment = clock.group("clock") if clock else ""
    moment = re.sub(r"^(?:from|at|since|to|its)\s+", "", moment.strip(), flags=re.I)
    named = [t for t in targets if t.lower() not in PRONOUNS]
    if moment and named and not unplaced and len(_verb_clauses(canonical)) == 1:
        return f"restore {' and '.join(named)} to its value from {moment}"
    return _AS_IT_WAS.sub("back to what it was", canonical)


# "what frequency is cavity 1 set to?", "what is QF 3 set at": the device's setpoint of that
# quantity, asked ("what is the cavity 1 frequency setpoint?"); the quantity belongs to the target
_SET_TO = re.compile(
    r"^(?P<lead>.*?)\b(?:what|which)\s+(?:(?P<what>[a-z][a-z -]{0,30}?)\s+)?(?:is|are)\s+"
    r"(?:the\s+)?(?P<device>[^?.!;]+?)\s+(?:currently\s+|now\s+)?set\s+(?:to|at)"
    r"(?:\s+(?:right\s+now|now|currently|at\s+the\s+moment))?\s*(?P<end>[?.!]*)\s*$",
    re.I,
)
_GENERIC_WHAT = frozenset({"value", "values", "setting", "settings", "number", "level"})


def _set_to_question(text: str) -> str:
    found = _SET_TO.match(text)
    if found is None:
        return text
    what = (found.group("what") or "").strip()
    if what.lower() in _GENERIC_WHAT:
        what = ""
    device = found.group("device").strip()
    target = f"{device} {what}".strip()
    return f"{found.group('lead')}what is the {target} setpoint{found.group('end') or '?'}"


# "X should be 0.25 A", "X needs to be at zero": a value given to X, said as "X to 0.25 A"
_MODAL_VALUE = re.compile(
    r"\s+(?:should|must|ought\s+to|needs?\s+to|has\s+to)\s+(?:be|go|sit|read)(?:\s+(?:at|to))?\s+"
    rf"(?=[-+−]?\.?\d|minus\b|negative\b|{SPELLED_NUMBER_PATTERN})",
    re.I,
)
_AS_IT_WAS = re.compile(
    r"\b(?:back\s+)?(?:to\s+)?(?:the\s+way|how|as)\s+(?:it|they)\s+(?:was|were|used\s+to\s+be)\b",
    re.I,
)
# "tell me when the ID09 gap was last changed": a question inside a request to tell
_EMBEDDED_QUESTION = re.compile(
    r"\b(?:tell|show|let)\s+(?:me|us)\s+(?:know\s+)?(?:when|whether|if|how)\b", re.I
)
_WHAT_IS_BARE = re.compile(
    r"^(?:what\s+is|what'?s|what\s+are)\s+(?!(?:the|a|an|this|that|these|those|our|my|its|"
    r"your)\b)(?P<what>[a-z][a-z -]{0,40}?)\s*[?.!]*$",
    re.I,
)


def _names_a_concept(text: str, vocabulary: Vocabulary) -> bool:
    """ "what is emittance?": one bare noun the channel list has no word for is a concept to
    explain ("what is lifetime?" names a channel; "what is the chromaticity" a channel the
    list may lack, asked of the finder)."""
    found = _WHAT_IS_BARE.match(text.strip())
    if found is None or not vocabulary.channel_words:
        return False
    words = re.findall(r"[a-z]+", found.group("what").lower())
    known = vocabulary.channel_words | vocabulary.device_prefixes
    return len(words) == 1 and not any(w in known or stem(w) in _stems(known) for w in words)


_GIVEN_A_REFERENCE = re.compile(
    r"^\W*[A-Za-z]{1,5}\d{1,3}\b[^,;?]*?\s(?:back\s+(?:to|the\s+way|where|how|as)\b|to\s+(?:its\s+|their\s+|the\s+)?"
    rf"(?:{'|'.join(sorted(GOLDEN_WORDS))})\b)",
    re.I,
)
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|unless|once|until|provided)\b", re.I)
_MARK_BEFORE = re.compile(r"(?:\bto|\bat|->|→|:?=|:)\s*$", re.I)


def _gives_a_value(
    text: str,
    quantity: Quantity | None,
    verb: str | None,
    unknown: list[str],
    targets: tuple[str, ...],
    vocabulary: Vocabulary,
) -> bool:
    """A statement without a verb that gives a device a value: an absolute amount with a unit
    or after "to", "at", "=", "->", ":", and a target naming a device (a name with a number,
    or a family the list abbreviates). Not a question, not negated."""
    if verb is not None or unknown or quantity is None or quantity.kind != "absolute":
        return False
    if _is_question(text) or _negated(text) or not targets:
        return False
    found = amounts(text)
    if not found:
        return False
    marked = bool(_MARK_BEFORE.search(text[: found[-1].start]))
    if not (marked or quantity.unit):
        return False
    for target in targets:
        if re.search(r"[A-Za-z]{2,5}\d", target):
            return True
        if any(w.lower() in vocabulary.device_prefixes for w in re.findall(r"[A-Za-z]+", target)):
            return True
        if _described_device(target, vocabulary):
            return True
    return False


def _described_device(target: str, vocabulary: Vocabulary) -> bool:
    """A device named by the list's words and its number ("horizontal corrector 14",
    "quad 18"): a channel word right before the number, not a place ("sector 4")."""
    for word, _ in re.findall(r"\b([a-z]+)\s+(\d{1,3})\b(?!\.\d)", target.lower()):
        if word in vocabulary.channel_words and word not in PLACE_WORDS:
            return True
    return False


@lru_cache(maxsize=4)
def _stems(words: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


def _canonical_change(
    canonical: str,
    intent: str,
    quantity: Quantity | None,
    targets: tuple[str, ...],
    reference: Reference | None,
    verb: str | None = None,
    ordered: bool = False,
) -> str:
    """The change in a form the write parsers read, when the words had another form: one
    value for its targets is said "set <targets> to <value>", one change "increase <targets>
    by <amount>", a copy "set <target> to the same value as <source>"."""
    if (
        intent == "write"
        and quantity is not None
        and quantity.kind == "absolute"
        and quantity.value is not None
        and targets
        and len(_verb_clauses(canonical)) == 1
        and len(amounts(canonical)) == 1
        and not _CONDITIONAL.search(canonical)
        and not any(t.lower() in PRONOUNS for t in targets)
        # "open the ID04 gap 2 mm": to 2 mm or by 2 mm? a verb of direction or state with an
        # amount nothing marks is left for the writer to ask about
        and (
            verb not in (UP_WORDS | DOWN_WORDS | STATE_VERBS.keys())
            or bool(
                re.search(
                    r"(?:\bto|\bat|->|→|=)\s*[-+−]?\s*$", canonical[: amounts(canonical)[0].start]
                )
            )
        )
    ):
        unit = f" {quantity.unit}" if quantity.unit else ""
        typed = re.match(r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?", quantity.words, re.I)
        number = typed.group(0) if typed else f"{quantity.value:g}"  # "9.30" stays "9.30"
        return f"set {' and '.join(targets)} to {number}{unit}"
    if intent == "write" and quantity is not None and quantity.value is not None and targets:
        single = len(_verb_clauses(canonical)) == 1
        by_word = re.search(r"\bby\b", canonical, re.I)
        relative = quantity.kind == "relative" and (single or not by_word)
        # "QF 3 one percent up": a percent without "by" said as the write parser reads it
        percent = quantity.kind == "percent" and single and not by_word
        if relative or percent:
            word = "increase" if quantity.value > 0 else "decrease"
            unit = "%" if percent else (f" {quantity.unit}" if quantity.unit else "")
            return f"{word} {' and '.join(targets)} by {abs(quantity.value):g}{unit}"
    # "copy X to Y": the source comes first, unless a relation put the target first
    same = re.search(r"\bcopy\b", canonical, re.I) and not ordered
    if intent == "copy" and reference is not None and len(targets) >= 2 and not same:
        return f"set {' and '.join(targets[:-1])} to the same value as {targets[-1]}"
    return canonical
