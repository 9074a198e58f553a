"""Slips of typing: in the word that leads a request, in the grammar's words, in a device name.

A request leads with its verb; a verb typed with one slip ("incraese", "decrase", "plto",
"raed") would otherwise be a verb nobody taught the grammar and be asked about. A word is read
as a verb when it is no word of the grammar or of the facility's channel list and exactly one
verb is one slip away: two neighbouring letters swapped, or (in words of five letters or
more) one letter missing, extra or wrong. A short verb ("set", "put", "read", "plot") typed
with one letter doubled ("seet", "reead", "plott") is that verb where it leads its clause or
follows politeness ("can you seet ..."); nowhere else, since a doubled letter in a short
word often makes another word ("stoop", "droop").

Words of the grammar typed on a phone or in a hurry: "too" before a number is "to" ("VCM7 too
0.2"), "teh" is "the", "abit" is "a bit", "were" after "to" and before "it was" is "where"
("back to were it was"), "dose" after a question word and before what it asks of is "does"
("what dose the DCCT measure"), a grammar word with one slip ("insted", "actualy").

A device name with two neighbouring letters of its prefix swapped ("vmc 7", "HMC21", "DQ04"
where the list has VCM, HCM and QD) is read with the facility's prefix
(``device_prefix_respelled``, also the channel finder's), when a device number follows, the
typed letters are no prefix, no word of the grammar or of the list, and exactly one prefix of
the list is that one swap away. Two letters count only with the number joined to them ("fr 8
to 10" is no RF8). Other rearrangements ("mcv", "pid" for DIP) and a letter more or
less ("qfd": QF or QD?) are left as typed: they make other names too often to be read as one.

Channel words are never respelled as grammar words: a word of the facility's list stays what
it is ("valve" is no "value", "dose" stays a dose where the list has dose rates), and the
channel finder has its own correction of them. A form of a word is no slip of it: "measure"
stays where the list says "measured", "readback" where it says "readbacks".
"""

from __future__ import annotations

import re
from functools import lru_cache

from osprey_desktop.language.device_prefix_slips import (
    device_prefix_respelled,
    neighbours_swapped,
    other_conventions_said_ours,
    short_words,
)
from osprey_desktop.language.lexicon import (
    CHANGE,
    DETERMINERS,
    GRAMMAR_WORDS,
    HISTORY_WORDS,
    PLOT_VERBS,
    POLITE,
    PRONOUNS,
    QUESTION_LEADS,
    READ_VERBS,
    STATISTIC_WORDS,
)
from osprey_desktop.language.numbers import read_number
from osprey_desktop.language.words import STOP_WORDS, typed_case

__all__ = ["slips_respelled", "verb_spelled"]

#: Words of the grammar, never respelled as another.
_KNOWN = CHANGE | READ_VERBS | PLOT_VERBS | QUESTION_LEADS | STOP_WORDS | POLITE | DETERMINERS
_VERBS_TO_SPELL = sorted(w for w in CHANGE | READ_VERBS | PLOT_VERBS if len(w) >= 4)
#: Words of a time ("midnihgt", "yesterdya"), respelled like those asking for history.
_TIME_WORDS_TO_SPELL = frozenset(
    """yesterday midnight morning afternoon evening tonight overnight today since between""".split()  # noqa: SIM905
)
#: Words that ask for history, a statistic, a plot or a time, long enough to respell safely.
_ASKING_WORDS = sorted(
    w for w in HISTORY_WORDS | STATISTIC_WORDS | PLOT_VERBS | _TIME_WORDS_TO_SPELL if len(w) >= 5
)


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
        "actually",
        # "in the lsat 4 hours", "did somone change ...": the words of a question of the past
        *("last", "past", "someone", "anyone", "changed", "touched"),
        # "dont alter anythign": what a refusal covers
        *("anything", "everything"),
    )
)
#: Chat spellings of grammar words, each one word for another.
_CHAT_SPELLINGS = {
    "midnite": "midnight",
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
    # the shorthand of a shift's notes ("rd QF45 SP", "SP hist 3h, no chg")
    "rd": "read",
    "hist": "history",
    "chg": "change",
    "chng": "change",
    "trnd": "trend",
    "lst": "last",
    "tp": "to",
    "amsp": "amps",
    # "adn the rf frq", "teh lifetime": the shortest grammar words typed with a swap
    "adn": "and",
    "nad": "and",
    "hte": "the",
    # "can u pull the lifetime", "r they ok": a pronoun or a verb by its sound
    "u": "you",
    "ur": "your",
    "r": "are",
    "cn": "can",
    "cud": "could",
    "wud": "would",
    "shud": "should",
    "abt": "about",
    "b4": "before",
    # a negation typed without its apostrophe ("havent the readings gone up", "isnt it")
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "shouldnt": "shouldn't",
    # days and times of a chat ("lifetime @ 14:05 yday", "tmrw", "2nite")
    "yday": "yesterday",
    "ytd": "yesterday",
    "yest": "yesterday",
    "ystdy": "yesterday",
    "tdy": "today",
    "2day": "today",
    "2nite": "tonight",
    "tonite": "tonight",
    "hrs": "hours",
    "mins": "minutes",
    # letters swapped or run together in a hurry
    "teh": "the",
    "abit": "a bit",
}


