"""What the request parse needs from the facility: its channel words and its clock.

The parse of a request (``language.request``) knows English, not a facility: which letters
start a device name ("QD" of QD08) and which words describe channels ("lifetime", "gap") are
read here from the configured channel list and handed to it as a ``Vocabulary``; qualified
clock times ("since 7 this morning") are resolved in the facility's time zone. ``parse`` is
the parse of a request with both, the one the built-in planner and its rules read.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

from osprey_desktop.channels.patterns import patterns_expanded
from osprey_desktop.language.lexicon import GRAMMAR_WORDS
from osprey_desktop.language.request import Request, Vocabulary, parse_request

logger = logging.getLogger(__name__)

_CACHE: dict[int, tuple[Any, Vocabulary]] = {}


def _database() -> Any | None:
    try:
        from osprey_desktop.connectors import get_configured_channel_database

        return get_configured_channel_database()
    except Exception as exc:  # noqa: BLE001 - without a list the parse still reads English
        logger.info("no channel list for the request parse: %s", exc)
        return None


def vocabulary_of(database: Any) -> Vocabulary:
    """Device prefixes and channel words of a channel list (records with ``name``,
    ``description``, ``synonyms``, ``device``)."""
    prefixes: set[str] = set()
    words: set[str] = set()
    for record in database:
        device = getattr(record, "device", None) or ""
        for token in re.findall(r"[A-Za-z]+(?=\d)", f"{device} {' '.join(record.synonyms)}"):
            if 2 <= len(token) <= 5:
                prefixes.add(token.lower())
        text = " ".join([record.description, *record.synonyms])
        words.update(w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 1)
    words |= _terms_for(words, database)
    return Vocabulary(frozenset(prefixes), frozenset(words))


def _terms_for(words: set[str], database: Any) -> set[str]:
    """The channel-finding vocabulary's short terms for words of this list ("volt" for
    voltage, "vac" for vacuum: ``resources/channel_vocabulary.yaml`` and the facility's
    ``channel_finding.vocabulary``), except words the grammar reads itself ("set", "x") and
    times ("min")."""
    try:
        from osprey_desktop.channels.finding import configured_finder

        phrases = configured_finder(database).vocabulary.phrases
    except Exception as exc:  # noqa: BLE001 - a list without a finder has no terms
        logger.info("no channel vocabulary for the request parse: %s", exc)
        return set()
    return {
        term
        for term, said in phrases.items()
        if term.isalpha()
        and len(term) > 1
        and term not in GRAMMAR_WORDS  # a unit may stay: "volt" is voltage too
        and not any(w in _TIME_UNITS for phrase in said for w in phrase)
        and any(w in words for phrase in said for w in phrase)
    }


#: Terms for these stand for a time ("min", "hr"), which the parse reads as such.
_TIME_UNITS = frozenset({"second", "minute", "hour", "day", "millisecond"})


def configured_vocabulary() -> Vocabulary:
    """The vocabulary of the configured channel list (empty without one)."""
    database = _database()
    if database is None:
        return Vocabulary()
    cached = _CACHE.get(id(database))
    if cached is None or cached[0] is not database:
        _CACHE.clear()
        cached = (database, vocabulary_of(database))
        _CACHE[id(database)] = cached
    return cached[1]


def facility_now() -> datetime:
    """Now, in the facility's time zone (config ``machine.timezone``, else this computer's)."""
    return datetime.now(_facility_zone())


def parse(text: str) -> Request:
    """The parse of one request with the facility's words and clock (``language.request``);
    a plan asks for it several times, so the parses of the current minute are kept."""
    now = facility_now()
    vocabulary = configured_vocabulary()
    database = _database() if any(c in text for c in "*?[") else None
    if database is not None:
        # "caget SR07C:IG*", "ig1? pressures": a shell pattern is the names it matches
        text = patterns_expanded(text, database, vocabulary.channel_words)
    return _parse_at(text, vocabulary, now.replace(second=0, microsecond=0))


@lru_cache(maxsize=256)
def _parse_at(text: str, vocabulary: Vocabulary, minute: datetime) -> Request:
    return parse_request(text, vocabulary, minute)


def _facility_zone() -> tzinfo:
    from zoneinfo import ZoneInfo

    try:
        from osprey_desktop.config import get_config

        name = get_config().machine.timezone
    except Exception:  # noqa: BLE001 - a missing config means this computer's zone
        name = None
    if name:
        return ZoneInfo(name)
    import os

    for candidate in (os.environ.get("TZ", "").lstrip(":"), _zone_of_localtime()):
        if candidate:
            try:
                return ZoneInfo(candidate)
            except Exception:  # noqa: BLE001 - try the next
                continue
    return datetime.now().astimezone().tzinfo or ZoneInfo("UTC")


def _zone_of_localtime() -> str:
    import os

    link = os.path.realpath("/etc/localtime")
    return link.split("zoneinfo/", 1)[1] if "zoneinfo/" in link else ""
