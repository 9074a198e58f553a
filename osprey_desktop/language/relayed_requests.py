"""A request relayed from someone else, said as the operator's own.

Operators pass on what beamlines and colleagues ask: "the beamline at ID07 is asking for a 10 mm
gap, can we give them that?", "users on beamline 7 (ID07) ask what energy we're running at",
"beamline 9 is asking whether the beam current is stable". The asker is no channel: the request
is what they asked, with its nouns bound to the asker's device where a beamline has one ("a
smaller gap" is the ID07 gap; "the current lifetime" is the ring's, everyone's). A device asks
nothing ("VCM33 wants to come down" is no relayed request); a question relayed without a
device is asked as it stands.
"""

from __future__ import annotations

import re

__all__ = ["DEVICE_NAME", "PEOPLE", "RING_WIDE", "said_as_their_own"]

#: a device as the parse joins it ("ID07", "HCM3"), never a clock or a decimal ("10:30")
DEVICE_NAME = re.compile(r"\b[A-Za-z]{1,5}\d{1,3}\b(?![:.]\d)")

#: "the ID04 beamline asks for the current lifetime", "users at ID05 want to know the actual
#: gap", "ID07 is asking for a smaller gap": a request relayed, its device named by the asker
_RELAYED = re.compile(
    r"^\W*(?P<who>(?:the\s+)?(?:[a-z]+\s+){0,3}?(?:(?:at|on|of|from)\s+(?:the\s+)?)?"
    r"(?:[a-z]+\s+)?(?P<device>[A-Za-z]{1,5}\d{1,3})(?:\s+[a-z]+)?(?:\s+\([^)]*\))?|"
    r"(?:the\s+)?(?:users?|beamlines?|people)\s+(?:on|at|of)\s+[^,;:]*?\(?(?P<dev2>[A-Za-z]{1,5}\d{1,3})\)?|"
    # "the users in sector 11 asked ...": their devices are the sector's
    r"(?:the\s+)?(?:[a-z]+\s+)?(?:users?|beamlines?|people|experiment(?:ers)?|scientists?|group|team)"
    r"\s+(?:in|at|on|of)\s+(?:the\s+)?sector\s+(?P<sector>\d{1,2})|"
    # "beamline 9 is asking whether ...": people and no device, for a question only
    r"(?P<people>(?:the\s+)?(?:[a-z]+\s+){0,2}?(?:beamlines?|users?|people|group|team|physicists?|"
    r"scientists?|experiment|hutch|crew)(?:\s+\d{1,2})?))"
    r"\s+(?:(?:is|are)\s+asking(?:\s+(?:for|about))?|asks?(?:\s+(?:for|about))?|asked(?:\s+(?:for|about))?|"
    r"(?:is\s+|are\s+)?request(?:s|ed|ing)?|"
    r"want(?:s|ed)?\s+to\s+know|would\s+like\s+to\s+know|(?P<wish>wants?|would\s+like))\s+"
    r"(?P<what>(?!(?:me|us|you)\b)[^:;]+)$",
    re.I,
)


_VALUE_FIRST = re.compile(
    r"^(?:an?\s+|the\s+)?(?P<value>[-+−]?(?:\d+(?:\.\d*)?|\.\d+)\s*(?:[a-zµ]{1,4}\b|%))"
    r"(?:\s+(?P<noun>(?!please\b|now\b|if\b|and\b|on\b|for\b)[a-z]+))?(?P<rest>.*)$",
    re.I,
)
#: ", can we give them that?": the go-ahead asked with a relayed request
_GIVE_THEM = re.compile(
    r"\s*[,;.]?\s*(?:can|could|shall|would)\s+(?:we|you)\s+(?:please\s+)?(?:give|do|manage|get|arrange)\s+"
    r"(?:them\s+|him\s+|her\s+)?(?:that|it|this)(?:\s+for\s+(?:them|him|her|the\s+users))?"
    r"(?:,?\s*please)?\s*[?.!]*\s*$",
    re.I,
)
PEOPLE = re.compile(
    r"\b(?:beamlines?|users?|people|group|team|physicists?|scientists?|experiment|station|hutch|"
    r"they|he|she|crew|folks)\b",
    re.I,
)


_MORE = re.compile(
    r"(?:(?P<up>more|wider|larger|bigger|higher)|less|narrower|smaller|lower)$", re.I
)


#: what the whole ring has, never one beamline's
RING_WIDE = re.compile(
    r"\b(?:beam|current|lifetime|energy|tunes?|orbit|rf|frequency|voltage|injection|top[\s-]?up|"
    r"emittance|chromaticity)\b",
    re.I,
)


