"""Writes of a state, not a number: "open the cooling valve", "turn the heater off", "set the
mode to Fast".

Enum channels (EPICS ``bo``/``mbbo`` records, PVA ``NTEnum``) take one of their states; an
operator names the state with a verb ("open", "close", "enable", "turn off") or by its name
after "to". The state word is matched against the channel's own states when the write is
prepared (the connector's metadata), never guessed: a channel without such a state is asked
about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from osprey_desktop.language.units import lookup_unit

#: What a verb asks a state to be, in the words enum states are usually named with.
STATE_VERBS: dict[str, tuple[str, ...]] = {
    "open": ("open", "opened"),
    "close": ("closed", "close", "shut"),
    "shut": ("closed", "close", "shut"),
    "enable": ("enabled", "enable", "on"),
    "disable": ("disabled", "disable", "off"),
    "activate": ("active", "activated", "on", "enabled"),
    "deactivate": ("inactive", "deactivated", "off", "disabled"),
    "start": ("start", "started", "running", "run", "on"),
    "stop": ("stop", "stopped", "off"),
    "insert": ("in", "inserted", "insert"),
    "retract": ("out", "retracted", "retract", "extracted"),
    "extract": ("out", "extracted", "retracted"),
    "arm": ("armed", "arm", "on"),
    "disarm": ("disarmed", "disarm", "off"),
    "on": ("on", "enabled", "open"),
    "off": ("off", "disabled", "closed"),
}
_VERB = "|".join(sorted((v for v in STATE_VERBS if v not in ("on", "off")), key=len, reverse=True))
_LEAD = r"^(?:(?:please|pls|kindly|could\s+you|can\s+you|would\s+you|now|then|and)\s+)*"
_BY_VERB = re.compile(rf"{_LEAD}(?P<verb>{_VERB})\s+(?P<target>.+?)\s*[.!?]*$", re.I)
_ON_OFF = re.compile(
    rf"{_LEAD}(?:turn|switch|put|set)\s+(?:(?P<first>on|off)\s+(?P<target1>.+?)|"
    r"(?P<target2>.+?)\s+(?P<last>on|off))\s*[.!?]*$",
    re.I,
)
_TO_STATE = re.compile(
    rf"{_LEAD}(?:set|put|switch|change|turn|move|bring)\s+(?P<target>.+?)\s+(?:to|into)\s+"
    r"(?:the\s+)?['\"]?(?P<state>[a-z][a-z_\-]*)['\"]?(?:\s+(?:state|position|mode))?\s*[.!?]*$",
    re.I,
)
#: Words after "to" that are not a state name ("set HCM01 to zero" is a number).
_NOT_STATES = frozenset(
    [
        "zero",
        "nominal",
        "default",
        "max",
        "maximum",
        "min",
        "minimum",
        "half",
        "quarter",
        "it",
        "them",
        "that",
        "this",
        "the",
        "a",
        "an",
    ]
)


def parse_state_request(text: str) -> tuple[str, str, str] | None:
    """(target words, state word, the operator's words) of a state write, or None.

    ``"open the cooling valve"`` -> ``("the cooling valve", "open", "open")``; ``"turn the
    heater off"`` -> ``("the heater", "off", "off")``; ``"set MODE to Fast"`` -> ``("MODE",
    "Fast", "to Fast")``. A number anywhere in the target is not a state write ("open the
    gap 2 mm" asks whether to or by).
    """
    flat = " ".join(text.split())
    found = _ON_OFF.match(flat)
    if found:
        state = found.group("first") or found.group("last")
        target = found.group("target1") or found.group("target2")
        return _checked(target, state.lower(), state.lower())
    found = _TO_STATE.match(flat)
    if found and found.group("state").lower() not in _NOT_STATES:
        state = found.group("state")
        return _checked(found.group("target"), state, f"to {state}")
    found = _BY_VERB.match(flat)
    if found:
        verb = found.group("verb").lower()
        return _checked(found.group("target"), verb, verb)
    return None


_AMOUNT = re.compile(r"(?<![\w.])[-+−]?\d+(?:\.\d+)?\s*(?P<unit>[a-zµ%]{1,12})\b", re.I)


def _checked(target: str, state: str, words: str) -> tuple[str, str, str] | None:
    if any(lookup_unit(m.group("unit")) for m in _AMOUNT.finditer(target)):
        return None  # "open the ID04 gap 2 mm": an amount, not a state ("valve 4" is a name)
    return target.strip(" ,"), state, words


def is_command_channel(channel: str, word: str) -> bool:
    """Whether ``channel`` is the command a state word asks for: its name ends in the word or
    one of the states it means ("...:CONTROL:OPEN" for "open", "...:CMD:OFF" for "off")."""
    pieces = [p for p in re.split(r"[^A-Za-z0-9]+", channel) if p]
    last = pieces[-1].lower() if pieces else ""
    wanted = word.lower()
    return bool(last) and (last == wanted or last in STATE_VERBS.get(wanted, ()))


def resolve_state(word: str, states: Sequence[str]) -> str | None:
    """The channel's own state a word or verb means (case-insensitive), or None."""
    by_lower = {s.lower(): s for s in states if s}
    wanted = word.lower()
    for candidate in (wanted, *STATE_VERBS.get(wanted, ())):
        if candidate in by_lower:
            return by_lower[candidate]
    return None


__all__ = ["STATE_VERBS", "is_command_channel", "parse_state_request", "resolve_state"]
