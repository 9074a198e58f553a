"""What a change takes its value from: another channel, the archive, or a golden value.

A reference is a relation in the sentence, not a verb: "give HCM13 the same setting as
HCM14", "have QD04 match QD02", "bring VCM11 in line with VCM12" all say one device should
equal another whatever verb leads them (or none: "HCM13 the same as HCM14, please"). The words
of a relation ("back the way it was", "its value from 9:30", "the same setting as") place no
channel, so ``reference_words`` names them for the target phrase to leave out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from osprey_desktop.language.lexicon import GOLDEN_WORDS

__all__ = [
    "AVERAGE_OF",
    "Reference",
    "copy_relation",
    "find_reference",
    "without_reference_words",
]


@dataclass(frozen=True)
class Reference:
    kind: Literal["channel", "archive", "golden", "previous"]
    words: str


#: A device as typed: letters, an optional space, its number ("HCM14", "qd 04").
_DEVICE = r"[A-Za-z]{1,5}\s?\d{1,3}\b"
#: The relation between a device and another: equal to it.
RELATION = (
    r"(?:match(?:es)?|in\s+line\s+with|(?:to\s+)?(?:be\s+)?(?:the\s+)?same\s+(?:\w+\s+)?as|"
    r"equals?(?:\s+to)?|identical\s+to|to\s+what(?:ever)?|where|:?=|->)"
)
_COPY = re.compile(
    r"\b(?:match(?:es)?|in\s+line\s+with|the\s+same\s+(?:\w+\s+)?as|equals?(?:\s+to)?|"
    # "make HCM13 like HCM14"; "I'd like the ID2 gap ..." is a wish
    r"(?<!'d\s)(?<!would\s)(?<!\bi\s)(?<!\bwe\s)(?<!they\s)like|"
    r"identical\s+to|copy(?:\s+of)?|from|to\s+what(?:ever)?)\s+(?:the\s+)?"
    # a number with a unit after it is an amount, not a device's ("the gap 1 mm narrower")
    # a device by its name or described ("vertical steerer 15", "corrector 9")
    r"(?P<source>(?:[A-Za-z]{1,5}\s?|(?:[A-Za-z]+\s+){0,4}[A-Za-z]{3,}\s)\d{1,3}\b"
    r"(?!\.\d|\s*(?:mm|a|amps?|ma|kv|mv|v|%|mhz|khz|hz|torr|h|hours?|min|minutes?)\b)"
    r"[\w\s]*?)(?=\s+(?:is|reads|shows|has|says)\b|[^\w\s]|$)",
    re.I,
)
# "give HCM13 the same setting as HCM14", "have QD04 match QD02": a device, at most two words
# of its own ("the ID04 gap"), the relation, the other device
# "the undulator in sector 11 should match the undulator in sector 9": devices described by
# their kind and sector
_DESCRIBED = r"(?:the\s+)?(?:[a-z]+\s+){1,4}?(?:in|of|at)\s+sector\s+\d{1,2}\b"
_COPY_RELATION = re.compile(
    rf"(?P<target>{_DEVICE}|{_DESCRIBED})(?:\s+[a-z]+){{0,2}}?\s+{RELATION}\s+(?:that\s+of\s+)?"
    rf"(?:the\s+)?(?P<source>{_DEVICE}|{_DESCRIBED})",
    re.I,
)
_TIME_POSSESSORS = "|".join(
    rf"(?<=\b{w})"
    for w in ("morning", "afternoon", "evening", "night", "yesterday", "today", "week", "weekend")
    + ("shift", "hour", "o'clock", "am", "pm", "noon", "midnight")
)
_RESTORE = re.compile(
    r"\b(?:restore|revert|roll\s+(?:\S+\s+){0,3}?back|back\s+(?:to|the\s+way|where|how|as)|"
    r"(?:where|what|how|like)\s+it\s+(?:was|read|showed|stood|sat)\b|its\s+(?:value|setting)\s+(?:from|at|of)|"
    r"the\s+(?:value|setting)\s+it\s+had|the\s+(?:value|setting)\s+(?:of|from)\s+"
    r"(?=(?:an?|one|two|three|\d+)\s+(?:hours?|minutes?|mins?|days?)\s+ago|yesterday|this\s+morning|"
    r"last\s+night|\d{1,2}(?::\d{2})?\s*(?:am|pm|o'clock)))\b"
    # "this morning's value", "yesterday's settings", "its 7 am value": a value of a named time
    # (a device's possessive, "QF11's setting", is a copy)
    rf"|(?:{_TIME_POSSESSORS})(?:'s|’s)\s+(?:value|setting|setpoint|reading)s?\b"
    r"|\bits\s+(?:\d[\w:.-]*\s+)(?:[\w:.-]+\s+){0,2}?(?:value|setting|setpoint|reading)s?\b",
    re.I,
)
_GOLDEN = re.compile(rf"\b(?:{'|'.join(sorted(GOLDEN_WORDS))})\b", re.I)
#: What a relation to the archive says besides its time: no channel's words.
_ARCHIVE_WORDS = re.compile(
    r"\b(?:back\s+)?(?:to\s+)?(?:the\s+way|where|what|how|as|like)\s+(?:it|they)\s+"
    r"(?:was|were|used\s+to\s+be|stood|read|showed|sat)\b|\b(?:to\s+)?(?:its|their)\s+(?:\w+\s+)?"
    r"(?:value|setting|setpoint)s?\b"
    r"(?:\s+(?:from|at|of))?|\bback\b"
    # "go back with QF 11 to the value of one hour ago"
    r"|\b(?:to\s+)?the\s+(?:value|setting)s?(?:\s+(?:of|from))?\s*$"
    # "back to the value it had yesterday at 6 pm"
    r"|\b(?:to\s+)?the\s+(?:value|setting|setpoint)s?\s+(?:it|they)\s+(?:had|was\s+at|were\s+at)\b",
    re.I,
)
# a question about a relation ("is HCM13 the same as HCM14?", "does QD04 match QD02") asks, it
# does not change; "have QD04 match QD02" is a causative, an imperative
_ASKS = re.compile(
    r"^\W*(?:what|which|who|how|why|when|where|whether|is|are|was|were|do|does|did|has)\b", re.I
)


#: "to the average of VCM30 and VCM32", "= the mean of QF 15 and QF 19": several devices'
#: values averaged (the sources are devices named by their numbers)
AVERAGE_OF = re.compile(
    r"(?:\bto|\bat|\bbe|:?=|->|→)\s*(?:the\s+)?(?:average|mean|avg)\s+(?:value\s+|setting\s+)?(?:of|between)\s+"
    rf"(?:the\s+)?(?P<sources>{_DEVICE}(?:\s*(?:,|\band\b)\s*(?:the\s+)?{_DEVICE})+)",
    re.I,
)


_SAME_VALUE_AS_DESCRIBED = re.compile(
    r"\bto\s+the\s+same\s+(?:value|setting|setpoint|current|reading)\s+as\s+(?:the\s+)?"
    r"(?P<source>[a-z][\w\s-]{2,50}?)\s*[.!?]*$",
    re.I,
)


def find_reference(text: str, changes: bool) -> tuple[Reference | None, set[str]]:
    """The reference of a change and the words it used (none for a request that reads)."""
    if not changes:
        return None, set()
    restore = _RESTORE.search(text)
    if restore:
        return Reference("archive", restore.group(0)), set(re.findall(r"[a-z]+", restore[0]))
    average = AVERAGE_OF.search(text)
    if average:
        # "set VCM31 to the average of VCM30 and VCM32": the value of several, averaged
        return Reference("channel", average["sources"].strip()), {"average", "mean", "of"}
    copy = _COPY.search(text)
    if copy and re.search(r"\d", copy.group("source")):
        words = set(re.findall(r"[a-z]+", copy.group(0).lower()))
        return Reference("channel", copy.group("source").strip()), words
    described = _SAME_VALUE_AS_DESCRIBED.search(text)
    if described:
        # "set the RF voltage setpoint to the same value as the RF voltage readback": a source
        # named by its words alone
        words = set(re.findall(r"[a-z]+", described.group(0).lower()))
        return Reference("channel", described.group("source").strip()), words
    golden = _GOLDEN.search(text)
    if golden:
        return Reference("golden", golden.group(0)), {golden.group(0).lower()}
    return None, set()


# the same relation said with the source first or with a verb of its own: "give QF9 the QF11
# value", "use the QF11 setpoint for QF9", "align QF9 with QF11"
_VALUE_NOUN = r"(?:'s|’s)?\s+(?:value|setting|setpoint|current|reading)"
_COPY_SAID_OTHERWISE = (
    re.compile(
        rf"\bgive\s+(?P<target>{_DEVICE})\s+(?:the\s+)?(?:value\s+of\s+)?(?P<source>{_DEVICE})"
        rf"(?:{_VALUE_NOUN})?",
        re.I,
    ),
    re.compile(
        rf"\buse\s+(?:the\s+)?(?P<source>{_DEVICE}){_VALUE_NOUN}\s+(?:for|on)\s+(?:the\s+)?"
        rf"(?P<target>{_DEVICE})",
        re.I,
    ),
    re.compile(rf"\balign\s+(?P<target>{_DEVICE})\s+(?:with|to)\s+(?P<source>{_DEVICE})", re.I),
    # "QF 7 take the value of QF 9", "give VCM 12 the setpoint from VCM 13"
    re.compile(
        rf"(?P<target>{_DEVICE})\s+(?:should\s+)?(?:takes?|gets?|give|receives?)\s+(?:the\s+)?"
        rf"(?:value|setting|setpoint|current)\s+(?:of|from)\s+(?:the\s+)?(?P<source>{_DEVICE})",
        re.I,
    ),
    re.compile(
        rf"\bgive\s+(?P<target>{_DEVICE})\s+(?:the\s+)?(?:value|setting|setpoint|current)\s+"
        rf"(?:of|from)\s+(?:the\s+)?(?P<source>{_DEVICE})",
        re.I,
    ),
    # "same value on VCM 30 as on VCM 31", "qd18 <- qd20"
    re.compile(
        rf"\bsame\s+(?:value|setting|setpoint|current)\s+(?:on|for|to)\s+(?:the\s+)?"
        rf"(?P<target>{_DEVICE})\s+as\s+(?:on|for|in)?\s*(?:the\s+)?(?P<source>{_DEVICE})",
        re.I,
    ),
    re.compile(rf"(?P<target>{_DEVICE})\s*(?:<-|←|<=)\s*(?P<source>{_DEVICE})", re.I),
    # "make QD38 one amp higher than QD40", "the ID05 gap to sit 2 mm wider than the ID04 gap":
    # an amount of difference from another device, the source's value with an offset
    re.compile(
        rf"(?P<target>{_DEVICE})(?:\s+[\w.+-]+){{1,7}}?\s+(?:higher|lower|more|less|above|"
        rf"below|wider|narrower|larger|smaller|bigger|greater|over|under)\s+than\s+"
        rf"(?:that\s+of\s+|the\s+one\s+(?:on|of|in)\s+)?(?:the\s+)?(?P<source>{_DEVICE})",
        re.I,
    ),
    re.compile(
        rf"\bcopy\s+(?:the\s+)?(?P<source>{_DEVICE})(?:{_VALUE_NOUN})?\s+(?:over\s+)?(?:to|onto|into)"
        # "copy VCM 9 to VCM 7 and VCM 8": every device listed after it
        rf"\s+(?:the\s+)?(?P<target>{_DEVICE}(?:\s*(?:,|\band\b)\s*(?:the\s+)?{_DEVICE})*)",
        re.I,
    ),
    re.compile(
        rf"\b(?:set|put|bring|change|make)\s+(?:the\s+)?(?P<target>{_DEVICE})\s+(?:to|at)\s+"
        rf"(?:the\s+)?(?P<source>{_DEVICE})(?:'s|’s)(?:\s+(?:value|setting|setpoint|current|reading))?",
        re.I,
    ),
)


def copy_relation(text: str) -> tuple[str, str] | None:
    """(target device, source device) when ``text`` states that one device should equal
    another, whatever verb leads it; None for a question or a negation about that relation."""
    found = _COPY_RELATION.search(text) or next(
        (m for m in (p.search(text) for p in _COPY_SAID_OTHERWISE) if m), None
    )
    if found is None or text.rstrip().endswith("?") or _ASKS.search(text):
        return None
    if re.search(r"\b(?:not|never|don'?t|no)\b", text[: found.start()], re.I):
        return None
    return found.group("target"), found.group("source")


def without_reference_words(phrase: str) -> str:
    """``phrase`` without the words of a relation to the archive ("QD18 back the way it was"
    is "QD18")."""
    return " ".join(_ARCHIVE_WORDS.sub(" ", phrase).split())