#: Words one slip from a grammar word that are words of their own.
_NOT_SLIPS = frozenset(
    {"second", "hour", "minute", "values", "hourly", "print", "point", "droop", "stoop"}
)


def _form_of(word: str, other: str) -> bool:
    """One is the other with an "s" ("readbacks", "second"), or a verb in "e" with its "d"
    ("measure", "measured"; "store", "stored"): a form, not a slip."""
    if word == f"{other}s" or other == f"{word}s":
        return True
    return (word.endswith("e") and other == f"{word}d") or (
        other.endswith("e") and word == f"{other}d"
    )


def _swapped_grammar_word(typed: str, known: frozenset[str]) -> str:
    word = typed.lower()
    if word in known or word in _GRAMMAR_TO_SPELL:
        return typed
    close = [t for t in _GRAMMAR_TO_SPELL if len(t) == 4 and neighbours_swapped(word, t)]
    return close[0] if len(close) == 1 else typed


def slips_respelled(
    text: str, facility_words: frozenset[str], device_prefixes: frozenset[str] | None = None
) -> str:
    """``text`` with each word of five letters or more that is no word of the grammar or of
    the facility, but one slip from exactly one of the grammar words above, spelled as that
    word ("do 19 insted" -> "do 19 instead"); the grammar's words typed in a hurry ("too
    0.2", "teh", "back to were it was"), a short verb with a letter doubled leading its clause
    ("seet"), and a device prefix with two letters swapped ("vmc 7") spelled right. Other
    verbs are the lead's (``verb_spelled``).

    ``device_prefixes``: the list's device prefixes; without them (the parse hands the list's
    words as one set) its words of two to five letters stand in, the prefixes being among
    them, and a slip close to two of them is left as typed."""
    known = _KNOWN
    targets = sorted(_GRAMMAR_TO_SPELL)
    text = _VALUE_RUN_ON.sub(r"\g<device> to \g<value>", text)  # "hcm4to0.3"

    def respell(found: re.Match[str]) -> str:
        word = found.group(0).lower()
        if word in known or word in facility_words or word in _GRAMMAR_TO_SPELL:
            return found.group(0)
        if word in _NOT_SLIPS or read_number(word) is not None:
            return found.group(0)
        single = re.sub(r"(.)\1", r"\1", word)
        if single != word and single in _GRAMMAR_TO_SPELL:
            return single  # "pluss", "thankss"
        close = [t for t in targets if _close_to(word, t) and not _form_of(word, t)]
        return close[0] if len(close) == 1 else found.group(0)

    text = re.sub(
        r"\b[A-Za-z][A-Za-z0-9]{0,6}\b",
        lambda m: (
            m.group(0)
            if m.group(0).lower() in facility_words or m.group(0) in ("U", "R")
            else _CHAT_SPELLINGS.get(m.group(0).lower(), m.group(0))
        ),
        text,
    )
    text = _grammar_words_respelled(text, facility_words)
    text = _doubled_verbs_respelled(text, facility_words)
    prefixes = short_words(facility_words) if device_prefixes is None else device_prefixes
    text = device_prefix_respelled(text, prefixes, facility_words.__contains__)
    text = other_conventions_said_ours(text, prefixes)  # "Q3F", "bpm3x"
    # "the IGs in sector 1", "all QFs": a two-letter device prefix in the plural is that family
    # (a longer one the finder reads as a plural itself: "BPMs")
    text = re.sub(
        r"\b(?P<prefix>[A-Za-z]{2})[sS]\b",
        lambda m: (
            m["prefix"]
            if m["prefix"].lower() in prefixes and m.group(0).lower() not in facility_words
            else m.group(0)
        ),
        text,
    )
    text = re.sub(r"\b[A-Za-z]{5,}\b", respell, text)
    # "in the lsat 4 hours": a four-letter grammar word with two neighbouring letters swapped
    # (nothing else: a four-letter word one letter off is too often another word)
    text = re.sub(
        r"\b[A-Za-z]{4}\b",
        lambda m: _swapped_grammar_word(m.group(0), known | facility_words),
        text,
    )
    if not facility_words:
        return text
    text = re.sub(
        r"\b[A-Za-z]{4,}\b",
        lambda m: _channel_word_spelled(m.group(0), facility_words, known),
        text,
    )
    return re.sub(
        r"\b[A-Za-z]{4,16}\b", lambda m: _run_together(m.group(0), facility_words, known), text
    )


