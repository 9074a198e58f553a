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
* a duration before a statistic ("one hour average of the beam current", "the 10-minute
  mean of the lifetime", "hourly max of the vacuum", "24h min of the RF voltage"): the
  statistic over the last that long, said as the time parsers read it ("average of the beam
  current over the last 1 hour"), unless the sentence already names a time.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from osprey_desktop.language.lexicon import CHANGE_VERBS, STATISTIC_WORDS
from osprey_desktop.language.numbers import (
    NUMBER_WORD_PATTERN,
    SPELLED_NUMBER_PATTERN,
    read_number,
    spelled_number,
)
from osprey_desktop.language.units import lookup_unit

__all__ = [
    "spoken_clock_times",
    "dotted_clock_times",
    "duration_statistics",
    "event_moments_said_as_clocks",
    "hours_of_past_moments",
    "spoken_times",
]

_HOUR = rf"(?:\d{{1,2}}|noon|midnight|{NUMBER_WORD_PATTERN})"
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
    hour = {"noon": 12, "midnight": 24}.get(hour_word.lower()) or _number(hour_word)
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


# "since 14h", "at 9h30": a clock time written with an "h", after a word that leads a time
# "yesterday at 2300", "since 0630": a clock written as four digits after a word of time
_FOUR_DIGIT_CLOCK = re.compile(
    r"\b(?P<lead>since|at|from|until|till|before|after|between)\s+(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)"
    r"(?:\s*h(?:rs|ours)?)?\b(?![-:/.]?\d)(?!\s*(?:[a-zµ%]|\.\d))",
    re.I,
)
_H_CLOCK = re.compile(
    r"\b(?P<lead>since|at|from|until|till|before|after|between|and|to)\s+(?P<h>[01]?\d|2[0-3])h"
    r"(?P<m>[0-5]\d)?\b(?!\s*ago\b)",
    re.I,
)


# "like it was before one hour" (a duration after "before", said for "ago")
_BEFORE_A_DURATION = re.compile(
    rf"\bbefore\s+(?P<count>\d+(?:\.\d+)?|an?|{NUMBER_WORD_PATTERN})\s+"
    r"(?P<unit>(?:hour|minute|min|day|week|second)s?)\b(?!\s+(?:ago|from|of|after|before))",
    re.I,
)


# "DCCT 13:00-14:30 today", "lifetime 22:15 - 23:00": two clock times joined by a dash, a range
# ("from 13:00 to 14:30"), unless a word of a range already leads it
_CLOCK_DASH_CLOCK = re.compile(
    r"(?<!\bfrom\s)(?<!\bbetween\s)(?<![\d:])(?P<a>(?:[01]?\d|2[0-3]):[0-5]\d)\s*(?:-|→|->|–|—)\s*"
    r"(?P<b>(?:[01]?\d|2[0-4]):[0-5]\d)(?![\d:])",
    re.I,
)


#: "at fourteen thirty two", "since nine fifteen", "at oh seven hundred": a clock time said as
#: a dictation writes it (the hour, then its minutes or "hundred")
_UNITS_W = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_TEENS_W = r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
_HOUR_W = rf"(?:twenty(?:[\s-](?:one|two|three))?|{_TEENS_W}|(?:(?:oh|zero)\s+)?{_UNITS_W})"
_MINUTE_W = (
    rf"(?:hundred|o'?clock|(?:oh|zero)[\s-]{_UNITS_W}|(?:twenty|thirty|forty|fifty)"
    rf"(?:[\s-]{_UNITS_W})?|{_TEENS_W})"
)
_SPOKEN_CLOCK = re.compile(
    r"\b(?P<lead>at|since|from|until|till|around|about|before|after)\s+"
    rf"(?P<h>{_HOUR_W})\s+(?P<m>{_MINUTE_W})"
    # never an amount: no decimal, no unit, no number word going on after it
    r"(?=\s*(?:[,;?!]|\.(?!\d)|$)|\s+(?!point\b|and\b|amps?\b|a\b|mm\b|millimet|volts?\b|mv\b|"
    rf"hertz\b|percent\b|{_UNITS_W}\b|{_TEENS_W}\b|hundred\b)[a-z])",
    re.I,
)


def _spoken_clock(found: re.Match[str]) -> str:
    hour = read_number(re.sub(r"^(?:oh|zero)\s+", "", found["h"], flags=re.I))
    said = found["m"].lower()
    minutes = (
        0.0
        if said in ("hundred", "oclock", "o'clock")
        else read_number(re.sub(r"^(?:oh|zero)\s+", "", said))
    )
    if hour is None or minutes is None or not (0 <= hour <= 23 and 0 <= minutes <= 59):
        return found.group(0)
    if hour != int(hour) or minutes != int(minutes):
        return found.group(0)
    return f"{found['lead']} {int(hour):02d}:{int(minutes):02d}"


_HOUR_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_HOURS_RANGE_SAID = re.compile(
    # ("from ten to six" may be ten to six o'clock: only "between ... and" and "till")
    rf"\b(?P<lead>between|from)\s+(?P<a>{_HOUR_WORDS})\s+(?P<joint>and|till|until)\s+"
    rf"(?P<b>{_HOUR_WORDS})\b(?!\s+(?:amps?|a\b|mm|ma|hours?|minutes?|mins?|sectors?|of\b))",
    re.I,
)


def _hour_in_digits(said: str) -> str:
    """ "six" -> "6", "06" -> "6": an hour said in words or digits, in digits."""
    return str(int(read_number(said) or 0))


def _hours_of_a_range(found: re.Match[str]) -> str:
    """ "between nine and eleven" -> "between 9 and 11"; "correctors between one and three"
    (devices of a family, said in the plural before it) stays."""
    before = re.findall(r"[a-z]+", found.string[: found.start()].lower())[-1:]
    if before and re.search(r"[^s]s$", before[0]):
        return found.group(0)
    a, b = _hour_in_digits(found["a"]), _hour_in_digits(found["b"])
    return f"{found['lead']} {a} {found['joint']} {b}"


_HOUR_AM_PM = re.compile(
    r"\b(?P<h>1[0-2]|0?[1-9]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*"
    r"(?P<ap>[ap])\s?\.?\s?m\b\.?",
    re.I,
)


def spoken_clock_times(text: str) -> str:
    """``text`` with clock times said in words as digits ("at fourteen thirty two" -> "at
    14:32"); an amount ("at one twenty one point five amps") is no time, and in a change "at
    one twenty" is a value (only "since", "until", "before", "after" say a time there)."""
    # "between nine and eleven": two hours of a range, in digits (the range asks am or pm)
    text = _HOURS_RANGE_SAID.sub(_hours_of_a_range, text)
    # "at six p m", "at 6 p.m.": an hour of the afternoon, in digits ("at 6 pm")
    text = _HOUR_AM_PM.sub(lambda m: f"{_hour_in_digits(m['h'])} {m['ap'].lower()}m", text)
    words = {w.lower() for w in re.findall(r"[a-z]+", text, re.I)}
    changes = bool(words & (CHANGE_VERBS | _OTHER_VERBS))

    def clock(found: re.Match[str]) -> str:
        if changes and found["lead"].lower() in ("at", "around", "about", "from"):
            return found.group(0)
        return _spoken_clock(found)

    return _SPOKEN_CLOCK.sub(clock, text)


_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = rf"(?P<wd>{'|'.join(_WEEKDAY_NAMES)})"
_WEEKDAY_CLOCK = r"(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?(?:\s*(?P<ap>[ap]\.?m\.?))?(?![\w:.]?\d)"
#: "on Monday morning at 8", "last Thursday at 14:30", "at 9.30 last Thursday": a clock time of
#: a day of the week
_DAY_THEN_HOUR = re.compile(
    rf"\b(?P<lead>(?:on|last)\s+)?{_WEEKDAY}(?:\s+(?P<part>morning|afternoon|evening|night))?\s+"
    rf"(?:at\s+)?{_WEEKDAY_CLOCK}",
    re.I,
)
_HOUR_THEN_DAY = re.compile(
    rf"\bat\s+{_WEEKDAY_CLOCK}\s+(?:on\s+)?(?P<lead>last\s+)?{_WEEKDAY}"
    r"(?:\s+(?P<part>morning|afternoon|evening|night))?\b",
    re.I,
)


def weekday_clock_times(text: str, now: datetime | None) -> str:
    """``text`` with a clock time of a day of the week said as a date and a clock time ("on
    Monday morning at 8" -> "at 2026-11-23 08:00"): the most recent such day whose time has
    passed; a bare hour of a twelve-hour clock without a part of the day is left as typed."""
    if now is None:
        return text

    def said(found: re.Match[str]) -> str:
        clause = re.split(r"[,;.!?]", found.string[: found.start()])[-1]
        if {w.lower() for w in re.findall(r"[a-z]+", clause, re.I)} & CHANGE_VERBS:
            return found.group(0)  # "set QF 1 to 121 A on Monday at 08:00": for later
        hour, minute = int(found["h"]), int(found["m"] or 0)
        part = (found["part"] or "").lower()
        meridiem = (found["ap"] or "").lower().replace(".", "")
        if meridiem:
            if not 1 <= hour <= 12:
                return found.group(0)
            hour = hour % 12 + (12 if meridiem == "pm" else 0)
        elif part:
            hour = hour % 12 + (0 if part == "morning" else 12)
        elif 1 <= hour <= 12 and found["m"] is None:
            return found.group(0)  # "on Monday at 8": 08:00 or 20:00, asked
        if hour > 23:
            return found.group(0)
        back = (now.weekday() - _WEEKDAY_NAMES.index(found["wd"].lower())) % 7
        if back == 0 and (found["lead"] or "").strip().lower() == "last":
            back = 7
        day = now.date() - timedelta(days=back)
        if datetime.combine(day, time(hour, minute), tzinfo=now.tzinfo) > now:
            day -= timedelta(days=7)
        return f"at {day.isoformat()} {hour:02d}:{minute:02d}"

    return _HOUR_THEN_DAY.sub(said, _DAY_THEN_HOUR.sub(said, text))


_ISO_T = re.compile(r"\b(\d{4}-\d{2}-\d{2})[Tt](\d{1,2}:\d{2}(?::\d{2})?)(?![\d.Z+])")


def iso_times_spaced(text: str) -> str:
    """ "2024-05-14T06:00" (ISO 8601, as scripts print it) -> "2024-05-14 06:00"."""
    return _ISO_T.sub(r"\1 \2", text)


def spoken_times(text: str) -> str:
    """``text`` with clock times told by the hand or written "14h30", and durations with a
    half, in digits."""
    text = _SPELLED_DURATION.sub(_duration_in_digits, text)  # "the last twenty four hours"
    text = _CLOCK_DASH_CLOCK.sub(lambda m: f"from {m['a']} to {m['b']}", text)
    text = _MINUS_DURATION.sub(_minus_duration, text)  # "lifetime @ -2h", "now vs -1h"
    text = _H_CLOCK.sub(lambda m: f"{m['lead']} {int(m['h']):02d}:{m['m'] or '00'}", text)
    text = _FOUR_DIGIT_CLOCK.sub(lambda m: f"{m['lead']} {m['h']}:{m['m']}", text)
    text = _BEFORE_A_DURATION.sub(lambda m: f"{m['count']} {m['unit']} ago", text)
    text = _BY_THE_HAND.sub(_clock, text)
    text = _AND_A_HALF.sub(_and_a_half, text)
    return _HALF_A.sub(_half_a, text)


_SPELLED_DURATION = re.compile(
    rf"(?P<count>{SPELLED_NUMBER_PATTERN})[\s-]+(?P<unit>seconds?|minutes?|mins?|hours?|hrs?|days?"
    r"|weeks?)\b",
    re.I,
)


def _duration_in_digits(found: re.Match[str]) -> str:
    """ "twenty four hours" -> "24 hours", "two and a half hours" -> "2.5 hours"."""
    if re.match(
        r"(?:(?:minus|negative|plus)\s+)?(?:an?|half|halves|quarters?|tenths?)\b",
        found["count"],
        re.I,
    ):
        return found.group(0)  # "half an hour", "a quarter hour": read by the rules below
    value = spelled_number(found["count"])
    if value is None or value <= 0:
        return found.group(0)
    return f"{value:g} {found['unit']}"


# "-2h", "@ -30min": a moment that long before now, in terse typing
_MINUS_DURATION = re.compile(
    r"(?P<at>@\s*)?(?<![\w.])[-−](?P<n>\d+(?:\.\d+)?)\s*(?P<unit>h|hrs?|hours?|m|mins?|minutes?|d|days?)\b",
    re.I,
)
_MINUS_UNITS = {"h": "hours", "m": "minutes", "d": "days"}


def _minus_duration(found: re.Match[str]) -> str:
    unit = found["unit"].lower()
    unit = _MINUS_UNITS.get(unit[0], unit) if len(unit) <= 3 else unit
    return f"{'at ' if found['at'] else ''}{found['n']} {unit} ago"


def dotted_clock_times(text: str) -> str:
    """``text`` with "at 9.30" written "at 09:30" (for a request that changes nothing)."""
    return _DOTTED.sub(lambda m: f"{m.group('lead')} {int(m.group('h')):02d}:{m.group('m')}", text)


# -- a duration before a statistic ("one hour average of X") ------------------------------------
_DURATION_UNITS = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "second"),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), "minute"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), "hour"),
    **dict.fromkeys(("d", "day", "days"), "day"),
    **dict.fromkeys(("week", "weeks"), "week"),
    **dict.fromkeys(("shift", "shifts"), "shift"),
}
_EVERY = {"hourly": "hour", "daily": "day", "weekly": "week", "minutely": "minute"}
_STATISTIC = "|".join(sorted(STATISTIC_WORDS - {"deviation"}, key=len, reverse=True))
_DURATION_STATISTIC = re.compile(
    rf"\b(?:(?P<count>\d+(?:\.\d+)?|an?|{NUMBER_WORD_PATTERN})[\s-]*"
    rf"(?P<unit>{'|'.join(sorted(_DURATION_UNITS, key=len, reverse=True))})(?:'s)?"
    rf"|(?P<every>{'|'.join(_EVERY)}))\s+(?=(?:{_STATISTIC})\b)",
    re.I,
)
# a sentence that already names a time keeps its words ("the 1 h average since 8")
_NAMES_A_TIME = re.compile(
    r"\b(?:last|past|previous|since|ago|yesterday|today|tonight|overnight|between|from|until|"
    r"till|during|over|at\s+\d|this\s+(?:morning|afternoon|evening|week|shift))\b",
    re.I,
)
_SENTENCE_END = re.compile(r"[?!;]|\.(?!\d)|$")


