"""A reading checked against a threshold: what is read, apart from the check asked of it.

"are both tunes within 0.01 of nominal?", "vertical orbit sector 2 - anything beyond +/-0.1
mm?", "was the sector 7 vacuum above 5e-9 at any point yesterday?", "worst vacuum gauge in
the ring right now?": the channels are the tunes, the sector-2 vertical BPMs, the sector-7
gauges and every gauge; the rest is a check of their values (a comparison with a number, a
band around a reference, or a ranking), which the answer makes of what was read. The parse
finds the channels in the request without the check (``without_check``); ``Check`` says
which check was asked, for the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from osprey_desktop.language.units import lookup_unit

__all__ = ["Check", "check_asked", "without_check"]

_NUMBER = r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+−]?\d+)?"
_UNIT = (
    r"(?:\s*(?!(?:or|and|at|of|in|on|to|for|the|is|are|was|yet|now|ever|any|since|from|over)\b)"
    r"(?P<unit>[a-zA-Zµ%]{1,5})\b)?"
)
_REFERENCE = (
    r"(?:the\s+|its\s+|their\s+)?(?P<ref>nominal|golden|design|reference|setpoints?|"
    r"set\s*points?)(?:\s+values?)?"
)
_BAND = re.compile(
    rf"\s*(?:(?:is|are|was|were|stays?|stayed)\s+)?(?:all\s+|both\s+)?(?:still\s+)?"
    rf"(?P<op>within|inside|outside)\s+(?:±|\+/-|\+-)?\s*(?P<num>{_NUMBER}){_UNIT}"
    rf"(?:\s+(?:of|from|around)\s+{_REFERENCE})?",
    re.I,
)
_BEYOND = re.compile(
    rf"\s*[-–—,:]?\s*(?:(?:is|are|was|were)\s+)?(?:anything|any(?:\s+of\s+them|\s+one)?|something)?\s*"
    rf"(?P<op>beyond|outside|past|exceeding|over|above|more\s+than)\s+(?P<pm>±|\+/-|\+-)\s*"
    rf"(?P<num>{_NUMBER}){_UNIT}",
    re.I,
)
_LEVEL = re.compile(
    rf"\s*(?:(?:is|are|was|were|gets?|got|went|goes|stays?|stayed)\s+)?"
    rf"(?P<op>above|below|over|under|exceed(?:s|ed|ing)?|greater\s+than|less\s+than|more\s+than|"
    rf"higher\s+than|lower\s+than|cross(?:es|ed|ing)?)\s+(?P<num>{_NUMBER}){_UNIT}"
    rf"(?:\s+(?:at\s+any\s+(?:point|time|moment)|ever|at\s+all))?",
    re.I,
)
# "is the RF frequency still at nominal?", "how far is HCM 9 from its nominal?": the distance
# from the list's nominal value
_FROM_NOMINAL = re.compile(
    r"\s*(?:(?:is|are|was|were)\s+)?(?:still\s+)?(?:all\s+)?(?P<op>at|from|off|away\s+from|"
    r"compared\s+(?:to|with)|vs\.?|against)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?P<ref>nominal|golden|design)(?:\s+values?)?",
    re.I,
)
# "is the x tune still near 14.22?": close to a value (the answer says how far)
_NEAR = re.compile(
    rf"\s*(?:(?:is|are|was|were|stays?|stayed)\s+)?(?:still\s+)?(?P<op>near|close\s+to|around)\s+"
    rf"(?P<num>{_NUMBER})(?![\d:.])(?!\s*(?:am|pm|a\.m|p\.m|o'?clock)\b)(?![^,;?]{{0,16}}\bago\b)"
    rf"{_UNIT}"
    r"(?:,?\s+or\s+(?:did|has|have|is|are)\s+(?:it|they)\s+\w+(?:\s+\w+)?)?",
    re.I,
)
# "is HCM 3 at 0.0?", "is the RF frequency setpoint 499.654 MHz?", "QF 9 = 121?": whether
# a value is the one named, to the digits typed (a question; "set QF 9 at 121" is a change)
_AT_VALUE = re.compile(
    r"(?:\s+(?P<op>at|set\s+to|=|==|equal\s+to|still)\s+|(?:"
    r"(?<=\bsetpoint)|(?<=\bsp)|(?<=\breadback)|(?<=\brb)|(?<=\bvalue)|(?<=\bgap)"
    r"|(?<=\bvoltage)|(?<=\bfrequency)|(?<=\bcurrent)|(?<=\blifetime)|(?<=\benergy)"
    r")\s+)"
    rf"(?P<num>{_NUMBER})(?![\d:])"
    rf"(?!\s*(?:am|pm|a\.m|p\.m|o'?clock|yesterday|today|this|last)\b){_UNIT}"
    r"(?:\s+(?:now|right\s+now|currently|at\s+the\s+moment|still|already))?"
    r"(?:,?\s+(?:right|correct|yes|no|ok))?\s*[?.!]*\s*$",
    re.I,
)
_AT_VALUE_ASKED = re.compile(r"^\W*(?:is|are)\b[^?]*\?\s*$|^[^?]*=\s*[^?]*\?\s*$", re.I)
#: a terse question of a value ("ID 7 at 12 mm?", "qf 9 at 121 now?"), never of a time
_TERSE_QUESTION = re.compile(
    r"^(?!\W*(?:what|when|how|which|who|why|where|was|were)\b)[^?]*\?+\s*$", re.I
)
_RANK = re.compile(
    r"\b(?P<op>worst|best|highest|lowest|largest|smallest|biggest)\b(?=\s+(?:[a-z]+\s+){0,2}"
    r"(?:gauges?|bpms?|correctors?|magnets?|quads?|quadrupoles?|readings?|pressures?|"
    r"vacuum|positions?|channels?|ones?|sectors?))",
    re.I,
)
_HOW_OFTEN = re.compile(r"\bhow\s+(?:often|many\s+times)\b|\bnumber\s+of\s+times\b", re.I)
#: Durations the unit table does not convert to seconds ("over 2 days" names a window too).
_DAYS = frozenset({"d", "day", "days", "week", "weeks"})
_OPERATORS = {
    "above": ">",
    "over": ">",
    "exceed": ">",
    "exceeds": ">",
    "exceeded": ">",
    "exceeding": ">",
    "greater than": ">",
    "more than": ">",
    "higher than": ">",
    "below": "<",
    "under": "<",
    "less than": "<",
    "lower than": "<",
    # "how often did the lifetime cross 9 h?": past it either way
    "cross": "x",
    "crosses": "x",
    "crossed": "x",
    "crossing": "x",
}


@dataclass(frozen=True)
class Check:
    """The check asked of a reading: ``kind`` "level" (``op`` > or <), "band" (within or
    outside ``amount`` of ``reference``), "beyond" (outside ±``amount``), "near" (how far from
    ``amount``; ``op`` "at" asks whether it is that value, to the digits typed), or "rank"."""

    kind: str
    op: str
    amount: float | None = None
    unit: str | None = None
    reference: str | None = None
    words: str = ""
    #: "how often did X go above ...": the number of times, not only whether
    counted: bool = False


def _amount(said: str) -> float | None:
    try:
        return float(said.replace("−", "-"))
    except ValueError:
        return None


def _a_span(found: re.Match[str] | None, text: str) -> bool:
    """A duration said where a request names its window ("plot the lifetime over 2 hours",
    "show the vacuum over 24 h"), not a threshold asked ("is the lifetime over 8 h?")."""
    unit = (found["unit"] or "") if found is not None else ""
    if found is not None and _OPERATORS.get(found["op"].lower(), ">") == "<":
        return False  # "below 10 h", "under 8 hours": a level, never a window
    if _HOW_OFTEN.search(text):
        return False  # "how often was the lifetime over 12 h": counted, so a level
    if not unit or (unit.lower() not in _DAYS and (lookup_unit(unit) or ("",))[0] != "s"):
        return False
    return "?" not in text and not re.match(r"^\W*(?:is|are|was|were|has|have)\b", text, re.I)


def check_asked(text: str) -> Check | None:
    """The check ``text`` asks of what it reads, or None."""
    band = _BAND.search(text)
    if _a_span(band, text):
        band = None
    if band is not None:
        ref = (band["ref"] or "").lower() or None
        return Check("band", band["op"].lower(), _amount(band["num"]), band["unit"], ref, band[0])
    beyond = _BEYOND.search(text)
    if beyond is not None:
        return Check(
            "beyond", "outside", abs(_amount(beyond["num"]) or 0), beyond["unit"], None, beyond[0]
        )
    level = _LEVEL.search(text)
    if _a_span(level, text):
        return None
    if level is not None:
        op = re.sub(r"\s+", " ", level["op"].lower())
        return Check(
            "level",
            _OPERATORS.get(op, ">"),
            _amount(level["num"]),
            level["unit"],
            None,
            level[0],
            counted=_HOW_OFTEN.search(text) is not None,
        )
    nominal = _FROM_NOMINAL.search(text)
    if nominal is not None:
        return Check("band", "from", None, None, nominal["ref"].lower(), nominal[0])
    at = _AT_VALUE.search(text) if _AT_VALUE_ASKED.search(text) else None
    if at is None and _TERSE_QUESTION.search(text):
        at = _AT_VALUE.search(text)
        number = _amount(at["num"]) if at is not None else None
        if at is not None and not (at["unit"] or "." in at["num"] or (number or 0) > 24):
            at = None  # "lifetime at 7?": an hour, not a value
    if at is not None:
        return Check("near", "at", _amount(at["num"]), at["unit"], None, at[0])
    near = _NEAR.search(text)
    if near is not None:
        return Check("near", "near", _amount(near["num"]), near["unit"], None, near[0])
    rank = _RANK.search(text)
    if rank is not None:
        return Check("rank", rank["op"].lower(), words=rank[0])
    return None


def without_check(text: str) -> str:
    """``text`` without the words of the check it asks (unchanged when it asks none)."""
    check = check_asked(text)
    if check is None:
        return text
    said = text.replace(check.words, " " if check.kind != "rank" else "", 1)
    return " ".join(said.split()).replace(" ?", "?")
