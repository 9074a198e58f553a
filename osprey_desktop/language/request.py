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

This module reads the slots in order and decides the intent; its parts live beside it:

* ``parsed_request``: what a parse holds (``Request``, ``TimeSlot``, ``Vocabulary``, the
  intents, ``CHANGE_INTENTS``);
* ``clauses``: the clauses of a request, the verb leading each, questions and negations;
* ``device_names``: device names typed with a space ("qd 08"), a number that names a device
  rather than an amount, and values given to a device without a verb ("QD08 to 98 A");
* ``time_slots``: the time words and clock times of a request, and "now" set against a time;
* ``canonical_forms``: the request said the way the capabilities' parsers read it;
* ``rewordings``: phrasings said another way before the parse.

Facility words (which letters start a device name, which words describe channels) come in as
a ``Vocabulary`` from the caller: this package knows English, not a channel list.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from functools import lru_cache

from osprey_desktop.language.arrow_references import references_said_plainly
from osprey_desktop.language.canonical_forms import (
    BARE_CLOCK,
    MODAL_VALUE,
    canonical_change,
    canonical_restore,
    set_to_question,
)
from osprey_desktop.language.change_phrasings import changes_said_first
from osprey_desktop.language.checks import without_check
from osprey_desktop.language.clauses import (
    CONDITIONAL,
    WISH,
    in_order,
    is_question,
    lead_stripped,
    leading_verb,
    negated,
    only_refuses_changes,
    reading_in_place_of_a_change,
    refusal_spans,
    takes_itself_back,
    verb_clauses,
    verb_of,
    without_courtesy,
    without_fillers,
    without_question_about_it,
    without_refusal_words,
    without_refused_devices,
    without_the_refused,
)
from osprey_desktop.language.command_lines import command_lines_said_plainly
from osprey_desktop.language.conditions import (
    YES_NO_LEAD,
    condition_and_change,
    condition_said_first,
    subject_asked,
)
from osprey_desktop.language.copy_phrasings import readback_checked_then_matched
from osprey_desktop.language.device_names import (
    GIVEN_A_REFERENCE,
    gives_a_value,
    is_channel_word,
    join_device_names,
    letter_names_read,
    names_a_channel,
    names_a_concept,
    names_a_device,
    numbers_after_a_device,
    spoken_device_names,
    stems,
)
from osprey_desktop.language.discourse import asked_part, only_tells
from osprey_desktop.language.item_lists import items_said_as_a_list, reads_and_changes_in_order
from osprey_desktop.language.later_changes import held_items_set_aside
from osprey_desktop.language.lexicon import (
    ASKERS,
    CHANGE,
    COMPARE_WORDS,
    CROSSED_WORDS,
    DOWN_WORDS,
    GRAMMAR_WORDS,
    HISTORY_WORDS,
    NEGATIONS,
    NO_WAY_VERBS,
    ORDINALS,
    PAST_VERBS,
    PHRASAL_CHANGES,
    PLACE_WORDS,
    PLOT_VERBS,
    POLITE,
    PRONOUNS,
    QUESTION_LEADS,
    RANGE_WORDS,
    READ_OR_CHANGE,
    READ_VERBS,
    ROLE_WORDS,
    STATE_VERBS,
    STATISTIC_WORDS,
    UP_WORDS,
    VAGUE_AMOUNTS,
)
from osprey_desktop.language.notation import averages_said_in_words, notation_said_in_words
from osprey_desktop.language.numbers import (
    SPELLED_NUMBER_PATTERN,
    minus_signs_typed_plainly,
    numbers_typed_plainly,
)
from osprey_desktop.language.parsed_request import (
    CHANGE_INTENTS,
    Intent,
    Request,
    TimeSlot,
    Vocabulary,
)
from osprey_desktop.language.pasted_tables import tables_said_plainly
from osprey_desktop.language.quantities import Quantity, amounts, read_quantity
from osprey_desktop.language.references import (
    AVERAGE_OF,
    Reference,
    copy_relation,
    find_reference,
)
from osprey_desktop.language.rewordings import (
    asides_dropped,
    proposal_asked_for,
    said_plainly,
    what_seems_off_checked,
)
from osprey_desktop.language.screen_quotes import screen_quotes_set_aside
from osprey_desktop.language.spelling import request_words_spelled, slips_respelled, verb_spelled
from osprey_desktop.language.symbols import pictographs_dropped
from osprey_desktop.language.targets import (
    split_targets,
    with_roles,
    without_slot_words,
)
from osprey_desktop.language.time_slots import NOW_THAN_THEN, find_time_slot
from osprey_desktop.language.time_words import (
    bare_durations,
    dotted_clock_times,
    duration_statistics,
    hours_of_past_moments,
    iso_times_spaced,
    spoken_clock_times,
    spoken_times,
    weekday_clock_times,
)
from osprey_desktop.language.times import find_clock_spans, replace_clock_spans
from osprey_desktop.language.units import lookup_unit
from osprey_desktop.language.words import SHIFT_TAKEN_OVER, STOP_WORDS, stem

# The parse's records and the verb and device-name readers are imported from here by the
# planners, the capabilities and the tests.
__all__ = [
    "CHANGE_INTENTS",
    "Intent",
    "Quantity",
    "Reference",
    "Request",
    "TimeSlot",
    "Vocabulary",
    "join_device_names",
    "leading_verb",
    "parse_request",
]


