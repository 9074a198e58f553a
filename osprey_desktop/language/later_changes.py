"""A change placed at a later moment: Osprey writes when it is asked and approved, never later.

"set QF 1 to 121 at 18:00", "raise HCM 4 by 0.1 A after the injection", "tomorrow we'll put
QF 1 at 121": a write held for later would be a write nobody approved at the moment it
happens, so such a change is not proposed now. An order ("set ... at 18:00") is asked back
(now, or again then); a plan told ("we'll ... tomorrow") is answered from the write policy,
like a question about the limits. ``later_moment`` finds the words naming the later moment.
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import PLOT_VERBS, READ_VERBS

__all__ = ["LATER", "held_back", "held_items_set_aside", "later_moment"]

_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
#: words that place something after now
LATER = re.compile(
    r"\b(?:tomorrow|tonight|later(?:\s+(?:on|today|tonight))?|"
    rf"next\s+(?:shift|week|fill|run|time|block|{_DAYS})|"
    r"after\s+(?:the\s+)?(?:next\s+)?(?:injection|fill|top-?up|shutdown|access|maintenance|meeting|"
    r"refill|break|lunch)|"
    rf"on\s+(?:{_DAYS})|"
    r"in\s+(?:an?|\d+|a\s+few|two|three|five|ten|fifteen|twenty|thirty)\s+(?:hours?|minutes?|mins?|days?)|"
    # a clock time, never an amount ("by 1 percent", "at 5 A/s")
    r"(?:at|by|from)\s+(?:\d{1,2}:\d\d|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)\b|noon|midnight)"
    r"(?![\d])(?!\s+(?:yesterday|last|this\s+morning)\b))",
    re.I,
)
#: "Bob wants HCM 18 at 0.4 A but wait for his ok", "... until she says so", "not now": a
#: change held back, whatever else the message says
_SOMEONES_WORD = re.compile(
    r"\b(?:wait(?:ing)?|hold(?:ing)?\s+off)\s+(?:for|until)\s+(?:his|her|their|my|our|the|[a-z]+'s)\s+"
    r"(?:ok(?:ay)?|go(?:-ahead)?|go\s+ahead|approval|signal|word|call|confirmation|green\s+light)\b|"
    r"\b(?:until|till|once)\s+(?:he|she|they|i|we|[a-z]+)\s+(?:says?|gives?)\s+(?:so|ok(?:ay)?|the\s+go)\b|"
    # "the shift leader has to OK it first", "needs her sign-off first"
    r"\b(?:has|have|needs?)\s+to\s+(?:ok|okay|approve|sign\s+off(?:\s+on)?)\s+(?:it|this|that)?\s*first\b|"
    r"\bneeds?\s+(?:his|her|their|the\s+[a-z]+'s)\s+(?:ok|okay|approval|sign-?off)\s+first\b|"
    # "put qd22 to 96 but not now", "not yet: HCM 3 to 0.2", "... nothing now"
    r"\bnot\s+(?:now|yet|right\s+now)\b|\bnothing\s+(?:now|yet|for\s+now)\b|"
    # "not doing anything til i check with Ana", "until I've checked": held for a check
    r"\bnot\s+(?:doing|touching|changing|setting)\s+(?:anything|it|that|them)\s+(?:un)?til\b|"
    r"\b(?:un)?til+\s+(?:i|we)\s+(?:check|checked|have\s+checked|'ve\s+checked|hear|talk)\b|"
    # "(they'll apply it themselves)", "she'll set them herself": someone else's to make
    r"\b(?:apply|set|do|make|change|load|put\s+in)\s+(?:it|them|these|this|that|those)\s+"
    r"(?:themselves|herself|himself|ourselves|myself)\b|"
    # "values physics asked for, NOT approved yet", "not signed off": nobody approved it
    r"\bnot\s+(?:yet\s+)?(?:approved|signed\s+off|confirmed|ok'?d|okayed|agreed)\b|"
    # "... QD16 down 0.5 A. reminder only", "just a note for later", "fyi, no action"
    r"\b(?:(?:just\s+)?(?:a\s+)?(?:reminder|note|memo)(?:\s+to\s+self)?\s+only|"
    r"(?:just\s+)?(?:a\s+)?(?:reminder|note|memo)(?:\s+to\s+self)?\s+for\s+later|"
    r"only\s+(?:a|as\s+a)\s+(?:reminder|note)|no\s+action(?:\s+(?:needed|now|yet))?)\W*$",
    re.I,
)
#: a clock time ("at 18:00") placing a change, unless the value is the one it had then
_VALUE_OF_A_MOMENT = re.compile(
    r"\b(?:back|was|were|had|value|setting|before|ago|since|yesterday|last|restore|return|revert|"
    r"undo|same\s+as|earlier)\b",
    re.I,
)


#: something other than the change placed later ("I'll tell you in a minute")
_SOMETHING_ELSE_LATER = re.compile(
    r"\b(?:tell|let\s+you\s+know|get\s+back|confirm|call|decide|send|check)\b", re.I
)


def held_back(text: str) -> str | None:
    """The words holding a change back ("not now", "wait for his ok", "the shift leader has
    to OK it first"), or None: said anywhere in the message, even in a clause the request
    itself leaves out."""
    word = _SOMEONES_WORD.search(text)
    return " ".join(word[0].split()) if word is not None else None


def held_items_set_aside(text: str) -> tuple[str, list[str]]:
    """``text`` without the items of a list that are held back or noted for later, and those
    items: "(a) set HCM 16 to 0.2 A; (b) ...; (c) QF 21 +1 A is for tomorrow morning, do NOT
    do it now" asks (a) and (b). An item is set aside only when it names its own device; a
    hold said apart ("set HCM 3 to 0.2 A. Not now.") holds the whole message."""
    pieces = _ITEM_START.split(text)
    if len(pieces) < 2:
        return text, []
    held = [
        p
        for p in pieces
        if _OWN_DEVICE.search(p)
        and not _READ_OR_PLOT.match(p)  # "Plot QF21 from 11:00 to 11:45": a window, no change
        and (later_moment(p) is not None or _NOTED.search(p))
    ]
    kept = [p for p in pieces if p not in held and p.strip(" .;:,-")]
    if not held or not kept or any(held_back(p) or _NOTED.search(p) for p in kept):
        return text, []
    rest = text
    for piece in held:
        rest = rest.replace(piece, " ", 1)
    rest = re.sub(r"\s*;(?:\s*;)+", ";", rest)
    return " ".join(rest.split()).strip(" ;,"), [p.strip(" ;") for p in held]


#: Where an item of a list starts: a semicolon, a new line, a sentence's end, "(a)", "2)", "3."
_ITEM_START = re.compile(
    r"\s*;\s*|\s*\n\s*|(?<=[.!?])\s+(?=[A-Z(\d])|\s+(?=\(?[a-z]\)\s|\d{1,2}[.)]\s)"
)
#: an item led by a verb of reading or plotting ("plot ...", "please show ..."): no change
_READ_OR_PLOT = re.compile(
    r"^\W*(?:(?:please|pls|now|then|and|also|can\s+you|could\s+you)\s+)*"
    rf"(?:{'|'.join(sorted(READ_VERBS | PLOT_VERBS, key=len, reverse=True))})\b",
    re.I,
)
_OWN_DEVICE = re.compile(r"\b[A-Za-z]{1,5}\s?\d{1,3}\b(?![:.]\d)")
#: "only note that one", "note for the log only", "just noting", "for the record"
_NOTED = re.compile(
    r"\b(?:only\s+note|note\s+(?:for\s+the\s+log\s+)?only|note\s+for\s+the\s+log|just\s+noting|"
    r"noting\s+(?:it|that)|for\s+the\s+record|for\s+information|fyi)\b",
    re.I,
)


def later_moment(text: str) -> str | None:
    """The words placing the change ``text`` asks at a later moment, or None ("set QF 1 to
    121 at 18:00" -> "at 18:00"; "put QF 1 back to its 18:00 value" -> None)."""
    word = held_back(text)
    if word is not None:
        return word
    if _VALUE_OF_A_MOMENT.search(text):
        return None
    for found in LATER.finditer(text):
        clause = re.split(r"[,;:]|\s[-–—]\s", text[: found.start()])[-1]
        if _SOMETHING_ELSE_LATER.search(clause):
            continue  # "raise QF09 - by how much I'll tell you in a minute": the amount comes later
        return " ".join(found[0].split())
    return None
