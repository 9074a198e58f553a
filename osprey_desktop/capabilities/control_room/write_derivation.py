"""Writes whose value comes from the machine, not from a number the operator typed.

Three forms, each read from the request's grammar, never from a list of sentences:

- **copy**: another channel's present value ("make VCM08 the same as VCM07", "copy the VCM07
  setpoint to VCM08", "set HCM03 to HCM02's value");
- **restore**: a channel's own archived value at a moment ("restore QF11 to its value from
  this morning at 09:30", "put HCM05 back to where it was 2 hours ago");
- **condition**: a write that happens only when a reading compares as stated ("if the HCM20
  setpoint is below -1 A, set it to -1 A", "set HCM20 to 0 if it is above 2 A").

The value is found by the steps before the write (a read, an archive lookup); the approval
shows it and where it came from. Pure and deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, read_number

Kind = Literal["copy", "restore", "condition"]


@dataclass(frozen=True)
class Condition:
    """ "the HCM20 setpoint is below -1 A": which channel, how it compares, with what."""

    subject: str
    comparison: str  # "<", "<=", ">", ">=", "==", "!="
    threshold: float
    unit: str | None
    text: str

    def holds(self, value: float) -> bool:
        return {
            "<": value < self.threshold,
            "<=": value <= self.threshold,
            ">": value > self.threshold,
            ">=": value >= self.threshold,
            "==": value == self.threshold,
            "!=": value != self.threshold,
        }[self.comparison]

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{_SAID[self.comparison]} {self.threshold:g}{unit}"


@dataclass(frozen=True)
class Derivation:
    """Where a write's value comes from, and the words naming each part."""

    kind: Kind
    target: str  # the words naming the channels written
    source: str = ""  # copy: the words naming the channel copied
    moment: str = ""  # restore: the words naming the moment
    condition: Condition | None = None
    write: str = ""  # condition: the write clause, pronouns replaced by the subject
    #: copy: the source is the target's own reference channel ("its golden value")
    reference: bool = False
    #: copy: an amount added to the source's value ("QD10 minus 0.5 A": -0.5), and its unit
    #: as typed (None: the channel's)
    offset: float = 0.0
    offset_unit: str | None = None
    #: copy: the source's value times this ("half the ID09 gap": 0.5), before any offset
    factor: float = 1.0
    #: copy: the mean of the sources named ("the average of VCM30 and VCM32")
    mean: bool = False

    def describe(self) -> str:
        if self.kind == "copy" and self.mean:
            return f"the mean of the present values of {self.source}"
        if self.kind == "copy":
            times = f"{self.factor:g} times " if self.factor != 1.0 else ""
            return f"{times}the present value of {self.source}{self.offset_words()}"
        if self.kind == "restore":
            return f"the archived value of {self.target} at {self.moment}"
        assert self.condition is not None
        return f"only if {self.condition.subject} is {self.condition.describe()}"

    def offset_words(self) -> str:
        """ " plus 0.1 A", " minus 0.5 A", or "" without an offset."""
        if not self.offset:
            return ""
        unit = f" {self.offset_unit}" if self.offset_unit else ""
        return f" {'plus' if self.offset > 0 else 'minus'} {abs(self.offset):g}{unit}"


_SAID = {"<": "below", "<=": "at most", ">": "above", ">=": "at least", "==": "equal to"}
_SAID["!="] = "not equal to"

