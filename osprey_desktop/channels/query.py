"""What a channel request asks for, read from an operator's words: the describing words, and
the constraints on instance numbers, sectors, ordinals and setpoint/readback.

``parse_channel_query("the first three dipole current setpoints")`` gives the words
``dipole current`` with ``ordinal=("first", 3)`` and ``role="setpoint"``; "monitors 1 and 3"
gives ``numbers={1, 3}``; "sectors 4 through 6" ``sectors={4, 5, 6}``; "the twenty-first"
``ordinal=("nth", 21)``; "right now", "actual" and "what does it read" ask for readbacks.
Numbers that belong to a quantity ("one-minute average", "1 hour") stay words (``1min``), so
they describe a channel instead of picking a device; a count after "all" ("all six pumps")
picks none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from osprey_desktop.language.numbers import NUMBER_WORDS

_UNIT_ORDINALS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
]
_TEENS = ["thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TEEN_ORDINALS = ["tenth", "eleventh", "twelfth", *(w + "th" for w in _TEENS)]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORDINALS: dict[str, int] = {
    **{w: n for n, w in enumerate(_UNIT_ORDINALS, 1)},
    **{w: n for n, w in enumerate(_TEEN_ORDINALS, 10)},
    **{w[:-1] + "ieth": 10 * n for n, w in enumerate(_TENS, 2)},  # "twentieth"
}
#: Counts spelled out beyond the shared table ("thirteen", "seventy"); "seventy two" and
#: "seventy-second" are a ten and a unit.
_CARDINALS: dict[str, int] = {
    **NUMBER_WORDS,
    **{w: n for n, w in enumerate(_TEENS, 13)},
    **{w: 10 * n for n, w in enumerate(_TENS, 2)},
}
_ORDINAL_SUFFIX = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
#: Words that turn a following count into a selection of instances ("first three").
_SELECTORS = {
    "first": "first",
    "last": "last",
    "final": "last",
    "initial": "first",
    "middle": "middle",
    "centre": "middle",
    "center": "middle",
}

_SETPOINT_TEXT = "setpoint setpoints set setting settings sp demand demanded commanded setvalue"
SETPOINT_WORDS = frozenset(_SETPOINT_TEXT.split())
_READBACK_TEXT = "readback readbacks rb rbv reading readings measured actual actually monitored"
READBACK_WORDS = frozenset(_READBACK_TEXT.split())
#: Phrases meaning "what it is now" (a readback), matched on the lower-cased text.
_NOW_PHRASES = re.compile(r"\b(right now|at the moment|currently|current value|actual value)\b")
#: "What does dipole 7 read?": what the device reads, not how it is set ("read HCM01" alone
#: is every channel of it).
_READS_QUESTION = re.compile(r"\b(?:do|does|did)\b.*\bread\b")
_EVERYTHING_TEXT = (
    "all both either every each any values pvs channels signals everything everywhere"
)
EVERYTHING_WORDS = frozenset(_EVERYTHING_TEXT.split())

#: Units that make a number part of a quantity, not an instance ("1 min", "10 hz").
_QUANTITY_UNITS = {
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "hr": "hr",
    "hrs": "hr",
    "hour": "hr",
    "hours": "hr",
    "sec": "s",
    "second": "s",
    "seconds": "s",
    "s": "s",
    "ms": "ms",
    "hz": "hz",
    "khz": "khz",
    "mhz": "mhz",
    "gev": "gev",
    "mev": "mev",
    "kv": "kv",
    "mm": "mm",
}
#: Words after which a number counts the devices ("all six ion pumps"), never names one.
_COUNTING = {"all", "every", "each"}
_SECTOR_WORDS = {
    *("sector", "sectors", "sect", "sec", "cell", "cells", "girder", "girders"),
    *("straight", "straights"),  # "the ID gap in straight 7": the straight of sector 7
}
_INSTANCE_WORDS = {"number", "numbers", "no", "nr", "num", "#", "device", "devices", "unit"}
_RANGE_WORDS = {"to", "through", "thru", "till", "until", "-", "–", "..."}
_LIST_WORDS = {"and", ",", "&", "or"}
_PATH = re.compile(r"\b([a-z]{2,})(?:\s*-\s*|\s+)to(?:\s*-\s*|\s+)([a-z]{2,})\b")
_TOKEN = re.compile(r"\d+(?:st|nd|rd|th)?|[a-z][a-z0-9_]*|[#,&–-]|\.\.\.")
_LEADING_NUMBER_NAME = re.compile(r"\d+[a-z][a-z0-9]*")
_NAME_OR_TOKEN = re.compile(r"\d+[a-z][a-z0-9]*|" + _TOKEN.pattern)

#: Words that say nothing about which channel (questions, politeness, verbs of reading).
FILLER = frozenset(
    """
    a an the of in at for to from by with me my us our show display give get read tell what
    whats what's is are was be please pls now this that these those there here about which i you
    can could would see check look up let lets let's do does it its them they how much many
    value current_value just only also again both hey hi ok okay thanks thank cheers kindly
    want need like know find list report fetch return quick quickly there's where who
    good fine healthy sane
    """.split()  # noqa: SIM905 - a word list reads better as text
)


@dataclass
class ChannelQuery:
    """The parts of a channel request (see the module docstring)."""

    words: list[str] = field(default_factory=list)
    numbers: set[int] = field(default_factory=set)
    sectors: set[int] = field(default_factory=set)
    ordinal: tuple[str, int] | None = None
    role: str | None = None  # "setpoint" | "readback" | None
    everything: bool = False
    both_roles: bool = False
    #: "booster-to-storage", "linac to booster": (start, end) of a path named; the finder
    #: uses it where the list names such a path (a transfer line), else the words alone
    paths: list[tuple[str, str]] = field(default_factory=list)
    #: "pressure and current", "ready or fault": describing words joined as alternatives
    alternatives: list[tuple[str, str]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.words and not self.numbers and not self.sectors


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _CARDINALS.get(token)


def _number_at(tokens: list[str], index: int) -> tuple[int, int] | None:
    """(the number that starts at ``index``, the index after it): "7", "seven", "seventy two"."""
    value = _number(tokens[index]) if index < len(tokens) else None
    if value is None:
        return None
    unit = _CARDINALS.get(tokens[index + 1], 0) if index + 1 < len(tokens) else 0
    if tokens[index] in _TENS and 0 < unit < 10:
        return value + unit, index + 2
    return value, index + 1


def _ordinal_at(tokens: list[str], index: int) -> tuple[int, int] | None:
    """(the ordinal at ``index``, the index after it): "seventh", "7th", "twenty-first"."""
    token = tokens[index]
    following = tokens[index + 1] if index + 1 < len(tokens) else ""
    if token in _TENS and following in _UNIT_ORDINALS:
        return _CARDINALS[token] + ORDINALS[following], index + 2
    suffixed = _ORDINAL_SUFFIX.match(token)
    if suffixed:
        return int(suffixed.group(1)), index + 1
    if token in ORDINALS:
        return ORDINALS[token], index + 1
    return None


def _tokens(text: str, known: Callable[[str], bool] | None = None) -> list[str]:
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"'(s|re|ll|ve|d|m)\b", " ", text)  # "what's" -> "what"
    text = re.sub(r"(\d)-(?=[a-z])", r"\1 ", text)  # "1-hour" -> "1 hour"
    text = re.sub(r"\b([a-z]+)-([a-z]+)\b", r"\1 \2", text)  # "one-minute" -> "one minute"
    text = re.sub(r"(\d)\s*-\s*(\d)", r"\1 - \2", text)  # "1-4" -> "1 - 4"
    if known is None:
        return _TOKEN.findall(text)
    # a name the list has that starts with its number ("7BPM4": girder 7's BPM 4) is one
    # word; anything else is read as a number and a word, as always
    out: list[str] = []
    for token in _NAME_OR_TOKEN.findall(text):
        out += (
            [token]
            if _LEADING_NUMBER_NAME.fullmatch(token) and known(token)
            else _TOKEN.findall(token)
        )
    # "s3", "sec04", "cell12": a sector written against its number, where the list has no
    # such word ("S3" may be a sextupole's name on another list)
    split: list[str] = []
    for token in out:
        glued = _GLUED_SECTOR.fullmatch(token)
        split += ["sector", glued.group(2)] if glued and not known(token) else [token]
    return split


_GLUED_SECTOR = re.compile(r"(s|sec|sect|sector|cell)(\d{1,3})")


def _read_numbers(tokens: list[str], start: int) -> tuple[set[int], int]:
    """A number, a list ("1, 3 and 5") or a range ("4 through 6") from ``start``; next index."""
    found: set[int] = set()
    first = _number_at(tokens, start)
    if first is None:
        return found, start
    found.add(first[0])
    index = first[1]
    while index < len(tokens):
        word = tokens[index]
        after = _number_at(tokens, index + 1)
        if after is None:
            break
        nxt, following = after
        if word in _RANGE_WORDS:
            last = max(found)
            if nxt >= last and nxt - last <= 500:
                found.update(range(last, nxt + 1))
            else:
                found.add(nxt)
        elif word in _LIST_WORDS:
            found.add(nxt)
        else:
            break
        index = following
    return found, index


_NAME_RANGE = re.compile(
    r"\b(?P<letters>[a-z](?:[a-z0-9]*[a-z])?)(?P<first>\d+)"
    r"\s*(?P<sep>to|through|thru|till|until|-|–|\.\.\.?)"
    r"\s*(?P<again>[a-z](?:[a-z0-9]*[a-z])?)?(?P<last>\d+)\b(?![.,]\d)",
    re.I,
)
#: Between a name and a bare number, "to" gives a value ("HCM01 to 2"), not a range.
_BARE_END_SEPARATORS = {"through", "thru", "-", "–", "..", "..."}
#: Words this parser reads (ordinals, "first"/"last", "all", "or", "through"): a caller that
#: drops common words before parsing must keep these.
QUERY_WORDS = frozenset(
    {*ORDINALS, *_SELECTORS, *EVERYTHING_WORDS, *_RANGE_WORDS, *_LIST_WORDS, "both"}
)
#: Words after which "one" stands for a device ("the horizontal one", "that one"), no number.
_BEFORE_THE_PRONOUN_ONE = frozenset(
    (
        *("the", "this", "that", "other", "another", "which", "same", "new", "old"),
        *("horizontal", "vertical", "upstream", "downstream", "next", "previous"),
        *("last", "first", "second", "third", "inner", "outer"),
    )
)
#: ... and what may follow it there: nothing, or a word that is no noun ("the vertical one to
#: 0.1 A"; never "a one amp step", "the first one hundred")
_AFTER_THE_PRONOUN_ONE = frozenset(
    ("", "to", "at", "in", "on", "of", "from", "by", "please", "and", "or", "for", "with", "too")
)
#: The most devices one typed range expands to ("HCM01 to HCM99" is 99).
MAX_RANGE = 200


def expand_name_ranges(text: str, known: Callable[[str], bool] | None = None) -> str:
    """A range of device names as the devices in it, written as the first is (its letters,
    its zero padding): "VCM05 to VCM08" -> "VCM05, VCM06, VCM07, VCM08".

    Both ends must have the same stem, which may hold digits ("Q0H01 through Q0H04"), or the
    second none ("QF03-07"); a reversed or huge
    range is left as typed, so it is asked about rather than guessed. With ``known`` (is this
    a name of the list?), a range holds the devices the list has ("QF01 to QF05" on a list of
    odd-numbered QFs is QF01, QF03, QF05); both ends must exist.
    """

    def expand(found: re.Match[str]) -> str:
        letters, first, last = found.group("letters"), found.group("first"), found.group("last")
        again = found.group("again")
        if again is not None and again.lower() != letters.lower():
            return found.group(0)
        if again is None and found.group("sep").lower() not in _BARE_END_SEPARATORS:
            return found.group(0)
        start, stop = int(first), int(last)
        if not 0 < stop - start < MAX_RANGE:
            return found.group(0)
        width = len(first) if first.startswith("0") else 1
        names = [f"{letters}{n:0{width}d}" for n in range(start, stop + 1)]
        if known is not None and known(names[0]) and known(names[-1]):
            names = [n for n in names if known(n)]
        return ", ".join(names)

    return _NAME_RANGE.sub(expand, text)


def parse_channel_query(text: str, known: Callable[[str], bool] | None = None) -> ChannelQuery:
    """Read ``text`` (time expressions and write values already removed) into its parts.

    ``known``: whether the channel list has a word; a word that starts with a number
    ("7bpm4") is kept whole only when it has."""
    query = ChannelQuery()
    lowered = text.lower()
    setting_asked = re.search(r"\bset\s+(?:to|at)\b|\bsetting\b", lowered)
    if (_NOW_PHRASES.search(lowered) or _READS_QUESTION.search(lowered)) and not setting_asked:
        # "what is the ID05 gap set to right now?" asks the setting, now
        query.role = "readback"
        lowered = _NOW_PHRASES.sub(" ", lowered)
    query.paths = [
        (start, end)
        for start, end in _PATH.findall(lowered)
        if start not in FILLER and end not in FILLER
    ]
    tokens = _tokens(lowered, known)
    roles: set[str] = set()
    index = 0
    while index < len(tokens):
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token in _SECTOR_WORDS:
            found, index = _read_numbers(tokens, index + 1)
            if found:
                query.sectors |= found
            else:
                index += 1
            continue
        if token == "first" and following in _SECTOR_WORDS:
            query.sectors.add(1)  # "the first sector": sector 1, no device picked
            index += 2
            continue
        if token in _SELECTORS:
            count = _number_at(tokens, index + 1)
            kind = _SELECTORS[token]
            if count is not None:
                query.ordinal = (kind, count[0])
                index = count[1]
            else:
                query.ordinal = (kind, 1)
                index += 1
            continue
        ordinal = _ordinal_at(tokens, index)
        if ordinal is not None and ordinal[1] < len(tokens) and tokens[ordinal[1]] in _SECTOR_WORDS:
            query.sectors.add(ordinal[0])  # "in the third sector": sector 3
            index = ordinal[1] + 1
            continue
        if ordinal is not None:
            query.ordinal = ("nth", ordinal[0])
            index = ordinal[1]
            continue
        previous = tokens[index - 1] if index else ""
        pronoun = previous in _BEFORE_THE_PRONOUN_ONE and following in _AFTER_THE_PRONOUN_ONE
        if token == "ones" or (token == "one" and pronoun):
            index += 1  # "the horizontal one", "that one": a device said before, not device 1
            continue
        if _number(token) is not None:
            unit = _QUANTITY_UNITS.get(following)
            if unit is not None:  # "1 min average": a word of the channel, not an instance
                query.words.append(f"{_number(token)}{unit}")
                index += 2
                continue
            found, index = _read_numbers(tokens, index)
            query.numbers |= found
            continue
        index += 1
        if token in _INSTANCE_WORDS or token in _LIST_WORDS or token in _RANGE_WORDS:
            continue
        # "the readback, not the setpoint": a role said only to be ruled out
        ruled_out = any(t in ("not", "no") for t in tokens[max(0, index - 3) : index - 1])
        if token in SETPOINT_WORDS:
            if not ruled_out:
                roles.add("setpoint")
            continue
        if token in READBACK_WORDS:
            if not ruled_out:
                roles.add("readback")
            continue
        if token in EVERYTHING_WORDS:
            query.everything = True
            after = tokens[index + 1] if index + 1 < len(tokens) else ""
            # "all six": how many there are, not device 6 ("all 1 min averages": a quantity)
            if token in _COUNTING and _number(following) is not None:
                index += after not in _QUANTITY_UNITS
            continue
        if token in FILLER or token == "current" and _asks_now(tokens, index - 1):
            continue
        query.words.append(token)
    query.alternatives = _alternatives(tokens, set(query.words))
    if len(roles) == 1:
        query.role = roles.pop()
    elif len(roles) > 1:
        query.both_roles = True
        query.role = None
    return query


def _alternatives(tokens: list[str], words: set[str]) -> list[tuple[str, str]]:
    """Describing words joined by "and"/"or": "pressure and current" (the words beside the
    joint), "dipole current and quadrupole current" (the words before a shared last word).
    Device names ("BPM13 X and BPM14 X") are the finder's numbers, never alternatives."""
    pairs = []
    for at, joint in enumerate(tokens):
        if joint not in ("and", "or", "&") or not 0 < at < len(tokens) - 1:
            continue
        before, after = at - 1, at + 1
        if after + 1 < len(tokens) and tokens[after + 1] == tokens[before] and before > 0:
            before -= 1  # "<dipole> current and <quadrupole> current"
        pair = (tokens[before], tokens[after])
        if all(w in words and w.isalpha() for w in pair):
            pairs.append(pair)
    return pairs


def _asks_now(tokens: list[str], index: int) -> bool:
    """Whether "current" means "present" ("the current value"), not an electric current."""
    return index + 1 < len(tokens) and tokens[index + 1] in ("value", "values", "state", "status")


__all__ = [
    "EVERYTHING_WORDS",
    "FILLER",
    "ORDINALS",
    "READBACK_WORDS",
    "SETPOINT_WORDS",
    "ChannelQuery",
    "parse_channel_query",
]
