"""Requests said indirectly, said the plain way before the parse.

An operator often says what should be rather than what to do, and wraps it in what they see:

* a **change needed** is that change: "it needs closing a little" closes it by an amount to
  ask; a **device that moves** is a change of it: "VCM33 needs to come down by 0.25 A" lowers VCM33
  by 0.25 A; "can it come down?" lowers it by an amount still to be asked;
* a **judgement on a value** gives the value: "HCM24 would be happier at 0.6 A" sets it;
  "it'd be good if the RF voltage were 100 kV higher" is "the RF voltage 100 kV higher";
* a **purpose** after the amount ("... by 0.25 A to flatten the orbit there") and an
  **observation** beside the change ("the lifetime is suffering", "the orbit in sector 10 looks
  off") say why, not what: they are left out, and a pronoun or "there" in the change takes the
  observation's device or place ("HCM03 is set too high, can it come down?").

Each rule reads the sentence's structure (subject, modal, verb of motion, amount), never a list
of sentences; what a rule cannot place is left as typed, so the parse still asks about it.
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import base_form
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN

__all__ = ["indirect_said_plainly"]

_MODAL = (
    r"(?:needs?\s+to|should|must|has\s+to|have\s+to|ought\s+to|wants?\s+to|could|can|will|"
    r"would|might)"
)
_MOTION = (
    r"(?:come|go|move|be\s+(?:brought|taken|moved|eased|nudged|turned|dialled|dialed|backed|pushed|"
    r"pulled|trimmed|stepped)|get)"
)
#: "VCM33 needs to come down by 0.25 A", "the gap should go up 2 mm": the device moves
_DEVICE_MOVES = re.compile(
    rf"(?P<lead>^|[,;.]\s*|\b(?:and|so|but)\s+)(?P<ask>(?:can|could|would|will)\s+"
    rf"(?=(?:\S+\s+){{1,5}}?{_MOTION}\b))?"
    rf"(?P<what>(?:the\s+)?[\w][\w\s-]{{0,40}}?)\s+(?:{_MODAL}\s+)?{_MOTION}\s+"
    # "needs to go half an amp lower": the amount before the way
    rf"(?:(?P<amount>(?:[-+]?\.?\d|{SPELLED_NUMBER_PATTERN}|half\b|a\s+quarter\b)[^,;?!]{{0,20}}?)\s+)?"
    r"(?P<way>up|down|higher|lower)\b(?P<rest>[^,;?!]*)(?P<end>[?!.]*)",
    re.I,
)
#: "HCM24 would be happier at 0.6 A", "QF3 would do better at 121 A": a value judged best
_BETTER_AT = re.compile(
    # "I think HCM24 would be happier ...": the opinion's lead is no part of the device
    r"(?:\bi\s+(?:think|guess|believe|reckon|feel|suppose)(?:\s+that)?\s+)?"
    r"(?P<what>(?:the\s+)?[\w][\w\s-]{0,40}?)\s+(?:would|will|might)\s+(?:be\s+)?(?:much\s+)?"
    r"(?:happier|better(?:\s+off)?|do\s+better|behave\s+better|work\s+better|best)\s+"
    rf"(?:at|with|on)\s+(?=[-+−]?\.?\d|{SPELLED_NUMBER_PATTERN})",
    re.I,
)
#: "it'd be good if the RF voltage were 100 kV higher", "it would be nice to have QF3 at 121 A"
_WOULD_BE_GOOD = re.compile(
    r"\b(?:it'?d|it\s+would|that\s+would|that'?d)\s+be\s+(?:good|nice|better|great|best|ideal|"
    r"helpful|useful)\s+(?:if\s+(?P<what>[^,;?!]+?)\s+(?:were|was|is|could\s+be|went|got)|"
    r"to\s+have\s+(?P<had>[^,;?!]+?))\s+(?=(?:at\s+|to\s+)?[-+−]?\.?\d|"
    rf"(?:at\s+|to\s+)?{SPELLED_NUMBER_PATTERN}|(?:a\s+(?:bit|little|touch|tad)\s+|slightly\s+)?"
    r"(?:higher|lower|wider|narrower|up|down)\b)",
    re.I,
)
#: "... by 0.25 A to flatten the orbit there", "..., so as to recover the lifetime": a purpose
_PURPOSE = re.compile(
    # "... to zero to start from a clean state": a value in words too
    r"(?P<amount>\d\s*(?:[a-zµ]{1,4}\b|%)|\b(?:to|at)\s+(?:zero|nominal))\s*,?\s+"
    r"(?:so\s+as\s+|in\s+order\s+)?to\s+"
    r"(?!(?:the\s+same|what|where|its|their|that|nominal|golden|default|zero|minus|match|equal)\b)"
    rf"(?!{SPELLED_NUMBER_PATTERN})"
    r"(?=[a-z]{3,}\b)(?P<purpose>[^,;?!\d]*)(?=[,;.?!]|$)",
    re.I,
)
#: "VCM 02 should come down a little to lower the orbit at BPM 03": the effect wanted, after a
#: vague amount or a way, says why (its device is no target)
_PURPOSE_AFTER_A_WAY = re.compile(
    r"(?P<amount>\b(?:a\s+)?(?:little|bit|touch|tad|notch|slightly|somewhat|up|down|higher|lower)"
    r"(?:\s+(?:more|less))?)\s*,?\s+(?:so\s+as\s+|in\s+order\s+)?to\s+(?:lower|raise|flatten|"
    r"correct|reduce|increase|improve|recover|fix|cent(?:er|re)|move|shift|push|pull|steer|"
    r"compensate|counter|bring|get|level|even)\b[^,;.?!]*",
    re.I,
)
#: "the lifetime is suffering", "the orbit in sector 10 looks off", "HCM03 is probably set too
#: high": a clause that says how something is, with no request of its own
_OBSERVATION = re.compile(
    r"^\s*(?P<subject>(?:the\s+)?[\w][\w\s-]{0,40}?)\s+(?:is|are|looks?|seems?|was|were|has\s+been|"
    r"'s)\s+(?:probably\s+|clearly\s+|definitely\s+|a\s+bit\s+|a\s+little\s+|still\s+|really\s+|"
    r"quite\s+|way\s+|too\s+|pretty\s+|rather\s+|just\s+|now\s+)*(?:set\s+)?(?:too\s+)?"
    r"(?P<state>[a-z]+(?:\s+[a-z]+)?)\s*$",
    re.I,
)
_CHANGE_AHEAD = re.compile(
    r"\b(?:set|put|raise|lower|increase|decrease|reduce|open|close|bump|nudge|tweak|trim|adjust|"
    r"move|bring|change|make|come|go)\b",
    re.I,
)
#: "the RF voltage 100 kV higher": an amount and its direction, a change without a verb
_AMOUNT_OF_CHANGE = re.compile(
    r"\d\s*[a-zµ%]{0,4}\s+(?:higher|lower|more|less|wider|narrower|up|down)\b|\bto\s+[-+−]?\.?\d",
    re.I,
)
#: "could the vertical correctors there be tweaked a little?": a change asked in the passive
_PASSIVE_ASK = re.compile(
    r"\b(?:can|could|would|will)\s+(?P<what>(?!you\b|we\b|i\b)[^,;?!]{1,50}?)\s+be\s+"
    r"(?P<verb>tweaked|raised|lowered|increased|decreased|reduced|adjusted|changed|moved|opened|"
    r"closed|nudged|trimmed|bumped|corrected)\b(?P<rest>[^,;?!]*)\?",
    re.I,
)
#: "could the steering magnet HCM 21 go to -0.3 A?", "can QF 3 be set to 121 A?": a value
#: asked for a device, in its own words
_GOES_TO_A_VALUE = re.compile(
    r"\b(?:can|could|would|will|may)\s+(?P<what>(?!you\b|we\b|i\b|it\b|that\b|this\b)[^,;?!]{1,60}?)"
    r"\s+(?:go|come|move|be\s+(?:set|put|moved|taken|brought|changed|driven))\s+(?:to|at)\s+"
    r"(?=[-+−]?\.?\d)",
    re.I,
)
_PLACE = re.compile(
    r"\b(?:in|at|around|near)\s+(?P<place>sector\s+\d{1,2}|(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3})\b",
    re.I,
)
_DEVICE_NAMED = re.compile(r"^\s*(?:the\s+)?(?P<device>[A-Za-z]{1,5}\s?\d{1,3}\b)", re.I)


#: "I'd like a smaller gap on ID07": a comparative wished, its amount still to be asked
_WISHED_COMPARATIVE = re.compile(
    # "I'd like a smaller gap", "the users want a smaller gap on ID 11", "Maria needs a higher
    # current": whoever wishes it, the change wished, its amount to be asked
    r"\b(?:(?:i|we|they|he|she)(?:'d|\s+would)\s+like|(?:i|we|they)\s+(?:want|need)|"
    r"(?:the\s+)?(?:users?|beamline|experiment|physicists?|[A-Z][a-z]+)\s+(?:wants?|needs?|"
    r"would\s+like|asked\s+for))\s+(?:an?\s+)?"
    r"(?P<cmp>smaller|narrower|lower|higher|larger|bigger|wider|stronger|weaker)\s+"
    r"(?P<what>[^,;?!]+?)\s*(?=[,;?!]|$)",
    re.I,
)


#: "it needs closing a little", "QF3 could use raising by 1 A": a change needed, said as a noun
_NEEDS_DOING = re.compile(
    r"(?P<what>\b(?:it|they|them|(?:the\s+)?[A-Za-z][\w-]*(?:\s+[\w-]+){0,3}?))\s+"
    r"(?:needs?|wants?|could\s+(?:use|do\s+with)|requires?)\s+(?:a\s+(?:bit\s+of\s+)?)?"
    r"(?P<verb>clos|open|rais|lower|adjust|trimm|tweak|reduc|increas|decreas|nudg|bump)ing\b",
    re.I,
)
_DOING_IT = re.compile(
    r"^\W*(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?P<verb>rais|lower|increas|decreas|open|clos|bump|nudg|"
    r"trimm|tweak|reduc)ing\b",
    re.I,
)


def indirect_said_plainly(text: str) -> str:
    """``text`` with the indirect forms above said the plain way (unchanged when none fits)."""
    work = _NEEDS_DOING.sub(lambda m: f"{base_form(m['verb'] + 'ed')} {m['what']}", text)
    work = _WISHED_COMPARATIVE.sub(lambda m: f"make {m['what']} a bit {m['cmp']}", work)
    # "I'm raising QF3 a bit, go ahead": the change being made, asked
    work = _DOING_IT.sub(lambda m: base_form(m["verb"] + "ed"), work)
    work = _WOULD_BE_GOOD.sub(lambda m: f"{m['what'] or m['had']} ", work)
    work = _BETTER_AT.sub(lambda m: f"set {m['what'].strip()} to ", work)
    work = _PURPOSE.sub(r"\g<amount>", work)
    work = _PURPOSE_AFTER_A_WAY.sub(r"\g<amount>", work)
    work = _PASSIVE_ASK.sub(_passive_asked, work)
    work = _GOES_TO_A_VALUE.sub(lambda m: f"set {m['what'].strip()} to ", work)
    work = _observations_dropped(work)
    return _DEVICE_MOVES.sub(_device_moves, work)


def _passive_asked(found: re.Match[str]) -> str:
    return f"{base_form(found['verb'])} {found['what'].strip()}{found['rest']}"


def _device_moves(found: re.Match[str]) -> str:
    what = found["what"].strip()
    lead = found["lead"]
    beam = re.match(r"(?:the\s+)?(?:beam|lifetime|current|orbit|pressure|vacuum)\b", what, re.I)
    if (
        beam
        and not re.search(r"\d", what)
        and not (found["ask"] and re.search(r"\d", found["rest"]))
    ):
        # "the lifetime needs to come up", "could the lifetime go up?": a wish about the beam
        return found.group(0)
    if re.match(r"(?:i|we|you|they|he|she)\b", what, re.I):
        return found.group(0)  # "we should go up": a person, not a device
    asked = re.match(r"(?:did|does|do|has|have|had|is|was|were|when|why|how|what)\b", what, re.I)
    if asked or ("?" in found["end"] and not found["ask"]):
        return found.group(0)  # "did the RF voltage go up since 10 am?": a question of the past
    verb = "raise" if found["way"].lower() in ("up", "higher") else "lower"
    rest = f" by {found['amount']}{found['rest']}" if found["amount"] else found["rest"]
    return f"{lead}{verb} {what}{rest}{'' if found['ask'] else found['end']}"


def _observations_dropped(text: str) -> str:
    """The request without clauses that only observe, when another clause asks a change; a
    pronoun or "there" in the change takes the observed device or place."""
    clauses = re.split(r"(?<=[,;.])\s+|\s+(?=so\s)", text)
    if len(clauses) < 2:
        return text
    observed = [i for i, c in enumerate(clauses) if _observes(c)]
    asks = [
        i
        for i, c in enumerate(clauses)
        if i not in observed and (_CHANGE_AHEAD.search(c) or _AMOUNT_OF_CHANGE.search(c))
    ]
    if not observed or not asks:
        return text
    kept = []
    device = place = None
    for i, clause in enumerate(clauses):
        if i in observed:
            subject = _OBSERVATION.match(clause.strip(" ,;."))["subject"]
            named = _DEVICE_NAMED.match(subject)
            device = named["device"] if named else device
            located = _PLACE.search(subject)
            place = located["place"] if located else place
            continue
        if i > min(observed) or device or place:
            if device:
                clause = re.sub(r"\b(?:it|its)\b", device, clause, count=1, flags=re.I)
            if place:
                clause = re.sub(r"\bthere\b", f"in {place}", clause, count=1, flags=re.I)
        kept.append(clause)
    return " ".join(kept).strip(" ,;")


def _observes(clause: str) -> bool:
    """A clause that says how something is: no condition, no question word, no amount."""
    said = clause.strip(" ,;.")
    if re.match(r"(?:if|when|unless|once|because|since|as|while|and|but)\b", said, re.I):
        return False
    if re.search(r"\d\s*[a-zµ%]{0,4}\s*$", said) or "?" in clause:
        return False
    found = _OBSERVATION.match(said)
    if found is None:
        return False
    state = found["state"].lower().split()[0]
    return state not in ("at", "to", "on", "set", "the", "a", "an", "about", "around")