_COMPARISONS: tuple[tuple[str, str], ...] = (
    (r"not\s+(?:above|over|more\s+than|greater\s+than|higher\s+than)|no\s+more\s+than", "<="),
    (r"not\s+(?:below|under|less\s+than|lower\s+than)|no\s+less\s+than", ">="),
    (r"at\s+most|<=|≤|less\s+than\s+or\s+equal\s+to", "<="),
    (r"at\s+least|>=|≥|greater\s+than\s+or\s+equal\s+to|more\s+than\s+or\s+equal\s+to", ">="),
    (r"not\s+equal\s+to|not\s+at|different\s+from|!=|≠", "!="),
    (r"below|under|beneath|less\s+than|lower\s+than|smaller\s+than|<", "<"),
    (
        r"above|over|beyond|greater\s+than|higher\s+than|more\s+than|larger\s+than|"
        r"bigger\s+than|exceeds?|exceeding|>",
        ">",
    ),
    (r"equal\s+to|equals|==|=|at", "=="),  # "if HCM19 is still at zero"
)
_NUMBER = (
    rf"(?P<num>[-+−]?\s?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|(?:minus|negative)\s+\d+(?:\.\d+)?"
    rf"|{SPELLED_NUMBER_PATTERN})"
)
_UNIT = r"(?:\s*(?P<unit>[a-zµμ%]{1,12})\b)?"
_CONDITION = re.compile(
    r"^(?P<subject>.*?)\s*(?:\b(?:is|are|reads|reading|stays|gets|goes|falls|drops|rises|was|"
    r"has\s+gone|has\s+fallen|has\s+risen)\b\s*)?(?:\bstill\b\s*)?(?P<cmp>"
    + "|".join(f"(?:{p})" for p, _ in _COMPARISONS)
    + r")\s*"
    + _NUMBER
    + _UNIT,
    re.I,
)
_IF = r"(?:only\s+)?(?:if|when|whenever|provided(?:\s+that)?|in\s+case|as\s+long\s+as)"
# "if lifetime under 20h set vcm3 to 0.1", "if lifetime>5h -> ID09 gap 14mm": the condition
# ends at a comma, "then", an arrow, or the change verb that follows it
_CHANGE_LEAD = (
    r"(?=(?:set|put|increase|decrease|raise|lower|reduce|open|close|change|make|bump|move|"
    r"adjust|apply|nudge|bring)\b)"
)
_CONDITION_FIRST = re.compile(
    rf"^(?P<lead>.*?)\b{_IF}\b\s+(?P<cond>[^,;]+?)\s*(?:,|;|\bthen\b|->|→|=>|\s{_CHANGE_LEAD})\s*"
    r"(?:then\s+)?(?P<write>.+)$",
    re.I | re.S,
)
_JOINED_CLAUSE = re.compile(r"(?:,|\band|\bthen)\s*$", re.I)
_IF_WORD = re.compile(rf"\b{_IF}\b", re.I)
_CLAUSE_END = re.compile(rf"[,;]|\bthen\b|->|→|=>|\s{_CHANGE_LEAD}", re.I)
_CONDITION_LAST = re.compile(rf"^(?P<write>.+?)\s*,?\s*\b{_IF}\b\s+(?P<cond>.+)$", re.I | re.S)
_PRONOUN = re.compile(r"\b(?:it|them|its|their)\b", re.I)
#: "check the lifetime, and if it ...": what a clause before the condition reads
_CHECKED_FIRST = re.compile(
    r"\b(?:check|read|look\s+at|show|see)\s+(?P<what>(?!it\b|them\b)[^,;]+?)\s*(?:,|;)?\s*"
    r"(?:and|then)?\s*$",
    re.I,
)

# -- copy ----------------------------------------------------------------------------------
_COPY_VERB = r"(?:make|set|bring|put|change|adjust|match|align)"
_SAME = (
    r"(?:(?:to\s+)?(?:be\s+)?(?:the\s+)?same\s+(?:value\s+|setting\s+|setpoint\s+|current\s+)?"
    r"as|(?:to\s+)?(?:be\s+)?(?:equal|identical)\s+(?:to|with)|to\s+match|(?:in\s+)?line\s+with"
    r"|to\s+(?:the\s+)?(?:value|setting|setpoint|reading)\s+of|to\s+what(?:ever)?\s+(?:\S+\s+){1,3}"
    r"(?:is|reads|has|shows))"
)
_COPY_SAME = re.compile(
    rf"\b{_COPY_VERB}\s+(?P<target>.+?)\s+{_SAME}\s+(?P<source>.+?)\s*[.!?]*$", re.I | re.S
)
_COPY_OWNED = re.compile(
    rf"\b{_COPY_VERB}\s+(?P<target>.+?)\s+(?:to|=|->)\s+(?:the\s+)?(?P<source>[\w:.\-]+?)(?:'s|’s)"
    r"(?:\s+(?:value|setting|setpoint|current|reading))?\s*[.!?]*$",
    re.I | re.S,
)
_COPY_NAMED_VALUE = re.compile(
    rf"\b{_COPY_VERB}\s+(?P<target>.+?)\s+to\s+the\s+(?P<source>[a-z]+[\w:.\-]*\d[\w:.\-]*)\s+"
    r"(?:value|setting|setpoint|reading)\s*[.!?]*$",
    re.I | re.S,
)
_COPY_MATCH = re.compile(
    r"\bmatch\s+(?P<target>.+?)\s+(?:to|with)\s+(?P<source>.+?)\s*[.!?]*$", re.I | re.S
)
_COPY_FROM = re.compile(
    r"\b(?:copy|transfer|duplicate|mirror|clone|carry\s+over)\s+(?P<source>.+?)\s+"
    r"(?:(?:over\s+)?to|onto|into|across\s+to)\s+(?P<target>.+?)\s*[.!?]*$",
    re.I | re.S,
)

