"""Writes said tersely or of a group, said the way the parse and the writers read them.

* a state word made exact by the value said with it: "hcms in sec 11 all off pls (0)", "the
  vertical correctors in sector 10 switched off, by which I mean set to 0 A", "VCM 35 please
  make flat, put it on zero" set them to that value. The value is the operator's own and must
  be zero for "off", "flat" and "zero": a state word said alone ("switch off HCM3") keeps its
  meaning (a state of the channel, or a question), and a state said with another value is
  asked about;
* "clear X to 0": set it to that value;
* an amount leading, then the device it goes on: "half an amp on vcm 26" puts it there (a
  signed amount is a change, and stays as typed);
* the approval named with a list of values ("..., all in one approval"): how, not what;
* a condition said as a comparison before an arrow: "LT > eight h → RF V SP two point four MV"
  is "if LT > 8 h, set RF V SP to two point four MV"; so is a reading asked, then its
  comparison ("DCCT? if >400mA → HCM30 +0.15A");
* a typographic minus before a number ("VCM17 −0.1A") is its sign;
* a shift's shorthand: "chk" for check, "sr05 idgap" for the ID gap of sector 5, "q.f.21" for
  QF21.

``value_asked_of_limits`` tells a terse question of the limits ("vcm 13 +3a ok or over the
limit") from a write: it asks, and nothing is written.
"""

from __future__ import annotations

import re

from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed, read_number
from osprey_desktop.language.units import lookup_unit

__all__ = ["terse_said_plainly", "value_asked_of_limits"]

_UNSIGNED = rf"(?:\d+(?:\.\d*)?|\.\d+|{SPELLED_NUMBER_PATTERN})"
_SIGNED = rf"(?:[-+−]\s?)?{_UNSIGNED}"
_VALUE = rf"(?P<val>{_SIGNED}(?:\s*(?:%|[a-zµ]{{1,8}}\b))?)"
_STATE = r"(?:off|flat|zero(?:ed)?)"
#: Before a state word, what makes it told or asked, not asked for ("if X is off", "at zero")
_STATE_TOLD = re.compile(
    r"(?:\b(?:if|when|whenever|unless|while|once)\b[^,;.]*|\b(?:is|are|was|were|been|at|still)\s+)$",
    re.I,
)


def terse_said_plainly(text: str) -> str:
    """``text`` with the forms of the module's docstring said plainly."""
    # "VCM17 −0.1A", "RF freq −500 Hz": the typographic minus of a sign is the minus
    work = re.sub(r"(?<![\w.])[−–](?=\s?\.?\d)", "-", text)
    work = _SHORT_CHECK.sub(lambda m: f"{m['lead']}check", work)
    work = _DOTTED_NAME.sub(_name_undotted, work)
    work = _SECTOR_DEVICE.sub(lambda m: f"sector {int(m['n'])} ", work)
    work = re.sub(r"\bid\s?gap(s?)\b", r"ID gap\1", work, flags=re.I)
    work = _ONE_APPROVAL.sub(r"\g<end>", work)
    work = _STATE_RESTATED.sub(_restated, work)
    work = _STATE_GIVEN.sub(_state_given, work)
    work = _STATE_ALONE.sub(_state_alone, work)
    work = _EACH_VALUE.sub(_each_value, work)
    work = _CLEAR_TO.sub(lambda m: f"set {m['what']} to ", work)
    work = _AMOUNT_LEADS.sub(_amount_put_on, work)
    work = _ASKED_THEN_IF.sub(lambda m: f"{m['subject']} ", work)
    return _COMPARED_THEN.sub(_condition_said, work)


#: "q.f.21", "H.C.M. 7": a device's letters written with stops, then its number
_DOTTED_NAME = re.compile(
    r"(?<![\w.])(?P<letters>(?:[A-Za-z]\.){2,4})\s?(?P<n>\d{1,3})(?![\w.]*\d)"
)
#: Abbreviations written with stops that are no device ("e.g. 5 A", "i.e. 0", "a.m. 9")
_NOT_NAMES = frozenset({"eg", "ie", "am", "pm", "vs", "ca", "cf", "no", "nb"})


def _name_undotted(found: re.Match[str]) -> str:
    letters = found["letters"].replace(".", "")
    if letters.lower() in _NOT_NAMES:
        return found.group(0)
    return f"{letters.upper()}{found['n']}"