def duration_statistics(text: str) -> str:
    """``text`` with a duration before a statistic said as "<statistic> of X over the last
    <duration>" ("one hour average of the beam current" -> "average of the beam current
    over the last 1 hour"); a sentence that names a time otherwise is left as typed."""
    found = _DURATION_STATISTIC.search(text)
    if found is None:
        return text
    end = _SENTENCE_END.search(text, found.end()).start()
    start = max(text.rfind(c, 0, found.start()) for c in "?!;") + 1
    sentence = text[start : found.start()] + text[found.end() : end]
    if _NAMES_A_TIME.search(sentence):
        return text
    if found.group("every"):
        count, unit = 1.0, _EVERY[found.group("every").lower()]
    else:
        word = found.group("count").lower()
        count = 1.0 if word in ("a", "an") else read_number(word)
        unit = _DURATION_UNITS[found.group("unit").lower()]
        if count is None or count <= 0:
            return text
    plural = "" if count == 1 else "s"
    body = text[found.end() : end].rstrip()
    tail = text[found.start() + len(text[found.start() : found.end()]) + len(body) :]
    said = f"{text[: found.start()]}{body} over the last {count:g} {unit}{plural}{tail}"
    return duration_statistics(said) if said != text else text


# "ig 7 trend 24h", "curr plot 2 hours": a bare duration in a request for a trend is the last
# that long (not an amount given to the channel)
_TREND_WORDS = re.compile(
    r"\b(?:trend|plot|history|graph|chart|graphic|evolution|avg|average|mean|max|min|maximum|"
    r"minimum|std|rms)\b",
    re.I,
)
_BARE_DURATION = re.compile(
    r"(?<![\w.:])(?<!\bat\s)(?<!\bto\s)(?<!\bby\s)(?P<n>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>h|hrs?|hours?|mins?|minutes?|d|days?)\b(?!\s+ago)",
    re.I,
)