def _run_together(typed: str, facility_words: frozenset[str], known: frozenset[str]) -> str:
    """ "idgap", "beamcurrent": two of the list's words typed as one, apart again when they
    part one way only (each part two letters or more, one of them three)."""
    word = typed.lower()
    if word in facility_words or word in known:
        return typed
    splits = [
        (word[:i], word[i:])
        for i in range(2, len(word) - 1)
        if word[:i] in facility_words and word[i:] in facility_words and max(i, len(word) - i) >= 3
    ]
    if len(splits) != 1:
        return typed
    first, _ = splits[0]
    return f"{typed[: len(first)]} {typed[len(first) :]}"


# -- the grammar's short words typed in a hurry ------------------------------------------

#: "too" before a value ("VCM7 too 0.2", "too -1 A", "too zero"): "to".
_TOO_BEFORE_A_VALUE = re.compile(
    # "set HCM 5 too 0.3 A", "st hcm 5 ot 0.3A": "to", typed with a slip
    r"\b(?P<typed>too|ot)(?=\s+(?:[-+−]?(?:\d|\.\d)|(?:minus|zero|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|half)\b))",
    re.I,
)
#: "back to were it was", "to were they were": "where".
_WERE_FOR_WHERE = re.compile(
    r"\bto\s+(?P<typed>were)(?=\s+(?:it|they|that|this|these|those|we|you|i|he|she)\s+"
    r"(?:was|were|is|are|had|has|used|stood|sat)\b)",
    re.I,
)
#: "what dose the DCCT measure", "how dose QF3 look": "does" after a question word, before
#: what it asks of (a determiner, a pronoun or a device name).
_DOSE_FOR_DOES = re.compile(
    r"\b(?:what|how|where|why|when)\s+(?P<typed>dose)(?=\s+(?:"
    + "|".join(sorted(DETERMINERS | PRONOUNS | {"they", "we", "you", "i", "he", "she"}))
    + r"|[a-z]*\d\w*)\b)",
    re.I,
)
#: "hcm4to0.3", "qf12at121": a device, "to" and a value typed without spaces
_VALUE_RUN_ON = re.compile(
    r"\b(?P<device>[a-z]{1,5}\d{1,3})(?:to|at)(?P<value>[-+−]?(?:\d+(?:\.\d*)?|\.\d+))(?=[a-zµ%]*\b)",
    re.I,
)
#: "st hcm 5 to 0.3A": "set", its vowel left out, leading a change of a device
_ST_FOR_SET = re.compile(
    r"(?:^\W*|[.;:!?,]\s*|\b(?:then|and|pls|please)\s+)(?P<typed>st)(?=\s+[a-z]{1,5}\s?\d)",
    re.I,
)
_GRAMMAR_SLIPS = (
    (_TOO_BEFORE_A_VALUE, "to"),
    (_WERE_FOR_WHERE, "where"),
    (_DOSE_FOR_DOES, "does"),
    (_ST_FOR_SET, "set"),
)