_SHORT_CHECK = re.compile(
    r"(?P<lead>^\W*|[,;.]\s*|\b(?:then|and|pls|please)\s+)(?:chk|chck)\b", re.I
)
#: "sr05 idgap", "SR 7 hcms": a ring's sector before the name of a device family
_SECTOR_DEVICE = re.compile(
    r"\bsr\s?(?P<n>\d{1,2})c?\s+(?=(?:id\s?gaps?|ids?|undulators?|hcms?|vcms?|correctors?|bpms?|"
    r"quads?|gauges?|igs?)\b)",
    re.I,
)
_ONE_APPROVAL = re.compile(
    r"[\s,;]+(?:(?:all|both)\s+)?(?:in|with|as|under|through)\s+(?:one|a\s+single|a|the\s+same|1)\s+"
    r"(?:single\s+)?(?:approval|confirmation|go|step|batch|request)\b(?:\s+please)?(?P<end>\s*[.!]*)$",
    re.I,
)
#: "switched off, by which I mean set to 0 A", "make flat, put it on zero", "off, i.e. 0 A":
#: the state said, then the value it means (said as "off (0 A)")
_STATE_RESTATED = re.compile(
    r"(?P<state>\b(?:off|flat|zeroed))\s*[,;:]?\s*(?P<marker>(?:by\s+which\s+(?:i|we)\s+mean|which\s+means|"
    r"meaning|i\.\s?e\.|ie|that\s+is(?:\s+to\s+say)?|in\s+other\s+words|so)\s*,?\s*)?"
    r"(?P<verb>(?:set|put|bring|make|take)\s+(?:it\s+|them\s+|all\s+|each\s+)?(?:to|at|on)\s+|"
    rf"(?:to|at)\s+)?{_VALUE}(?=\s*(?:[.!;]|$))",
    re.I,
)


def _restated(found: re.Match[str]) -> str:
    value = found["val"]
    if not (found["marker"] or found["verb"]) or not _zero(value) or not _unit_or_none(value):
        return found.group(0)
    if _STATE_TOLD.search(found.string[: found.start()]):
        return found.group(0)  # "if HCM19 is off, set it to 0 A": a condition, then its change
    return f"{found['state']} ({found['val'].strip()})"


def _unit_or_none(value: str) -> bool:
    word = re.search(r"[a-zµ%]+$", value.strip(), re.I)
    return word is None or read_number(value) is not None or lookup_unit(word.group(0)) is not None


def _zero(value: str) -> bool:
    """Whether ``value`` is zero, in any unit ("0", "0 A", "zero")."""
    number = re.sub(r"\s*(?:%|[a-zµ]+)$", "", value.strip(), flags=re.I) or value
    amount = read_number(value.strip())
    if amount is None:
        amount = read_number(number)
    return amount == 0


#: "hcms in sec 11 all off pls (0)", "I'd like X switched off (0 A)", "switch off X (0)"
_STATE_GIVEN = re.compile(
    # the clause from its sentence's start: a list of devices is one object ("hcm 3, 4 and 5 off")
    rf"(?P<lead>^\W*|;\s*|\.\s+|\bthen\s+)(?P<clause>(?:(?!\bthen\b)[^;()])+?\b{_STATE}\b[^;()]*?)\s*"
    rf"\(\s*=?\s*{_VALUE}\s*\)",
    re.I,
)
_WISH_LEAD = re.compile(
    r"^(?:(?:i|we)(?:'d|\s+would)\s+like|(?:i|we)\s+(?:want|need)|(?:can|could|would)\s+you|"
    r"please|pls|plz|kindly)\s+",
    re.I,
)
_STATE_WORDS = re.compile(
    r"\b(?:please|pls|plz|you|all|be|off|flat|zero(?:ed)?|switch(?:ed)?|turn(?:ed)?|put|set|"
    r"make|made|get|got|have|bring|brought)\b",
    re.I,
)
_NOT_OBJECT_WORDS = """or then but if when what how which why is are was were do does did read
show check plot raise lower increase decrease open close move change tell"""
_NOT_OBJECT = frozenset(_NOT_OBJECT_WORDS.split())