_TARGET_NOISE = re.compile(
    r"\b(?:on\s+one\s+plot|together|in\s+one\s+(?:plot|chart|graph)|side\s+by\s+side|"
    r"for\s+me|right\s+now|at\s+the\s+moment|currently|please|pls|thanks|now|too|as\s+well(?!\s+as))\b"
    r"|\bfirst\b(?=\s*(?:$|[,;.?!]|\band\b|\bthen\b))"  # "check HCM8 first and ..."
    # "HCM05 to 0.35 A at the start of shift", "... all night": when, for a change made now
    r"|\b(?:at\s+the\s+(?:start|beginning)\s+of\s+(?:the\s+|this\s+|my\s+)?shift|"
    r"for\s+the\s+rest\s+of\s+(?:the\s+)?(?:shift|night|day)|for\s+now|all\s+night)\b"
    r"|\b(?:actually|exactly|really|still|asap|urgently|immediately|quickly|hurry|instead)\b"
    # "QF 3 a little lower, not sure how much": doubt about the amount names no channel
    r"|,?\s*\bnot\s+(?:sure|certain)(?:\s+(?:by\s+)?how\s+(?:much|far))?"
    # "what energy are we running at": the question's verb, no channel's words
    r"|\b(?:we'?re|we\s+are|are\s+we)\s+(?:running|sitting|operating)(?:\s+at)?\b"
    # "a little more current, not much": the degree of a vague amount
    r"|\bnot\s+(?:(?:too|that|so)\s+)?(?:much|a\s+lot|by\s+much|far)\b(?=\s*(?:$|[,;.?!]))"
    # "is the orbit within half a mm?": the comparison of the amount taken out before
    r"|\b(?:within|beyond|exceeding|above|below|under|over|any)\b(?=\s*(?:[?.!,;]\s*)?$)"
    # "RF V → 2.4 later": when, for a change placed later (answered, never held)
    r"|\blater(?:\s+(?:on|today|tonight))?\b(?=\s*[.!?]*\s*$)"
    # "how often did the current go below 490 mA": a count of crossings asked (the checks)
    r"|\bhow\s+often\b"
    # "is the vacuum good everywhere?", "RF looking fine?": a judgement asked, no channel's word
    r"|\b(?:good|fine|healthy|sane)\b(?=\s*(?:everywhere|anywhere|overall|now|today|again)?"
    r"\s*(?:[?.!,;]|$))"
    # "rf volts last 2h - did it trip", "IG 13, has it spiked?": what is asked of the target
    # named before it (the word after "did it" is a verb, never a channel's)
    r"|(?:\s[-–—]|[,;])?\s*\b(?:did|does|do|has|have|had)\s+(?:it|they|that|this)\s+[a-z]+\b"
    r"(?=\s*(?:at\s+all\s*)?[?.!]*\s*$)",
    re.I,
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
    rest = lead_stripped(rest)
    return " ".join(rest.split()).strip(" ,.?!")


def _content(words: list[str]) -> list[str]:
    return [
        w
        for w in words
        if w not in STOP_WORDS and w not in POLITE and not w.isdigit() and len(w) > 1
    ]


@lru_cache(maxsize=4)
def facility_words(vocabulary: Vocabulary) -> frozenset[str]:
    """Every word a facility's list gives (channel words and device prefixes), kept: the
    spelling checks ask for them per request, and one set keeps their own tables cached."""
    return vocabulary.channel_words | vocabulary.device_prefixes


def parse_request(
    text: str, vocabulary: Vocabulary | None = None, now: datetime | None = None
) -> Request:
    """The structure of ``text`` (see the module docstring). ``now`` (timezone-aware, in the
    facility's zone) resolves qualified clock times; without it they stay as typed."""
    from osprey_desktop.language.questions import (
        asks_for_limits,
        is_thanks,
        limits_beside_a_reading,
    )
    from osprey_desktop.language.words import is_greeting

    # "thnaks", "wat was ...", "do 19 insted": slips in grammar words; "uh hi there"
    # "check:\n- lifetime\n- IG13", "lt / curr / tunes": one comma-separated list
    # "VCM17 −0.1A": the sign, as a hyphen; "lt + curr? thx 🙏": no pictograph asks anything
    typed = minus_signs_typed_plainly(pictographs_dropped(str(text)))
    # "device,setpoint_A\nVCM04,0.12\nVCM05,-0.08\npls apply": a pasted table, said as one request
    typed = asides_dropped(tables_said_plainly(typed))  # "..., by the way?", "flat or not?"
    # "alarm panel: SR07C:IG13:Pressure HIGH 6.2e-09 Torr. What's IG14 next to it saying?"
    # "morning, taking over from the night shift - lifetime?": whose shift ends, not a time
    typed = _TAKING_OVER.sub(" ", typed)
    typed = screen_quotes_set_aside(typed, vocabulary)
    # "(a) set HCM 16 to 0.2 A; (b) QF 21 +1 A is for tomorrow, not now": (b) is only noted
    typed, _ = held_items_set_aside(typed)
    # "1) tunes 2) ID09 gap -> 14 mm": what to read, then the change, neither lost to the other
    typed = reads_and_changes_in_order(typed, (vocabulary or Vocabulary()).channel_words)
    # "caput SR04C:VCM11:Current:SP 0.3", "caget -a X", "hcm20 -= 0.1": the command line's forms
    typed = iso_times_spaced(command_lines_said_plainly(typed))  # "2024-05-14T06:00" too
    # "Qy", "ΔI(QD16) = -0.5 A"; "avg(HCM01, HCM02)" before its comma splits a list
    listed = notation_said_in_words(items_said_as_a_list(averages_said_in_words(typed)))
    words = vocabulary or Vocabulary()
    spoken = without_fillers(
        slips_respelled(
            # "queue f forty seven", "r f voltage": letters said by name, before any slip
            # of typing is looked for ("r" is no "are" there)
            numbers_after_a_device(
                spoken_device_names(letter_names_read(spoken_clock_times(listed), words), words),
                words,
            ),
            facility_words(words),
            words.device_prefixes or None,
        )
    )
    # "hcm04..06", "HCM 4 through 6": the family's name said once for both ends
    spoken = _RANGE_OF_NUMBERS.sub(lambda m: f"{m['p']}{m['a']} through {m['p']}{m['b']}", spoken)
    spoken = _DOTTED_RANGE.sub(" through ", spoken)  # "VCM05..VCM08": no sentence ends there
    spoken = what_seems_off_checked(spoken)  # "lifetime looks low - check it, and if ..."
    spoken = readback_checked_then_matched(spoken)
    asked = _reading_before_a_mentioned_change(spoken)
    if asked is not None:
        # "what's QF 5 at? I'm thinking of raising it by 1 A after the injection, not now": the
        # reading is asked; the change is only mentioned (never proposed, never answered alone)
        return replace(parse_request(asked, vocabulary, now), text=" ".join(str(text).split()))
    both = limits_beside_a_reading(spoken)
    if both is not None:
        # "what's the max I can put on QD 20, and what is it reading now?": the reading is
        # planned; the answer adds the write policy's (``builtin_answers``)
        return replace(parse_request(both[1], vocabulary, now), text=" ".join(str(text).split()))
    if asks_for_limits(spoken):
        # "if I put the ID 11 gap at 5 mm, would that go through?": asked of the write policy
        # as typed (its courtesy and its "that" are part of the question)
        return Request(" ".join(str(text).split()), "knowledge", canonical=spoken)
    # "I think VCM 20 needs to go to 0.1 A? Please do that": the change proposed is asked for
    spoken = changes_said_first(proposal_asked_for(spoken))  # "please to put", "all off (0)"
    # "VCM5 sp → value @ 07:00", "X: the value it had at 9, put it back to that one"
    spoken = references_said_plainly(spoken)
    # "leave the RF alone, just read me the voltage": a refusal said the way negations are
    spoken = _LEAVE_THE_X_ALONE.sub(r"don't touch \g<what>", spoken)
    # "set HCM 2 to 0.3 and don't touch HCM 3": the refused device is no target
    spoken = without_refused_devices(spoken)
    courteous = is_thanks(spoken) or is_greeting(spoken)  # "that's enough, thanks"
    said = in_order(spoken if courteous else without_courtesy(spoken))
    resolved = _with_references_resolved(said, vocabulary, now)
    request = _parse(resolved, vocabulary, now)
    unchecked = without_check(resolved)
    if unchecked != resolved and not request.changes and not CONDITIONAL.search(resolved):
        # "are both tunes within 0.01 of nominal?": the tunes are read, the answer checks them
        again = _parse(unchecked, vocabulary, now)
        keeps_time = (again.time is None) == (request.time is None)  # "plot X over 2 hours"
        if (
            again.targets
            and not again.changes
            and keeps_time
            and len(again.unused) < max(len(request.unused), 1)
        ):
            request = replace(again, text=request.text, quantity=request.quantity)
    if resolved != str(text):
        request = replace(request, text=" ".join(str(text).split()))
    dotted = dotted_clock_times(request.canonical)
    if not request.changes and dotted != request.canonical:
        # "lifetime at 9.30": a clock time with a dot, in a request that changes nothing
        again = _parse(dotted, vocabulary, now)
        return replace(again, text=request.text)
    return request


_MENTIONED_ONLY = re.compile(
    r"\bnot\s+(?:yet|now|today|right\s+now)\b|\b(?:may|might|maybe|perhaps|thinking\s+of|"
    r"considering|planning|plan\s+to|will\s+ask|we'?ll\s+(?:ask|discuss|see|decide)|later)\b",
    re.I,
)


def _reading_before_a_mentioned_change(text: str) -> str | None:
    """The question of "what's the ID09 gap right now? I may want to close it to 12 mm
    later, not yet", "is the undulator in sector 7 really at 15 mm? don't move it": a reading
    asked first, then a change only mentioned (later, maybe, refused). None otherwise."""
    from osprey_desktop.language.clauses import only_refuses_changes
    from osprey_desktop.language.questions import asks_for_limits

    first, mark, rest = text.partition("?")
    if not mark or not rest.strip() or not first.strip() or asks_for_limits(first + "?"):
        return None
    words = {w.lower() for w in re.findall(r"[a-z]+", rest, re.I)}
    changing = {stem(v) for v in CHANGE}
    if not (any(stem(w) in changing for w in words) or only_refuses_changes(rest)):
        return None
    if not (_MENTIONED_ONLY.search(rest) or only_refuses_changes(rest) or takes_itself_back(rest)):
        return None
    return first.strip() + "?"


_LEAVE_THE_X_ALONE = re.compile(
    r"\bleave\s+(?P<what>the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:alone|be|as\s+(?:it\s+)?is|"
    r"where\s+it\s+is)\b(?=\s*(?:[,;]|\s[-–—]\s|\band\b)\s*(?:(?:and|but|just|only|please|"
    r"then)\s+)*[a-z])",
    re.I,
)

# "get QF 9 to 121.5", "get the gap down to 12 mm": a value after "to" (never a clock time,
# never the end of a range "from 8 to 10")
_TO_A_VALUE = re.compile(
    r"^(?!.*\bfrom\b).*\b(?:up\s+|down\s+|back\s+)?to\s+[-+−]?\.?\d[\d.]*(?![\d.]*\s*(?::|h\b|am\b|pm\b|"
    r"o'?clock|hours?\b|minutes?\b|days?\b))",
    re.I,
)

#: "X first, then ...", "X? then ...": what is named before is read before the change
_READ_FIRST = re.compile(r"[,;?]\s*(?:and\s+)?then\b|\bfirst\b", re.I)
_JUDGEMENT_ASKED = re.compile(
    r"\s+(?:(?:a\s+)?(?:bit|little|tad|touch)|too|rather|quite|very|really|kind\s+of|kinda|"
    r"pretty|somewhat|unusually)?\s*(?:low|high|short|long|off|odd|weird|noisy|unstable|bad|"
    r"good|fine|ok|okay|normal|strange|wrong|jumpy|wobbly|stable|small|large|big|elevated|"
    r"poor|shaky)(?:\s+enough)?\s*(?:to\s+you|for\s+you)?\s*$",
    re.I,
)
#: "do" asking a question of now ("how many mA do we have", "do you see the gap"), never the
#: verb of what a channel did ("what did the gap do overnight")
_AUXILIARY_DO = re.compile(r"\bdo(?=\s+(?:we|you|i|they|the|all|any|these|those|our|my)\b)", re.I)
_VALUE_NOUNS = frozenset({"value", "values", "reading", "readings", "level", "number"})
#: Words around a name that say only what a request is about ("for the vertical corrector 29,
#: put at -0.2 A", "Q F 33, um, bring it up ..."): a topic, not a reading asked for.
_TOPIC_WORDS = frozenset(
    {"for", "as", "regarding", "about", "re", "the", "a", "an", "so", "ok", "okay", "right", "now"}
)


def _devices_in(clause: str) -> set[str]:
    return {re.sub(r"\s", "", d).upper() for d in _DEVICE_NAMED.findall(clause)}


def _names_only(clause: str) -> bool:
    """The clause is a name and nothing that asks for its reading (no role, no value noun, no
    question): the topic of the change that follows, which reads nothing first."""
    if "?" in clause:
        return False
    words = re.findall(r"[a-z]+", clause.lower())
    rest = [w for w in words if w not in _TOPIC_WORDS]
    return bool(rest) and not any(w in ROLE_WORDS | _VALUE_NOUNS | READ_VERBS for w in rest)


#: "to that value", "to the same", "to this reading": the value of what was read before
_THAT_VALUE = re.compile(
    r"\bto\s+(?:that|this|the\s+same|what\s+you\s+(?:just\s+)?read)"
    r"(?:\s+(?:value|reading|number|setting|one))?\b(?!\s+(?:as|of)\b)",
    re.I,
)
_DEVICE_NAMED = re.compile(r"\b[A-Za-z]{2,5}\s?\d{1,3}\b")
_BACK_REFERENCE = re.compile(r"\b(?:it|them)\b", re.I)


def _with_references_resolved(
    text: str, vocabulary: Vocabulary | None, now: datetime | None
) -> str:
    """``text`` with a change clause that points back ("HCM 7 readback please, then bump it
    0.05 A", "give me VCM 12 then 0.1 A on it") naming what the first clause named, said the
    way the writers read it ("... then increase HCM7 by 0.05 A")."""
    text = condition_said_first(text)
    guarded = condition_and_change(text)
    if guarded is not None:
        # "if the tune stays under 8.4, then for QD 48 make 95.5 A": the change said the
        # writers' way after its condition
        condition, change = guarded
        alone = _parse(change, vocabulary, now)
        if (
            leading_verb(change) is None
            and alone.changes
            and alone.targets
            and not alone.unused
            and alone.canonical != change
        ):
            return f"{condition}, {alone.canonical}"
    clauses = verb_clauses(text)
    if len(clauses) < 2 or CONDITIONAL.search(text):
        return text  # one clause, or a condition the writer checks ("when QF3 is above 121 A")
    subject = subject_asked(clauses[0]) if YES_NO_LEAD.match(clauses[0]) else ""
    first = _parse(subject or clauses[0], vocabulary, now)
    if first.changes or first.intent in ("conversation", "knowledge") or not first.targets:
        return text
    if not names_a_channel(" ".join(first.targets), vocabulary or Vocabulary()):
        return text  # "no, make it 0.35": "it" is the previous turn's, not a word of this one
    named = " and ".join(
        " ".join(w for w in target.split() if w.lower() not in ROLE_WORDS | _VALUE_NOUNS)
        for target in first.targets
    ).strip()
    if not named:
        return text
    out = text
    for clause in clauses[1:]:
        if _THAT_VALUE.search(clause) and _DEVICE_NAMED.search(clause):
            # "read VCM25's setpoint and set VCM26 to that value plus 0.1 A": a copy of what
            # was read, with its offset
            said = _THAT_VALUE.sub(f"to the same value as {named}", clause, count=1)
        elif _BACK_REFERENCE.search(clause):
            said = _BACK_REFERENCE.sub(named, clause, count=1)
        else:  # "HCM 3 value? set to 0.2 A": the change names no target of its own
            alone = _parse(clause, vocabulary, now)
            if alone.changes and alone.targets and not alone.unused and alone.canonical != clause:
                # "BPM40 y? then VCM20 +0.05A": a change of its own, said the writers' way
                out = out.replace(clause, alone.canonical, 1)
                continue
            if not alone.changes or alone.targets or not alone.verb:
                continue
            said = re.sub(
                rf"\b({re.escape(alone.verb)})\b", rf"\1 {named}", clause, count=1, flags=re.I
            )
        change = _parse(said, vocabulary, now)
        if change.changes and not change.unused:
            out = out.replace(clause, change.canonical, 1)
    return out


# "VCM05..VCM08": a range of devices, where no sentence ends
_TAKING_OVER = re.compile(rf"\b{SHIFT_TAKEN_OVER}\b", re.I)
_CONDITION_SAID_FIRST = re.compile(
    r"^\W*(?:only\s+)?(?:if|when|whenever|unless|once|provided(?:\s+that)?)\b[^,;:]*[,;:]", re.I
)
_QUANTIFIERS = frozenset({"both", "either", "each", "every", "all", "any"})
_RANGE_OF_NUMBERS = re.compile(
    r"\b(?!(?:from|to|at|since|until|till|between|sector|sectors|cell|cells|and|or|by|in|"
    # dots written against the numbers ("hcm04..06"); "ID five... 20 mm" is a pause
    r"of|for|the|last|past|over)\b)(?P<p>[A-Za-z]{1,5})\s?(?P<a>\d{1,3})(?:\.{2,3}(?=\d)|\s*\bthrough\b\s*|"
    r"\s*\bthru\b\s*)(?P<b>\d{1,3})\b(?![.:]\d)",
    re.I,
)
_DOTTED_RANGE = re.compile(r"(?<=\d)\s*\.{2,3}\s*(?=[A-Za-z]{0,5}\d)")
_LAST_CHANGE_ASKED = re.compile(
    r"\bwhen\b.{0,60}?\b(?:last|latest)\b.{0,20}?\b(?:change[ds]?|moved?|set|adjusted|modified|"
    r"written|touched)\b|\bwhen\b.{0,20}?\bthe\s+(?:last|latest)\s+(?:change|write)\b",
    re.I,
)
_LAST_CHANGE_LOOKBACK = "over the last 7 days"


#: Verbs that say a change wherever they stand ("the HCM 3 at 0.2 A put"): never nouns.
_CHANGE_ONLY_VERBS = frozenset(
    {"put", "make", "increase", "decrease", "raise", "lower", "reduce", "bump", "nudge", "apply"}
    | {"add", "subtract", "change"}
)


# "for QD 38 you put please 95.8 ampere", "for HCM 20 put zero point four five amps": what a
# change verb after its device acts on (a courtesy may stand between them)
_LATE_VERB = re.compile(
    r"\b([a-z]+)\b(?=\s+(?:(?:please|pls|kindly)\s+)?(?:it\b|them\b|to\b|at\b|by\b|"
    rf"(?:in|into)\s+[-+]?\.?\d|[-+]?\.?\d|{SPELLED_NUMBER_PATTERN}))",
)


def _late_change_verb(clause: str) -> str | None:
    """A change verb after the device in a statement ("HCM 3 make it 0.2 A", "for HCM 3 put
    0.2 A", "HCM3 set 0.2"): word order of another language, or terse typing. The verb must
    act on a value or a pronoun right after it; a question or a negation has none."""
    if is_question(clause) or negated(clause):
        return None
    for found in _LATE_VERB.finditer(clause.lower()):
        word = found.group(1)
        if found.start() == 0:
            continue  # a leading word is the ordinary verb position (verb_of decides it)
        if word in _CHANGE_ONLY_VERBS or (
            word == "set"
            and re.match(
                r"\s+(?:(?:please|pls|kindly)\s+)?(?:to\s+)?[-+]?\.?\d", clause[found.end() :]
            )
        ):
            return word
    return None


_REQUEST_LEAD = re.compile(
    r"^\s*(?:(?:please|pls|so|now|ok(?:ay)?|then)\s*,?\s+)?"
    r"(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?)?(?P<verb>[a-z]+)\b",
    re.I,
)


def _context_dropped(text: str) -> str:
    """ "The beam current dipped an hour ago; show the current and the vacuum in sector 10 for
    the last two hours": a sentence that tells what happened, before a sentence that asks with
    its own verb and names its own channels (no "it"), is the reason, not part of the request:
    its time and its channels are not the request's."""
    sentences = [p for p in re.split(r"(?<=[;.])\s+|;\s*", text) if p.strip()]
    if len(sentences) < 2:
        return text
    last = sentences[-1]
    lead = _REQUEST_LEAD.match(last)
    verbs = READ_VERBS | PLOT_VERBS
    if lead is None or lead["verb"].lower() not in verbs:
        return text
    if re.search(r"\b(?:it|its|them|their|that|those|these|this)\b", last, re.I):
        return text  # "HCM3 drifted. Show its history": the sentence before names it
    for before in sentences[:-1]:
        first = _REQUEST_LEAD.match(before)
        if "?" in before or (first is not None and first["verb"].lower() in verbs | CHANGE):
            return text  # a request or a question of its own: every part is asked
    return last


def _compared_duration(text: str, start: int, end: int) -> bool:
    """The span ("over 6h") compares a value that is a duration, after a verb of being ("the
    lifetime is over 6 h", "if lifetime stays under 5 h")."""
    said = text[start:end].lower()
    before = text[:start].lower()
    return bool(
        re.match(r"(?:over|under|above|below|more\s+than|less\s+than)\b", said)
        and re.search(
            r"(?:\b(?:is|are|stays|remains|reads|gets|goes|was|be|falls|drops|rises)|:|\bstill)"
            r"\s+(?:still\s+)?$",
            before,
        )
    )


_RETRACTION = re.compile(
    r"^\s*(?:(?:hmm+|uh+|um+|ok(?:ay)?|wait|hold\s+on|no|nope|cancel\s+(?:that|it)|"
    r"scratch\s+that|never\s*mind|forget\s+(?:about\s+)?(?:it|that|the\s+[a-z]+(?:\s+[a-z]+)?)|"
    r"don'?t|do\s+not|stop)\s*(?:[,.!;]+|\s[-–—])\s*)+"
    r"(?:instead\b[\s,]*)?",
    re.I,
)


#: a way said with an amount: a sign typed on it, or a word of direction
_WAY_SAID = re.compile(
    r"[-+−]\s*\.?\d|\b(?:up|down|dn|higher|lower|more|less|back|raise|increase|decrease|reduce|"
    r"minus|plus|negative|positive|wider|narrower)\b",
    re.I,
)


def _untaught_verb(
    targets: tuple[str, ...], intent: str, quantity: Quantity | None, vocabulary: Vocabulary
) -> str | None:
    """The first word of a change's first target when it is a verb nobody taught the grammar:
    a plain word the channel list lacks, right before a device's name or an article."""
    if intent not in CHANGE_INTENTS or quantity is None or quantity.value is None or not targets:
        return None
    words = targets[0].split()
    if len(words) < 2 or not words[0].isalpha() or len(words[0]) < 3:
        return None
    first = words[0].lower()
    if (
        first in vocabulary.channel_words
        or first in GRAMMAR_WORDS
        or first in vocabulary.device_prefixes
    ):
        return None
    if not (re.fullmatch(r"[A-Za-z]{1,5}\d{1,3}", words[1]) or words[1].lower() in ("the", "a")):
        return None
    return words[0]


def _asks_a_statistic(lowered: str) -> bool:
    """A word of a statistic, never "min" or "max" counting a span ("30 min ago")."""
    spans = re.sub(r"\d\s*min\b", " ", lowered)
    return any(w in STATISTIC_WORDS for w in re.findall(r"[a-z]+", spans))


def _retraction_dropped(text: str) -> str:
    """ "cancel that. HCM17 RB?", "hold on, no, don't. Instead tell me the ID04 gap": what
    was asked before is taken back (each word closed by a comma or a stop, so "don't set X"
    keeps its "don't"), and the request that follows is the request."""
    found = _RETRACTION.match(text)
    if found is None or found.group(0).strip(" ,.!;").lower() in ("no", "ok", "okay"):
        return text  # "no, leave it as it is", "ok, 0.55 then": the follow-ups' own words
    rest = text[found.end() :]
    return rest if len(re.findall(r"\w+", rest)) >= 2 else text


#: the units of time the unit table does not read ("2,5 days")
_DAYS = frozenset({"d", "day", "days"})


def _is_unit(word: str) -> bool:
    return lookup_unit(word) is not None or word.lower() in _DAYS


def _parse(text: str, vocabulary: Vocabulary | None, now: datetime | None) -> Request:
    from osprey_desktop.language.questions import (
        asks_for_help,
        asks_for_limits,
        is_knowledge_question,
        is_thanks,
    )
    from osprey_desktop.language.words import is_greeting

    vocabulary = vocabulary or Vocabulary()
    original = " ".join(str(text).split())
    # "HCM12 to 0,5 A", "the last 2½ hours": numbers with a decimal point
    work = numbers_typed_plainly(original, _is_unit)
    work = join_device_names(spoken_device_names(work, vocabulary), vocabulary)
    work = _retraction_dropped(work)  # "cancel that. HCM17 RB?": the new request alone
    # "set qf 9 to 121, no wait, don't, just show it": the reading asked in its place
    work = reading_in_place_of_a_change(work) or work
    if takes_itself_back(work) and original != "leave it":
        # "set HCM 31 to 0.6 - no wait, cancel that": the message takes itself back
        return replace(_parse("leave it", vocabulary, now), text=original)
    # "per the handover, HCM05 has to go to 0.35 A - please set it": what asks, apart from
    # what tells
    work = _context_dropped(asked_part(work))  # "The current dipped an hour ago; show ..."
    work = re.sub(r"\bzero\s+out\b", "zero", work, flags=re.I)  # a phrasal verb, one verb
    work = request_words_spelled(work, facility_words(vocabulary))  # "hisotry", "avergae"
    # "what frequency is cavity 1 set to?", "what is the ID 5 gap set to right now?": its
    # setpoint, asked before any rewording
    work = set_to_question(work)
    work = said_plainly(work)  # "put them on one plot", "give 0.2 A to VCM 9", ...
    work = spoken_times(work)  # "a quarter past nine", "an hour and a half ago"
    work = duration_statistics(work)  # "one hour average of X": X's average over the last hour
    # "ID 11 gap on Monday morning at 8", "lifetime at 9.30 last Thursday": that day's clock
    work = weekday_clock_times(work, now)
    work = hours_of_past_moments(work, now)  # "what was X at 7": the last 7 o'clock
    work = bare_durations(work)  # "ig 7 trend 24h": the last 24 h
    # "incraese QF 3 by 1 A", "plto the lifetime": a verb one slip of typing away
    work = verb_spelled(work, lead_stripped(work), facility_words(vocabulary))
    if not is_question(work):
        work = MODAL_VALUE.sub(" to ", work)  # "HCM04 should be 0.25 A": a value given
    spans = find_clock_spans(work, now) if now is not None else []
    canonical = replace_clock_spans(work, spans)
    time_slot, time_spans = find_time_slot(canonical, spans)
    if time_spans and all(_compared_duration(canonical, a, b) for a, b in time_spans):
        # "if the lifetime is over 6 h, raise HCM1": a value compared, not a time range
        time_slot, time_spans = None, []
    refused = refusal_spans(canonical)
    inside = [(a, b) for a, b in time_spans if any(c <= a and b <= d for c, d in refused)]
    if inside:
        # "I'm not going to touch the ID09 gap today, just tell me what it is": the time is
        # the refusal's; the reading asked is of now (or of its own time)
        for a, b in sorted(inside, reverse=True):
            work = work.replace(canonical[a:b], " ", 1)
        work = re.sub(r"\s+([,.;!?])", r"\1", " ".join(work.split()))
        spans = find_clock_spans(work, now) if now is not None else []
        canonical = replace_clock_spans(work, spans)
        time_slot, time_spans = find_time_slot(canonical, spans)
    if time_slot is None and _LAST_CHANGE_ASKED.search(canonical):
        # "when was the ID09 gap last changed?": the archive of the last week answers it
        canonical = f"{canonical.rstrip(' ?.!')} {_LAST_CHANGE_LOOKBACK}"
        time_slot, time_spans = find_time_slot(canonical, spans)
    lowered = canonical.lower()
    all_words = re.findall(r"[a-z][a-z'-]*[a-z]|[a-z]", lowered.replace("n't", " not"))
    used: set[str] = set()
    for a, b in time_spans:
        used.update(re.findall(r"[a-z]+", lowered[a:b]))

    if is_greeting(original) or is_thanks(original) or asks_for_help(original):
        return Request(original, "conversation", canonical=canonical, used=tuple(all_words))
    if asks_for_limits(original):  # "HCM max step?": the write policy answers it
        return Request(original, "knowledge", canonical=canonical, used=tuple(all_words))
    if only_tells(original):  # "Morning. I've got the desk until 15:00.": taken in
        return Request(original, "conversation", canonical=canonical, used=tuple(all_words))
    asked = asked_part(original)
    if (
        is_knowledge_question(original)
        or (asked != original and is_knowledge_question(asked))
        or names_a_concept(original, vocabulary)
    ):
        return Request(original, "knowledge", canonical=canonical, used=tuple(all_words))
    if only_refuses_changes(canonical):  # "never set X above 5, understood?": taken in
        return Request(original, "conversation", canonical=canonical, used=tuple(all_words))

    # verbs, clause by clause
    verb: str | None = None
    change_verb: str | None = None
    unknown: list[str] = []
    read_before = reads_first = reads_after = topic = False
    change_clause = topic_clause = ""
    late_verb: str | None = None
    for clause in verb_clauses(canonical):
        stripped = lead_stripped(clause)
        found, known = verb_of(stripped, vocabulary)
        if found is None:
            late = None if change_verb else _late_change_verb(clause)
            if late is not None:  # "HCM 3 make it 0.2 A", "for HCM 3 put 0.2 A"
                used.add(late)
                verb = verb or late
                change_verb, late_verb, reads_first = late, late, read_before
                change_clause = clause
                continue
            # "what's the ID04 gap? then open it", "HCM 7 readback please, then bump it":
            # a question or a channel named before the change
            named_first = not change_verb and (
                is_question(clause) or names_a_channel(clause, vocabulary)
            )
            if named_first and not read_before:
                # "id2 gap? then 16mm" asks first; "QF 33, bring it up ..." names the target
                asked = re.search(re.escape(clause.strip(" ,.")) + r"\s*\?", canonical)
                topic, topic_clause = _names_only(clause) and not asked, clause
            read_before = read_before or named_first
            # "set HCM27 to 0.3 A, then what's the orbit in sector 9?": asked after the change
            reads_after = reads_after or bool(
                change_verb and is_question(clause) and names_a_channel(clause, vocabulary)
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
        if found in READ_OR_CHANGE and _TO_A_VALUE.search(clause) and not change_verb:
            change_verb, change_clause = found, clause  # "can we get QF 9 to 121.5 please"
            reads_first = read_before
        elif is_change and found not in READ_VERBS and not is_question(clause) and not change_verb:
            change_verb, change_clause = found, clause
            reads_first = read_before
        elif not is_change and not change_verb:
            read_before = True  # "show me the ID04 gap and then open it to 20 mm"
        elif not is_change and found in READ_VERBS | PLOT_VERBS:
            reads_after = True  # "set HCM27 to 0.3 A, then show me the orbit in sector 9"
    topic_devices = _devices_in(topic_clause)
    if (
        reads_first
        and topic
        and (
            _BACK_REFERENCE.search(change_clause)
            or not _DEVICE_NAMED.search(change_clause)
            or (topic_devices and topic_devices <= _devices_in(change_clause))
        )
    ):
        # "Q F 33, um, bring it up to 121.5 A", "for the vertical corrector 29, put at -0.2 A":
        # the name is the change's own target, said first; nothing is read
        reads_first = False
    wish_said = WISH.search(canonical)
    wish = wish_said is not None and not is_question(canonical)

    without_times = canonical
    for m in _TARGET_NOISE.finditer(canonical):
        time_spans_and_noise = (m.start(), m.end())
        a, b = time_spans_and_noise
        without_times = without_times[:a] + " " * (b - a) + without_times[b:]
    for a, b in time_spans:
        without_times = without_times[:a] + " " * (b - a) + without_times[b:]
    condition = _CONDITION_SAID_FIRST.match(without_times)
    if condition is not None and without_times[condition.end() :].strip():
        # "if the current is above 400 mA, raise HCM 3": the threshold is the condition's,
        # never the change's amount (which is then asked)
        without_times = " " * condition.end() + without_times[condition.end() :]
        used |= set(re.findall(r"[a-z]+", condition.group(0).lower()))  # the condition's own
    quantity, quantity_words = read_quantity(without_times, all_words)
    reads = verb is not None and change_verb is None
    numbers = amounts(without_times)
    # "I need QF 3 at 2": a wish before the number may give it; "cavity 2 and the RF voltage,
    # both I need" names what is wished, after its devices
    wish_before = wish_said is not None and bool(numbers) and wish_said.start() < numbers[0].start
    if names_a_device(without_times, quantity, change_verb is not None or wish_before, reads):
        quantity, quantity_words = None, set()
    used |= quantity_words
    # A comparative with a number and no verb ("HCM09 0.2 A higher") is a change too.
    comparative_change = (
        quantity is not None
        and quantity.kind in ("relative", "comparative", "percent")
        and not is_question(canonical)
        and not negated(canonical)
    )
    changes = change_verb is not None or comparative_change
    if comparative_change and change_verb is None and read_before and _READ_FIRST.search(canonical):
        reads_first = True  # "ID05 gap RB first, then 1 mm narrower": read, then change
    # "give HCM13 the same setting as HCM14": a relation of equality is a copy, whatever verb
    relation = copy_relation(canonical)
    changes = changes or relation is not None
    if not changes and AVERAGE_OF.search(canonical) and not is_question(canonical):
        changes = not negated(canonical)  # "HCM03 := the average of HCM01 and HCM02"
    if not changes and GIVEN_A_REFERENCE.search(canonical) and not is_question(canonical):
        # "HCM4 back to its 10:00 value", "HCM2 to golden": a value from elsewhere, no verb
        changes = not negated(canonical)
    reference, reference_words = find_reference(canonical, changes or wish)
    if relation is not None and (reference is None or reference.kind != "channel"):
        # "put QF9 where QF11 is", "align QF9 with QF11": the relation names the source
        reference = Reference("channel", relation[1])
    if relation is not None:
        unknown = []  # "use the QF11 setpoint for QF9": the relation places its verb
    used |= reference_words
    state = None
    # "close the valve" is a state; "close the ID09 gap a bit" a change whose amount is asked
    if change_verb in STATE_VERBS and quantity is None:
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
        time_slot is not None and NOW_THAN_THEN.search(canonical)
    ):
        intent = "compare"
    elif _asks_a_statistic(lowered) and time_slot is not None:
        intent = "statistic"
    elif any(w in PLOT_VERBS for w in all_words) or re.search(r"\bon\s+one\s+plot\b", lowered):
        intent = "plot"
    elif (
        time_slot is not None
        or any(w in HISTORY_WORDS for w in all_words)
        or (
            (is_question(canonical) or _EMBEDDED_QUESTION.search(canonical))
            and any(w in PAST_VERBS for w in re.findall(r"[a-z]+", _AUXILIARY_DO.sub(" ", lowered)))
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
            r"to\s+what(?:ever)?|(?:to|at|be)\s+(?:the\s+)?(?:average|mean)\s+(?:value\s+)?(?:of|between))\b"
            r"|(?::?=|->|→)\s*(?:the\s+)?(?:average|mean)\s+(?:value\s+)?(?:of|between)\b",
            phrase,
            maxsplit=1,
            flags=re.I,
        )[0]
    phrase = _TARGET_NOISE.sub(" ", phrase)  # "HCM14 at 0.3 A please": no trailing "at"
    if quantity is not None and quantity.value is not None:
        # "lower a little the QF 15, of 0.5 A": the amount says how much
        phrase = re.sub(rf"\ba\s+(?:{'|'.join(sorted(VAGUE_AMOUNTS))})\b", " ", phrase, flags=re.I)
    # "yesterday's value of QD8" without its time: the possessive's words name no channel
    phrase = _OF_A_TIME.sub(" ", phrase)
    if intent == "restore":
        phrase = BARE_CLOCK.sub(" ", phrase)  # "roll HCM4 back to 10:00"
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
        "with",
        "plus",
        "minus",
        # a preposition left at the end when its time was taken ("the tunes of last 3 hours")
        "of",
        "for",
        "from",
        "during",
        # "QD4 should be 1 A higher": the modal that carried the amount
        "be",
        "should",
        "must",
        "sit",
    }
    pattern = rf"(?:\s+|^)(?:{'|'.join(sorted(map(re.escape, trailing)))})\s*(?=[,.?!]|$)"
    previous = None
    while previous != phrase:
        previous, phrase = phrase, re.sub(pattern, "", phrase.rstrip(), flags=re.I)
    if late_verb:
        phrase = re.sub(
            rf"\b{re.escape(late_verb)}\b(?:\s+(?:it|them|in|into))?", " ", phrase, count=1
        )
    elif change_verb or verb:
        said = re.escape(change_verb or verb or "")
        particle = r"(?:\s+(?:up|down|back|off|out)\b)?(?:\s+with\b)?" if change_verb else ""
        later = not change_verb and re.search(
            rf"(?<=\w)\s*,\s*(?:and\s+|then\s+)*{said}\b{particle}", phrase, re.I
        )
        if later and _SUBORDINATE.match(phrase[: later.start()]):
            later = None  # "before you change anything, show me QF 3": no item before the verb
        if later:
            # "lifetime trend last 6h, and overlay the current": the verb of a later clause,
            # the words before it another item
            phrase = f"{phrase[: later.start()]}, {phrase[later.end() :]}"
        else:
            phrase = re.sub(
                rf"^\W*(?:\w+\W+){{0,6}}?\b{said}\b"
                # "bring down VCM4 by ...", "go down with HCM6 ...": the verb's particle with it
                + particle,
                " ",
                lead_stripped(phrase),
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
    # "what does storage ring dipole 7 read?": what it reads, its readback
    phrase = re.sub(
        r"^\s*(?:(?:what|how\s+much)\s+)?(?:does|do)\s+(?P<what>.+?)\s+(?:read|show|say|indicate)\s*(?P<end>[?.!]*)\s*$",
        r"\g<what> readback\g<end>",
        phrase,
        flags=re.I,
    )
    phrase = re.sub(
        r"^\s*(?:(?:what|how|where|which)\s*(?:'s\b|is\b|are\b|was\b|were\b|does\b|do\b)?"
        r"|'s\b|is\b|are\b|was\b)",
        " ",
        phrase,
        flags=re.I,
    )
    # "do not touch the correctors, I only want the sector 3 orbit": the refused thing is left
    phrase = without_the_refused(phrase)
    phrase = without_refusal_words(phrase)  # "I'm not going to touch the ID09 gap"
    phrase = _target_phrase(phrase, [])
    phrase = without_slot_words(phrase, intent, reference)
    phrase = re.sub(
        r"\b(?:the\s+)?(?:history|trend|value|values|reading|readings)\s+of\b",
        " ",
        phrase,
        flags=re.I,
    )
    phrase = re.sub(r"^(?:me|us)\b", "", phrase.strip(), flags=re.I).strip(" ,.?!")
    if intent == "restore":  # "go back with QF 11 to ...": the device after "with"
        phrase = re.sub(r"^\s*(?:with|for|of)\s+", "", phrase, flags=re.I)
    if quantity is not None:
        # "set 0.3 A on HCM14", "apply 2 A to QF3": the amount came first, the target after
        phrase = re.sub(r"^(?:(?:on|onto|to|for|into|at|of)\s+)+", "", phrase, flags=re.I)
    if is_question(canonical):
        phrase = re.sub(r"^\s*there\b", " ", phrase, flags=re.I).strip()  # "was there a drop ..."
        # "what is the RF frequency doing / reading?": the question's verb, no channel's word
        # "how's the lifetime looking", "how does the orbit look", "what does X look like ..."
        phrase = re.sub(
            r"\s+(?:doing|reading|showing|saying|looking|looks?|behaving|holding\s+up|drawing|"
            r"pulling|delivering|hold(?:\s+up)?)(?:\s+like)?\s*$",
            "",
            phrase,
            flags=re.I,
        )
        phrase = re.sub(
            r"\s+(?:looks?\s+like|doing|looking|behaving|hold(?:ing)?\s+up|held\s+up)\b",
            " ",
            phrase,
            flags=re.I,
        )
        phrase = re.sub(r"^\s*(?:does|do|did)\b", " ", phrase, flags=re.I)
        # "the tunes haven't moved?": the negated auxiliary of the question, no channel's word
        phrase = re.sub(
            r"\b(?:is|are|was|were|has|have|had|does|did|do)n'?t\b", " ", phrase, flags=re.I
        )
        # "isn't the lifetime a bit short", "is IG 9 too high?": the judgement asked of it
        phrase = _JUDGEMENT_ASKED.sub("", phrase)
    phrase = WISH.sub(" ", phrase)
    # "make it only 0.5 A lower": the amount's adverb, after the pronoun it left
    phrase = re.sub(r"\b(it|them|that)\s+only\b", r"\1", phrase, flags=re.I)
    past = "|".join(sorted(PAST_VERBS | CROSSED_WORDS | ASKERS | {"has", "have", "had", "how"}))
    embedded = _EMBEDDED_QUESTION.search(canonical)
    if embedded:  # "tell me when the ID09 gap was last changed", "I'm wondering whether ..."
        phrase = re.sub(r"^\s*(?:[\w']+\s+){0,4}?(?:when|whether|if|how)\b", " ", phrase, count=1)
        phrase = re.sub(r"\b(?:was|were)\s+last\b", " ", phrase)
        phrase = re.sub(r"\s+(?:is|are|was|were|has|have)\s*$", "", phrase)
    if is_question(canonical) or time_slot is not None or embedded:
        phrase = re.sub(rf"\b(?:{past})\b", " ", phrase, flags=re.I)
        used.update(w for w in all_words if w in PAST_VERBS | CROSSED_WORDS or w in ASKERS)
    if _LAST_CHANGE_ASKED.search(canonical):  # "when was HCM20 last touched", "the last change to"
        phrase = re.sub(
            r"^\s*when\s+(?:was|were|did|has|have|is)?\b|\b(?:was|were)?\s*(?:last|latest)\s*$|"
            r"\bthe\s+(?:last|latest)(?:\s+(?:change|write))?\s+(?:to|of|on)\b",
            " ",
            phrase.strip(),
            flags=re.I,
        )
    phrase = re.sub(r"\s*(?:->|→|:?=|:)\s*$", "", phrase.strip())
    # "... lifetime - is it decaying faster than usual?", "plot X; does it look ok?": a question
    # about what was named, no target of its own
    phrase = without_question_about_it(phrase)
    if quantity is not None and quantity.value is not None:  # "HCM 3 new value 0.2 A", "HCM3: 0.2A"
        phrase = re.sub(
            r"(?:\s+(?:the\s+)?(?:new\s+)?values?)+\s*$|:(?=\s|$)", "", phrase, flags=re.I
        )
    targets = tuple(
        t.strip(" :=")
        for t in split_targets(phrase)
        if re.search(r"[a-z0-9]", t, re.I) and t.lower() not in PRONOUNS
    )
    if source:
        targets = (*targets, source)
    if relation is not None:
        listed = [t for t in targets if t != relation[1]]
        listing = re.search(r",|\band\b", relation[0])
        named = [t.strip() for t in split_targets(relation[0]) if t.strip()] if listing else []
        named = named or [relation[0]]
        # "set VCM7 and VCM8 to the same value as VCM9", "copy VCM9 to VCM7 and VCM8": every
        # target listed, then the source
        listed_with = (
            rf"{re.escape(relation[0])}\s*(?:,|\band\b)|(?:,|\band\b)\s*{re.escape(relation[0])}"
        )
        many = len(listed) > 1 and relation[0] in listed and re.search(listed_with, canonical)
        targets = (*listed, relation[1]) if many else (*named, relation[1])
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
        if word in target_words and (
            not known or stem(word) in stems(known) or is_channel_word(word, vocabulary)
        ):
            used.add(word)
            continue
        if word in PLACE_WORDS or word in ORDINALS or word in NEGATIONS or word in RANGE_WORDS:
            continue
        if word in _QUANTIFIERS:
            continue  # "both QDs in sector 6", "either of the gauges": how many, of the target
        if word in ROLE_WORDS and word in target_words:
            continue  # "rf volt sp": the setpoint of what the other words name
        if (
            word in target_words
            and re.fullmatch(r"[a-z]{1,5}", word)
            and word in vocabulary.device_prefixes
        ):
            continue
        if word in target_words or word in unknown:
            unplaced.append(word)
    if intent in ("read", "history") and gives_a_value(
        without_times, quantity, verb, unknown, targets, vocabulary
    ):
        # "QD08 to 98 A", "HCM5 at 0.4", "QF to 120": a value given to a device, no verb
        intent = "write"
        amount = [a for a in amounts(without_times)][-1]
        head = canonical[: amount.start]
        if quantity is not None and quantity.unit is None:
            head = re.sub(r"\bat\s*$", "to ", head)
        canonical = head + canonical[amount.start :]
        if len(amounts(canonical)) > 1 and not re.match(r"\W*set\b", canonical, re.I):
            # "vertical correctors 31 through 33 to 0.05 A": numbers of devices beside the
            # value; the verb the value implies says which one the value is
            canonical = f"set {canonical}"
    untaught = _untaught_verb(targets, intent, quantity, vocabulary)
    if untaught is not None and quantity is not None:
        # "knock QD 4 down by 1 A", "shift VCM 3 by +0.02 A": a verb nobody taught the grammar,
        # leading a device and an amount, is the change's verb (never a word of the target);
        # an amount it gives no way to ("jog QD 20 by 0.5 A") is asked which way
        targets = (targets[0].split(None, 1)[1], *targets[1:])
        used.add(untaught.lower())
        unplaced = [w for w in unplaced if w.lower() != untaught.lower()]
        if quantity.kind == "relative" and not _WAY_SAID.search(canonical):
            quantity = Quantity("comparative", None, None, quantity.words)

    if (
        (change_verb or verb or "").lower() in NO_WAY_VERBS
        and quantity is not None
        and quantity.kind == "relative"
        and not _WAY_SAID.search(canonical)
    ):
        # "change QF 41 by 0.5 A", "move the ID 9 gap by 3 mm": a verb that says no way and an
        # amount with no sign; which way is asked, never guessed up
        quantity = Quantity("comparative", None, None, quantity.words)

    if not unplaced:  # every word placed: the change is said the way the writers read it
        canonical = canonical_change(
            canonical,
            intent,
            quantity,
            targets,
            reference,
            change_verb or verb,
            relation is not None,
        )
    if intent == "restore":
        canonical = canonical_restore(canonical, targets, time_slot, bool(unplaced))
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
        reads_after=reads_after and not reads_first and intent in CHANGE_INTENTS,
    )


#: a clause that leads another without naming an item of its own
_SUBORDINATE = re.compile(
    r"^\W*(?:before|after|if|when|whenever|since|as|because|while|once|until|unless|so|ok(?:ay)?|"
    r"please|first|now|then|also|and|but|don'?t|do\s+not|without|i|we|you)\b",
    re.I,
)
_OF_A_TIME = re.compile(
    r"(?:\b(?:back\s+)?to\s+)?(?:'s|’s)(?:\s+(?:value|setting|setpoint|reading|level)s?"
    r"(?:\s+(?:for|of|on)\b)?)?",
    re.I,
)


# "tell me when the ID09 gap was last changed": a question inside a request to tell
_EMBEDDED_QUESTION = re.compile(
    r"\b(?:(?:tell|show|let)\s+(?:me|us)\s+(?:know\s+)?|(?:i\s+am|i'?m|we\s+are|we'?re)\s+"
    r"(?:wondering|curious)\s+|i\s+wonder\s+|(?:do\s+you\s+know|check)\s+)(?:when|whether|if|how)\b",
    re.I,
)