# "plot the lifetime over 2 hours", "mean of the current across 30 min": a window said with
# "over", "across" or "for" and no "the last" is the last that long; "is the lifetime over 8 h?"
# asks a threshold (a question's copula before it), not a window
_OVER_A_DURATION = re.compile(
    r"\b(?P<lead>over|across|for|during)\s+(?:a\s+(?:period|span|window)\s+of\s+)?"
    r"(?P<n>\d+(?:\.\d+)?|an?)\s*(?P<unit>h|hrs?|hours?|mins?|minutes?|d|days?|weeks?)\b"
    r"(?!\s+ago)",
    re.I,
)
#: verbs that make a bare duration part of a sentence ("make that 6 hours", "try 2 days")
_OTHER_VERBS = frozenset({"make", "try", "do", "go", "use", "give", "take", "wait", "keep"})
_COMPARED = re.compile(
    r"\b(?:over|above|below|under|than|exceeds?|exceeded|within|less|more|longer|shorter|"
    r"at\s+least|at\s+most|to|by|at)\s*$|\b(?:over|above|below|under|than|exceed\w*|within|"
    r"longer|shorter)\b",
    re.I,
)
_THRESHOLD_QUESTION = re.compile(r"^\s*(?:is|was|are|were|has|have|did|does|do|stays?)\b", re.I)