def _state_given(found: re.Match[str]) -> str:
    value = found["val"].strip()
    if not _zero(value) or not _unit_or_none(value):
        return found.group(0)  # "off (0.3 A)": which is meant is asked, never guessed
    clause = _WISH_LEAD.sub("", found["clause"].strip())
    what = " ".join(_STATE_WORDS.sub(" ", clause).split())
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", what)}
    if not what or words & _NOT_OBJECT:
        return found.group(0)
    return f"{found['lead']}set {what} to {value}"


#: "HCM 3 off pls", "orbit FB on please": a state asked for without a verb (the courtesy says it
#: is asked for; "HCM 3 off" alone may tell a state in a logbook's line)
_STATE_ALONE = re.compile(
    r"^(?P<lead>\W*)(?P<what>[^,;?()]+?)\s+(?:all\s+)?(?P<state>off|on)\s*,?\s*(?:please|pls|plz)"
    r"\s*[.!]*$",
    re.I,
)


def _state_alone(found: re.Match[str]) -> str:
    what = found["what"].strip()
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", what)}
    if words & (_NOT_OBJECT | _STATE_VERBS_SAID):
        return found.group(0)
    return f"{found['lead']}switch {found['state'].lower()} {what}"


#: "sector 8 hcms, each 0.1 A", "the vertical correctors of sector 6, all of them on 0.05 A":
#: a group named, then the value each takes
_EACH_VALUE = re.compile(
    r"^(?P<lead>\W*)(?P<what>[^,;?()]+?)\s*,\s*(?:and\s+)?(?:all|each|both|every\s+one)"
    r"(?:\s+of\s+them)?\s+(?:(?P<mark>on|at|to)\s+|(?P<sign>=|->|→)\s*)?"
    rf"{_VALUE}\s*(?:,?\s*(?:please|pls|plz))?\s*[.!]*$",
    re.I,
)


def _each_value(found: re.Match[str]) -> str:
    what = found["what"].strip()
    value = found["val"].strip()
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", what)}
    if words & (_NOT_OBJECT | _STATE_VERBS_SAID) or not _unit_or_none(value):
        return found.group(0)
    if value.startswith("+") and not (found["mark"] or found["sign"]):
        # "QF 3 and QF 5, each +1 A": a signed plus is a change, as after a name
        return f"{found['lead']}increase {what} by {value[1:].strip()}"
    return f"{found['lead']}set {what} to {value}"


_STATE_VERBS_SAID = frozenset({"switch", "turn", "put", "set", "be", "you", "it", "them"})
_CLEAR_TO = re.compile(
    r"\bclear\s+(?P<what>it|them|(?:the\s+)?[^,;:?!]{1,40}?)\s+to\s+(?=[-+−]?\.?\d|zero\b)", re.I
)
#: "half an amp on vcm 26", "0.2 A for HCM 4": an amount said first, then its device
_AMOUNT_LEADS = re.compile(
    # a sign before the amount is no part of the lead ("-0.1 A on HCM4" is left as typed)
    rf"^(?P<lead>[^\w+\-−.]*(?:(?:please|pls|plz)\s+)?)(?P<num>{_UNSIGNED})\s*(?P<unit>%|[a-zµ]{{1,8}})\s+"
    r"(?:on|onto|for)\s+(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?-?\d{1,3}(?:\s+[a-z]+)?)"
    r"(?:\s*,?\s*(?:please|pls|plz))?\s*[.!]*$",
    re.I,
)


def _amount_put_on(found: re.Match[str]) -> str:
    unit = lookup_unit(found["unit"])
    if (
        unit is None
        or unit[0] in ("s", "%")
        or re.match(r"(?:minus|negative|plus)\b", found["num"], re.I)
    ):
        return found.group(0)  # "2 h on HCM4" is no amount to put; a sign is a change
    return f"{found['lead']}put {found['num']} {found['unit']} on {found['what']}"


