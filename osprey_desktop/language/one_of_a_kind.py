"""One device of a kind, named by its kind alone: "the undulator gap", "what's the corrector
current", "show me the quad".

A definite singular noun of a countable kind of device, with no number, no place, no
ordinal, no quantifier and no superlative, names one device. Where the channel list has
several of that kind, the request cannot say which: it is asked, never answered with every
device of the kind (a reading of all six undulators answers "the undulator gaps"). Mass and
collective nouns ("the vacuum", "the orbit", "the pressure", "the tunes") name no single
device and are read whole.
"""

from __future__ import annotations

import re

__all__ = ["COUNTABLE_DEVICES", "DEFINITE", "device_kind_named"]

#: Kinds of device a control room counts (one of many in a ring): generic English, no
#: facility's own names (those come from its channel list as device prefixes).
COUNTABLE_DEVICES = frozenset(
    {
        *("undulator", "wiggler", "corrector", "steerer", "quad", "quadrupole", "sextupole"),
        *("octupole", "dipole", "bend", "magnet", "bpm", "gauge", "pump", "valve", "kicker"),
        *("septum", "screen", "scraper", "id", "insertion"),
    }
)

#: the words before a noun that make it one known thing ("the", "our")
DEFINITE = r"(?:the|that|this|our|my|your|their)"
_PLACE_OR_ORDER = re.compile(
    r"\b(?:sectors?|cells?|straights?|arcs?|sections?|girders?|first|second|third|last|next|"
    r"previous|other|each|every|all|both|any|either|neither|some|several|few|many|"
    r"upstream|downstream|near|nearest|closest|beside|between)\b",
    re.I,
)
_SUPERLATIVE = re.compile(r"\b(?:worst|best|most|least|\w{3,}est)\b", re.I)


def device_kind_named(
    text: str,
    device_prefixes: frozenset[str] = frozenset(),
    channel_words: frozenset[str] = frozenset(),
) -> str | None:
    """The kind of device ``text`` names as one ("the undulator gap" -> "undulator"), or None
    when it names a number, a place, an order, a quantifier, a plural of the kind or of a
    channel word ("the undulator gaps") or several kinds. ``device_prefixes`` are the
    facility's own family abbreviations ("hcm", "qf"), counted as kinds too."""
    if re.search(r"\d", text) or _PLACE_OR_ORDER.search(text) or _SUPERLATIVE.search(text):
        return None
    kinds = COUNTABLE_DEVICES | {p.lower() for p in device_prefixes}
    words = re.findall(r"[a-z][a-z'-]*", text.lower())
    if any(w.endswith("s") and w[:-1] in kinds | channel_words for w in words):
        return None  # "the correctors", "the undulator gaps": every one
    named = [w for w in words if w in kinds]
    if len(set(named)) != 1:
        return None
    kind = named[0]
    definite = re.search(rf"\b{DEFINITE}\s+(?:[a-z]+\s+){{0,2}}?{kind}\b", text.lower())
    return kind if definite else None
