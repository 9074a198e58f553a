"""Which statistics a request asks of a history: "std of BPM12 X over the last hour", "how
stable was the lifetime", "is the vertical tune drifting".

The history table already shows last, min, max and mean; a request that asks anything else
(standard deviation, rms, peak-to-peak, drift, stability, "stats") is answered with that
statistic, computed from the archived samples (``investigate.statistics``). The planner reads
this to plan such a request as history (``investigation_intents`` leaves it to history), and
``archiver_retrieval`` to know what to compute and name first.
"""

from __future__ import annotations

import re
from typing import Literal

Statistic = Literal[
    "mean", "minimum", "maximum", "std", "rms", "variance", "peak_to_peak", "drift"
]  # fmt: skip

#: What the history table shows already: asked alone, the answer stays the table.
TABLE_STATISTICS: frozenset[str] = frozenset({"mean", "minimum", "maximum"})

#: Words and what they ask, tried at each word; the first that matches there wins ("peak to
#: peak" before "peak").
_WORDS_ASKING: tuple[tuple[str, tuple[Statistic, ...]], ...] = (
    (r"peak[-\s]*to[-\s]*peak|pk[-\s]?pk|p2p|p-p", ("peak_to_peak",)),
    (
        r"standard\s+deviations?|std\.?(?:[-\s]*dev\.?)?|stdev|sigma|σ",
        ("std",),
    ),
    (r"rms|root[-\s]mean[-\s]square", ("rms",)),
    (r"variance", ("variance",)),
    (r"spread|variations?|varied|fluctuat\w*", ("std", "peak_to_peak")),
    (r"nois(?:e|y|ier|iest)|jitter\w*", ("std",)),
    (r"drift\w*|trending(?:\s+(?:up|down|upwards|downwards))?", ("drift",)),
    (
        r"(?:un)?stable|(?:in)?stability|steady|steadiness",
        ("std", "peak_to_peak", "drift"),
    ),
    (
        r"stats|statistics",
        ("mean", "std", "minimum", "maximum", "peak_to_peak", "drift"),
    ),
    (r"means?|averages?|avg", ("mean",)),
    # "min" after a number is minutes ("last 30 min")
    (r"minimum|lowest|(?<!\d)(?<!\d\s)min", ("minimum",)),
    (r"max|maximum|highest|peak", ("maximum",)),
)
_ASKED = tuple((re.compile(rf"(?:{p})(?!\w)", re.I), asked) for p, asked in _WORDS_ASKING)
#: The words of a statistic beyond the table, with the "of" that follows ("the std of").
_BEYOND = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(p for p, asked in _WORDS_ASKING if not TABLE_STATISTICS.issuperset(asked))
    + r")(?!\w)(?:\s+(?:of|for|in|on)\b)?",
    re.I,
)
_WORD = re.compile(r"(?<![\w-])(?:[a-zσ][\w-]*|p2p)", re.I)


def asked_statistics(text: str) -> tuple[Statistic, ...]:
    """The statistics ``text`` asks, in the order it names them (each once)."""
    found: list[Statistic] = []
    position = 0
    while True:
        word = _WORD.search(text, position)
        if word is None:
            break
        for pattern, asked in _ASKED:
            match = pattern.match(text, word.start())
            if match:
                found += asked
                position = match.end()
                break
        else:
            position = word.end()
    return tuple(dict.fromkeys(found))


def asks_beyond_the_table(text: str) -> bool:
    """Whether ``text`` asks a statistic the history table does not show (std, drift...)."""
    return any(s not in TABLE_STATISTICS for s in asked_statistics(text))


def statistic_words_in(text: str) -> frozenset[str]:
    """The lower-case words of the statistics beyond the table that ``text`` names
    ("standard deviation of X" -> {"standard", "deviation", "of"})."""
    return frozenset(
        w for m in _BEYOND.finditer(text) for w in re.findall(r"\w+", m.group(0).lower())
    )


def without_statistic_words(phrase: str, known: frozenset[str] = frozenset()) -> str:
    """``phrase`` without the words of a statistic beyond the table ("stable was the
    lifetime" -> "was the lifetime"), which name no channel; a word the channel list has
    (``known``, lower case: a facility's "rms" channels) stays."""

    def drop(match: re.Match[str]) -> str:
        words = re.findall(r"[a-z]+", match.group(0).lower())
        return match.group(0) if words and words[0] in known else " "

    return " ".join(_BEYOND.sub(drop, phrase).split())


__all__ = [
    "TABLE_STATISTICS",
    "Statistic",
    "asked_statistics",
    "asks_beyond_the_table",
    "statistic_words_in",
    "without_statistic_words",
]
