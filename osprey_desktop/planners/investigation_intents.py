"""Which investigative question a request asks: alarms, an incident, a correlation,
statistics over a window, or events in a signal.

The investigation capabilities claim a request through ``claims`` (the built-in planner's
claiming rule), so these rules decide their routing; nothing else in the planner changes.
A request that changes something ("set ...", "reset the alarm") is never claimed: those
belong to the writers.
"""

from __future__ import annotations

import re
from typing import Literal

from osprey_desktop.language.discourse import asked_part
from osprey_desktop.language.time_words import event_moments_said_as_clocks

IntentKind = Literal["alarms", "incident", "correlation", "statistics", "events"]

_CHANGE_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:set|change|put|move|write|raise|lower|increase|decrease|reset|"
    r"acknowledge|ack|disable|enable|turn|ramp|bump|open|close|log|make a logbook)\b",
    re.I,
)
_ALARM = re.compile(
    r"\b(?:alarms?|alarming|in\s+(?:major|minor|invalid)|what'?s\s+red|what\s+is\s+red|"
    r"anything\s+red|is\s+anything\s+red|red\s+in\s+sector|(?:major|minor)\s+alarms?|"
    r"what'?s\s+(?:in\s+)?(?:major|minor)|disconnected\s+channels?)\b",
    re.I,
)
# "alarm limits of HCM01", "what are the alarm limits": a question about a record, not the
# alarm state of the machine
_ALARM_LIMITS = re.compile(r"\balarm\s+(?:limits?|thresholds?|levels?|settings?)\b", re.I)
_INCIDENT = re.compile(
    r"\b(?:what\s+happened|figure\s+out|root\s+cause|what\s+(?:went|goes)\s+wrong|"
    r"what\s+caused|why\s+did\s+(?:the\s+)?(?:beam|rf|current|machine)|"
    # ("beam loss monitors", "beam loss rate": devices and signals, no incident)
    r"(?:beam|current)\s+(?:dumped|dump|tripped|trip|was\s+lost|"
    r"loss(?!\s+(?:monitors?|detectors?|rates?|signals?|counters?|readings?|bpms?|blms?))|"
    r"lost|dropped|fell)|"
    r"(?:lost|lose|losing)\s+(?:about\s+|around\s+|some\s+|~\s*)?(?:[\d.]+\s*ma\s+of\s+)?"
    r"(?:the\s+)?beam|"
    r"(?:do|did|does)\s+anything\s+(?:weird|strange|odd|unusual|funny)|"
    r"anything\s+(?:weird|strange|odd|unusual)|what\s+changed\s+(?:around|at|near|before)|"
    r"(?:rf|cavity|klystron)\s+tripped|dumped)\b",
    re.I,
)
#: "has the beam current dropped since 20:00 yesterday?": how it went since then, a history
_TREND_ASKED = re.compile(
    r"\b(?:has|have)\s+(?:the\s+)?[\w\s]{0,30}?\b(?:dropped|fallen|fell|risen|rose|decreased|"
    r"increased|gone\s+(?:up|down))\s+(?:since|over|during|in\s+the\s+last)\b",
    re.I,
)
_CORRELATION = re.compile(
    r"\b(?:correlat\w*|follow(?:ed|s)?\s+(?:the\s+)?\w+|track(?:ed|s)?\s+(?:the\s+)?\w+|"
    r"relat(?:ed|ion)\s+(?:to|between)|caused\s+by|in\s+step\s+with)\b",
    re.I,
)
# Statistics the history table (last, min, max, mean) does not already give. Of the named
# channels over one window they are a history request too, answered with the statistic
# ("std of BPM12 X over the last hour", "average lifetime over the last 2 hours"): only a
# ranking across channels ("largest orbit excursion today", "which BPM was least stable")
# needs the investigation, as do sectors and windows compared (below).
_STATISTICS = re.compile(
    r"\b(?:std|standard\s+deviation|spread|peak[-\s]to[-\s]peak|rms|drift(?:ed|s)?|"
    r"statistics|stats|excursions?|variation|fluctuat\w*|stable|stability|sigma)\b",
    re.I,
)
_ONE_DEVICE = re.compile(
    r"\b(?!(?:last|past|next|over|the|for|since|from|and|to|at|in|by|of|about|sector|cell)\b)"
    r"[A-Za-z]{2,5}\s?\d{1,3}\b(?![:.]\d|\s*(?:h|hours?|min|minutes?|days?|s)\b)",
    re.I,
)
_RANKED = re.compile(r"\b(?:excursions?|largest|biggest|smallest)\b", re.I)
_EVENTS = re.compile(
    r"\b(?:when\s+did|when\s+was\s+the\s+last|how\s+often|how\s+many\s+times|"
    r"find\s+(?:the\s+)?(?:steps?|drops?|spikes?|jumps?)|any\s+(?:steps?|drops?|spikes?|jumps?))"
    r"\b",
    re.I,
)
_EVENT_WORDS = re.compile(
    r"\b(?:fell|fall|falls|drop(?:ped|s)?|rose|rise|rises|jump(?:ed|s)?|step(?:ped|s)?|"
    r"spike(?:d|s)?|glitch(?:ed|es)?|trip(?:ped|s)?|excursions?)\b",
    re.I,
)
#: "how often did the lifetime drop below 8 h": a threshold counted over the history (the
#: history's statistic), not the events of a signal
_THRESHOLD_CROSSED = re.compile(
    r"\b(?:fell|fall|falls|drop(?:ped|s)?|rose|rise|rises|went|go|goes|gone|jump(?:ed|s)?|dip(?:ped|s)?)"
    r"\s+(?:below|under|above|over|beyond|past)\s+[-+]?\.?\d",
    re.I,
)
# "vacuum in sector 3 vs sector 7", "compare sectors 3 and 7": a comparison across sectors
_SECTORS_COMPARED = re.compile(
    r"\bsector\s*\d{1,2}\b.*\b(?:vs\.?|versus|against|compared\s+(?:to|with)|than|and|with)\s+"
    r"sector\s*\d{1,2}\b|\bsector\s*\d{1,2}\s+(?:vs\.?|versus)\s+\d{1,2}\b|"
    r"\bsectors\s+\d{1,2}\s*(?:vs\.?|versus)\s*\d{1,2}\b",
    re.I,
)
# "sectors 1, 2 and 3": a list of sectors, compared only with a word that compares ("compare
# sectors 3 and 7", "which of sectors 2, 5 and 9 is worst"); else a read of each
_SECTORS_LISTED = re.compile(r"\bsectors\s+\d{1,2}\s*(?:,|and|&)\s*\d{1,2}\b", re.I)
_RANKS = re.compile(
    r"\b(?:highest|lowest|worst|best|most|least|differ(?:s|ence|ent)?|which\s+(?:one|sector|of))\b",
    re.I,
)
# Words an alarm overview question may hold besides its alarm words: anything else names
# particular channels ("is any neutron monitor in alarm?"), which a read answers with their
# alarm state, so the overview does not claim it.
_OVERVIEW_WORDS = frozenset(
    [
        "what",
        "whats",
        "what's",
        "is",
        "are",
        "was",
        "were",
        "there",
        "any",
        "anything",
        "something",
        "everything",
        "which",
        "who",
        "in",
        "at",
        "on",
        "of",
        "for",
        "the",
        "a",
        "an",
        "now",
        "right",
        "currently",
        "current",
        "at",
        "the",
        "moment",
        "still",
        "today",
        "machine",
        "ring",
        "accelerator",
        "storage",
        "list",
        "channels",
        "channel",
        "pvs",
        "pv",
        "alarm",
        "alarms",
        "alarming",
        "red",
        "major",
        "minor",
        "invalid",
        "disconnected",
        "show",
        "me",
        "list",
        "tell",
        "give",
        "all",
        "every",
        "sector",
        "sectors",
        "s",
        "do",
        "does",
        "we",
        "have",
        "got",
        "our",
        "vacuum",
        "pressure",
        "pressures",
        "gauges",
        "gauge",
        "orbit",
        "bpm",
        "bpms",
        "rf",
        "cavity",
        "cavities",
        "magnets",
        "magnet",
        "correctors",
        "corrector",
        "steering",
        "tunes",
        "tune",
        "quadrupoles",
        "quads",
        "quad",
        "undulators",
        "gaps",
        "id",
        "insertion",
        "devices",
        "beam",
        "lifetime",
        "dcct",
        "please",
    ]
)
_SIDES = re.compile(r"\b(?:vs\.?|versus|against|than|with|to)\b", re.I)
_COMPARE = re.compile(r"\b(?:compare[ds]?|comparison|vs\.?|versus|against|than)\b", re.I)
# A time range, not a time word: "one-minute average dose rate" names a channel.
_TIME_WORDS = re.compile(
    r"\b(?:(?:the\s+)?(?:last|past|previous)\s+(?:\d+\s*|few\s+|two\s+|three\s+)?"
    r"(?:hours?|minutes?|days?|weeks?|shift|night|h|min)|since|today|yesterday|tonight|"
    r"this\s+(?:morning|afternoon|evening|week|shift)|last\s+night|over\s+the|during|"
    r"from\s+\S+\s+(?:to|until)|between\s+\S+\s+and|\d{1,2}:\d{2}|in\s+the\s+last)\b",
    re.I,
)


