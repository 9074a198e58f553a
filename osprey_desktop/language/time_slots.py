"""The time slot of a request: the words of a time the capabilities' parser reads (recorded,
not resolved here), or the first qualified clock time, and whether "now" is set against a
time ("is the vacuum worse than yesterday?": a comparison, not a history).
"""

from __future__ import annotations

import re

from osprey_desktop.language.parsed_request import TimeSlot
from osprey_desktop.language.times import ClockSpan

_UNITS_OF_TIME = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|shifts?)"
_COUNT = (
    r"(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|few|"
    r"couple\s+of|half(?:\s+an?)?)"
)
#: "from 9" or "from 9:30", not the "2" of "from 2 hours ago"
_CLOCK_NOT_A_DURATION = rf"\d{{1,2}}(?::\d{{2}}){{0,2}}(?![\d:]|\s*{_UNITS_OF_TIME}\b)"
_TIME_WORDS = re.compile(
    rf"\b(?:(?:for|over|during|in|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+(?:{_COUNT}\s*)?"
    rf"{_UNITS_OF_TIME}\b"
    rf"|\b{_COUNT}\s*{_UNITS_OF_TIME}\s+ago\b"
    rf"|\b(?:for|over|during)\s+(?:the\s+)?(?:next\s+)?{_COUNT}\s*{_UNITS_OF_TIME}\b"
    r"|\b(?:(?:since|from|after|until|till|before)\s+)?(?:this|yesterday|last)\s+"
    r"(?:morning|afternoon|evening|night)\b"
    r"|\b(?:since|from|after|until|till|before|between)\s+(?:(?:yesterday|today)\s+(?:at\s+)?"
    r"\d{1,2}:\d{2}(?::\d{2})?|yesterday|today|noon|midnight|"
    rf"\d{{4}}-\d{{2}}-\d{{2}}(?:[ T]\d{{1,2}}:\d{{2}}(?::\d{{2}})?)?|{_CLOCK_NOT_A_DURATION})"
    r"(?:\s+(?:and|to|until|till|-)\s+(?:\d{4}-\d{2}-\d{2}\s+)?\d{1,2}(?::\d{2}){0,2})?"
    r"|\bat\s+(?:\d{4}-\d{2}-\d{2}\s+)?\d{1,2}:\d{2}(?::\d{2})?\b"
    # "at 2 o'clock" when 02:00 and 14:00 have both passed (``time_words``): asked which
    r"|\bat\s+\d{1,2}\s+o'clock\b"
    r"|(?<=\bits\s)\d{1,2}:\d{2}(?::\d{2})?\b"
    # a clock time made absolute ("its 7 am value")
    r"|\b\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2})?\b"
    r"|\b(?:(?:since|from|until|till|before|after|on)\s+)?the\s+day\s+before\s+yesterday\b"
    r"|\b(?:yesterday|(?:earlier\s+)?today|overnight|tonight|last\s+night|last\s+week|"
    r"(?:during|in)\s+the\s+night|"
    r"this\s+(?:morning|afternoon|evening|week|shift)|(?:the|this|last|past)\s+weekend)\b"
    r"|\bnow\b(?=.*\bthan\b)"
    # "since Friday", "last Thursday", "on Monday morning", "on the 25th", "since the 3rd"
    r"|\b(?:(?:since|from|until|till|before|after|on|last|this\s+past)\s+)?(?:last\s+)?"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"(?:\s+(?:morning|afternoon|evening|night))?(?:\s+(?:at\s+)?\d{1,2}:\d{2})?\b"
    # "tunes this time last week?", "this time yesterday": now, that long ago
    r"|\bthis\s+time\s+(?:yesterday|last\s+week)\b"
    r"|\b(?:on|since|from|until|till|before|after)\s+the\s+\d{1,2}(?:st|nd|rd|th)\b",
    re.I,
)
NOW_THAN_THEN = re.compile(
    r"\b(?:now|currently|at\s+present)\b.*\b(?:than|with|to|against|vs\.?|versus)(?!\w)"
    # "the ID09 gap at 4 this morning and what is it now?", "... vs now"
    r"|\b(?:and|vs\.?|versus)\s+(?:what\s+(?:is|'s)\s+(?:it|they|that)\s+)?(?:now|currently)\s*[?.!]*$"
    # "is the horizontal tune where it was 3 hours ago?"
    r"|^\W*(?:is|are)\b.*\bwhere\s+(?:it|they)\s+(?:was|were)\b"
    # "worse than yesterday at noon": a comparative whose other side is a time
    r"|\b(?:[a-z]{2,}er|more|less|better|worse|different)\s+than\s+(?:(?:it|they)\s+(?:was|were)\s+)?"
    r"(?:at\s+|on\s+|in\s+)?"
    r"(?:\d|an?\b|yesterday|today|this|last|noon|midnight|before|earlier)"
    # "was the energy any different at midnight than now": then, compared with now
    r"|\b(?:than|vs\.?|versus|compared\s+(?:to|with)|against)\s+(?:it\s+is\s+)?(?:now|right\s+now|"
    r"currently|at\s+present)\b"
    # "vertical tune: same now as an hour ago?", "is the gap the same as yesterday?"
    r"|\bsame\s+(?:now\s+)?as\s+(?:(?:it|they)\s+(?:was|were)\s+)?"
    r"(?:at\s+|on\s+|in\s+)?(?:\d|an?\b|yesterday|today|this|last|noon|midnight|before|earlier)"
    # "is the vertical tune different from an hour ago?"
    r"|\bdifferent\s+(?:from|to)\s+(?:\d|an?\b|yesterday|today|this|last|noon|"
    r"midnight|before|earlier)",
    re.I,
)


# "is the lifetime over 8 hours?": a duration after "is X over" is a threshold for X's value
# (a lifetime is counted in hours), not a range of history
_THRESHOLD_QUESTION = re.compile(
    r"^\W*(?:is|are|isn'?t|aren'?t)\b(?!.*\b(?:was|were|been|did|had)\b).*\s(?:over|under)$", re.I
)


def find_time_slot(
    canonical: str, spans: list[ClockSpan]
) -> tuple[TimeSlot | None, list[tuple[int, int]]]:
    """The request's time and the spans of its time words (the other slots leave them out);
    "is the lifetime over 8 hours?" is a threshold, no time."""
    found = [
        (m.start(), m.end())
        for m in _TIME_WORDS.finditer(canonical)
        if not (
            re.match(r"(?:over|under)\s+[\d.]", m.group(0), re.I)
            and _THRESHOLD_QUESTION.match(canonical[: m.start()] + m.group(0).split()[0])
        )
    ]
    spans = [s for s in spans if s.kind != "day"]
    if spans:
        first = spans[0]
        return TimeSlot(first.kind, first.words, first.canonical()), found
    if found:
        words = " ".join(canonical[a:b] for a, b in found)
        kind = "moment" if re.search(r"\bago\b|\bat\s+\d", words, re.I) else "words"
        return TimeSlot(kind, words, words), found
    return None, []