# "set dipole 4 current to its golden value", "restore the quads to their reference settings"
_REFERENCE_WORDS = r"golden|reference|saved|stored|design|nominal|default"
_COPY_REFERENCE = re.compile(
    # "QF29 back to its nominal value please": a verb, or "back" said without one
    r"(?:\b(?:set|restore|put|bring|return|reset|revert|change|move)\s+|^\W*(?=[^,;]+?\s+back\s+to\b))"
    r"(?P<target>.+?)\s+(?:back\s+)?"
    rf"to\s+(?:its|their|the)?\s*(?P<ref>{_REFERENCE_WORDS})\s+"
    r"(?:value|values|setting|settings|setpoint|setpoints|current|currents)"
    r"(?:\s*,?\s*(?:please|pls|thanks))?\s*[.!?]*$",
    re.I | re.S,
)

# -- restore -------------------------------------------------------------------------------
# The verb of a restore: one that says it ("restore"), or an ordinary one whose sentence goes on
# to say "back", "what it was" or "its value from". Found in one pass each (a lookahead per verb
# would read the rest of the text again for every verb: quadratic on a long request).
_RESTORE_VERB = re.compile(
    r"\b(?:(?P<restore>restore|revert|roll\s+back|return)|(?P<verb>put|set|bring|take|change|"
    r"move|turn))\s+(?=\S)",
    re.I,
)
_RESTORE_CUES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (
        re.compile(r"\bback\b", re.I),
        frozenset({"put", "set", "bring", "take", "change", "move", "turn"}),
    ),
    (
        re.compile(
            r"\b(?:what|where|how)\s+(?:it|they)\s+(?:was|were|read|showed|stood|sat)\b", re.I
        ),
        frozenset({"set", "put", "bring", "change", "return"}),
    ),
    (
        re.compile(
            r"\bto\s+(?:its|their|the)\s+(?:value|setting|setpoint|reading)s?\s+"
            r"(?:from|at|of|as\s+of)\b",
            re.I,
        ),
        frozenset({"set", "put", "bring", "change"}),
    ),
)


def _restore_rest(text: str) -> str | None:
    """The words after the first verb that makes ``text`` a restore, or None."""
    # where each cue last starts: a verb before it is followed by it
    last = [max((m.start() for m in cue.finditer(text)), default=-1) for cue, _ in _RESTORE_CUES]
    for found in _RESTORE_VERB.finditer(text):
        verb = (found.group("verb") or "").lower()
        restores = found.group("restore") is not None or any(
            verb in verbs and where >= found.end() - 1
            for (_, verbs), where in zip(_RESTORE_CUES, last, strict=True)
        )
        if restores:
            return text[found.end() :]
    return None


_RESTORE_TARGET_END = re.compile(r"\s+(?:back|to|as\s+of|from|at)\b", re.I)
_MOMENT_LEAD = re.compile(
    r"^(?:\s*(?:back|to|its|their|the|value|values|setting|settings|setpoint|from|of|as|at|"
    r"what|where|how|it|they|was|were)\b)+",
    re.I,
)


def parse_derivation(text: str) -> Derivation | None:
    """The derived write ``text`` asks for, or None (a plain value, or no write at all)."""
    flat = " ".join(text.split())
    condition = _conditional(flat)
    if condition is not None:
        return condition
    return _restore(flat) or _copy(flat)


def _conditional(text: str) -> Derivation | None:
    first_if = _IF_WORD.search(text)
    if first_if is None:
        return None
    for pattern in (_CONDITION_FIRST, _CONDITION_LAST):
        if pattern is _CONDITION_FIRST and not _CLAUSE_END.search(text, first_if.end()):
            continue  # no clause ends after the "if": each "if" would scan to the end
        found = pattern.match(text)
        if found is None:
            continue
        condition = _condition(found.group("cond").strip(" ,.?!"))
        if condition is None:
            continue
        write = found.group("write").strip(" ,.?!")
        lead = found.group("lead").strip() if pattern is _CONDITION_FIRST else ""
        if lead and not _JOINED_CLAUSE.search(lead):
            # "HCM3: if it is above 2 A, set it to 0"; not "check the current, and if ..."
            write = f"{lead} {write}"
        subject = condition.subject
        checked = _CHECKED_FIRST.search(lead) if pattern is _CONDITION_FIRST else None
        if _PRONOUN.search(subject) and checked is not None:
            # "check lifetime, and if it's under 9 h open the ID 2 gap": "it" is what was checked
            subject = checked.group("what").strip()
        elif _PRONOUN.search(subject):
            # "set HCM20 to 0 if it is above 2 A": "it" is the write's own target
            subject = ""
        if subject and _PRONOUN.search(write):
            write = _PRONOUN.sub(subject, write, count=1)
        condition = Condition(
            subject, condition.comparison, condition.threshold, condition.unit, condition.text
        )
        return Derivation("condition", target="", condition=condition, write=write)
    return None