def bare_durations(text: str) -> str:
    """``text`` with a bare duration said "the last <duration>" in a request for a trend or a
    statistic that names no other time ("ig 7 trend 24h", "plot the lifetime over 2 hours")."""
    if not _TREND_WORDS.search(text):
        # "HCM 25 sp, 24h", "ig 4 24h": a terse request with a bare duration and no verb of a
        # change or word of a comparison asks the last that long (never a value in hours)
        words = {w.lower() for w in re.findall(r"[a-z]+", text, re.I)}
        if (
            words & (CHANGE_VERBS | _OTHER_VERBS)
            or _COMPARED.search(text)
            or _NAMES_A_TIME.search(text)
        ):
            return text
        return _BARE_DURATION.sub(lambda m: f"the last {m['n']} {m['unit']}", text, count=1)
    over = _OVER_A_DURATION.search(text)
    if over and not _THRESHOLD_QUESTION.match(text):
        rest = f"{text[: over.start()]} {text[over.end() :]}"
        if not _NAMES_A_TIME.search(rest):
            count = "1" if over["n"].lower() in ("a", "an") else over["n"]
            said = f"over the last {count} {over['unit']}"
            return f"{text[: over.start()]}{said}{text[over.end() :]}"
    if _NAMES_A_TIME.search(text):
        return text
    return _BARE_DURATION.sub(lambda m: f"the last {m['n']} {m['unit']}", text, count=1)