def _grammar_words_respelled(text: str, facility_words: frozenset[str]) -> str:
    """ "too" before a value, "were" for "where", "dose" for "does", each only where the
    other reading is not English; never a word of the facility's list."""

    def respell(found: re.Match[str], meant: str) -> str:
        typed = found.group("typed")
        if typed.lower() in facility_words:
            return found.group(0)
        at = found.start("typed") - found.start()
        return found.group(0)[:at] + typed_case(meant, typed) + found.group(0)[at + len(typed) :]

    for pattern, meant in _GRAMMAR_SLIPS:
        text = pattern.sub(lambda m, meant=meant: respell(m, meant), text)
    return text


# -- a short verb with a letter doubled ------------------------------------------------

_SHORT_VERBS = frozenset(w for w in CHANGE | READ_VERBS | PLOT_VERBS if 3 <= len(w) <= 4)
#: What may come before a clause's verb: the start, a mark, a word joining clauses.
_CLAUSE_START = re.compile(r"(?:^|[.;:!?,(\-–]|\b(?:then|and|or|but|so|now))\s*$", re.I)


def _doubled_verbs_respelled(text: str, facility_words: frozenset[str]) -> str:
    """A verb of three or four letters typed with one of its letters doubled ("seet",
    "reead", "plott"), leading its clause or after politeness ("please seet", "can you
    reead"), as that verb; no other slip, and never a word of the grammar or of the list."""

    def respell(found: re.Match[str]) -> str:
        typed = found.group(0)
        word = typed.lower()
        if word in _KNOWN or word in GRAMMAR_WORDS or word in facility_words or word in _NOT_SLIPS:
            return typed
        verbs = {
            word[:i] + word[i + 1 :] for i in range(len(word) - 1) if word[i] == word[i + 1]
        } & _SHORT_VERBS
        if len(verbs) != 1 or not _leads_its_clause(text[: found.start()]):
            return typed
        return typed_case(verbs.pop(), typed)

    return re.sub(r"\b[A-Za-z]{4,5}\b", respell, text)


def _leads_its_clause(before: str) -> bool:
    """Whether a word after ``before`` leads its clause: only politeness ("please", "can
    you", "ok") between it and the start or the end of the clause before."""
    words = re.findall(r"[A-Za-z']+|[^\sA-Za-z']", before)
    while words and words[-1].lower() in POLITE and not _CLAUSE_START.search(" ".join(words)):
        words.pop()
    return _CLAUSE_START.search(" ".join(words)) is not None


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
        if w[0] == word[0] and not _form_of(word, w) and _swapped_or_missing(word, w)
    ]
    if len(close) == 1:
        return close[0]
    if word.endswith("s") and len(word) > 5:
        # "guages": the plural of a slip of the list's word ("guage" for "gauge")
        one = _channel_word_spelled(typed[:-1], facility_words, known)
        if one.lower() != word[:-1]:
            return f"{one}s"
    return typed


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
        return neighbours_swapped(word, other)
    return len(other) == len(word) + 1 and any(
        other[:i] + other[i + 1 :] == word for i in range(len(other))
    )


def request_words_spelled(text: str, facility_words: frozenset[str]) -> str:
    """``text`` with each word of five letters or more that is no word of the grammar or of
    the facility, but one slip from exactly one word that asks for history, a statistic, a
    plot or a time, spelled as that word ("hisotry" -> "history", "midnihgt" -> "midnight")."""

    def spelled(found: re.Match[str]) -> str:
        word = found.group(0).lower()
        # "second" is an ordinal, never "seconds" typed short
        if (
            word in GRAMMAR_WORDS
            or word in _KNOWN
            or word in facility_words
            or word in _ASKING_WORDS
        ):
            return found.group(0)
        close = [w for w in _ASKING_WORDS if _close_to(word, w)]
        return close[0] if len(close) == 1 else found.group(0)

    return re.sub(r"\b[A-Za-z]{5,}\b", spelled, text)


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
