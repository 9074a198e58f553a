"""Whether the target phrases a plan hands to channel finding still say what the request said.

The request parser cuts a request into target phrases and the planner gives them to
``channel_finding`` (its ``targets`` parameter), each found on its own. A cut can lose what
names the channels: the end of a range ("dipoles 1-4" arriving as "dipoles 1-"), a number of a
list, a describing word ("steering"). Finding the phrases as they came would then answer
another question. ``targets_keep_request`` checks the phrases against the request: every
number of it, and every word of it that the channel list has, must be in some phrase; when not,
the finder reads the whole request instead (it cuts several targets itself).

``borrowed_targets``: a phrase that names only what to read of a device ("setpoint",
"readback" of "setpoint, readback and reference of the 2nd quad") takes the device from the
next phrase that names one.
"""

from __future__ import annotations

import re
from typing import Any

from osprey_desktop.capabilities.control_room.channel_phrases import (
    FILLER,
    without_quantities,
)
from osprey_desktop.channels.finder import normalize
from osprey_desktop.channels.search import STOPWORDS
from osprey_desktop.language.time_parsing import strip_time_expressions

__all__ = ["borrowed_targets", "said_only", "targets_keep_request"]

_PIECES = re.compile(r"[a-z]+|\d+")
_DECIMAL = re.compile(r"\d+\.\d+")
#: Words that say which of a device's channels, never which device.
_FIELD_WORDS = """setpoint setpoints set readback readbacks reading readings reference references
golden value values monitor monitors command commands sp rb ref"""
_FIELD_ONLY = frozenset(_FIELD_WORDS.split())


def targets_keep_request(finder: Any, text: str, targets: list[str]) -> bool:
    """Whether ``targets`` together hold every number of the request ``text`` (its times and
    amounts aside) and every word of it the channel list has."""
    said = without_quantities(strip_time_expressions(text)).lower()
    request = _PIECES.findall(_DECIMAL.sub(" ", said))  # 499.654 is a value, never a device
    given = set(_PIECES.findall(" ".join(targets).lower()))
    given |= {normalize(w) for w in given}
    for at, piece in enumerate(request):
        if piece in given or piece in FILLER or piece in STOPWORDS:
            continue
        if piece.isdigit():
            if _goes_with_targets(request, at, given):
                return False  # "dipoles 1-4" arriving as "dipoles 1-"
            continue  # "at 6 this morning": a time the parse took out
        word = normalize(piece)
        if word not in given and len(finder.word_matches(word)[0]):
            return False
    return True


def said_only(targets: list[str], request: str) -> list[str]:
    """In a request for everything ("all vertical steering coils"), the phrases without the
    setpoint/readback words the request does not have: a parse that adds "readback" would
    leave out the setpoints "all" asks for."""
    said = set(_PIECES.findall(request.lower()))
    if not said & _EVERYTHING:
        return targets
    kept = []
    for phrase in targets:
        words = [w for w in phrase.split() if w.lower() not in _ROLE_WORDS or w.lower() in said]
        kept.append(" ".join(words) if words else phrase)
    return kept


def _goes_with_targets(pieces: list[str], at: int, given: set[str]) -> bool:
    """Whether the number at ``at`` continues what the phrases hold: the word or number before
    it, over "to", "through" and "and" ("1-4", "60 to 62", "BPM 8 and 9"), is in them."""
    before = at - 1
    while before >= 0 and pieces[before] in _RANGE_WORDS:
        before -= 1
    return before >= 0 and pieces[before] in given and pieces[before] not in STOPWORDS


_RANGE_WORDS = frozenset(["to", "through", "thru", "and", "till", "until"])
_EVERYTHING = frozenset(["all", "every", "each", "everything"])
_ROLE_WORDS = frozenset(["readback", "readbacks", "setpoint", "setpoints", "reading", "readings"])


def borrowed_targets(targets: list[str]) -> list[str]:
    """Each phrase that names only a field of a device, completed with the device of the next
    phrase that names one ("setpoint", "reference of the 2nd quad" -> "setpoint of the 2nd
    quad")."""
    done = list(targets)
    for number, phrase in enumerate(targets):
        words = [w for w in _PIECES.findall(phrase.lower()) if w not in STOPWORDS]
        if not words or not all(w in _FIELD_ONLY for w in words):
            continue
        for later in targets[number + 1 :]:
            later_words = _PIECES.findall(later.lower())
            device = _device_part(later, later_words)
            if device:
                done[number] = f"{phrase} {device}"
                break
    return done


def _device_part(phrase: str, words: list[str]) -> str:
    """What a phrase says of its device: after "of" when it has one ("reference of the 2nd
    quad" -> "of the 2nd quad"), else its words without the field words."""
    lowered = phrase.lower()
    at = lowered.find(" of ")
    if at >= 0:
        return phrase[at + 1 :]
    rest = [w for w in words if w not in _FIELD_ONLY and w not in STOPWORDS]
    return " ".join(rest) if rest and len(rest) < len(words) else ""