def investigation_kind(text: str) -> IntentKind | None:
    """The investigative question ``text`` asks, or None when it asks none of them."""
    # "Since the tune drifted, please lower QF45 by 1 A": what is told around the request is
    # no question of its own
    text = asked_part(text) if text else text
    if not text or _CHANGE_LEAD.match(text):
        return None
    # "what was the current just before the beam loss at 04:25?": a value at that moment
    text = event_moments_said_as_clocks(text)
    if _INCIDENT.search(text) and not _TREND_ASKED.search(text):
        return "incident"
    if _ALARM.search(text) and not _ALARM_LIMITS.search(text) and _only_overview_words(text):
        return "alarms"
    if _CORRELATION.search(text) and _TIME_WORDS.search(text):
        return "correlation"
    if _EVENTS.search(text) and _EVENT_WORDS.search(text) and not _THRESHOLD_CROSSED.search(text):
        return "events"
    if (
        _STATISTICS.search(text)
        and _TIME_WORDS.search(text)
        and (_RANKED.search(text) or _RANKS.search(text))
        # "largest excursion of BPM 70 x in the last 2 hours": one device named, its own
        # statistic (a history request), no ranking across channels
        and len(set(_ONE_DEVICE.findall(text))) != 1
    ):
        return "statistics"
    if _SECTORS_COMPARED.search(text) and not _ALARM.search(text):
        return "statistics"
    listed = _SECTORS_LISTED.search(text)
    if listed and (_COMPARE.search(text) or _RANKS.search(text)) and not _ALARM.search(text):
        return "statistics"
    if _COMPARE.search(text) and _two_windows(text):
        return "statistics"  # "compare the mean lifetime today with yesterday"
    return None


def _two_windows(text: str) -> bool:
    """A time range on both sides of "with", "to", "vs", "than"... (two windows compared)."""
    for match in _SIDES.finditer(text):
        if _TIME_WORDS.search(text[: match.start()]) and _TIME_WORDS.search(text[match.end() :]):
            return True
    return False


def _only_overview_words(text: str) -> bool:
    words = re.findall(r"[a-z]+", text.lower().replace("what's", "what is"))
    return all(w in _OVERVIEW_WORDS or len(w) <= 1 for w in words)


def is_alarm_request(text: str) -> bool:
    return investigation_kind(text) == "alarms"


def is_investigation_request(text: str) -> bool:
    return investigation_kind(text) not in (None, "alarms")


__all__ = ["IntentKind", "investigation_kind", "is_alarm_request", "is_investigation_request"]
