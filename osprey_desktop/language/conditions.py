"""A change with a condition, said the one way the writer reads it: "if <condition>,
<change>".

The writer checks a condition it can read ("if the lifetime is above 8 h, set HCM16 to
0.2 A"); operators say it in other orders and shapes, which this module says that way:

* a question answered by "if so" / "if not": "is QF31 still at 120 A? if so put it to 120.8";
* a question followed by its change: "current above 495 mA? then take the ID 02 gap to 16 mm";
* the condition said last: "set HCM 16 to 0.2 A, but only if the lifetime is above 8 h",
  "... as long as the current stays over 400 mA";
* a condition running into its change without a comma: "if lifetime>5h -> ID09 gap 14mm";
* a value alone after a question: "id2 gap? then 16mm" ("... then set it to 16mm").
"""

from __future__ import annotations

import re

from osprey_desktop.language.clauses import CONDITIONAL
from osprey_desktop.language.lexicon import CHANGE

# "is QF31 still at 120 A? if so put it to 120.8": the question is the write's condition
_IF_SO = re.compile(
    r"^\W*(?:(?P<aux>is|are)\s+)?(?P<asked>[^?]+)\?\s*(?:and\s+)?if\s+(?:(?P<yes>so|yes|it\s+is|"
    r"they\s+are|that'?s\s+the\s+case)|(?P<no>not|no|it\s+isn'?t|it\s+is\s+not|they\s+aren'?t)),?\s*"
    r"(?P<change>.+)$",
    re.I,
)
# "id2 gap? then 16mm", "rf volt sp? -> 2.45": a value after the question is the change
_VALUE_AFTER_QUESTION = re.compile(
    r"\?\s*(?:(?:and\s+)?then\s+|->\s*|→\s*|=>\s*)(?P<value>[-+−]?(?:\d+(?:\.\d*)?|\.\d+)\s*"
    r"[a-zµ%]{0,4})\s*[.!]*$",
    re.I,
)


YES_NO_LEAD = re.compile(r"^\W*(?:is|are|was|were|does|do|did|has|have)\s+", re.I)
PREDICATE = re.compile(
    r"\s+(?:is|are|was|were|has|have|had|reads?|stays?|still|remains?|drops?|dropped|falls?|"
    r"fell|fallen|goes|went|gets?|exceeds?|exceeded|above|below|over|under|at|within|less|more|"
    r"greater|higher|lower|[<>=≥≤])(?:\s|$).*$",
    re.I,
)


def subject_asked(clause: str) -> str:
    """What a condition or a yes/no question is about: "HCM19 is still at zero" and "is QF31
    still at 120 A" are about HCM19 and QF31; "" when the clause says nothing of the kind."""
    lead = YES_NO_LEAD.match(clause)
    if lead is None and not re.search(r"\s(?:is|are|was|were|has|have|reads?|stays?)\b", clause):
        return ""
    rest = clause[lead.end() :] if lead else clause
    subject = PREDICATE.sub("", rest).strip(" ,")
    return subject if subject and subject != rest.strip(" ,") else ""


# "if lifetme under 20h set vcm3 to 0.1", "if lifetime>5h -> ID09 gap 14mm": a condition that
# runs into its change without a comma
_CONDITION_RUN_ON = re.compile(
    r"(?P<cond>(?:^\W*|,\s*(?:and\s+)?|\band\s+)(?:only\s+)?if\s+[^,;]+?)"
    r"(?:\s*(?:->|→|=>)\s*|\s+(?=(?:set|put|"
    r"increase|decrease|raise|lower|reduce|open|close|change|make|bump|move|adjust|apply|"
    r"nudge|bring)\b))",
    re.I,
)


def _condition_apart(found: re.Match[str]) -> str:
    """The condition, a comma, and for an arrow to a bare value ("-> ID09 gap 14mm") the verb
    it stands for."""
    arrow = re.search(r"->|→|=>", found.group(0)[len(found["cond"]) :])
    verb_next = re.match(rf"\s*(?:{'|'.join(sorted(CHANGE))})\b", found.string[found.end() :], re.I)
    return f"{found['cond']}, set " if arrow and not verb_next else f"{found['cond']}, "