def _asked_for(question: str) -> str:
    """A relayed question as the operator asks it ("whether X is stable": tell me whether)."""
    return f"tell me {question}" if re.match(r"(?:whether|if)\b", question, re.I) else question


#: "... asked if their gap could be opened to 20 mm": the change they asked, said as a wish
_ASKED_IF_IT_COULD_BE = re.compile(
    r"\b(?:asked|ask|asks|are\s+asking|is\s+asking|wonder(?:ed|s)?|want\s+to\s+know)\s+(?:if|whether)\s+"
    r"(?P<what>[^,;.?!]+?)\s+(?:could|can|might|may|would)\s+be\s+(?P<done>opened|closed|set|raised|"
    r"lowered|increased|decreased|reduced|moved|changed|brought|put)\s+(?=(?:up\s+|down\s+|back\s+)?"
    r"(?:to|by|at)\b)",
    re.I,
)


def said_as_their_own(text: str) -> str:
    """A relayed request said as the operator's own, its nouns bound to the asker's device."""
    text = _ASKED_IF_IT_COULD_BE.sub(lambda m: f"want {m['what']} {m['done']} ", text)
    found = _RELAYED.match(text) or _RELAYED.match(_GIVE_THEM.sub("", text))
    if found is None:
        return text
    if found["sector"]:
        return _in_their_sector(found, f"sector {int(found['sector'])}")
    if found["wish"] and not PEOPLE.search(found["who"]):
        return text  # "VCM33 wants to come down": a device does not ask, people do
    what = _GIVE_THEM.sub("", found["what"].strip())
    asks = re.match(r"(?:what|how|when|where|which|whether|if|why)\b", what, re.I)
    if found["people"]:
        # "beamline 9 is asking whether the beam current is stable": their question, asked
        return _asked_for(what) if asks else text
    device = (found["device"] or found["dev2"]).upper()
    valued = _VALUE_FIRST.match(what)
    compared = valued and _MORE.match(valued["noun"] or "")
    if valued is not None and compared:
        # "ID03 users are asking for 2 mm more gap": the device's gap 2 mm up
        verb = "increase" if compared["up"] else "decrease"
        noun = valued["rest"].split()[0] if valued["rest"].split() else ""
        return f"{verb} the {device} {noun} by {valued['value']}".replace("  ", " ")
    if valued is not None:
        # "is asking for a 10 mm gap": the device's gap to 10 mm
        noun = f" {valued['noun']}" if valued["noun"] else ""
        return f"set the {device}{noun} to {valued['value']}{valued['rest']}"
    if asks:
        if not DEVICE_NAME.search(what):
            what = re.sub(r"\btheir\s+", f"the {device} ", what, count=1, flags=re.I)
        return _asked_for(what)
    head, comma, tail = what.partition(",")
    if not DEVICE_NAME.search(head):
        if re.search(r"\btheir\b", head, re.I):
            # "wants their gap closed to 10.5 mm": their device's; a clause after the comma
            # ("they're planning their exposures") is theirs to keep
            what = re.sub(r"\btheir\b", f"the {device}", head, count=1, flags=re.I) + comma + tail
        elif not RING_WIDE.search(head):
            # "a smaller gap": the asker's device's; the ring's own quantities are everyone's
            head = re.split(
                r"\s*(?:,|\s[-–—]\s|\bplease\b|\bclosed\b|\bopened\b|\bset\b|\bto\b|\bat\b)",
                what,
                maxsplit=1,
            )[0]
            what = f"{head} on {device}{what[len(head) :]}"
    return f"I'd like {what}"


def _in_their_sector(found: re.Match[str], place: str) -> str:
    """ "the users in sector 11 want their gap opened to 20 mm": the gap in sector 11."""
    what = _GIVE_THEM.sub("", found["what"].strip())
    valued = _VALUE_FIRST.match(what)
    if valued is not None and not _MORE.match(valued["noun"] or ""):
        # "are asking for a 10 mm gap": the sector's gap to 10 mm
        noun = f" {valued['noun']}" if valued["noun"] else ""
        return f"set the{noun} in {place} to {valued['value']}{valued['rest']}"
    if re.match(r"(?:what|how|when|where|which|whether|if|why)\b", what, re.I):
        return _asked_for(re.sub(r"\btheir\s+(\w+)", rf"the \1 in {place}", what, count=1))
    said = re.sub(r"\b(?:their|the)\s+(\w+)", rf"the \1 in {place}", what, count=1, flags=re.I)
    return f"I'd like {said}" if said != what else f"I'd like {what} in {place}"
