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

__all__ = ["items_said_as_a_list", "reads_and_changes_in_order"]

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
#: "RF: voltage, frequency"; never the colon of a clock time ("at 14:32 yesterday: IG13, ...")
_SHARED_HEAD = re.compile(
    r"^\s*(?P<head>[A-Za-z][\w-]*(?:\s+[\w-]+){0,2})\s*(?<!\d):(?!\d)\s*(?P<items>.+)$"
)
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


def reads_and_changes_in_order(text: str, channel_words: frozenset[str] = frozenset()) -> str:
    """A list of items some of which give a device its value and others only name what to read
    ("read tunes, ID09 gap -> 14 mm", "1) tunes 2) ID09 gap -> 14 mm", "tunes; QF 3 to 121 A"):
    said as the reading, then the change ("read tunes, then set ID09 gap to 14 mm"), so that no
    item is lost to the other. Left as typed unless every item is one or the other, and each
    item to read names a word of the channel list (``channel_words``): "..., nope, cancel" or
    "..., sorry if wrong" are no readings."""
    pieces = [p.strip(" ,;") for p in _MIXED_ITEM.split(text) if p and p.strip(" ,;")]
    if len(pieces) < 2:
        return text
    changes = [p for p in pieces if _VALUE_GIVEN.match(p)]
    reads = [p for p in pieces if p not in changes]
    if not changes or not reads or not all(_only_named(p, channel_words) for p in reads):
        return text
    named = " and ".join(_READ_LEAD.sub("", p) for p in reads)
    set_to = " and ".join(_SET_LEAD.sub("", _ARROW.sub(" to ", p)) for p in changes)
    return f"read {named}, then set {set_to}"


#: Where one item of a mixed list ends: a semicolon, a comma, a new line, "2)", "(b)"
_MIXED_ITEM = re.compile(
    r"\s*[;,\n]\s*|\s+(?=\(?[a-z1-9]\)\s)|^\s*\(?[a-z1-9]\)\s+|(?<=\s)\(?[a-z1-9]\)\s+"
)
#: an item giving a device its value: "ID09 gap -> 14 mm", "set QF 3 to 121 A", "VCM 2 = 0.1"
_VALUE_GIVEN = re.compile(
    # (never a condition's clause: "and if it is over 450 mA set VCM30 to 0.2 A")
    r"^(?!.*\b(?:if|when|unless|once|until|after|before|then|and|or|but)\b)"
    r"(?:\(?[a-z1-9]\)\s*)?(?:set\s+|put\s+)?(?:the\s+)?[A-Za-z][\w\s:-]{0,30}?\d[\w\s:-]{0,15}?"
    # after "to"/"at" a value with a unit, a sign or decimals ("correctors 25 to 27" is a range)
    r"\s*(?:(?:->|→|=>|:=|=)\s*[-+−]?\.?\d[\d.]*\s*[a-zµ%]{0,4}|(?:\bto\b|\bat\b)\s*"
    r"(?:[-+−]\s*\.?\d[\d.]*\s*[a-zµ%]{0,4}|\d*\.\d+\s*[a-zµ%]{0,4}|\d+\s*[a-zµ%]{1,4}))\s*$",
    re.I,
)


def _only_named(item: str, channel_words: frozenset[str]) -> bool:
    """An item that only names what to read: words of the channel list ("tunes", "the RF
    voltage"), or anything after "read"/"check" ("read HCM 3"); a bare device name may be a
    group's first member."""
    said = _READ_LEAD.sub("", item)
    if _TOLD_LABEL.search(said):
        return False  # "HCM21 to -0.3 A, orbit bump test": what the change is for
    named = {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", said)} - {"the", "a", "an"}
    if not named & ({w.rstrip("s") for w in channel_words} or set()):
        return False
    if said != item.lstrip() and re.fullmatch(r"(?:the\s+)?[\w\s:-]{1,40}", said):
        return True
    words = re.findall(r"[A-Za-z]+", said.lower())
    return bool(
        re.fullmatch(r"(?:the\s+)?[A-Za-z][A-Za-z\s:-]{0,40}", said)
        and 0 < len(words) <= 4
        and words[0] not in PLOT_VERBS | READ_VERBS | _NOT_A_NAME
        # "the users changed the photon energy": a sentence, told
        and not any(w in _NOT_A_NAME or re.search(r"(?:ed|ing)$", w) for w in words)
    )


_TOLD_LABEL = re.compile(
    r"\b(?:tests?|study|studies|scans?|measurements?|experiments?|md|commissioning|calibration|"
    r"campaign|only)\b",
    re.I,
)
_NOT_A_NAME = frozenset(
    {"what", "how", "is", "are", "was", "were", "has", "have", "why", "when", "which", "who", "set"}
)
_READ_LEAD = re.compile(r"^(?:\(?[a-z1-9]\)\s*)?(?:(?:read|check|show|get)\s+)?", re.I)
_SET_LEAD = re.compile(r"^(?:\(?[a-z1-9]\)\s*)?(?:set\s+|put\s+)?", re.I)
_ARROW = re.compile(r"\s*(?:->|→|=>|:=|=)\s*")
