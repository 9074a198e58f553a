"""A correction of the previous answer: what was wrong said first, then what was meant.

"wrong one, I meant HCM 14", "you read the wrong gauges, I wanted sector 8", "that's not what
I asked, plot it since Thursday", "try again with the setpoint", "wrong unit, in mbar please":
the words that say the answer was wrong are left out, and what follows is the follow-up it is
("HCM 14", "sector 8", "plot it since Thursday", "the setpoint", "in mbar") of the request
before. When that follow-up alone names only one slot, the slot replaces its like in the
request before:

* a device of the same family ("QD 16" after "QD 12 yesterday at 07:00"), or of another
  family with the same words around it ("ID 5" after "ID 4 gap");
* a place ("sector 11" after "open ID 9 to 40 mm": the device of that kind in sector 11;
  "sector 5" after "pressure at IG 13": the same quantity there);
* a plane ("horizontal" after "put vcm 33 at minus 0.35": HCM 33, the list having that family);
* the unit to show the answer in ("in mbar please").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from osprey_desktop.language.parsed_request import Request, Vocabulary
from osprey_desktop.language.request import parse_request

__all__ = ["NAMED_DEVICE", "correction_of"]

_WHAT = (
    r"(?:one|unit|units|sector|gauges?|quantity|plane|undulator|quad|magnet|device|channel|"
    r"target|signal|corrector|bpm|value|thing|time|day|window|range|period)"
)
#: the words saying the answer was wrong, and those introducing what was meant
_CORRECTION_LEAD = re.compile(
    r"^\W*(?:(?:no|nope|sorry|hmm+|argh|oops)\b[,.!]?\s*)*"
    r"(?:(?:that'?s|this\s+is|it'?s|you\s+(?:gave|showed)\s+me)\s+(?:the\s+|a\s+)?(?:wrong"
    rf"(?:\s+{_WHAT})?|not\s+(?:the\s+right(?:\s+{_WHAT})?|what\s+i\s+(?:asked(?:\s+for)?|wanted|meant)))"
    rf"|wrong(?:\s+{_WHAT})?|(?:the\s+)?other\s+{_WHAT}|too\s+(?:short|long|early|late|wide|narrow)"
    rf"|not\s+(?:that|this)(?:\s+{_WHAT})?"
    r"|you\s+(?:read|plotted|gave\s+me|showed(?:\s+me)?|used|picked|took)\s+(?:the\s+)?"
    r"(?:wrong\s+\w+|[\w-]+(?:\s+[\w-]+)?)"
    r"|try\s+again\s+with)"
    r"(?:\s*[,;:.!—–-]+\s*|\s+(?=the\b|in\b|with\b))"
    r"(?:(?:i\s+(?:wanted|meant|want|asked\s+for|need(?:ed)?)|it\s+should\s+(?:be|have\s+been)|"
    r"make\s+(?:it|that)|use|should\s+be)\s+)?",
    re.I,
)
_NO = re.compile(r"^\W*(?:no|nope)\b[,.!]?\s+", re.I)
_UNIT_ONLY = re.compile(r"^\W*in\s+(?P<unit>[a-zµμ%]{1,6})\b(?:\s*,?\s*please)?\W*$", re.I)
_PLACE_ONLY = re.compile(r"^\W*(?:in\s+)?(?:the\s+)?(?P<place>sector\s+\d{1,2})\W*$", re.I)
_PLANE_ONLY = re.compile(r"^\W*(?:the\s+)?(?P<plane>horizontal|vertical)(?:\s+one)?\W*$", re.I)
#: a device's name, said with or without a space ("QD 16", "ID5"), never a short word before a
#: number ("to 40", "sector 5")
NAMED_DEVICE = re.compile(
    r"\b(?!(?:to|at|by|of|in|on|is|or|and|be|as|it|if|so|up|for|the|was|from|sector|sectors|"
    r"last|past|since|over)\b)(?P<prefix>[A-Za-z]{1,5})\s?(?P<number>\d{1,3})\b(?![:.]\d)",
    re.I,
)
_PLACE_IN = re.compile(r"\bsector\s+\d{1,2}\b", re.I)
_FILLER = re.compile(r"\b(?:the|one|please|instead|then|i\s+mean)\b", re.I)
_SHOWN_IN = re.compile(r"\s+in\s+[a-zµμ%]{1,6}\s*$", re.I)


#: how a follow-up merges with the request before (``follow_ups.follow_up``)
FollowUp = Callable[[Request, Request, Vocabulary | None], Request | None]


def correction_of(
    previous: Request, new: Request, vocabulary: Vocabulary | None, follow_up: FollowUp
) -> Request | None:
    """The request ``new`` corrects ``previous`` into, or None when ``new`` is no correction;
    what was meant is merged with ``previous`` by ``follow_up``."""

    if not previous.targets:
        return None
    lead = _CORRECTION_LEAD.match(new.text)
    no = _NO.match(new.text) if lead is None else None
    if lead is None and no is None:
        return None
    rest = new.text[(lead or no).end() :].strip()  # type: ignore[union-attr]
    if not re.search(r"[a-z0-9]", rest, re.I):
        return None
    said = _one_slot_replaced(previous, rest, vocabulary)
    if said is not None:
        again = parse_request(said, vocabulary)
        return replace(again, text=new.text, refers_back=True) if again.targets else None
    if lead is None:
        return None  # "no, 0.25": a bare "no" corrects only one slot here
    named = list(NAMED_DEVICE.finditer(rest))
    if previous.intent == "copy" and len(previous.targets) >= 2 and len(named) == 1:
        # "wrong target, copy it to QF 9" after "copy the QF 5 setpoint to QF 7": QF 9 gets it
        target = previous.targets[0]
        if target in previous.canonical:
            device = f"{named[0]['prefix']}{named[0]['number']}"
            again = parse_request(previous.canonical.replace(target, device, 1), vocabulary)
            if again.intent == "copy":
                return replace(again, text=new.text, refers_back=True)
    meant = parse_request(rest, vocabulary)
    merged = follow_up(previous, meant, vocabulary)
    if merged is not None:
        return replace(merged, text=new.text)
    if previous.changes and not meant.changes and meant.targets and len(previous.targets) == 1:
        # "wrong sector - the first horizontal corrector in sector 10" after "set HCM 27 to
        # 0.3 A": that device, the same change
        old = previous.targets[0]
        if old in previous.canonical:
            again = parse_request(previous.canonical.replace(old, meant.targets[0], 1), vocabulary)
            if again.changes:
                return replace(again, text=new.text, refers_back=True)
    if meant.targets or meant.changes:
        return replace(meant, text=new.text)  # "wrong one, show the lifetime": a request
    return None


def _one_slot_replaced(previous: Request, rest: str, vocabulary: Vocabulary | None) -> str | None:
    """The request before with the one slot ``rest`` names in the place of its like."""
    before = previous.canonical
    unit = _UNIT_ONLY.match(rest)
    if unit:
        asked = _SHOWN_IN.sub("", before.rstrip(" ?.!"))  # a unit asked before is replaced
        return f"{asked} in {unit['unit']}"
    devices = list(NAMED_DEVICE.finditer(before))
    place = _PLACE_ONLY.match(rest)
    if place:
        if _PLACE_IN.search(before):
            return _PLACE_IN.sub(place["place"], before, count=1)
        if len(devices) == 1:
            # "sector 11" after "open ID 9 to 40 mm": the ID of sector 11
            named = devices[0]
            kind = f"the {named['prefix']} in {place['place']}"
            return f"{before[: named.start()]}{kind}{before[named.end() :]}"
        return None
    plane = _PLANE_ONLY.match(rest)
    if plane and len(devices) == 1 and vocabulary is not None:
        # "horizontal" after "put vcm 33 at minus 0.35": the family of the other plane, when
        # the list has it (its name's first letter the plane's: VCM, HCM)
        named = devices[0]
        letter = plane["plane"][0].lower()
        prefix = named["prefix"]
        other = letter + prefix[1:].lower()
        swaps = prefix[0].lower() in "hv" and prefix[0].lower() != letter
        if swaps and other in vocabulary.device_prefixes:
            other = other.upper() if prefix.isupper() else other
            return f"{before[: named.start()]}{other}{named['number']}{before[named.end() :]}"
    meant = list(NAMED_DEVICE.finditer(rest))
    around = rest[: meant[0].start()] + rest[meant[0].end() :] if len(meant) == 1 else rest
    alone = len(meant) == 1 and not _FILLER.sub("", around).strip(" ,.!?-")
    if alone and len(devices) == 1:
        # "QD 16" after "QD 12 yesterday at 07:00", "ID 5" after "ID 4 gap"
        named, new_device = devices[0], meant[0]
        said = f"{new_device['prefix']}{new_device['number']}"
        return f"{before[: named.start()]}{said}{before[named.end() :]}"
    return None