# "what was the lifetime at 7", "higher than at 10?": an hour alone after "at", in a clause that
# speaks of the past or compares, is that hour on the clock (its most recent past occurrence,
# like "at 07:00"); "put HCM 3 at 7" or "at 7 A" stays a value. A write back to "how it was at
# 9" reads the hour the same way: the approval names the moment whose value it writes, and the
# hour is never the value written
_HOUR_AT = re.compile(
    rf"\bat\s+(?P<h>[01]?\d|2[0-3]|{NUMBER_WORD_PATTERN})"
    # "at 1 o'clock for the incident report": said so, the hour ends there
    r"(?:\s*o'?clock\b(?!\s+(?:yesterday|today|tonight|this|last|in\s+the)\b)|(?:\s*o'?clock)?"
    r"(?=\s*(?:[?!;]|[.,](?!\d)|$)|\s+(?:yesterday|today|this|last|and|or|then|please|pls)\b))",
    re.I,
)
_PART_OF_DAY_AFTER = re.compile(
    r"\s*(?:in\s+the\s+(?:morning|afternoon|evening|night)|(?:this|yesterday|tomorrow)\s+"
    r"(?:morning|afternoon|evening)|yesterday|last\s+night|tonight|at\s+night|[ap]\.?\s?m\b)",
    re.I,
)
_QUALIFIED_AFTER = re.compile(r"\s+(?:yesterday|today|tonight|this|last|in\s+the)\b", re.I)
# "put QF5 back to how it was at 9 before the trip", "set HCM3 to what it read at 2 in the
# night": the hour of a value said as it was then is that moment, whatever follows it
_HOUR_IT_WAS = re.compile(
    r"\b(?:what|where|how|as)\s+(?:it|they|that|this)\s+(?:was|were|read|showed|stood|sat|"
    r"had\s+been|looked)\s+at\s+"
    rf"(?P<h>[01]?\d|2[0-3]|{NUMBER_WORD_PATTERN})(?P<clock>\s*o'?clock)?\b"
    r"(?!\s*(?:[:.]\d|a\.?m\b|p\.?m\b))(?P<next>\s*[^\s,;.?!]*)",
    re.I,
)
# "the average lifetime since 8": an hour alone after "since" (a part of the day after it,
# "since 8 this morning", is read by the clock grammar)
_SINCE_AN_HOUR = re.compile(
    rf"\b(?P<lead>since|after)\s+(?P<h>[01]?\d|2[0-3]|{NUMBER_WORD_PATTERN})(?:\s*o'?clock)?"
    r"(?=\s*(?:[?!;,]|\.(?!\d)|$)|\s+(?:and|or|then|please|pls|on|in|for)\b)"
    # "since 3 in the afternoon": a part of the day qualifies it (``times`` reads it whole)
    r"(?!\s+in\s+the\s+(?:morning|afternoon|evening|night)\b)",
    re.I,
)
_PAST_OR_COMPARED = re.compile(
    r"\b(?:was|were|been|had|than|vs\.?|versus|compared|values?|readings?)\b", re.I
)
# "lifetime now vs 07:00", "compared with 14:30": the other side of a comparison is that moment
_VERSUS_A_CLOCK = re.compile(
    r"\b(?P<lead>vs\.?|versus|against|compared\s+(?:to|with))\s+(?=\d{1,2}:\d{2}\b)", re.I
)


