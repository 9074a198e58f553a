"""Readings quoted from a screen, set aside before the parse.

An operator often copies what a display shows before asking about it: "alarm panel:
SR07C:IG13:Pressure  HIGH  6.2e-09 Torr. What's IG14 next to it saying?", "From the quad page:
QD22 RB 94.61 A (MINOR). What's its setpoint?", "Lifetime reads 9.8 h on the overview. If it's
still above 8 h, ...". The quoted reading is what the operator saw, not what is asked, so it is
left out; a pronoun of the request that stands for it ("it", "its", "that", "both", "them")
takes the quoted device's name, and a place said by it ("next to it", "either side of it")
goes with it. A clause is a quote only when it is marked as one: a screen named before a colon
or after "on the", a verb of display ("reads", "shows", "says", "flashing", "jumped"), an alarm
severity in capitals, a colour, a setpoint or readback followed by its number, or back-quotes.
A message that only quotes (or asks nothing beside its quotes) is left as typed.
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import FUNCTION_WORDS
from osprey_desktop.language.parsed_request import Vocabulary

__all__ = ["screen_quotes_set_aside"]

#: Where one clause ends: a sentence's end, a dash between spaces, a semicolon, a new line.
_CLAUSE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|\s+[-–—]+\s+|;\s*|\s*\n\s*")
#: "alarm panel:", "From the quad page:", "top of screen shows", "Orbit display:"
_SOURCE = re.compile(
    r"^(?:(?:from|on|in)\s+)?(?:the\s+)?(?:top|bottom)?(?:\s+of)?\s*(?:the\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:display|screen|panel|page|overview|log|opi|summary|status\s+bar|handler)"
    r"\s*(?::|\b(?:shows|says|reads|displays)\b)\s*",
    re.I,
)
_DISPLAY_VERB = re.compile(
    r"^(?P<subject>.{1,60}?)\s+(?:reads|shows|says|displays|is\s+(?:showing|reading)|showing|"
    r"reading|flashing|blinking|jumped|went|dropped|fell|rose|climbed)\b",
    re.I,
)
_SEVERITY = re.compile(r"\b(?:MINOR|MAJOR|INVALID|HIHI|LOLO|HIGH|LOW|NO_ALARM)\b")
_COLOUR = re.compile(r"\bin\s+(?:yellow|orange|red|green|magenta|pink|white)\b", re.I)
_ON_SCREEN = re.compile(
    r"\s*\b(?:on|in|from)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}(?:display|screen|overview|page|panel|opi)"
    r"\b",
    re.I,
)
#: What a display shows after its verb: a number, a severity, a quoted text, a state.
_READING = re.compile(
    r"[-+]?\.?\d|\b(?:MINOR|MAJOR|INVALID|HIHI|LOLO|HIGH|LOW)\b|['\"`]|\b(?:disconnected|invalid|"
    r"nan|n/a|zero|blank|red|yellow|orange|magenta)\b",
)
_VALUE_GIVEN = re.compile(r"\b(?:to|at)\s*[-+−]?\.?\d|->|→|=>|:=|(?<![<>!])=(?!=)")
_ROLE_THEN_NUMBER = re.compile(r"\b(?:RB|SP|readback|setpoint)\s*[:=]?\s*[-+]?\.?\d", re.I)
_NUMBER = re.compile(r"(?<![\w:])[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?![\w:])", re.I)
_TIME_STAMP = re.compile(r"^\s*(?:\d{4}-\d\d-\d\d[ T])?\d{1,2}:\d\d(?::\d\d(?:\.\d+)?)?\s+")
#: What a request opens with (a verb or a question word): such a clause asks, never quotes.
_ASKS = re.compile(
    r"^\W*(?:please\s+|and\s+|then\s+|so\s+)?(?:set|put|read|plot|show|check|get|give|trend|bump|"
    r"move|raise|lower|increase|decrease|reduce|open|close|change|make|take|bring|restore|"
    r"compare|can|could|would|will|what|what's|when|how|why|which|where|is|are|was|were|did|do|"
    r"does|if|has|have|i|we|let's)\b",
    re.I,
)
_ROLE_WORDS = re.compile(r"(?:\s+|:)(?:RB|SP|readback|setpoint|read\s*back|set\s*point)\s*$", re.I)
_CHANGED_IT = re.compile(
    r"\b(?P<verb>set|put|bump|move|raise|lower|increase|decrease|reduce|open|close|change|take|"
    r"bring|restore|trim|tweak|nudge|zero|turn)\s+(?:it|them|both)\b",
    re.I,
)
#: "please set them", "apply these", "redo them now": the values quoted are the ones to write
_SET_AS_QUOTED = re.compile(
    r"^\W*(?:(?:so|ok(?:ay)?|then|and|please|pls|just)\s+)*(?:set|apply|redo|restore|put|make|"
    r"do)\s+(?:them|these|those|that|this|both|it)(?:\s+(?:all|back|again|now|please|pls|"
    r"then|as\s+(?:listed|quoted|above)))*\W*$",
    re.I,
)
_NAME_LIKE = re.compile(r"[A-Za-z]\s?\d|:|^[A-Za-z][a-z]+(?:\s+[a-z]+){0,2}$")
#: A question about the quoted value itself: the reading answers it.
_DOUBT = re.compile(
    r"^\W*(?:is|does)\s+(?:that|this|it)\s+(?:look\s+)?(?:right|correct|normal|ok|okay|plausible|"
    r"real|expected|fine|true)\W*$",
    re.I,
)
_PLACE_BY_IT = re.compile(
    r",?\s*\b(?:next\s+to|beside|either\s+side\s+of|on\s+either\s+side\s+of|around|near|"
    r"close\s+to)\s+(?:it|that\s+one|that)\b",
    re.I,
)


def screen_quotes_set_aside(text: str, vocabulary: Vocabulary | None = None) -> str:
    """``text`` without the readings it quotes from a screen, their names where the request's
    pronouns stood for them (unchanged when nothing is quoted or nothing else is asked, and
    when the request names nothing itself: "SR05C:IG09:Pressure MAJOR 8.4e-09 - mean over the
    last 2 h?" asks of the quoted channel; ``vocabulary`` says what names a channel)."""
    pieces = _CLAUSE_END.split(text)
    if len(pieces) < 2:
        return text
    separators = _CLAUSE_END.findall(text)
    quoted: list[list[str] | None] = [_quoted_names(p) for p in pieces]
    if not any(q for q in quoted) or all(q is not None for q in quoted):
        return text
    # "Is that right? read it again": a doubt beside a request is answered by the reading
    asked = [at for at, q in enumerate(quoted) if q is None and not _DOUBT.match(pieces[at])]
    if any(_SET_AS_QUOTED.match(pieces[at]) for at in asked):
        return text  # "Handover says ...: HCM01 0.15 A, HCM02 -0.1 A. Please set them."
    kept: list[str] = []
    names: list[str] = []
    pointed = False
    for at, piece in enumerate(pieces):
        found = quoted[at]
        if found is not None:
            # the lines of one pasted block are quoted together ("Alarm log:" and its lines)
            names = [*names, *found] if at and quoted[at - 1] is not None else found or names
            continue
        if asked and at not in asked:
            continue
        said = _named(piece, names) if names else piece
        pointed = pointed or said != piece
        kept.append(said)
        if at < len(separators):
            kept.append(separators[at])
    joined = "".join(kept).strip(" -–—;\n")
    if not joined or not (pointed or _names_a_channel(joined, vocabulary or Vocabulary())):
        return text
    return joined


def _names_a_channel(text: str, vocabulary: Vocabulary) -> bool:
    """Whether ``text`` names a channel of its own: a device ("IG14", "QF 5"), a full name, or
    a word of the channel list ("the horizontal tune")."""
    if re.search(r"\b[A-Za-z]{1,6}\d{1,3}\b|\w:\w", text):
        return True
    spaced = re.findall(r"\b([A-Za-z]{1,6})\s\d{1,3}\b", text)  # "QF 5", never "last 2"
    if any(p.lower() in vocabulary.device_prefixes for p in spaced):
        return True
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
    said |= {w[:-1] for w in said if w.endswith("s")}
    return bool((said - FUNCTION_WORDS) & vocabulary.channel_words)


def _quoted_names(clause: str) -> list[str] | None:
    """The names a clause quotes from a screen ([] for a screen's label alone, "alarm log:"),
    or None when the clause is no quote."""
    said = clause.strip().strip("`'\"").strip()
    said = said.rstrip(".!")
    if not said or "?" in said:
        return None
    source = _SOURCE.match(said)
    rest = said[source.end() :].strip().strip("`'\"") if source else said
    if source and not rest:
        return []  # "Alarm log:": what follows is quoted
    rest = _TIME_STAMP.sub("", rest)
    if _ASKS.match(rest):
        return None
    shown = bool(_DISPLAY_VERB.match(rest))
    marked = bool(
        source
        or _SEVERITY.search(rest)
        or _COLOUR.search(rest)
        or _ON_SCREEN.search(rest)
        or _ROLE_THEN_NUMBER.search(rest)
        or clause.strip().startswith("`")
    )
    if not (marked or shown):
        return None
    if not (shown or _SEVERITY.search(rest)) and _VALUE_GIVEN.search(rest):
        return None  # "QD 5 to 95 A on the quad page": a value given, no reading quoted
    items = re.split(r",\s*|\s+/\s+", rest)
    if any(_ASKS.match(_TIME_STAMP.sub("", item)) for item in items):
        return None  # "the logbook says it was -0.1 A, set it to -0.1 A": a request in it
    names = [n for item in items if (n := _subject(item, marked=marked))]
    return names or None


def _subject(item: str, *, marked: bool = True) -> str | None:
    """The name a quoted item gives its reading: the words before the display verb or the
    first number, without where it was seen; its role is kept ("QF05 SP", for a question of
    its past), and dropped only where a change or "its" names the device (``_named``)."""
    item = _TIME_STAMP.sub("", item.strip().strip("`'\"(").strip())
    shown = _DISPLAY_VERB.match(item)
    if shown and not _READING.search(item[shown.end() :]):
        return None  # "beamline 5 says flux is low": a report, no reading
    # "the run plan says QD 10 to 97 A": a document's words, not a display's reading; a
    # reading said so names its device ("QF05 SP reads 120.000")
    documented = shown and (
        shown.group(0).split()[-1].lower() == "says" or len(shown["subject"].split()) > 2
    )
    if documented and not marked and not re.search(r"\d|:", shown["subject"]):
        return None
    number = _NUMBER.search(item)
    severity = _SEVERITY.search(item)
    ends = [m.start() for m in (number, severity) if m is not None]
    end = shown.end("subject") if shown else min(ends) if ends else None
    if end is None:
        return None
    subject = _ON_SCREEN.sub("", item[:end]).strip(" :=`'\"")
    if not subject or len(subject.split()) > 4 or not _NAME_LIKE.search(subject):
        return None
    return subject


def _named(clause: str, names: list[str]) -> str:
    """``clause`` with the pronouns that stand for the quoted ``names`` replaced by them; a
    change ("set it to 0.2 A", "bump it up") names the devices, not their readbacks."""
    devices = " and ".join(_ROLE_WORDS.sub("", n).strip() for n in names)
    clause = _CHANGED_IT.sub(lambda m: f"{m['verb']} {devices}", clause)
    said = " and ".join(names)
    clause = _PLACE_BY_IT.sub("", clause)
    if len(names) > 1:
        clause = re.sub(
            r"\b(?:both(?:\s+of\s+them)?|them|those|these|they)\b", said, clause, flags=re.I
        )
    clause = _IT_IS.sub(f"{said} is", clause)
    clause = re.sub(r"\bits\b", f"the {devices}", clause, flags=re.I)
    clause = re.sub(r"\bit\b(?!'s)", said, clause, flags=re.I)
    # "put ID04 at 80 % of that": the quoted reading
    return re.sub(
        r"\b(?P<by>of|to|at|than|with|like)\s+that\b", rf"\g<by> {said}", clause, flags=re.I
    )


_IT_IS = re.compile(r"\bit'?s\b(?=\s+(?:still|now|again|above|below|over|under|at|back|not))", re.I)