def _condition(clause: str) -> Condition | None:
    found = _CONDITION.match(clause)
    if found is None:
        return None
    said = found.group("num")
    amount = read_number(said)  # "four hundred", "-0.5"
    if amount is None:
        amount = read_number(said.replace(" ", ""))  # "- 0.5"
    if amount is None:
        return None
    raw = found.group("cmp").lower()
    comparison = next(op for pattern, op in _COMPARISONS if re.fullmatch(pattern, raw, re.I))
    subject = re.sub(r"^(?:the\s+value\s+of\s+)", "", found.group("subject").strip(), flags=re.I)
    return Condition(subject, comparison, amount, found.group("unit"), clause)


# "what it was", "its value from": words that say the value is an earlier one, so a number
# near them is its moment, never a value to write ("back" alone may carry one: "back to 0 A")
_EARLIER_VALUE = re.compile(
    r"\b(?:what|where|how|as)\s+(?:it|they)\s+(?:was|were|read|showed|stood|sat)\b"
    r"|\b(?:its|their)\s+(?:value|setting|setpoint|reading)s?\s+(?:from|at|of|as\s+of)\b",
    re.I,
)


def restore_without_moment(text: str) -> bool:
    """Whether ``text`` asks for an earlier value of a channel but names no moment it can be
    read at ("put QF5 back to how it was at 9ish"): the moment is asked, no number written."""
    flat = " ".join(text.split())
    return (
        _EARLIER_VALUE.search(flat) is not None
        and _restore_rest(flat) is not None
        and _restore(flat) is None
    )


def _restore(text: str) -> Derivation | None:
    from osprey_desktop.language.time_parsing import strip_time_expressions

    rest = _restore_rest(text)
    if rest is None:
        return None
    if " ".join(strip_time_expressions(rest).split()) == " ".join(rest.lower().split()):
        return None  # "reset HCM01 to 0": no moment to restore
    end = _RESTORE_TARGET_END.search(rest)
    target = rest[: end.start()] if end else rest
    moment = _MOMENT_LEAD.sub("", rest[len(target) :]).strip(" ,.?!")
    return Derivation("restore", target=target.strip(" ,."), moment=moment)


# "set QD12 to the same value as QD10 minus 0.5 A": the source's value with an offset
_OFFSET_AFTER = re.compile(
    r"\s*,?\s+(?P<sign>plus|\+|minus|−|-)\s*(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*"
    r"(?P<unit>[a-zµμ%]{1,12})?\s*[.!?]*$",
    re.I,
)


# "set ID11 gap to the same value as ID09 gap times 0.5": the source's value scaled
_FACTOR_AFTER = re.compile(
    r"\s*,?\s+(?:times|multiplied\s+by|x|\*|×)\s*(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)"
    r"(?=\s*(?:$|[.!?]|,?\s*(?:plus|minus|\+|-|−)\s*\d))",
    re.I,
)


# "set VCM31 to the average of VCM30 and VCM32": the mean of several devices' values
_COPY_MEAN = re.compile(
    rf"\b{_COPY_VERB}\s+(?P<target>.+?)\s+(?:to|=|->|→|at)\s+(?:the\s+)?(?:average|mean|avg)\s+"
    r"(?:value\s+|setting\s+)?(?:of|between)\s+(?:the\s+)?(?P<source>[^.!?]+?)\s*[.!?]*$",
    re.I | re.S,
)


def _copy(text: str) -> Derivation | None:
    if re.search(r"\b(?:average|mean|avg)\b", text, re.I):
        # "set VCM 26 to the average of VCM 25 and VCM 27 plus 0.05 A": an offset after it
        tail = _OFFSET_AFTER.search(text)
        said = text[: tail.start()] if tail is not None else text
        mean = _COPY_MEAN.search(said)
        if mean is not None:
            derivation = Derivation(
                "copy", target=mean["target"].strip(" ,."), source=mean["source"].strip(), mean=True
            )
            if tail is None:
                return derivation
            amount = float(tail.group("num"))
            sign = -1 if tail.group("sign").lower() in ("minus", "-", "−") else 1
            return replace(derivation, offset=sign * amount, offset_unit=tail.group("unit"))
    factor = 1.0
    scaled = _FACTOR_AFTER.search(text)
    if scaled is not None:
        factor = float(scaled.group("num"))
        text = text[: scaled.start()] + text[scaled.end() :]
    derivation = _copy_offset(text)
    if derivation is None or factor == 1.0:
        return derivation
    return replace(derivation, factor=factor)


