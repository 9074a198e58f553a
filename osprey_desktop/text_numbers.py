"""Counts typed as words ("two hours ago", "sector three"): one table for every parser.

The time-range parser (``capabilities.control_room.time_points``) and the channel finder
(``connectors.channel_database``) both read numbers spelled out; one table keeps them reading
the same words the same way.
"""

from __future__ import annotations

import re

#: Cardinal numbers an operator spells out, as typed (lower case).
NUMBER_WORDS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "twenty-four": 24,
    "thirty": 30,
    "forty": 40,
    "forty-five": 45,
    "fifty": 50,
    "sixty": 60,
    "ninety": 90,
}


def words_pattern(words: dict[str, object]) -> str:
    """A regex alternation of ``words``, longest first so "twenty-four" is not read as "twenty"."""
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


#: Regex alternation of NUMBER_WORDS (no group, no anchors).
NUMBER_WORD_PATTERN = words_pattern(NUMBER_WORDS)