_COMPARISON_WORDS = {
    ">": "above",
    ">=": "at least",
    "≥": "at least",
    "<": "below",
    "<=": "at most",
    "≤": "at most",
}
#: "LT > eight h → RF V SP two point four MV", "lifetime over 8 h -> QF3 121 A", "lt > 8h: ...":
#: a comparison, an arrow (or a colon), the change it guards
_COMPARED_THEN = re.compile(
    r"^\W*(?P<subject>[A-Za-z][\w .:-]{0,40}?)\s*(?P<op>>=|<=|>|<|≥|≤|(?:is\s+)?(?:over|above|"
    r"under|below|(?:more|less|greater|higher|lower)\s+than)\b)\s*"
    rf"(?P<num>{_SIGNED}(?:e[-+]?\d+)?)\s*(?P<unit>[a-zµ%]{{1,5}}\b)?\s*(?:→|->|=>|:(?!\d))\s*"
    r"(?P<change>[^→]+?)\s*[.!]*$",
    re.I,
)
#: "DCCT? if >400mA → HCM30 +0.15A": the reading asked, then the comparison its change needs
_ASKED_THEN_IF = re.compile(
    r"^\W*(?P<subject>[A-Za-z][^?,;]{0,40}?)\s*\?\s*(?:and\s+)?(?:only\s+)?if\s*"
    r"(?=(?:>=|<=|>|<|≥|≤|over\b|above\b|under\b|below\b)\s*[-+−]?\.?\d)",
    re.I,
)
_CHANGE_VERB = re.compile(
    r"^\W*(?:set|put|increase|decrease|raise|lower|reduce|open|close|change|make|bump|move|"
    r"adjust|apply|nudge|bring|zero|take)\b",
    re.I,
)
_TRAILING_VALUE = re.compile(rf"^(?P<what>.+?)\s+(?P<mark>to\s+|at\s+|=\s*)?{_VALUE}$", re.I)


def _condition_said(found: re.Match[str]) -> str:
    if re.match(r"\W*(?:if|when|is|are|was|what|how)\b", found.group(0), re.I):
        return found.group(0)  # a condition said with "if", or a question: read elsewhere
    amount = read_number(found["num"])
    if amount is None:
        return found.group(0)
    unit = f" {found['unit']}" if found["unit"] else ""
    change = found["change"]
    if not _CHANGE_VERB.match(change):
        valued = _TRAILING_VALUE.match(change)
        if valued is None or not _unit_or_none(valued["val"]):
            return found.group(0)
        value = valued["val"].strip()
        if value.startswith("+") and not valued["mark"]:
            # "HCM30 +0.15A": a signed plus is a change, as the writer reads it after a name
            change = f"increase {valued['what']} by {value[1:].strip()}"
        else:  # "VCM 3 -0.05 A": a value, as the writer reads it after a name
            change = f"set {valued['what']} to {value}"
    said = re.sub(r"^is\s+", "", found["op"].lower())
    comparison = _COMPARISON_WORDS.get(said) or (
        "above" if said.startswith(("over", "above", "more", "greater", "higher")) else "below"
    )
    return f"if {found['subject'].strip()} is {comparison} {as_typed(amount)}{unit}, {change}"


#: "vcm 13 +3a ok or over the limit", "hcm 4 -2 A ok?", "QF3 to 125 A over the max?": a
#: device and a value or a change, asked whether the limits allow it
_OVER = r"(?:over|above|beyond|outside|past|too\s+(?:much|big|far|high|large))"
_ASKED_OF_LIMITS = re.compile(
    r"^\W*(?:is\s+|would\s+)?(?:the\s+)?[a-z]{2,5}\s?\d{1,3}\s+(?:(?:to|at|by)\s+|=\s*|->\s*)?"
    r"[-+−]?\s?(?:\d+(?:\.\d*)?|\.\d+)\s*[a-zµ%]{0,4}\s*[,:;-]?\s*"
    r"(?:(?:is\s+(?:that|it)|would\s+(?:that|it)\s+be|still)\s+)?"
    # "ok?", "ok or not", "fine or over the limit", "over the max?"
    r"(?:(?:ok(?:ay)?|fine|allowed|permitted|safe|possible|acceptable)\s*(?:\?|\bor\s+(?:not\b|"
    rf"(?:is\s+(?:it|that)\s+|would\s+(?:it|that)\s+be\s+)?{_OVER}))"
    r"|(?:over|above|beyond|outside|past)\s+(?:the\s+|its\s+)?(?:limits?|max(?:imum)?)\b)",
    re.I,
)


def value_asked_of_limits(text: str) -> bool:
    """Whether ``text`` asks, tersely, if a device's value or change is inside its limits."""
    return _ASKED_OF_LIMITS.search(" ".join(text.split())) is not None