def _copy_offset(text: str) -> Derivation | None:
    offset, offset_unit = 0.0, None
    tail = _OFFSET_AFTER.search(text)
    if tail is not None:
        amount = float(tail.group("num"))
        offset = -amount if tail.group("sign").lower() in ("minus", "-", "−") else amount
        offset_unit = tail.group("unit")
        text = text[: tail.start()]
    derivation = _copy_said(text)
    if derivation is None or not offset:
        return derivation
    return replace(derivation, offset=offset, offset_unit=offset_unit)


def _copy_said(text: str) -> Derivation | None:
    reference = _search_bounded(_COPY_REFERENCE, text)
    if reference is not None:
        target = reference.group("target").strip(" ,.")
        source = f"{target} {reference.group('ref')}"
        return Derivation("copy", target=target, source=source, reference=True)
    for pattern in (_COPY_FROM, _COPY_SAME, _COPY_OWNED, _COPY_NAMED_VALUE, _COPY_MATCH):
        found = _search_bounded(pattern, text)
        if found is None:
            continue
        source = re.sub(r"(?:'s|’s)$", "", found.group("source").strip(" ,."))
        target = found.group("target").strip(" ,.")
        if _is_amount(source) or _is_amount(target):
            # "set HCM01 to 1.5 A", "set transfer line corrector 4 to 1.2 A" (a noun that is
            # also a copy verb): a number is a value, never a channel to copy from or to
            continue
        return Derivation("copy", target=target, source=source)
    return None


#: What each copy pattern needs after its verb; without it the pattern is not tried (a lazy
#: target after every verb of a long text would otherwise read to the end once per verb).
_NEEDS: dict[re.Pattern[str], tuple[re.Pattern[str], re.Pattern[str]]] = {
    _COPY_SAME: (re.compile(rf"\b{_COPY_VERB}\s", re.I), re.compile(rf"\s{_SAME}\s+\S", re.I)),
    _COPY_MATCH: (re.compile(r"\bmatch\s", re.I), re.compile(r"\s(?:to|with)\s+\S", re.I)),
    _COPY_FROM: (
        re.compile(r"\b(?:copy|transfer|duplicate|mirror|clone|carry\s+over)\s", re.I),
        re.compile(r"\s(?:(?:over\s+)?to|onto|into|across\s+to)\s+\S", re.I),
    ),
    _COPY_OWNED: (
        re.compile(rf"\b{_COPY_VERB}\s", re.I),
        re.compile(
            r"\s(?:to|=|->)\s+(?:the\s+)?[\w:.\-]+?(?:'s|’s)(?:\s+(?:value|setting|setpoint|"
            r"current|reading))?\s*[.!?]*$",
            re.I,
        ),
    ),
    _COPY_NAMED_VALUE: (
        re.compile(rf"\b{_COPY_VERB}\s", re.I),
        re.compile(
            r"\sto\s+the\s+[a-z]+[\w:.\-]*\d[\w:.\-]*\s+(?:value|setting|setpoint|reading)"
            r"\s*[.!?]*$",
            re.I,
        ),
    ),
    _COPY_REFERENCE: (
        re.compile(r"\b(?:set|restore|put|bring|return|reset|revert|change|move|back)\s", re.I),
        re.compile(
            rf"\sto\s+(?:its|their|the)?\s*(?:{_REFERENCE_WORDS})\s+(?:value|values|setting|"
            r"settings|setpoint|setpoints|current|currents)(?:\s*,?\s*(?:please|pls|thanks))?"
            r"\s*[.!?]*$",
            re.I,
        ),
    ),
}


def _search_bounded(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``pattern.search(text)`` in time linear in the text: tried only when its separator
    follows its first verb, in which case the first verb's own attempt finds it."""
    verb, separator = _NEEDS[pattern]
    first = verb.search(text)
    if first is None or separator.search(text, first.start()) is None:
        return None
    return pattern.search(text)


def _is_amount(text: str) -> bool:
    """ "1.5 A", "-0.3": a value, where a copy names a channel."""
    return bool(re.fullmatch(r"[-+−]?[\d.]+\s*[a-zµ%]{0,12}", text.strip(), re.I))


__all__ = ["Condition", "Derivation", "parse_derivation"]
