"""Lists written the way a shift leader writes them, said as one list the parse splits.

* one item per line, with or without a bullet ("- lifetime", "* IG13", "• tunes", "2) RF"),
  under a heading line or none ("check:\\n- lifetime\\n- RF voltage RB"): items joined by
  commas, the heading kept as the request's lead ("check: lifetime, RF voltage RB");
* items between spaced slashes ("current / lifetime / tunes"): commas;
* a head before a colon shared by every item ("booster: current / extraction energy"): each
  item is the head's ("booster current, booster extraction energy"); a head that is an
  occasion ("before our next scan:", "for the handover:") is no part of the items;
* "whether the vacuum in sector 9 looks fine" asks for the vacuum in sector 9;
* device numbers after their family and a colon ("ID gaps: 04, 07 and 11") are devices.
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import PLOT_VERBS, READ_VERBS

__all__ = ["items_said_as_a_list"]

#: "ID gaps: 04, 07 and 11": device numbers listed after their family and its noun, never a
#: value after a colon
_NUMBERS_OF_A_FAMILY = re.compile(
    r"(?P<head>\b[A-Za-z]{1,5}\s+[a-z]{3,}s)\s*:\s*"
    r"(?=\d{1,3}\s*(?:,|&|\band\b)\s*\d{1,3}(?:\s*(?:,|&|\band\b)\s*\d{1,3})*\s*[.?!]*\s*$)",
    re.I,
)
_BULLET = re.compile(r"^\s*(?:[-*•·‣–]|\d{1,2}[.)])\s+")
# "Step 3: VCM 35 — read, then zero", "2) vertical correctors sector 10: 0.05 A each", "Change 1
# of 2: VCM 12 = -0.15 A": a label a checklist or an e-log numbers its lines with
_STEP_LABEL = re.compile(
    r"^\s*(?:step|item|change|task|point|action|no\.?)\s*#?\d{1,2}(?:\s+of\s+\d{1,2})?\s*[:.)-]\s*",
    re.I | re.M,
)
#: "2) vertical correctors sector 10: 0.05 A each": a number leading a request of one line
_NUMBERED_LINE = re.compile(r"^\s*\(?\d{1,2}(?:\)|\.(?!\d))\s*")
_INLINE_NUMBERS = re.compile(r"(?:^|(?<=\s))\(?\d{1,2}\)\s+")
_SPACED_SLASH = re.compile(r"(?<=[\w)])\s+/\s+(?=[\w(])")
# "whether the vacuum in sector 9 looks fine": the vacuum in sector 9
_WHETHER_FINE = re.compile(
    r"(?:\bi\s+(?:wonder|was\s+wondering|would\s+like\s+to\s+know)\s+)?\b(?:whether|if)\s+(?!(?:everything|anything|all|things|it|that|this|they)\b)(?P<what>[^,;?]+?)\s+(?:looks?|seems?|is|are)\s+(?:fine|ok(?:ay)?|normal|"
    r"good|healthy|right|alright|sane)\b",
    re.I,
)
# "before our next scan:", "for the handover:", "quick check before injection:": an occasion
_OCCASION = re.compile(
    r"^\s*(?:(?:quick\s+)?(?:check\s+)?(?:before|after|for|ahead\s+of|prior\s+to|during)\s+"
    r"(?:the|our|my|a|an|this|that|tonight'?s|today'?s)\b[^:;,.?!]{0,40}"
    # "Next steps:", "Plan for the night:", "To do:": a heading that names the list itself
    # (a "plan for the next shift:" is for later: kept, the later change is answered as such)
    r"|(?:(?:the\s+)?(?:next|following|remaining|my|our)\s+)?(?:steps?|tasks?|actions?|to-?dos?|"
    r"changes|items|checklist|jobs|list)"
    # "Shift handover:", "Handover actions:", "Start of shift:", "Morning checks:"
    r"|(?:(?:shift|night|day|morning|evening)\s+)?(?:handover|hand-over)"
    r"(?:\s+(?:actions?|items|notes|list))?|start\s+of\s+(?:the\s+)?shift):\s*",
    re.I,
)
# "booster: current / extraction energy": a head of one to three words, and a list after it
_SHARED_HEAD = re.compile(r"^\s*(?P<head>[A-Za-z][\w-]*(?:\s+[\w-]+){0,2})\s*:\s*(?P<items>.+)$")
_ITEM_SEPARATOR = re.compile(r"\s*(?:,|;)\s*")
#: "Please report the following: lifetime, ring current": the words that announce the list
_ANNOUNCED = re.compile(
    r"^(?P<lead>[^:;,.?!]{0,60}?)\s*\b(?:the\s+following|following|these|as\s+below|below|"
    r"(?:a\s+)?(?:few|couple\s+of|some|several)\s+(?:things|items|values|readings|numbers))"
    r"(?:\s+(?:values|readings|channels|items|numbers))?"
    # "a few things before our shift:": the occasion the list is for
    r"(?:\s+(?:before|for|after|ahead\s+of|during)\s+[^:;,.?!]{1,30})?\s*:\s*(?P<items>\S.*)$",
    re.I,
)
_DEVICE = re.compile(r"\b[a-z]{2,5}\s?\d", re.I)
_FINITE = re.compile(
    r"\b(?:is|are|was|were|looks?|seems?|check|set|read|show|plot|put|raise|lower|make)\b", re.I
)
#: Heads that lead a request rather than name a device of every item.
_LEAD_HEADS = frozenset(
    (
        *("check", "read", "show", "give", "get", "plot", "please", "status", "quick"),
        *("summary", "todo", "now", "then", "also", "and", "need", "want", "list", "values"),
        *("readings", "numbers", "items", "note", "notes", "fyi", "info", "nb", "ps"),
        *("update", "handover", "reminder", "remember", "question"),
    )
)


def _lines_joined(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return text
    heading = ""
    if lines[0].endswith(":") or not _BULLET.match(lines[0]) and _BULLET.match(lines[1]):
        heading, lines = lines[0].rstrip(":").strip(), lines[1:]
    items = [_BULLET.sub("", line).rstrip(" ,;.") for line in lines]
    joined = ", ".join(item for item in items if item)
    return f"{heading}: {joined}" if heading else joined


def _head_shared(text: str) -> str:
    found = _SHARED_HEAD.match(text)
    if found is None:
        return text
    head, items = found["head"], _ITEM_SEPARATOR.split(found["items"].strip(" .!?"))
    head_words = head.lower().split()
    asks = any(w in READ_VERBS | PLOT_VERBS for w in head_words)  # "please report: ..."
    if len(items) < 2 or asks or head_words[0] in _LEAD_HEADS:
        return text
    if any(_DEVICE.search(item) for item in items) and not re.search(r"\d", head):
        return text  # "orbit: BPM 3, BPM 4": the items name their own devices
    if any(len(item.split()) > 4 or _FINITE.search(item) for item in items):
        return text  # "note: lifetime is low, check vacuum": sentences, not items
    return ", ".join(f"{head} {item}" for item in items if item)


def items_said_as_a_list(text: str) -> str:
    """``text`` with a list written in lines, slashes or under a shared head said as one
    comma-separated list (see the module docstring)."""
    said = _STEP_LABEL.sub("", text)
    if "\n" not in said and len(_INLINE_NUMBERS.findall(said)) >= 2:
        # "1) stored current 2) lifetime 3) RF voltage readback": a numbered list on one line
        said = _INLINE_NUMBERS.sub(", ", said).strip(" ,")
    said = _lines_joined(said) if "\n" in said else _NUMBERED_LINE.sub("", said, count=1)
    said = _SPACED_SLASH.sub(", ", said)
    said = _NUMBERS_OF_A_FAMILY.sub(r"\g<head> ", said)  # "ID gaps: 04, 07 and 11"
    said = _WHETHER_FINE.sub(lambda m: m["what"], said)
    said = _OCCASION.sub("", said, count=1)
    said = _ANNOUNCED.sub(lambda m: f"{m['lead']} {m['items']}".strip(), said, count=1)
    return _head_shared(said) if "," in said or ";" in said else said