def condition_said_first(text: str) -> str:
    """``text`` with the forms above said the way the writer reads them: "if QF31 is still at
    120 A, put it to 120.8", "id2 gap? then set it to 16mm"."""
    asked = _IF_SO.match(text)
    if asked is not None:
        # "lifetime under 5 h? if not, set HCM25 to 0.25 A": if it is not under 5 h
        condition = _asked_as_condition(asked["asked"], asked["aux"], "not " if asked["no"] else "")
        if condition:
            text = f"if {condition}, {asked['change']}"
    else:
        text = _condition_moved_first(text)
    text = _CONDITION_RUN_ON.sub(_condition_apart, text, count=1)
    return _VALUE_AFTER_QUESTION.sub(lambda m: f"? then set it to {m['value']}", text)


# "set HCM16 to 0.2 A, but only if the lifetime is above 8 h": the condition said last. The
# condition holds no comma ("...; if the step's too big, tell me" is no condition of the write)
_CONDITION_LAST = re.compile(
    r"^(?P<change>[^,;?]+?)\s*(?:[,;]\s*|\s+)(?:but\s+)?(?:only\s+)?"
    r"(?:if|provided(?:\s+that)?|as\s+long\s+as|assuming)\s+(?P<cond>[^,;?]+?)\s*[.!]*$",
    re.I,
)
# "current above 495 mA? then take the ID 02 gap to 16 mm": a question that compares, then the
# change it guards
_QUESTION_THEN = re.compile(
    r"^\W*(?:(?P<aux>is|are)\s+)?(?P<asked>[^?]+)\?\s*(?:(?:and\s+)?then\b,?|->|→|=>)\s*"
    r"(?P<change>.+)$",
    re.I,
)
_COMPARES = re.compile(
    r"(?:\b(?:above|below|over|under|less\s+than|more\s+than|greater\s+than|higher\s+than|"
    r"lower\s+than|within|at\s+least|at\s+most)\b|[<>≥≤])\s*[-+]?\.?\d",
    re.I,
)
_NEGATED_LEAD = re.compile(r"^\W*(?:don'?t|do\s+not|never|no)\b", re.I)
_CHANGE_VERB = re.compile(rf"\b(?:{'|'.join(sorted(CHANGE))})\b", re.I)


def _asked_as_condition(asked: str, aux: str | None, negation: str = "") -> str:
    """ "current above 495 mA" → "current is above 495 mA" (the subject, the verb, the rest)."""
    subject = PREDICATE.sub("", f" {asked}").strip(" ,")
    predicate = asked.strip()[len(subject) :].strip()
    predicate = re.sub(r"^(?:is|are)\s+", "", predicate, flags=re.I)
    if not subject or not predicate:
        return ""
    return f"{subject} {(aux or 'is').lower()} {negation}{predicate}"


def _condition_moved_first(text: str) -> str:
    """The condition said last or asked before its change, said first."""
    last = _CONDITION_LAST.match(text)
    if (
        last is not None
        and _CHANGE_VERB.search(last["change"])
        and not _NEGATED_LEAD.match(last["change"])
        and PREDICATE.search(f" {last['cond']}")
        and not CONDITIONAL.search(last["change"])
    ):
        return f"if {last['cond'].strip()}, {last['change'].strip(' ,')}"
    then = _QUESTION_THEN.match(text)
    if then is not None and _COMPARES.search(then["asked"]) and _CHANGE_VERB.search(then["change"]):
        condition = _asked_as_condition(then["asked"], then["aux"])
        if condition:
            return f"if {condition}, {then['change'].strip()}"
    return text


_CONDITION_THEN_CHANGE = re.compile(
    r"^(?P<cond>\W*(?:only\s+)?(?:if|when|provided|as\s+long\s+as)\s+[^,;]+?)\s*,\s*(?:then\s+)?"
    r"(?P<change>[^,;]+?)\s*[.!]*$",
    re.I,
)


def condition_and_change(text: str) -> tuple[str, str] | None:
    """ "if the tune stays under 8.4, then for QD 48 make 95.5 A" → the condition and the
    change after it, or None when ``text`` is not one condition and one change."""
    found = _CONDITION_THEN_CHANGE.match(text)
    return (found["cond"], found["change"]) if found else None
