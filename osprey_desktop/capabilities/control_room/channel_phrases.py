"""The words of a request that describe channels, and the finder of the configured list.

``channel_phrase`` drops what names no channel (time expressions, a write's values, filler);
``named_devices`` picks the typed device and PV names out of a phrase; ``finder_of`` is the
database's finder with the configured vocabulary. Both channel finding and the model-assisted
finding read requests through these, so neither imports the other for them.
"""

from __future__ import annotations

import re

from osprey_desktop.channels.database import DEVICE_NAME, STOPWORDS, ChannelDatabase
from osprey_desktop.channels.finder import ChannelFinder
from osprey_desktop.channels.finding import configured_finder
from osprey_desktop.channels.query import QUERY_WORDS, expand_name_ranges
from osprey_desktop.channels.search import is_sector_reference, without_sector
from osprey_desktop.language.lexicon import CHANGE, NOUN_VERBS
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN
from osprey_desktop.language.time_parsing import strip_time_expressions
from osprey_desktop.language.write_parsing import (
    WriteRequestError,
    lookup_unit,
    parse_write_request,
)

# Words operators add around a channel's description that describe no channel. Unknown words
# are kept on purpose: "cryoplant pressure" must not quietly become "pressure".
FILLER_WORDS = """
pls plz please gimme give me show tell let lets let's what whats what's how much many is
are was were be do does did don dont don't t s anything nothing just only without
writing touching quick quickly right now currently current_value value values reading
readings level levels status state evolve evolved evolving behave behaved doing look
like drop dropped dropping rise rose rising go went going ok okay hey hi list compare
versus vs zero then also again both it them this that these those back after before
graph plot plotted trend trends history archived archive data check monitor watch set
change put adjust increase decrease raise lower ramp move bump open close write apply
add subtract someone somebody anyone
higher than more less compared compare comparison same equal identical copy match restore
revert hello hallo possibly kindly cheers thanks thank there mind would could might maybe
perhaps turn switch off shut bring wait sorry mean meant actually correction rather oops
take make drive return reduce boost widen narrow nudge tweak modify scale
"""
FILLER = frozenset(FILLER_WORDS.split())
_UNIT_AFTER_IN = re.compile(r"\bin\s+([a-zµ%]+)\b")
_WORD = re.compile(r"[a-z0-9_:%µ\-']+|[^\sa-z0-9_:%µ\-']+")


def channel_phrase(text: str, database: ChannelDatabase | None = None) -> str:
    """The words of ``text`` that can describe channels.

    Drops time expressions, the values (and units) of a write, units asked for ("in amps")
    and conversational filler; keeps channel names, sector references and unknown words.
    Ranges of names ("VCM05 to VCM08") become the names (those ``database`` has, if given).
    """
    known = (lambda name: bool(database.channels_named(name))) if database is not None else None
    phrase = expand_name_ranges(without_values(text), known)
    phrase = _UNIT_AFTER_IN.sub(lambda m: " " if lookup_unit(m.group(1)) else m.group(0), phrase)
    kept = []
    for word in _WORD.findall(phrase):
        if word in FILLER or not (re.search(r"[a-z0-9]", word) or word == ","):
            continue
        # kept: "A and B" is searched part by part; "the last two", "all", "or" are read
        if word in STOPWORDS and word not in QUERY_WORDS:
            continue
        if not kept and word in CHANGE and word not in NOUN_VERBS:
            continue  # "reduce QF13 by 0.5 %": the verb leading the request names no channel
        kept.append(word)
    return " ".join(kept).replace(" ,", ",").strip(", ")


def named_devices(phrase: str, database: ChannelDatabase) -> tuple[list[str], list[str]]:
    """(device or PV names, other numbers) in a channel phrase, lower case.

    A name is letters then digits ("hcm99", "sr03c" excepted: sectors are the search's), or
    words joined by ":" ("sr03c:hcm09"); "hcm 99" is one name when the channel list has
    devices starting with "hcm". The numbers are the bare ones left ("corrector 9").
    """
    words = [w.strip(",'-") for w in phrase.split()]
    prefixes = database.device_prefixes()
    names: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word in prefixes and index + 1 < len(words) and words[index + 1].isdigit():
            index += 1
            word += words[index]
        index += 1
        pv_name = len([p for p in word.split(":") if p]) > 1 and re.search(r"[a-z]", word)
        device = DEVICE_NAME.fullmatch(word) and not is_sector_reference(word)
        if device and _GLUED_SECTOR.fullmatch(word) and not database.channels_named(word):
            device = None  # "vac s3": sector 3 where the list has no device S3 (the finder's)
        if pv_name or device:
            names.append(word)
        else:
            rest.append(word)
    numbers = [w for w in without_sector(" ".join(rest)).split() if w.isdigit()]
    return list(dict.fromkeys(names)), list(dict.fromkeys(numbers))


_GLUED_SECTOR = re.compile(r"(?:s|cell)\d{1,3}", re.I)


def finder_of(database: ChannelDatabase) -> ChannelFinder:
    """The database's finder with the configured vocabulary and default area (built once)."""
    return configured_finder(database)


def without_values(text: str) -> str:
    """``text`` without its time expressions, the values of a write and quantities stated
    ("is HCM05 at 1.2 A?": 1.2 A is no device number)."""
    cleaned = strip_time_expressions(text)
    try:
        for spec in parse_write_request(cleaned):
            cleaned = cleaned.replace(spec.text.lower(), " ")
    except WriteRequestError:
        pass
    return without_quantities(cleaned)


_QUANTITY = re.compile(
    r"(?:(?<![\w.])[-+−]?\d+(?:\.\d+)?(?:e[-+−]?\d+)?|(?<![\w-])" + SPELLED_NUMBER_PATTERN + r")"
    # "below four ninety milliamps": an amount in words is no device's number
    r"\s*(?P<unit>[a-zµ%]{1,12})\b",
    re.I,
)


def without_quantities(text: str) -> str:
    """``text`` without "<number> <unit>" where the unit is a physical one ("1.2 A", "20 mm");
    a duration stays ("1 hour average" describes a channel) unless it is compared with
    ("lifetime under 6 h")."""

    def drop(found: re.Match[str]) -> str:
        unit = lookup_unit(found.group("unit"))
        if unit is None:
            return found.group(0)
        if unit[0] != "s" or _COMPARED.search(text[: found.start()]):
            return " "  # "1.2 A"; "fallen under 6 h": a threshold, not a channel's span
        return found.group(0)

    def shown_in(found: re.Match[str]) -> str:
        return " " if lookup_unit(found.group("unit")) is not None else found.group(0)

    # "in Hz if you can", "in mm please": the unit to show the answer in, no channel's word
    return _SHOWN_IN.sub(shown_in, _QUANTITY.sub(drop, text))


_SHOWN_IN = re.compile(
    r"\b(?:in|into|as)\s+(?:units\s+of\s+)?(?P<unit>[A-Za-zµ°%][A-Za-zµ°%/]{1,11})"
    r"(?=\s*(?:[,.;!?)]|$|\bif\b|\bplease\b|\bunits?\b|\binstead\b|\bthanks\b))",
    re.I,
)


_COMPARED = re.compile(
    r"\b(?:under|below|over|above|beyond|than|least|most|exceeds?|within|reach(?:es|ed)?)\s*$",
    re.I,
)


__all__ = [
    "FILLER",
    "channel_phrase",
    "finder_of",
    "named_devices",
    "without_quantities",
    "without_values",
]