# "what was the lifetime at midnight?": the last midnight (a day or a part after it is read by
# the clock grammar: "at noon yesterday")
_NOON_OR_MIDNIGHT = re.compile(
    r"\bat\s+(noon|midnight)\b(?!\s+(?:yesterday|today|tonight|this|last|on|the|of)\b)", re.I
)
# "what was QF09 at yesterday 14:00", "lifetime yesterday 14:00": a day and its clock time
_DAY_THEN_CLOCK = re.compile(
    r"(?P<lead>\b(?:at|on)\s+)?\b(?P<day>yesterday|today)\s+(?P<clock>\d{1,2}:\d{2})\b", re.I
)
# "lifetime @ 14:05", "DCCT 14:05 yesterday": a clock time typed with "@" or alone before its
# day is that moment
_AT_SIGN_CLOCK = re.compile(r"@\s*(?=\d{1,2}:\d{2}\b)")
_CLOCK_THEN_DAY = re.compile(
    r"(?<![\w:@-])(?P<clock>\d{1,2}:\d{2})\s+(?P<day>yesterday|today)\b", re.I
)
_RANGE_WORD_BEFORE = re.compile(
    r"\b(?:from|since|between|until|till|to|and|after|before)\s*$", re.I
)


def _day_at_clock(found: re.Match[str]) -> str:
    if not found["lead"] and _RANGE_WORD_BEFORE.search(found.string[: found.start()]):
        return found.group(0)  # "from yesterday 14:00 to 16:00": the range reads it
    return f"{found['day']} at {found['clock']}"


