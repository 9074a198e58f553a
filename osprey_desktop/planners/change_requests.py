"""Whether a request asks for a change: the rules the built-in planner gives writers by.

A change verb counts only as a command: first word of a clause, after politeness ("please",
"can you", "I want to"), never negated or in a question ("is HCM01 set to zero?", "don't
change anything", "how do I set ..."). "X -> 5" / "X = 5" is a command too, and so is a
statement without any verb that gives a name a value a writer can act on ("QF07 to 119 A",
"HCM01 1.5 A"): see ``_without_verb_or_question`` and ``_a_writer_can_act``. Writers are asked
through their ``missing_information``, so these rules name no capability.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from osprey_desktop.language.later_changes import held_back, held_items_set_aside, later_moment
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN
from osprey_desktop.language.request import leading_verb
from osprey_desktop.language.words import CHANGE_VERBS, has_change_verb, stem, words
from osprey_desktop.planners.channel_words import parse

logger = logging.getLogger(__name__)

_CLAUSES = re.compile(r"[;?!,]|\.(?!\d)|\band\b|\bthen\b|\bbut\b", re.I)
_SENTENCES = re.compile(r"(?<=[;?!])|(?<=\.)(?!\d)")
_POLITE_LEAD = re.compile(
    r"^(?:please|kindly|now|also|just|so|ok|okay|go ahead and|(?:can|could|would|will) you"
    r"(?: please)?|(?:can|could|shall) we|i(?:'d| would)? (?:want|like|need) to|"
    r"we (?:want|need) to|let'?s)\s+"
)
_ASSIGNMENT = re.compile(r"^[\w:.\-]+\s*(?:->|→|:=|=)\s*[-+]?\.?\d")
_CHANGE_STEMS = frozenset(stem(v) for v in CHANGE_VERBS)
# Verbs that change a device only when a target value follows ("open the gap to 20 mm",
# not "open the strip chart"); a clock time ("to 12:00") is not a target value.
_VALUE_VERBS = frozenset(
    [
        "open",
        "close",
        "shut",
        "bring",
        "drive",
        "take",
        "make",
        "return",
        "start",
        "stop",
        "insert",
        "retract",
        "extract",
        "arm",
        "disarm",
        "activate",
        "deactivate",
    ]
)
_TARGET_VALUE = re.compile(r"\b(?:to|by|at)\s*[-+]?\.?\d+(?:\.\d+)?(?!\s*[:h]\d)\b")
_A_NUMBER = re.compile(rf"\d|{SPELLED_NUMBER_PATTERN}", re.I)
_QUESTION_LEAD_WORDS = """what which who whom whose how why when where whether is are was were
am do does did has have had can could would should will shall may might if"""
_QUESTION_LEADS = frozenset(_QUESTION_LEAD_WORDS.split())
_NEGATION_WORDS = "not no never nothing without don doesn didn isn aren wasn weren won shouldn"
_NEGATIONS = frozenset(_NEGATION_WORDS.split())


def asks_for_change(text: str, capabilities: Sequence[Any] | None = None) -> bool:
    """True when some clause of ``text`` is a command to change something.

    ``capabilities`` (default: the registry's) are asked whether a sentence without a verb
    gives a value one of their writers can act on.
    """
    writers: list[Any] | None = None

    def can_write(words_: str) -> bool:
        nonlocal writers
        if writers is None:
            pool = registered_capabilities() if capabilities is None else capabilities
            writers = [c for c in pool if getattr(c, "writes", False)]
        return _a_writer_can_act(words_, writers)

    def writer_acts_or_asks(words_: str) -> bool:
        can_write("")  # fills ``writers``
        return _a_writer_can_act(words_, writers or [], asks_too=True)

    for raw in _CLAUSES.split(text):
        clause, previous = raw.strip().lower(), None
        while clause != previous:
            previous, clause = clause, _POLITE_LEAD.sub("", clause).strip()
        if _ASSIGNMENT.match(clause):
            return True
        first = words(clause)[:1]
        if first and stem(first[0]) in _CHANGE_STEMS and leading_verb(clause) is not None:
            return True  # a verb in verb position ("tune the RF", not "tunes, lifetime")
        if first and first[0] in _VALUE_VERBS:
            # Read as "set ...", the rest gives a value: "open the gap 2 mm" asks for a
            # change (to or by? the writer asks), "open the strip chart" does not.
            as_set = re.sub(rf"^.*?\b{first[0]}\b", "set", raw, count=1, flags=re.I | re.S)
            if _TARGET_VALUE.search(clause) or (
                _names_channels(raw) and (can_write(as_set) or writer_acts_or_asks(raw))
            ):
                return True  # ... or a state ("open the cooling valve"), or a question
    return any(
        _without_verb_or_question(part, capabilities) and _gives_a_value(part) and can_write(part)
        for part in _statements(text)
    )


def _gives_a_value(part: str) -> bool:
    """The parse finds an amount with a unit or a mark ("QF07 to 119 A", "VCM11 -> 0.35"),
    not a device number, a count or a time ("HCM01 1.5", "sectors 2 to 4", "3 hours")."""
    quantity = parse(part).quantity
    return quantity is not None and bool(quantity.unit or VALUE_MARK.search(part))


def _names_channels(text: str) -> bool:
    """``text`` names a target and every word of it is placed ("open the ID04 gap"; not
    "open the strip chart", whose "strip" no channel has)."""
    request = parse(text)
    return bool(request.targets) and not request.unused


def _statements(text: str) -> list[str]:
    """The parts of ``text`` that are not questions, split at sentence ends and "then"."""
    parts = []
    for sentence in _SENTENCES.split(text):
        if sentence.strip().endswith("?"):
            continue
        parts += [p.strip(" .;!,") for p in re.split(r"\bthen\b", sentence, flags=re.I)]
    return [p for p in parts if p]


def _without_verb_or_question(part: str, capabilities: Sequence[Any] | None) -> bool:
    """A statement that can only be a value given: a number, no change verb (the verb rules
    decide those), no negation, not led by a question word or by another request's keyword
    ("read ...", "plot ...", "compare ..."), declared by a capability that works on inputs."""
    ws = words(part)
    if not ws or not _A_NUMBER.search(part) or has_change_verb(part):
        return False
    if ws[0] in _QUESTION_LEADS or any(w in _NEGATIONS for w in ws):
        return False
    pool = registered_capabilities() if capabilities is None else capabilities
    for capability in pool:
        if getattr(capability, "writes", False) or not getattr(capability, "requires", None):
            continue
        for keyword in getattr(capability, "keywords", None) or []:
            if words(keyword)[:1] == ws[:1]:
                return False
    return True


def _a_writer_can_act(text: str, writers: Sequence[Any], asks_too: bool = False) -> bool:
    """True when a writer's ``missing_information`` finds nothing missing in ``text``: it
    reads a value and a target there (with ``asks_too``, also when it finds the target and
    only asks about the value: "open the ID04 gap" is a change without a usable value). A
    writer that declares no such check is not asked."""
    for writer in writers:
        check = getattr(writer, "missing_information", None)
        if not callable(check):
            continue
        try:
            answer = check(text, {})
            if answer is None or (asks_too and getattr(answer, "target_known", False)):
                return True
        except Exception as exc:  # noqa: BLE001 - a broken check must not stop planning
            logger.warning("%s.missing_information failed: %s", writer.name, exc)
    return False


def asks_a_question(text: str) -> bool:
    """Whether a sentence of ``text`` is a question that changes nothing ("what's the ID04
    gap?" before "then open it to 25 mm")."""
    for sentence in _SENTENCES.split(text):
        sentence = sentence.strip()
        if sentence.endswith("?") and not has_change_verb(sentence):
            first = words(_POLITE_LEAD.sub("", sentence.lower()))[:1]
            if first and first[0] in _QUESTION_LEADS:
                return True
    return False


# "QD08 to 98", "VCM11 -> 0.35": a value given without a verb (a bare "HCM01 1.5" is not)
VALUE_MARK = re.compile(r"(?:\bto\b|\bat\b|->|→|:?=|:)\s*[-+]?\.?\d|\bto\s+[a-z]", re.I)


_VALUE_OR_AMOUNT = re.compile(r"(?:->|→|\bto\b|:?=|\bby\b)\s*[-+]?\.?\d|(?<![\w.])[-+]\.?\d", re.I)


def change_for_later(text: str) -> str | None:
    """The words placing the change ``text`` asks at a later moment ("set QF 1 to 121 at
    18:00" -> "at 18:00"), or None: a write held for later is one nobody approves then, so
    none is planned (the answer says so, with the write policy's view of the value)."""
    # an item of a list held for later is only noted; the others are asked now
    text, _ = held_items_set_aside(text)
    request = parse(text)
    if request.intent not in ("write", "state"):
        # "Plan for 16:00 (not now!): 1. ID11 gap -> 25 mm ...", "tomorrow 8am set QF 1 to
        # 121", "QF 21 +1 A tomorrow morning, not now": a value or an amount given beside a hold
        # or a later moment is held, whatever the parse made of the message
        hold = held_back(text) or later_moment(text)
        valued = _VALUE_OR_AMOUNT.search(text)
        if hold is not None and valued and request.intent in ("read", "unknown"):
            return hold
        return None
    # the words of the change, not of its reason ("for the exposures tonight, please raise
    # ..."); a clock time is in the parse's time slot
    said = f"{request.canonical} {request.time.words if request.time else ''}"
    # "set HCM 3 to 0.1 A later": a "later" ending the change, which its canonical form
    # leaves out ("for the exposures tonight, please raise ..." places only its reason)
    last = re.search(r"\blater(?:\s+(?:on|today|tonight))?\W*$", text, re.I)
    held = later_moment(said) or held_back(text)
    return held or (" ".join(last[0].split()).strip(" .!?") if last else None)


LATER_CHANGE_ANSWER = (
    "I change the machine only when you ask and approve it, never later: nothing is held for "
    "“{later}”. Ask again then, or ask without the time to do it now."
)


def registered_capabilities() -> list[Any]:
    """The registry's capabilities: the pool a request is checked against when none is given."""
    from osprey_desktop.registry import get_registry

    return get_registry().get_all_capabilities()
