"""Another device's value given, said the one way the parse reads it: "set X to the same value
as Y" with an offset, a scale or a role.

* a value another device should have: "QD12 should be QD10 minus half an amp, set it",
  "QF19 -> whatever QF17 is sitting at", "make horizontal corrector 8 agree with corrector
  9", "have VCM 14 take on the same setting as number 15" (a number alone is of the family
  named before it);
* the point between two devices: "put QF 9 halfway between QF 7 and QF 11" is their average;
* a device's reference value said alone: "QF 29 back to nominal" is its nominal value;
* a device's setting made what it reads back: "match the RF voltage setpoint to its
  readback", "rf volt sp ← rb", "... to what the readback shows";
* a share of another device's value: "ID11 gap = half the ID09 gap", "set QF 3 to twice QF
  5", "put the ID09 gap at 80 % of the ID11 gap", "give the undulator in sector 7 twice the
  gap of the one in sector 5" ("... times 0.5", read by ``quantities`` as a factor).

Said before a share of a device's own value is read ("double QF 3" is QF 3 up by 100 %; "to
double QF 5" is QF 5's value twice).
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import CHANGE

__all__ = ["copies_said_plainly", "readback_checked_then_matched"]


def readback_checked_then_matched(text: str) -> str:
    """ "check the RF voltage readback and make the setpoint match it": the setpoint set to
    its readback (said before the clauses are read apart, where "it" loses its role)."""
    return _READBACK_THEN_SETPOINT.sub(
        lambda m: (
            f"set the {m['what'].strip()} setpoint to the same value as the "
            f"{m['what'].strip()} readback"
        ),
        text,
    )


def copies_said_plainly(text: str) -> str:
    """``text`` with the forms of the module docstring said as copies."""
    # "put QF 9 halfway between QF 7 and QF 11": the average of the two
    work = _HALFWAY.sub(" to the average of ", text)
    # "ID 2 gap := ½ × ID 9 gap", "QF 5 to 1.01 * QF 7": the factor said before the device
    work = _FACTOR_FIRST.sub(
        lambda m: (
            f"{m['lead']}{'' if '=' in m['lead'] else 'the same value as '}"
            f"{m['what']} times {m['n']}"
        ),
        work,
    )
    # "put VCM 20 at the same value of VCM 19", "the same like VCM 19": the same as
    work = re.sub(
        r"\b(?P<same>the\s+same(?:\s+(?:value|setting|current|setpoint))?)\s+(?:of|like)\s+(?=[a-z]{1,6}\s?\d)",
        r"\g<same> as ",
        work,
        flags=re.I,
    )
    # "QF 29 back to nominal pls", "set QF 29 to nominal": its nominal value
    work = _TO_NOMINAL.sub(_to_its_reference, work)
    work = _SHOULD_BE_ANOTHER.sub(r"set \g<what> to the same value as \g<source>", work)
    work = _WHATEVER_IT_IS.sub(r" to the same value as \g<source>", work)
    work = _SET_IT_AFTER.sub("", work) if _SAME_VALUE.search(work) else work
    work = re.sub(r"\bagrees?\s+with\b", "match", work, flags=re.I)
    work = _TAKE_ON_THE_SAME.sub(lambda m: f"make {m['what']} the same as", work)
    work = _SAME_AS_A_NUMBER.sub(_same_family, work)
    work = _SETPOINT_TO_ITS_READBACK.sub(
        lambda m: (
            f"set the {m['what'].strip()} setpoint to the same value as the "
            f"{m['what'].strip()} readback"
        ),
        work,
    )
    work = _GIVE_A_SHARE_OF.sub(
        lambda m: f"set {m['target'].strip()} to {m['factor']} {m['source'].strip()}", work
    )
    return _SCALED_COPY.sub(_scaled_copy, work)


def _to_its_reference(found: re.Match[str]) -> str:
    """ "back to nominal": its nominal value; "closer to nominal", "a bit towards nominal" are
    no value at all (how far is asked)."""
    if _ONLY_TOWARDS.search(found.string[: found.start()]):
        return found.group(0)
    return f"{found['to']} its {found['ref'].lower()} value"


_ONLY_TOWARDS = re.compile(
    r"\b(?:closer|nearer|halfway|half-way|partway|part\s+of\s+the\s+way|a\s+bit|a\s+little|"
    r"slightly|somewhat|a\s+touch|more|less)\s*$",
    re.I,
)
_HALFWAY = re.compile(
    r"\s+(?:(?:to|at)\s+)?(?:(?:exactly|right)\s+)?(?:halfway|half-way|midway|in\s+the\s+middle)\s+"
    r"between\s+(?=(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}\b)",
    re.I,
)
_TO_NOMINAL = re.compile(
    r"\b(?P<to>(?:back\s+)?to)\s+(?:its\s+|their\s+|the\s+)?(?P<ref>nominal|design|default|golden)\b"
    r"(?!\s+(?:values?|settings?|setpoints?|currents?|gaps?)\b)",
    re.I,
)
_SHOULD_BE_ANOTHER = re.compile(
    r"\b(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:setpoint|sp|current|gap))?)\s+(?:should|must|"
    r"needs?\s+to|has\s+to|ought\s+to)\s+(?:be|equal|match)\s+(?:the\s+same\s+as\s+|equal\s+to\s+)?"
    r"(?P<source>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3})\b(?!\s*(?:[.:]\d|mm|a\b|amps?|%))",
    re.I,
)


_WHATEVER_IT_IS = re.compile(
    r"\s*(?:\bto|->|→|=)\s*(?:what(?:ever)?|where(?:ever)?)\s+(?P<source>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}"
    r"(?:\s+(?:setpoint|sp|readback|rb|gap))?)\s+(?:is|'s|reads|sits|shows|has)"
    r"(?:\s+(?:sitting|reading|set|now|currently|right\s+now))*(?:\s+at)?(?=\s*(?:[,.;!?]|$))",
    re.I,
)


_FACTOR_FIRST = re.compile(
    r"(?P<lead>(?::=|=|\bto|\bat|←|<-)\s*)(?P<n>\d*\.?\d+)\s*(?:×|\*|x|times)\s*"
    r"(?P<what>(?:the\s+)?[A-Za-z]{1,6}\s?\d{1,3}(?:\s+(?:gap|current|setpoint|readback|sp|rb))?)\b",
    re.I,
)
_SAME_VALUE = re.compile(r"\bthe\s+same\s+value\s+as\b", re.I)


_SET_IT_AFTER = re.compile(
    r"\s*[,;.]\s*(?:so\s+|then\s+)?(?:please\s+)?(?:set|do|apply)\s+(?:it|that|this)(?:\s+please)?\W*$",
    re.I,
)


_TAKE_ON_THE_SAME = re.compile(
    r"\b(?:have|let|get)\s+(?P<what>[^,;?.]{1,60}?)\s+(?:take\s+on|adopt|assume|get|have|go\s+to)\s+"
    r"(?:exactly\s+|precisely\s+)?(?:the\s+)?same\s+(?:value|setting|setpoint|current|one\s+)?\s*as\b",
    re.I,
)


_SAME_AS_A_NUMBER = re.compile(
    r"\b(?P<relation>same\s+(?:\w+\s+)?as|match(?:es)?|equal\s+to)\s+(?:the\s+)?"
    r"(?:number\s+|no\.?\s*|#|one\s+)(?P<second>\d{1,3})\b",
    re.I,
)


_FAMILY_BEFORE = re.compile(
    r"(?P<family>[a-z]+(?:\s+[a-z]+)?)\s+(?:number\s+|no\.?\s*|#)?\d{1,3}\b(?!.*\d)", re.I | re.S
)


def _same_family(found: re.Match[str]) -> str:
    """ "vertical steerer 14 ... the same as number 15" -> "... as vertical steerer 15": the
    device named by its number alone is of the family named before it."""
    before = _FAMILY_BEFORE.search(found.string[: found.start()])
    if before is None:
        return found.group(0)
    words = [w for w in before["family"].split() if w.lower() not in CHANGE | _NOT_FAMILY]
    if not words:
        return found.group(0)
    return f"{found['relation']} {' '.join(words)} {found['second']}"


_NOT_FAMILY = frozenset({"the", "a", "to", "have", "make", "let", "get", "and", "of", "for"})


_SETPOINT_TO_ITS_READBACK = re.compile(
    # "could you match the cavity voltage setpoint to what the readback shows?", "make the
    # HCM 3 setpoint equal to its readback"
    r"^\W*(?:(?:could|can|would|will)\s+you\s+)?(?:(?:please\s+)?(?:match|set|bring|put|make)\s+)?"
    r"(?:the\s+)?(?P<what>[^,;?]{1,40}?)\s+(?:setpoint|sp)\s*(?:(?:be\s+)?equal\s+to|to|with|=|←|<-|:=)"
    r"\s*(?:what(?:ever)?\s+)?(?:(?:its|the)\s+)?(?:own\s+)?(?:readback|rb)\b"
    r"(?:\s+value|\s+(?:shows|says|reads|is|gives))?\s*(?:please)?\s*[.!?]*$",
    re.I,
)


_READBACK_THEN_SETPOINT = re.compile(
    r"^\W*(?:(?:please|first)\s+)?(?:check|read|look\s+at|get)\s+(?:the\s+)?(?P<what>[^,;?]{1,40}?)\s+"
    r"(?:readback|rb)\s*,?\s+(?:and|then)\s+(?:then\s+)?(?:make|set|bring|put)\s+(?:the|its)\s+"
    r"(?:setpoint|sp)\s+(?:match|equal|to|=)\s*(?:it|that|to\s+it|to\s+that)?\s*(?:please)?\s*[.!?]*$",
    re.I,
)
_GIVE_A_SHARE_OF = re.compile(
    r"\bgive\s+(?P<target>(?:the\s+)?[^,;?]{2,50}?)\s+(?P<factor>half|twice|double|triple)\s+the\s+"
    r"(?:gap|current|setting|value|setpoint|voltage)\s+of\s+(?P<source>(?:the\s+)?[^,;?]{2,50}?)"
    r"(?=\s*(?:[.!?]|$))",
    re.I,
)


_FACTORS = {
    "half": 0.5,
    "twice": 2.0,
    "double": 2.0,
    "triple": 3.0,
    "third": 1 / 3,
    "quarter": 0.25,
}


_SCALED_COPY = re.compile(
    r"(?P<lead>(?:\bto|\bbe|\bat|=|->|→|:=)\s*|\bmake\s+(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+[a-z]+)?\s+)"
    r"(?:(?P<word>half|twice|double|triple|(?:a|one)\s+(?:third|quarter))|"
    r"(?P<times>\d+(?:\.\d+)?)\s*(?:times|x)|(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent)(?=\s+of\b))"
    # "twice the gap of the one in sector 5" is said further below
    r"\s+(?:of\s+)?(?:the\s+)?(?:(?:value|setting|setpoint|reading)\s+of\s+)?(?:what\s+)?"
    r"(?P<source>[A-Za-z]{1,5}\s?\d{1,3}\b(?:\s+(?:gap|setpoint|sp|current|readback|rb))?|"
    # "twice the undulator in sector 5": a device described by its kind and sector
    r"(?:the\s+)?(?:[a-z]+\s+){1,4}?(?:in|of|at)\s+sector\s+\d{1,2}\b)",
    re.I,
)


def _scaled_copy(found: re.Match[str]) -> str:
    """ "to half the ID09 gap" -> "to the same value as ID09 gap times 0.5"."""
    if found["word"]:
        factor = _FACTORS[found["word"].split()[-1].lower()]
    elif found["times"]:
        factor = float(found["times"])
    else:
        factor = float(found["pct"]) / 100.0
    lead = found["lead"]
    if not lead.strip().lower().startswith("make"):
        lead = "to " if lead.strip().lower() in ("=", "->", "→", ":=", "at") else lead
    return f"{lead}the same value as {found['source']} times {factor:.6g}"