# "just before the beam loss at 04:25", "at the moment of the 02:47 trip", "at 10:30, just
# before the injection": an event named beside its clock time says why that moment, not which;
# the moment is the clock time (the archive's last value before it)
_EVENT = (
    r"(?:[a-z-]+\s+){0,2}?(?:trip|loss|dump|injection|refill|fill|top-?up|quench|interlock|glitch|"
    r"spike|drop|dip|event|abort|kick|outage|fault|alarm|ramp|incident|jump|step)s?"
)
_CLOCK = r"\d{1,2}:\d{2}"
_EVENT_AT_CLOCK = re.compile(
    r"\b(?:(?:immediately|just|right|shortly)\s+)?(?:before|prior\s+to|at|around)\s+(?:the\s+)?"
    rf"(?:moment|time|instant)?\s*(?:of\s+the\s+)?(?:(?P<c1>{_CLOCK})\s+{_EVENT}|{_EVENT}\s+"
    rf"(?:at|@)\s+(?P<c2>{_CLOCK}))\b",
    re.I,
)
_EVENT_AFTER_CLOCK = re.compile(
    rf"(?P<clock>{_CLOCK}(?:\s+(?:this\s+morning|yesterday|today|last\s+night))?)\s*,?\s*"
    rf"(?:immediately|just|right|shortly)\s+(?:before|prior\s+to|after)\s+the\s+{_EVENT}\b",
    re.I,
)


def event_moments_said_as_clocks(text: str) -> str:
    """``text`` with a moment named by its event said as its clock time ("the current just
    before the beam loss at 04:25" → "the current at 04:25"): a value asked at that moment,
    no question about the event."""
    text = _EVENT_AT_CLOCK.sub(lambda m: f"at {m['c1'] or m['c2']}", text)
    return _EVENT_AFTER_CLOCK.sub(lambda m: m["clock"], text)


def _clock_then_day(found: re.Match[str]) -> str:
    before = found.string[: found.start()]
    if re.search(r"\bat\s*$", before, re.I) or _RANGE_WORD_BEFORE.search(before):
        return found.group(0)  # "at 14:05 yesterday", "from 13:00 to 14:00 today": read already
    return f"at {found['clock']} {found['day']}"


def _twice_today(said: str, now: datetime | None) -> bool:
    """Whether a bare hour of a 12-hour clock ("2") names two hours that have both passed
    today (at 16:00, 02:00 and 14:00): which one is meant is for the operator to say."""
    hour = read_number(said)
    if now is None or hour is None or hour != int(hour) or not 1 <= hour <= 12:
        return False
    return hour % 12 + 12 <= now.hour


