"""Times said in words, written the way the time parsers read them.

Operators say clock times and durations in words the parsers of times do not read:

* a clock time told by the hand: "a quarter past nine" (09:15), "half past seven" (07:30),
  "a quarter to ten" (09:45), "twenty past eight" (08:20), "ten to six" (05:50); the hour
  keeps its qualifiers ("half past seven this morning" is 07:30 this morning);
* a duration with a half: "an hour and a half" (90 minutes), "two hours and a half" (150
  minutes), "half an hour" (30 minutes), "a day and a half" (36 hours);
* a clock time written with a dot after a word that introduces a time ("at 9.30", "since
  14.15"): 09:30, 14:15 (only in a request that changes nothing: "set HCM01 at 9.30" is a
  value).
"""

from __future__ import annotations

import re

from osprey_desktop.language.numbers import NUMBER_WORD_PATTERN, read_number

__all__ = ["dotted_clock_times", "spoken_times"]

_HOUR = rf"(?:\d{{1,2}}|{NUMBER_WORD_PATTERN})"
# the minutes a clock's hand tells: five, ten, a quarter, twenty, twenty-five, half
_MINUTES = r"(?:(?:a\s+)?quarter|half|five|ten|twenty(?:[\s-]+five)?)"
# before "ten to six" a word of a moment ("from ten to six" is a range of hours)
_LEAD = r"(?:at|since|until|till|by|around|about|before|after)"
_BY_THE_HAND = re.compile(
    rf"\b(?P<minutes>{_MINUTES})(?:\s+minutes?)?\s+(?P<side>past|after)\s+(?P<hour>{_HOUR})\b"
    rf"|(?P<lead>\b{_LEAD}\s+)(?P<minutes2>{_MINUTES})(?:\s+minutes?)?\s+(?P<side2>to|before)\s+"
    rf"(?P<hour2>{_HOUR})\b"
    r"(?!\s*(?:hours?|h|minutes?|mins?|days?)\b)",
    re.I,
)
_UNITS = {"minute": 1, "min": 1, "hour": 60, "day": 1440}
_AND_A_HALF = re.compile(
    r"\b(?P<count>an?|one|\d+|[a-z]+)\s+(?P<unit>minute|min|hour|day)s?\s+and\s+a\s+half\b", re.I
)
_HALF_A = re.compile(r"\bhalf\s+an?\s+(?P<unit>hour|day|minute)\b", re.I)
_DOTTED = re.compile(
    r"\b(?P<lead>at|since|from|until|till|before|after|between|and|to)\s+"
    r"(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)\b(?!\s*[a-zµ%])",
    re.I,
)


def _number(word: str) -> float | None:
    word = word.lower().strip()
    if word in ("a", "an"):
        return 1
    return read_number(word)


def _clock(match: re.Match[str]) -> str:
    told = match.group("minutes") or match.group("minutes2")
    side = (match.group("side") or match.group("side2")).lower()
    hour_word = match.group("hour") or match.group("hour2")
    minutes_word = re.sub(r"^a\s+", "", told.lower())
    minutes = {"quarter": 15, "half": 30}.get(minutes_word)
    if minutes is None:
        minutes = _number(minutes_word.replace("-", " "))
    hour = _number(hour_word)
    if minutes is None or hour is None or not 0 < minutes < 60 or not 0 <= hour <= 24:
        return match.group(0)
    total = int(hour) * 60 + (int(minutes) if side in ("past", "after") else -int(minutes))
    h, m = divmod(total % (24 * 60), 60)
    return f"{match.group('lead') or ''}{h:02d}:{m:02d}"


def _and_a_half(match: re.Match[str]) -> str:
    count = _number(match.group("count"))
    if count is None:
        return match.group(0)
    unit = _UNITS[match.group("unit").lower()]
    return f"{int((count + 0.5) * unit)} minutes"


def _half_a(match: re.Match[str]) -> str:
    return (
        f"{_UNITS[match.group('unit').lower()] // 2 or 30} minutes"
        if match.group("unit").lower() != "minute"
        else "30 seconds"
    )


def spoken_times(text: str) -> str:
    """``text`` with clock times told by the hand and durations with a half in digits."""
    text = _BY_THE_HAND.sub(_clock, text)
    text = _AND_A_HALF.sub(_and_a_half, text)
    return _HALF_A.sub(_half_a, text)


def dotted_clock_times(text: str) -> str:
    """``text`` with "at 9.30" written "at 09:30" (for a request that changes nothing)."""
    return _DOTTED.sub(lambda m: f"{m.group('lead')} {int(m.group('h')):02d}:{m.group('m')}", text)
