"""Clock hours qualified by their words: "between 1 and 2 pm", "since 7 this morning".

A bare hour ("since 7") could be morning or evening; the words around it usually say which:
a meridiem ("pm", "a.m."), a part of the day ("this morning", "in the afternoon", "tonight",
"last night"), a day ("yesterday"), or the other end of a range ("between 1 and 2 pm": one
"pm" for both). This grammar reads exactly those forms and resolves them to timezone-aware
instants in the past; anything else (an hour with nothing to qualify it, "08:00", "2 hours
ago") is left to the capabilities' time parser, which asks when a reading is ambiguous.

Grammar (case-insensitive; ``HOUR`` is 1-12 or 0-23 with optional ``:MM``, a number word up to
twelve, "noon" or "midnight"; ``PART`` is a meridiem, a part of the day or a day):

* range:  ``between HOUR [PART] and HOUR PART``, ``from HOUR [PART] to|until|till HOUR PART``
  (a PART on either end qualifies the other end too);
* since:  ``since|from|after [yesterday|today] HOUR PART``;
* moment: ``at HOUR PART``, ``PART at HOUR [PART]`` ("yesterday at 3 pm"), and an hour that
  names a value or a return, ``its|the|[back] to HOUR PART`` ("its 7 am value").

Each match is a ``ClockSpan`` with its character span in the text and the instants, so a
caller can put a canonical form ("since 2026-11-26 07:00") in place of the words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Literal

from osprey_desktop.language.numbers import NUMBER_WORDS

__all__ = ["ClockSpan", "find_clock_spans", "replace_clock_spans"]

_HOUR_WORDS = {w: n for w, n in NUMBER_WORDS.items() if 1 <= n <= 12}
_HOUR = (
    r"(?:\d{1,2}(?::\d{2}|\.\d{2}(?!\d))?|noon|midnight|"
    + "|".join(sorted(_HOUR_WORDS, key=len, reverse=True))
    + r")(?:\s*o'?clock)?"
)
_MERIDIEM = r"a\.?\s?m\.?|p\.?\s?m\.?"
_PART = (
    rf"(?:{_MERIDIEM})(?![a-z])|(?:(?:this|in\s+the|yesterday|tomorrow)\s+)?"
    r"(?:morning|afternoon|evening)|tonight|(?:last|at)\s+night|yesterday|today"
)
_PARTS = rf"(?:{_PART})(?:\s+(?:{_PART}))?"
_END = r"(?![\w:])"

_RANGE = re.compile(
    rf"\b(?P<lead>between|from)\s+(?:(?P<p0>{_PARTS})\s+(?:at\s+)?)?(?P<h1>{_HOUR})"
    rf"(?:\s*(?P<p1>{_PARTS}))?{_END}\s*"
    rf"(?:and|to|until|till|-|–)\s*(?P<h2>{_HOUR})(?:\s*(?P<p2>{_PARTS}))?{_END}",
    re.I,
)
# "since 7 this morning", "since yesterday 6 pm", "since yesterday evening at 8" (a day or a
# part of it before the hour)
_SINCE = re.compile(
    rf"\b(?P<lead>since|from|after)\s+(?:(?P<p0>{_PARTS})\s+(?:at\s+)?)?(?P<h1>{_HOUR})"
    rf"(?:\s*(?P<p1>{_PARTS}))?{_END}",
    re.I,
)
# "at 7 am", "yesterday at 3 pm"; and a time that names a value ("its 7 am value", "back to
# 9 this morning"): the hour needs its qualifying words in every form
_MOMENT = re.compile(
    rf"(?:\b(?P<p0>{_PARTS})\s+)?\b(?P<lead>at|(?:back\s+)?to|its|their|the)\s+(?P<h1>{_HOUR})"
    rf"(?:\s*(?P<p1>{_PARTS}))?{_END}",
    re.I,
)

Kind = Literal["moment", "since", "range", "day"]
#: A day said apart from its hour ("yesterday's value at 10 pm"); it is absorbed by the hour.
_DAY_ELSEWHERE = re.compile(r"\byesterday(?:'s)?\b", re.I)
_A_VALUE_FROM = re.compile(r"\b(?:value|setting|reading|level|state|setpoint)s?\s*$", re.I)


@dataclass(frozen=True)
class ClockSpan:
    """One qualified clock time (or range) found in a text."""

    start: int
    end: int
    kind: Kind
    first: datetime
    second: datetime | None
    words: str
    #: the words kept the word before the hour ("its 7 am value" is "its <time> value")
    bare: bool = False

    def canonical(self) -> str:
        """The same time in the form every time parser reads: absolute, to the minute."""
        if self.kind == "day":
            return ""  # its hour carries it
        first = self.first.strftime("%Y-%m-%d %H:%M")
        if self.kind == "range" and self.second is not None:
            return f"from {first} to {self.second.strftime('%Y-%m-%d %H:%M')}"
        if self.bare:
            return first
        return f"since {first}" if self.kind == "since" else f"at {first}"


def _hour(text: str) -> tuple[int, int] | None:
    """(hour, minute) as typed, before any part of the day is applied."""
    text = re.sub(r"\s*o'?clock$", "", text.strip().lower())
    if text == "noon":
        return 12, 0
    if text == "midnight":
        return 0, 0
    if text in _HOUR_WORDS:
        return _HOUR_WORDS[text], 0
    match = re.fullmatch(r"(\d{1,2})(?:[:.](\d{2}))?", text)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    return (hour, minute) if hour <= 24 and minute < 60 else None


@dataclass(frozen=True)
class _Part:
    """What the words after an hour say: morning or evening, and which day."""

    evening: bool | None = None  # True: pm, False: am, None: not said
    days_back: int | None = None  # 0 today, 1 yesterday; None: not said
    night: bool = False  # "last night", "at night": 6-11 pm of the day before, 0-5 am today


def _part(words: str | None) -> _Part:
    if not words:
        return _Part()
    w = " ".join(words.lower().replace(".", "").split())
    evening: bool | None = None
    days_back: int | None = None
    night = False
    if re.search(r"\bp\s?m\b|afternoon|evening|tonight", w):
        evening = True
    elif re.search(r"\ba\s?m\b|morning", w):
        evening = False
    if "yesterday" in w:
        days_back = 1
    elif re.search(r"\b(?:this|today|tonight)\b", w):
        days_back = 0
    if re.search(r"\b(?:last|at) night\b", w):
        night = True
        days_back = None if "last" not in w else days_back
    return _Part(evening, days_back, night)


def _clock(hm: tuple[int, int], part: _Part, fixed: bool = False) -> tuple[int, int, int] | None:
    """(hour 0-23, minute, days back) for an hour and its words; None when they say nothing
    that decides morning or evening. ``fixed``: the hour says it itself ("noon")."""
    hour, minute = hm
    days = part.days_back
    if fixed:
        return hour, minute, days or 0
    if part.night:
        if 6 <= hour <= 11:
            return hour + 12, minute, 1
        if hour == 12:
            return 0, minute, 0
        if hour <= 5:
            return hour, minute, 0
        return hour, minute, 1
    if hour > 12 or hour == 0:
        return (hour % 24, minute, days or 0) if part.evening is None else None
    if part.evening is None:
        return None
    if part.evening:
        return (hour % 12) + 12, minute, days or 0
    return hour % 12, minute, days or 0


def _instant(today: date, clock: tuple[int, int, int], zone: tzinfo) -> datetime:
    hour, minute, days = clock
    return datetime.combine(today - timedelta(days=days), time(hour, minute), tzinfo=zone)


_DAY_BEFORE = re.compile(r"\b(?P<day>yesterday|today)\s+$", re.I)
_DAY_AFTER = re.compile(r"\s+(?P<day>yesterday|today)\b", re.I)


def find_clock_spans(text: str, now: datetime) -> list[ClockSpan]:
    """The qualified clock times in ``text``, as of ``now`` (timezone-aware: its zone is the
    facility's). A time the words leave open is not returned; a time later than ``now`` on
    its day is taken as the day before (an operator asks about the past)."""
    zone = now.tzinfo
    if zone is None:
        raise ValueError("now must be timezone-aware")
    today = now.date()
    found: list[ClockSpan] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for match in _RANGE.finditer(text):
        h1, h2 = _hour(match.group("h1")), _hour(match.group("h2"))
        if h1 is None or h2 is None:
            continue
        # "from yesterday evening 8 o'clock": the part said before the hour qualifies it
        said_first = " ".join(w for w in (match.group("p0"), match.group("p1")) if w) or None
        p1, p2 = _part(said_first), _part(match.group("p2"))
        shared = p2 if match.group("p2") else p1
        first_part = p1 if said_first else shared
        fixed2 = match.group("h2").strip().lower() in ("noon", "midnight")
        c2 = _clock(h2, p2 if match.group("p2") else shared, fixed2)
        if fixed2 and not match.group("p1") and match.group("h2").strip().lower() == "noon":
            first_part = _Part(evening=False)  # "between 10 and noon": the morning's 10
        c1 = _clock(h1, first_part)
        if c1 is None or c2 is None:
            continue
        if not said_first and c1[0] > c2[0] and first_part.evening:
            c1 = (c1[0] - 12, c1[1], c1[2])  # "between 11 and 1 pm": 11 am to 1 pm
        first, second = _instant(today, c1, zone), _instant(today, c2, zone)
        if match.group("h2").strip().lower() == "midnight" and not match.group("p2"):
            # "from 8 yesterday evening until midnight": the midnight that ends that day
            second = datetime.combine(first.date() + timedelta(days=1), time(0), tzinfo=zone)
        if second <= first:
            first -= timedelta(days=1)  # "between 11 pm and 1 am"
        start, end = match.span()
        # "yesterday from 14:00 to 16:00", "from 2 to 4 pm today": the day said beside the range
        before = _DAY_BEFORE.search(text[:start])
        after = None if before else _DAY_AFTER.match(text[end:])
        day = (before or after)["day"].lower() if (before or after) else None
        if day == "yesterday" or day is None and first > now:
            first, second = first - timedelta(days=1), second - timedelta(days=1)
        if before:
            start = before.start()
        elif after:
            end += after.end()
        found.append(ClockSpan(start, end, "range", first, second, text[start:end]))
        taken.append((start, end))
    for pattern, kind in ((_SINCE, "since"), (_MOMENT, "moment")):
        for match in pattern.finditer(text):
            if not free(*match.span()):
                continue
            hm = _hour(match.group("h1"))
            words = " ".join(w for w in (match.groupdict().get("p0"), match.group("p1")) if w)
            if hm is None or not words:
                continue
            fixed = match.group("h1").strip().lower() in ("noon", "midnight")
            clock = _clock(hm, _part(words), fixed)
            if clock is None:
                continue
            day_word = None
            if _part(words).days_back is None:
                day_word = next((d for d in _DAY_ELSEWHERE.finditer(text) if free(*d.span())), None)
            if day_word is not None:  # "yesterday's value at 10 pm": that day's 10 pm
                clock = (clock[0], clock[1], 1)
            first = _instant(today, clock, zone)
            if first > now and _part(words).days_back is None and day_word is None:
                first -= timedelta(days=1)
            if day_word is not None:
                found.append(
                    ClockSpan(day_word.start(), day_word.end(), "day", first, None, day_word[0])
                )
                taken.append(day_word.span())
            said = kind
            if kind == "since" and _A_VALUE_FROM.search(text[: match.start()]):
                said = "moment"  # "its value from 6 this morning": that moment's value
            start, bare = match.start(), False
            lead = match.groupdict().get("lead")
            if kind == "moment" and lead and lead.lower() != "at" and not match.group("p0"):
                start, bare = match.start("h1"), True  # the lead word stays in the text
            words_said = text[start : match.end()]
            found.append(ClockSpan(start, match.end(), said, first, None, words_said, bare))  # type: ignore[arg-type]
            taken.append((start, match.end()))
    return sorted(found, key=lambda s: s.start)


def replace_clock_spans(text: str, spans: list[ClockSpan]) -> str:
    """``text`` with each span's words replaced by its canonical form."""
    out, last = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        out += [text[last : span.start], span.canonical()]
        last = span.end
    out.append(text[last:])
    return " ".join("".join(out).split())