def _on_the_clock(said: str, now: datetime | None) -> int | None:
    """The hour (0-23) a bare hour names: as typed, or, with ``now`` and an hour a 12-hour
    clock could mean twice (1-12), the later of the two that has passed ("at 8" at 06:55 is
    20:00 yesterday; at 10:00 it is 08:00 today)."""
    hour = read_number(said)
    if hour is None or hour != int(hour) or not 0 <= hour <= 23:
        return None
    hour = int(hour)
    if now is None or not 1 <= hour <= 12:
        return hour
    readings = (hour % 12, hour % 12 + 12)  # "12" is midnight or noon
    passed = [h for h in readings if h <= now.hour]
    return max(passed) if passed else max(readings)  # none yet today: the later, yesterday


def hours_of_past_moments(text: str, now: datetime | None = None) -> str:
    """``text`` with an hour alone at a past moment said as a clock time ("at 7" → "at
    07:00"; with ``now``, the later 7 o'clock that has passed), an hour alone after "since"
    said so too ("since 8" → "since 20:00" at night), a day before its clock time said with
    "at" ("at yesterday 14:00" → "yesterday at 14:00"), and a clock time compared with now
    said as a moment ("vs 07:00" → "vs at 07:00")."""

    def clock(found: re.Match[str]) -> str:
        clause = re.split(r"[,;.!?]", found.string[: found.start()])[-1]
        # "beam current at 3 o'clock?": an hour said as o'clock is a moment of itself, in a
        # clause that changes nothing ("set HCM3 to 0.2 at 3 o'clock" is for later)
        said_as_clock = "clock" in found.group(0).lower() and not {
            w.lower() for w in re.findall(r"[a-z]+", clause, re.I)
        } & (CHANGE_VERBS | _OTHER_VERBS)
        if not (_PAST_OR_COMPARED.search(clause) or said_as_clock):
            return found.group(0)
        hour = _on_the_clock(found["h"], now)
        if hour is None:
            return found.group(0)
        after = _QUALIFIED_AFTER.match(found.string, found.end())
        typed = read_number(found["h"])
        if (
            after is not None
            and after.group(0).strip().lower() == "yesterday"
            and typed is not None
            and 1 <= typed <= 12
            and "clock" not in found.group(0).lower()
        ):
            # "at 3 yesterday": yesterday's 03:00 and 15:00 have both passed, which is asked
            return f"at {int(typed)} o'clock"
        if _twice_today(found["h"], now) and after is None:
            # "what was the lifetime at 2?" at 16:00: 02:00 and 14:00 have both passed today;
            # said as the clock's hour, which the time parser asks about
            return f"at {hour % 12 or 12} o'clock"
        return f"at {hour:02d}:00"

    def hour_it_was(found: re.Match[str]) -> str:
        hour = _on_the_clock(found["h"], now)
        unit = found["next"].strip()
        if hour is None or _PART_OF_DAY_AFTER.match(found.string, found.start("next")):
            # "how it was at 6 in the morning": the part of the day says which 6 (the clock
            # grammar reads it)
            return found.group(0)
        if unit and not found["clock"] and lookup_unit(unit) is not None:
            return found.group(0)  # "what it was at 9 A": a value, said oddly; left as typed
        said = found.group(0)[: found.start("h") - found.start()]
        return f"{said}{hour:02d}:00{found['next']}"

    def since(found: re.Match[str]) -> str:
        hour = _on_the_clock(found["h"], now)
        return found.group(0) if hour is None else f"{found['lead']} {hour:02d}:00"

    text = _HOUR_IT_WAS.sub(hour_it_was, text)
    text = _HOUR_AT.sub(clock, text)
    if now is not None:
        text = _SINCE_AN_HOUR.sub(since, text)
    text = _NOON_OR_MIDNIGHT.sub(
        lambda m: f"at {'12' if m[1].lower() == 'noon' else '00'}:00", text
    )
    text = event_moments_said_as_clocks(text)
    text = _AT_SIGN_CLOCK.sub("at ", text)
    text = _CLOCK_THEN_DAY.sub(_clock_then_day, text)
    text = _DAY_THEN_CLOCK.sub(_day_at_clock, text)
    return _VERSUS_A_CLOCK.sub(lambda m: f"{m['lead']} at ", text)
