"""Follow-ups made only of slots: every word of the new turn names a slot of the previous
request (a role, a statistic, "now", a shift in time, a place, a plot or a table) or says
nothing at all.

"I wanted the RB value" after "HCM 14 setpoint" replaces the role; "max instead" after "mean
lifetime over the last 2 hours" the statistic; "just the value now" after a plot asks the same
channels now; "15 minutes later?" after "lifetime at 03:00" moves the moment; "sector 8" after
"plot the sector 7 vacuum since midnight" moves the place and keeps the plot and its time;
"never mind the plot, what is it right now?" drops the plot first; "sector 9 as well" asks the
same of sector 9, "add sector 9" adds the place. A turn with one word that is
neither a slot nor a word that never names a thing is a request of its own: this module
returns None and the other readings of follow-ups (``follow_ups``) go on.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from osprey_desktop.language.lexicon import (
    FUNCTION_WORDS,
    PLOT_VERBS,
    POLITE,
    READ_VERBS,
    ROLE_WORDS,
    STATISTIC_WORDS,
)
from osprey_desktop.language.parsed_request import TimeSlot
from osprey_desktop.language.request import Request, Vocabulary, parse_request

__all__ = ["slots_replaced"]

_ROLES = ROLE_WORDS | {"rbv", "readbacks", "setpoints", "actual", "measured"}
_NOW = frozenset({"now", "currently", "present", "moment", "live", "instantaneous"})
#: "as a number", "just the value": one value, not a series
_ONE_VALUE = frozenset({"number", "value", "figure", "reading", "single"})
_TABLE = frozenset({"table", "tabular", "numbers", "text"})
_SAYS_NOTHING = (
    FUNCTION_WORDS
    | POLITE
    | READ_VERBS
    | frozenset(
        """instead rather only just wanted want meant mean as of for over in with at on
        then again one please thanks ok okay oh ah sorry oops no yes yeah same but""".split()  # noqa: SIM905
    )
)
# "never mind the plot, …", "forget the chart." : what the turn stops asking for
_DROPPED = re.compile(
    r"^\W*(?:(?:no|ok(?:ay)?|actually|sorry)\W+)*(?:never\s*mind|forget(?:\s+about)?|scrap|"
    r"skip|drop|no\s+need\s+for)\s+(?:the\s+|that\s+)?(?P<what>[a-z]+)\s*(?:[,.;:!]|\s[—–-]\s)\s*",
    re.I,
)
_DROPPED_AFTER = re.compile(
    r"(?:[,;]\s*|\s+(?:and|but)\s+|\s[—–-]\s)(?:never\s*mind|forget(?:\s+about)?|scrap|skip|drop|"
    r"no\s+need\s+for|no)\s+(?:the\s+|that\s+)?(?P<what>[a-z]+)\s*[.!]*\s*$",
    re.I,
)
_SHIFT = re.compile(
    r"\b(?P<count>\d+(?:\.\d+)?|an?|half\s+an?)\s*(?P<unit>minutes?|mins?|hours?|hrs?|h)\s+"
    r"(?P<way>later|earlier|before|after(?:wards)?|on|back|before\s+that|after\s+that)\b",
    re.I,
)
_POINTS_BACK = re.compile(r"\b(?:those|these|them|it|that|again|same)\b", re.I)
_ADDED = re.compile(r"\b(?:as\s+well|too|also|add|plus)\b", re.I)
_ADDED_TO = re.compile(r"\b(?:add|plus)\b", re.I)
_PLACE = re.compile(r"\b(?P<word>sector|cell)\s+(?P<number>\d{1,2})\b", re.I)
_CLOCK = re.compile(r"\b(?P<hour>[01]?\d|2[0-3]):(?P<minute>[0-5]\d)\b")
_STAT_PHRASES = {"standard deviation": "std", "peak to peak": "peak-to-peak"}


def slots_replaced(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """The previous request with the slots ``new`` names replaced, when every word of
    ``new`` is a slot or says nothing; else None."""
    if not previous.targets or previous.changes or new.changes:
        return None
    text = re.sub(r"\bi\s+mean(?:t)?\b", " ", new.text.strip(), flags=re.I)  # no statistic
    # "just the current value": the value now (never the beam current)
    text = re.sub(
        r"\b(?:current|present|latest)\s+(?=values?\b|readings?\b)", "now ", text, flags=re.I
    )
    # "now sector 9" after a history of sector 4: "now" says next, not the present
    text = re.sub(r"^\W*now\b[\s,]+(?=(?:sector|cell)\s+\d)", "", text, flags=re.I)
    dropped = _DROPPED.match(text)
    if dropped:
        text = text[dropped.end() :]
    else:
        dropped = _DROPPED_AFTER.search(text)  # "just the number, skip the plot"
        if dropped:
            text = text[: dropped.start()]
    plot_dropped = bool(dropped and dropped["what"].lower() in PLOT_VERBS | {"plot", "plots"})
    # "add sector 9": both places; "sector 9 as well" asks the same of sector 9 (the previous
    # answer is on the screen already)
    additive = _ADDED_TO.search(text) is not None
    also = _ADDED.search(text) is not None
    text = _ADDED.sub(" ", text)
    shift = _SHIFT.search(text)
    if shift:
        text = text[: shift.start()] + " " + text[shift.end() :]
    # "as a plot, last 4 hours", "setpoint too, since 6": a time of the turn's own beside a slot
    # replaces the previous one
    timed = new.time if shift is None and new.time is not None and new.time.words else None
    if _POINTS_BACK.search(text):
        timed = None  # "plot those again for the last 5 hours": the planner reuses what it found
    if timed is not None:
        text = re.sub(re.escape(timed.words), " ", text, count=1, flags=re.I)
    lowered = text.lower()
    stat = next((short for said, short in _STAT_PHRASES.items() if said in lowered), None)
    for said in _STAT_PHRASES:
        lowered = lowered.replace(said, " ")
    place = _PLACE.search(lowered)
    if place:
        lowered = lowered[: place.start()] + " " + lowered[place.end() :]
    words = re.findall(r"[a-z]+", lowered.replace("'s", " is"))
    roles = [w for w in words if w in _ROLES]
    stat = stat or next((w for w in words if w in STATISTIC_WORDS), None)
    now = timed is None and any(w in _NOW for w in words)  # "now for the last 10 minutes"
    plot = any(w in PLOT_VERBS for w in words) and not plot_dropped
    one_value = any(w in _ONE_VALUE for w in words)
    table = any(w in _TABLE for w in words)  # "as a table please": the values, not a plot
    # "just the value" after a plot or a history: the value now, not the series
    narrowed = (
        one_value
        and previous.intent in ("plot", "history")
        and bool(re.search(r"\b(?:just|only|simply)\b", lowered))
    )
    slots = _ROLES | STATISTIC_WORDS | _NOW | PLOT_VERBS | _ONE_VALUE | _TABLE
    if any(w not in slots and w not in _SAYS_NOTHING for w in words):
        return None  # a word of its own: a request, not slots
    if not (
        roles
        or stat
        or now
        or plot
        or shift
        or place
        or table
        or (one_value and (plot_dropped or narrowed))
    ):
        return None
    targets = previous.targets
    if roles:
        targets = tuple(_with_roles(t, roles) for t in targets)
        if (additive or also) and previous.intent in ("plot", "history") and not place:
            # "setpoint too" after a plot of the readback: both roles, on one plot
            targets = tuple(dict.fromkeys((*previous.targets, *targets)))
    if place:
        targets = tuple(_at_place(t, place["word"], place["number"]) for t in targets)
        if targets == previous.targets:
            return None  # the previous request named no place to move
        if additive:
            targets = (*previous.targets, *targets)
    things = " and ".join(targets)
    when = previous.time.canonical if previous.time is not None else ""
    if timed is not None:
        when = timed.canonical
    if shift:
        if previous.time is None or previous.time.kind != "moment":
            return None
        moved = _shifted(when, shift)
        if moved is None:
            return None
        when = moved
    if timed is not None and not (stat or plot or now or table or one_value):
        # "only IG 4, last 3 hours": the previous request's words, over the new time (a time
        # alone is ``follow_ups``' own)
        as_before = (
            previous.canonical
            if targets == previous.targets
            else _in_previous_words(previous, targets, things)
        )
        said = _at_new_time(previous, as_before, timed)
    elif stat:
        said = f"{stat} of {things} {when}"
    elif plot:
        said = f"plot {things} {when}"
    elif table and when and not now:
        said = f"{things} {when}"
    elif now or plot_dropped or narrowed or (one_value and not shift):
        said = f"what is {things} now"
    elif shift:
        said = f"what was {things} {when}"
    else:  # a role or a place: the previous request's own words, its intent and time kept
        said = _in_previous_words(previous, targets, things)
    merged = parse_request(said.strip(), vocabulary)
    if not merged.targets:
        return None
    return replace(merged, text=new.text, refers_back=True)


def _at_new_time(previous: Request, said: str, timed: TimeSlot) -> str:
    """``said`` (the previous request in its words) with its time the new one."""
    before = previous.time.canonical if previous.time is not None else ""
    if before and before in said:
        return said.replace(before, timed.canonical, 1)
    return f"{said.rstrip(' ?.!')} {timed.canonical}"


def _with_roles(target: str, roles: list[str]) -> str:
    kept = [w for w in target.split() if w.lower() not in _ROLES]
    return " ".join([*kept, *dict.fromkeys(roles)])


def _at_place(target: str, word: str, number: str) -> str:
    return _PLACE.sub(lambda _: f"{word} {number}", target, count=1)


def _in_previous_words(previous: Request, targets: tuple[str, ...], things: str) -> str:
    """The previous request's own words with its targets replaced (its intent and time kept);
    targets added after the previous ones are said after them."""
    canonical = previous.canonical
    added = targets[len(previous.targets) :]
    for old, new in zip(previous.targets, targets, strict=False):
        canonical = canonical.replace(old, new, 1)
    if added and previous.targets and previous.targets[-1] in canonical:
        last = previous.targets[-1]
        canonical = canonical.replace(last, " and ".join([last, *added]), 1)
    return canonical if canonical != previous.canonical else f"{canonical} for {things}"


def _shifted(when: str, shift: re.Match[str]) -> str | None:
    """``when`` (a moment said with a clock time) moved by the shift said ("15 minutes
    later"); None when it has no clock time or the move leaves its day."""
    clock = list(_CLOCK.finditer(when))
    if len(clock) != 1:
        return None
    count = shift["count"].lower()
    amount = 0.5 if count.startswith("half") else 1.0 if count in ("a", "an") else float(count)
    unit = shift["unit"].lower()
    minutes = amount * (1 if unit.startswith("m") else 60)
    way = shift["way"].lower()
    sign = -1 if way.startswith(("earlier", "before", "back")) else 1
    found = clock[0]
    start = datetime(2000, 1, 1, int(found["hour"]), int(found["minute"]))
    moved = start + timedelta(minutes=sign * minutes)
    if moved.date() != start.date() or moved.second:
        return None
    return f"{when[: found.start()]}{moved:%H:%M}{when[found.end() :]}"
