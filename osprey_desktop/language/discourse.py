"""The part of a message that asks, apart from the part that tells.

On shift a request comes wrapped in what the operator knows: "per the handover, HCM05 has to
go to 0.35 A - please set it", "the handover sheet says we had 480 mA at 06:00, what did the
DCCT read at 06:00?", "ID04 gap to 18 mm, users finished their scan". The message is cut into
pieces (sentences; a colon, a spaced dash or a semicolon; a comma before a new clause) and each
piece is one of:

* a **request**: a question, a piece led by a verb of reading, plotting or changing (after
  politeness: "please", "can you", "I'd like"), or a device given a value ("ID04 gap to 18 mm");
* a **statement**: a subject and a finite verb that tell ("the logbook says ...", "the drift is
  small", "users finished their scan"), or a report led by a discourse marker ("per the
  handover", "before I forget", "coming on shift").

When a message holds both, the statements are what the operator knows, not what they ask: they
are left out, and a pronoun of the request ("set it to 121.5") takes the one device the
statements named. A message of statements only is kept whole, so nothing asked is dropped.
Discourse markers leading a request ("first thing, give me ...", "per the handover raise QD16
by 0.8 A") are dropped with it. A request relayed from a beamline is said as the operator's own
first (``relayed_requests``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from osprey_desktop.language.clauses import (
    REQUEST_LEAD,
    WISH,
    is_question,
    lead_stripped,
    refusal_spans,
)
from osprey_desktop.language.lexicon import CHANGE, PLOT_VERBS, READ_VERBS
from osprey_desktop.language.quantities import amounts
from osprey_desktop.language.relayed_requests import (
    DEVICE_NAME,
    PEOPLE,
    RING_WIDE,
    said_as_their_own,
)

__all__ = ["asked_part", "only_tells", "without_discourse_markers"]

#: a word of a marker is never a verb that asks ("per the handover raise QD16 ...")
_NOT_A_VERB = (
    r"(?!(?:the|a|an|"
    + "|".join(sorted(CHANGE | READ_VERBS | PLOT_VERBS, key=len, reverse=True))
    + r")\b)"
)
#: Discourse markers: they place the message in the shift, they ask nothing.
_MARKER = (
    r"(?:first\s+thing(?:\s+(?:this\s+shift|today))?|before\s+i\s+forget|one\s+more\s+thing|"
    r"on\s+second\s+thought|(?:just\s+)?so\s+you(?:'re|\s+are)\s+aware|fyi|heads[\s-]+up|"
    r"for\s+the\s+record|quick\s+(?:one|question)|before\s+(?:i|we)\s+start|first\s+of\s+all|"
    r"first\s+off|to\s+start(?:\s+with)?|(?:item|point|task|note|step|to-?do)\s*#?\s*\d+|"
    rf"(?:as\s+)?per\s+(?:the\s+|my\s+|our\s+)?(?:{_NOT_A_VERB}[a-z-]+\s+){{0,2}}{_NOT_A_VERB}[a-z-]+(?:\s+(?:notes?|"
    r"sheet|log|plan|meeting|item\s+\d+))?|according\s+to\s+(?:the\s+)?[a-z]+(?:\s+(?:notes?|"
    r"sheet|log))?|(?:the\s+)?handover(?:\s+(?:item|point|note)\s*(?:\d+|[a-z]))?|"
    r"(?:incoming|outgoing|new|night|day|morning|evening)\s+shift(?:\s+here)?|"
    r"coming\s+(?:in|on|onto)(?:\s+for)?\s+(?:the\s+)?(?:[a-z]+\s+)?shift|first\s+up|"
    r"last\s+thing(?:\s+from\s+(?:the\s+)?handover)?|(?:good\s+)?morning|evening|afternoon|ok(?:ay)?\s+so|"
    r"right|also|next|and\s+then)"
)
_LEADING_MARKERS = re.compile(rf"^\W*(?:{_MARKER}(?:\s*[,:;.!-]*\s+|\s*[,:;.!-]*$))+", re.I)
#: a marker with no punctuation before a verb that asks ("per the handover raise QD16 ...")
_MARKER_BEFORE_VERB = re.compile(
    rf"^\W*(?:{_MARKER})\s+(?=(?:please\s+)?(?:"
    + "|".join(sorted(CHANGE | READ_VERBS | PLOT_VERBS, key=len, reverse=True))
    + r")\b)",
    re.I,
)
#: where a message breaks into pieces: a sentence's end, a colon or a spaced dash, a semicolon
_BREAK = re.compile(
    r"(?<=[.!?])\s+(?=\S)|(?<![\d\s]):\s+|\s+[-–—]\s+(?![-+]?\.?\d)|;\s*"
    # "since the feedback was off this morning I'd like to see ...": the wish starts anew
    r"|(?<=[a-z])\s+(?=(?:i'?d\s+like|i\s+would\s+like|i\s+want|i\s+need|can\s+you|could\s+you)\b)",
    re.I,
)
#: a comma before a new clause: a question word, a request's lead, or a subject and a verb
_CLAUSE_COMMA = re.compile(
    r",\s+(?=(?:so\s+|and\s+|but\s+)?(?:please\s+|just\s+)?(?:what|when|where|which|how|is|are|was|did|try|let|"
    r"does|do|can|could|would|set|put|read|show|plot|tell|give|check|raise|lower|increase|decrease|"
    r"open|close|go\s+with|go\s+ahead|leave|don'?t|do\s+not|never)\b|(?:as\s+)?(?:the\s+|my\s+|their\s+|our\s+)?"
    r"[a-z]+(?:\s+[\w]+){0,3}?(?:'re\b|'s\b|'d\s+like\b|\s+(?:says|said|asked|asks|agreed|finished|started|wants|"
    r"want|planning|is|are|was|were|has|have|had|will|tripped|drifted|know|understand)\b)"
    # "open ID07 to 40 mm, beamline screaming": a fragment that tells how things are
    r"|[a-z]+\s+[a-z]+ing\s*[.!]*$)",
    re.I,
)
#: a finite verb that tells: the piece states something
_TELLS = re.compile(
    r"\bi\s+am\b|\b(?:is|are|was|were|'m|'s|'re|has|have|had|says|said|asks|asked|called|calls|wants|"
    r"want|need|needs|should|must|stays|stay|seems|seem|seemed|looks|looked|felt|tripped|drifted|dropped|moved|changed|raised|lowered|started|"
    r"finished|went|came|got|been|will|keeps?|agreed|planning|planned|knocked|happened|dumped|"
    r"know|knew|understand|realise|realize|"
    r"crashed|died|lost|fell|rose|jumped|spiked)\b",
    re.I,
)
_ASKER = re.compile(
    r"^\W*(?:can|could|would|will)\s+you\b|\bplease\b|\bpls\b|^\W*(?:i|we)(?:'d|\s+would)?\s+"
    r"(?:just\s+|really\s+|only\s+|also\s+|still\s+|\w+ly\s+)?(?:like|want|need)\b|^\W*(?:let\s+me|give\s+me|tell\s+me|show\s+me)\b",
    re.I,
)
_REQUEST_VERBS = (
    CHANGE | READ_VERBS | PLOT_VERBS | frozenset({"go", "leave", "keep", "confirm", "verify"})
)


def without_discourse_markers(text: str) -> str:
    """``text`` without the discourse markers leading it ("first thing, give me ..." is "give
    me ...")."""
    rest = _LEADING_MARKERS.sub("", text, count=1)
    rest = _MARKER_BEFORE_VERB.sub("", rest, count=1)
    return rest if re.search(r"[A-Za-z0-9]", rest) else text


@lru_cache(maxsize=256)
def asked_part(text: str) -> str:
    """The pieces of ``text`` that ask, without the statements around them (``text`` itself
    when no piece asks, when every piece does, or when what asks needs what was told). Kept
    for the last texts: the parse, its knowledge check and the investigation's claims each ask
    it of the same request."""
    text = _AS_AGREED.sub("", said_as_their_own(text))
    pieces = [p for p in _pieces(text) if p.strip(" ,.;:-")]
    if len(pieces) < 2:
        return without_discourse_markers(text)
    kinds = [_asks(p) for p in pieces]
    if pieces and not kinds[0] and any(kinds) and _only_a_time(pieces[0]):
        # "yesterday evening: plot the lifetime": the time the request asks about, said first
        first = kinds.index(True)
        pieces[first] = f"{pieces[first].rstrip(' ?.!')} {pieces[0].strip(' ,.;:-')}"
        pieces, kinds = pieces[1:], kinds[1:]
        if all(kinds):
            return _joined(pieces)
    for i in range(1, len(pieces)):
        if _POLICY_NOTE.match(pieces[i - 1]) and _TELL_ME.match(pieces[i]):
            kinds[i] = False  # "if the step's too big, tell me": the policy's answer, expected
    valued = [bool(DEVICE_NAME.search(p) and amounts(p)) for p in pieces]
    for i, piece in enumerate(pieces):
        wished = WISH.search(piece) and _MORE_OR_LESS.search(piece)
        if kinds[i] and wished and not valued[i] and any(valued):
            # "the ID 11 users want a higher photon energy - please open the ID11 gap by 1.5 mm":
            # a wish for more or less of something, beside the change that gives it, says why
            kinds[i] = False
    doubted = _order_after_doubts(pieces, text)
    if doubted is not None:
        return doubted
    if all(kinds) or not any(kinds):
        return text
    if all(
        _INTERJECTION.fullmatch(p.strip()) for p, asks in zip(pieces, kinds, strict=True) if asks
    ):
        return text  # "no, don't touch the gap": an answer and a refusal, nothing else asked
    told = [p for p, asks in zip(pieces, kinds, strict=True) if not asks]
    told_before = pieces[: kinds.index(True)]
    request = _joined([p for p, asks in zip(pieces, kinds, strict=True) if asks])
    devices = {d.upper() for p in told for d in DEVICE_NAME.findall(p)}
    done = _what_was_told_done(request, told, devices)
    if done is not None:
        return done if done else text
    people = [p for p in told_before if PEOPLE.search(p) and DEVICE_NAME.search(p)]
    if people and len(devices) == 1 and not DEVICE_NAME.search(request):
        return _bound_to_the_asker(request, next(iter(devices)))
    places = {" ".join(m.split()).lower() for p in told for m in _SECTOR.findall(p)}
    if re.search(r"\bthere\b", request, re.I) and len(places) == 1:
        # "the orbit in sector 10 looks off, could the correctors there be tweaked?"
        request = re.sub(r"\bthere\b", f"in {places.pop()}", request, count=1, flags=re.I)
    return _with_antecedent(request, told_before, devices, text)


def _order_after_doubts(pieces: list[str], text: str) -> str | None:
    """ "isn't 0.1 A enough for VCM 23? set it to 0.1.", "QF 1 is at 120 I assume? put it to
    121.5 then": questions the operator answers themselves with the order after them; the
    order, its pronoun given the device the questions named. None when the message is not
    questions, then one order with a value."""
    order = re.sub(r"\s+then\W*$", "", pieces[-1].strip(), flags=re.I)  # "then": if so
    doubts = pieces[:-1]
    if not (_ORDER.match(order) and amounts(order)) or not doubts[-1].strip().endswith("?"):
        return None
    if _CONDITIONAL_ORDER.search(order):
        return None  # "lifetime above 8 h? then raise HCM 34 by 0.4 A": a condition, read first
    if any(_WH_QUESTION.match(p) or _ORDER.match(p) for p in doubts):
        return None  # "what is QF 3 at? set QF 5 to 121": a reading asked beside the order
    if not _DOUBT.search(" ".join(doubts)):
        return None  # "HCM 3 value? set to 0.2 A": a reading asked, no doubt
    devices = {d.upper() for p in doubts for d in DEVICE_NAME.findall(p)}
    return _with_antecedent(order, doubts, devices, text)


def _only_a_time(piece: str) -> bool:
    """ "yesterday evening:", "between 10 and 11 this morning -": nothing but a time."""
    from osprey_desktop.language.time_parsing import strip_time_expressions

    said = piece.strip(" ,.;:-")
    return bool(said) and not re.search(r"[a-z]", strip_time_expressions(said), re.I)


def _joined(asked: list[str]) -> str:
    """The pieces that ask, as one request: a verb on a pronoun takes the other pieces ("QD 46
    readback - ..., check it": check the QD46 readback); a sentence keeps its stop, a clause
    gets its comma."""
    asked = [without_discourse_markers(p).strip(" ,;:-") for p in asked]
    # "I'm not sure how to ask this, but is the lifetime ...": the conjunction joined the hedge
    asked = [re.sub(r"^(?:but|and|so)\s+", "", p, flags=re.I) for p in asked if p]
    bare = [p for p in asked if _VERB_ON_A_PRONOUN.match(p)]
    if len(bare) == 1 and len(asked) > 1:
        rest = [p for p in asked if p is not bare[0]]
        asked = [f"{_VERB_ON_A_PRONOUN.match(bare[0])['verb']} {' and '.join(rest)}"]
    request = " ".join(p if re.search(r"[.!?]$", p) else f"{p}," for p in asked[:-1])
    return f"{request} {asked[-1]}".strip()


def _what_was_told_done(request: str, told: list[str], devices: set[str]) -> str | None:
    """The change that was told, when the request only says to make it: None when the request
    says more, "" when what was told cannot be said as one change (the message stays whole)."""
    plural = _CHANGE_THEM_ALL.match(request)
    if plural and len(devices) > 1:
        # "beamlines at ID05 and ID07 both want 20 mm, set both gaps": each named device
        values = {a.words for p in told for a in amounts(p) if a.unit}
        if len(values) == 1:
            named = " and ".join(sorted(devices))
            return f"{plural['verb']} the {named} {plural['noun']} to {values.pop()}"
    if not _GO_AHEAD_ONLY.match(request):
        return None
    # "the physicist asked me to try HCM11 at 0.25 A, so please set that"
    clauses = [c for p in told for c in re.split(r"\s+and\s+|,\s+", p)]
    valued = [c for c in clauses if any(a.unit for a in amounts(c))]
    # "the handover says 0.45, go with that": a bare value told, a follow-up's value
    valued = valued or [c for c in clauses if re.search(r"(?<![\w.])[-+−]?\d*\.?\d+(?![\w.:])", c)]
    if not valued and len(told) == 1:
        # "per the handover it needs closing a little, go ahead": what was told, done
        return without_discourse_markers(told[0]).strip(" ,;:-")
    if len(valued) != 1:
        return ""
    said = without_discourse_markers(valued[0]).strip(" ,;:-")
    if re.match(r"(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}\s+(?:needs|wants|has)\b", said, re.I):
        return said  # "HCM16 needs to sit at -0.45 A": the device's own need, no one reporting
    return _REPORTED_LEAD.sub("", said)


def _bound_to_the_asker(request: str, device: str) -> str:
    """ "users on ID2 called, they'd like the gap 1 mm narrower": the operator's own wish, for
    the asker's device (never for what the whole ring has)."""
    request = re.sub(
        r"\b(?:they|he|she)(?:'d|\s+would)?\s+(?:like|want|need)s?\b",
        "I'd like",
        request,
        flags=re.I,
    )
    noun = re.search(r"\b(?:their|the)\s+((?:[\w-]+\s+){0,2}[\w-]+)", request, re.I)
    if noun and not RING_WIDE.search(noun.group(1)):
        request = f"{request[: noun.start()]}the {device} {noun.group(1)}{request[noun.end() :]}"
    return request


def _with_antecedent(request: str, told_before: list[str], devices: set[str], text: str) -> str:
    """The request with its pronoun given what was told before it: the one device told, or the
    subject of the last statement; ``text`` whole when nothing told can be the antecedent.
    What is told after the request never is ("what was it at 09:45? that's when their scan
    started": it is the previous turn's)."""
    told_something = any(
        re.search(r"[A-Za-z0-9]", _LEADING_MARKERS.sub("", p)) for p in told_before
    )
    if told_something and _BACK_IN_TIME.search(request):
        return text  # "the beam dumped at 3:10, show the RF voltage around then": then is told
    undulators = {d for d in devices if d.startswith("ID")}
    if told_something and len(undulators) == 1 and not DEVICE_NAME.search(request):
        # "we're changing samples at ID 4 - please open our gap to 40 mm": ID04's gap
        request = undulator_named(request, next(iter(undulators)))
    if not told_something or not _PRONOUN.search(request) or DEVICE_NAME.search(request):
        return request
    subject = _subject_of(told_before[-1]) if not devices else None
    if subject is not None:
        # "lifetime was 9 h at 6 am; what is it now?": the lifetime
        request = re.sub(r"\bits\b", f"{subject}'s", request, flags=re.I)
        return re.sub(r"\bit\b", subject, request, flags=re.I)
    if len(devices) != 1:
        return text  # "someone said it was odd, what's it at?": nothing to give "it"
    # "Logbook says QF25 should be at 121.5 A. Set it to 121.5 please.": QF25
    device = next(iter(devices))
    request = re.sub(r"\b(?:its|their)\b", f"{device}'s", request, count=1, flags=re.I)
    return re.sub(r"\b(?:it|them|that)\b", device, request, count=1, flags=re.I)


_INTERJECTION = re.compile(
    r"(?:no|nope|yes|yeah|ok(?:ay)?|fine|right|sure|thanks|thank\s+you)\W*", re.I
)
#: a piece that only refuses a change ("please do not touch the RF", "don't change anything")
_REFUSAL_ONLY = re.compile(
    r"(?:please\s+)?(?:do\s+not|don'?t|dont|never)\s+(?:touch|change|write|move|alter|adjust|set)\s+"
    r"(?:anything|the\s+[a-z]+(?:\s+[a-z]+)?|[a-z]{1,5}\s?\d{1,3})(?:\s+(?:yet|now|please))?[\s.!,]*",
    re.I,
)
_MORE_OR_LESS = re.compile(
    r"\b(?:more|less|higher|lower|bigger|smaller|better|wider|narrower|larger|stronger|weaker)\b",
    re.I,
)


def undulator_named(request: str, device: str) -> str:
    """``request`` with "our gap", "my undulator" said as the one undulator told of."""
    return OUR_UNDULATOR.sub(lambda m: f"the {device} {m['what'] or 'gap'}", request)


#: "our gap", "my undulator's gap", "the users' undulator": the undulator a statement named
OUR_UNDULATOR = re.compile(
    r"\b(?:our|my|their|the\s+users'?)\s+(?:undulator(?:'s)?\s+|id(?:'s)?\s+|"
    r"insertion\s+device(?:'s)?\s+)?(?P<what>gap)\b|\b(?:our|my|their)\s+(?:undulator|"
    r"insertion\s+device)\b",
    re.I,
)
#: "as agreed at the morning meeting", "as the optics group asked": a reason after the request
_AS_AGREED = re.compile(
    r"\s*,?\s+as\s+(?:(?:agreed|asked|requested|discussed|planned|instructed|arranged|decided|"
    r"promised)\b|(?:the|our|my|their)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:asked|requested|wants|said|"
    r"suggested|agreed)\b)[^,;?!]*(?=[.!]*\s*$)",
    re.I,
)
_SECTOR = re.compile(r"\bsector\s+\d{1,2}\b", re.I)
_EXPECTED = re.compile(
    r"(?:it\s+|that\s+|this\s+)?(?:should|must|ought\s+to|is\s+supposed\s+to)\s+(?:be|read|sit)\b",
    re.I,
)
_VERB_ON_A_PRONOUN = re.compile(
    r"^(?:please\s+|just\s+)?(?P<verb>check|verify|confirm|read|show|plot|trend)\s+(?:it|that|them|this)"
    r"(?:\s+(?:please|for\s+me|now))?\W*$",
    re.I,
)
_EMBEDDED_ASK = re.compile(
    r"\b(?:wonder(?:ing)?|curious|(?:want|like|need)\s+to\s+(?:know|see|check)\s+\w|not\s+sure)\b"
    r"|\b(?:whether)\b",
    re.I,
)
#: "set both gaps", "put all three correctors": a change of the devices told, no name of its own
_CHANGE_THEM_ALL = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:please\s+)?(?P<verb>set|put|move|bring|open|close|change)\s+"
    r"(?:both|all(?:\s+(?:two|three|four|five))?|the|their)\s+(?:of\s+)?(?:the\s+|their\s+)?"
    r"(?P<noun>[a-z]+s)(?:\s+(?:please|now))?\W*$",
    re.I,
)
#: what the operator expects of the write policy: told, never a request of its own
_POLICY_NOTE = re.compile(
    r"(?:and\s+|so\s+|just\s+)*(?:let\s+it\s+(?:refuse|fail|block|reject|say\s+no)|"
    r"if\s+(?:the\s+step|it|that|this)(?:'s|\s+is)?\s+(?:too\s+(?:big|large|much|high|low|far)|refused|"
    r"blocked|rejected|not\s+allowed|over\s+the\s+limits?|out\s+of\s+range))",
    re.I,
)
_TELL_ME = re.compile(r"^\W*(?:just\s+)?(?:tell|let)\s+me(?:\s+know)?\W*$", re.I)
#: a time the request points back to: the time was told before it
_BACK_IN_TIME = re.compile(
    r"\b(?:(?:around|about|at|before|after|since|until|till|from)\s+(?:then|that\s+(?:time|moment|point))|"
    r"(?:before|after)\s+(?:that|it)(?!\s+(?:is|was)\b)|then\s*[?.!]*$|at\s+the\s+time)\b",
    re.I,
)
_PRONOUN = re.compile(r"\b(?:it|its|them|their|that)\b", re.I)
_CONDITIONAL_ORDER = re.compile(
    r"^\W*(?:and\s+)?(?:then|if|only\s+if|unless)\b|\bif\s+(?:so|yes|not|it\s+is|that)\b|"
    r"\b(?:otherwise|else)\b",
    re.I,
)
#: a yes/no question doubting the order after it: a negative lead ("isn't 0.1 A enough"), an
#: assumption ("I assume?", "I guess"), a tag ("can't it?", "right?")
_DOUBT = re.compile(
    r"^\W*(?:(?:hmm+|so|well|ok(?:ay)?)\W+)*(?:isn't|aren't|wasn't|doesn't|didn't|can't|won't|"
    r"shouldn't|wouldn't|couldn't|hasn't|haven't)\b|\bi\s+(?:assume|guess|suppose|think|believe|"
    r"reckon)\W*\?|\b(?:(?:is|are|was|could|does|did|would|should|has|have)(?:n't)?|can|can't|"
    r"will|won't)\s+"
    r"(?:it|they|that|we|there)\s*\?|,\s*(?:right|correct|no|yes|yeah)\s*\?",
    re.I,
)
_WH_QUESTION = re.compile(r"^\W*(?:what|which|how|when|where|why|who|whose)\b", re.I)
#: an order led by its verb of change ("set it to 0.1", "please put QF 1 to 121.5")
_ORDER = re.compile(
    r"^\W*(?:(?:so|ok(?:ay)?|then|and|please|pls|just)\W+)*(?:"
    + "|".join(sorted(CHANGE, key=len, reverse=True))
    + r")\b",
    re.I,
)
_GO_AHEAD_ONLY = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:please\s+|pls\s+|just\s+)?(?:set|do|apply|make)\s+(?:it|that|this|them)"
    r"(?:\s+(?:please|pls|now|then))?\W*$|^\W*(?:so\s+)?(?:please\s+)?(?:go\s+ahead|go\s+with\s+"
    r"(?:that|it)|do\s+it)(?:\s+(?:please|now))?\W*$",
    re.I,
)
#: "the physicist on call asked me to", "the logbook says": who asked, before what they asked
_REPORTED_LEAD = re.compile(
    r"^.*?\b(?:asked|asks|told|wants?|wanted|needs?|needed|said|says|suggested|suggests)\s+"
    r"(?:me\s+|us\s+)?"
    r"(?:to\s+|that\s+)?(?=\S)",
    re.I,
)


def only_tells(text: str) -> bool:
    """Every piece of ``text`` tells and none asks, and the teller is the operator ("Morning.
    I've got the desk until 15:00."): a word to take in, no request."""
    pieces = [p for p in _pieces(text) if p.strip(" ,.;:-")]
    if not pieces or any(_asks(p) for p in pieces):
        return False
    said = [_LEADING_MARKERS.sub("", p.strip(" ,;:-"), count=1) for p in pieces]
    said = [p for p in said if re.search(r"[A-Za-z0-9]", p)]
    # "per the handover, HCM05 was moved to 0.35 A by the previous shift": a change done, told
    return (
        bool(said)
        and all(
            _FIRST_PERSON.match(p) or _CHANGE_DONE.search(p) or _ONLY_WHO_TOLD.fullmatch(p)
            for p in said
        )
        and any(not _ONLY_WHO_TOLD.fullmatch(p) for p in said)
    )


_FIRST_PERSON = re.compile(r"(?:i|we)(?:'ve|'m|'ll|'re|\s+have|\s+am|\s+will|\s+are)\b", re.I)
#: a change reported as done ("HCM05 was moved to 0.35 A", "QF 3 has been set to 121 A")
_CHANGE_DONE = re.compile(
    r"\b(?:was|were|has\s+been|have\s+been|had\s+been|got|is\s+already|are\s+already)\s+"
    r"(?:already\s+|just\s+|only\s+)?(?:moved|set|changed|raised|lowered|put|brought|taken|"
    r"increased|decreased|reduced|opened|closed|adjusted|trimmed|bumped|nudged|ramped|zeroed|"
    r"restored|returned)\s+(?:back\s+)?(?:to|by|at|from)\b",
    re.I,
)
#: who told it, alone ("per the handover", "according to the logbook")
_ONLY_WHO_TOLD = re.compile(
    r"(?:per|according\s+to|from|as\s+per)\s+(?:the\s+)?(?:handover|logbook|log|elog|notes?|"
    r"shift\s+notes?|previous\s+shift|night\s+shift)[\s.,:;]*",
    re.I,
)


#: who tells rather than what is told about: never the subject a pronoun points back to
_TELLERS = re.compile(
    r"\b(?:logbook|log|elog|handover|sheet|notes?|physicists?|users?|people|beamlines?|operators?|"
    r"someone|somebody|they|we|i|you|he|she|it|this|that|expert|group|team|shift|crew)\b",
    re.I,
)


def _subject_of(piece: str) -> str | None:
    """The subject of a statement ("the RF frequency stays at ...": the RF frequency), when it
    is a thing of the machine and not who told it."""
    said = _LEADING_MARKERS.sub("", piece.strip(" ,;:-."), count=1)
    fragment = re.fullmatch(r"(?P<what>[a-z]+)\s+[a-z]+ing\W*", said, re.I)
    if fragment:  # "lifetime crashing...": the lifetime
        return fragment["what"] if not _TELLERS.search(fragment["what"]) else None
    found = _TELLS.search(said)
    if found is None:
        return None
    subject = said[: found.start()].strip(" ,")
    words = subject.split()
    if not 1 <= len(words) <= 5 or _TELLERS.search(subject) or re.search(r"\d", subject):
        return None
    return subject


def _pieces(text: str) -> list[str]:
    out = []
    for piece in _BREAK.split(text):
        start = 0
        for found in _CLAUSE_COMMA.finditer(piece):
            out.append(piece[start : found.start()])
            start = found.start() + 1
        out.append(piece[start:])
    return [p.strip() for p in out]


#: An apology, a hedge or a comment on the asking itself, beside a request: no part of it.
_HEDGE = re.compile(
    r"^\W*(?:(?:sorry|apologies|my\s+bad|thanks|thank\s+you|cheers)(?:\s+(?:if|for)\b.*)?\W*$"
    r"|(?:i'?m|i\s+am)\s+not\s+(?:sure|certain)(?:\s+(?:how\s+to\s+(?:ask|say|put)|"
    r"(?:if|whether)\s+(?:that'?s|this\s+is|i'?m|i\s+am)|i'?m|i\s+am)\b[^,;]*|\W*)$"
    r"|i\s+think\s+(?:it'?s|that'?s|this\s+is)\b[^,;]*$"
    r"|just\s+(?:checking|asking|curious|wondering)\b[^,;]*$"
    r"|\(?\s*(?:just\s+)?asking,?\s+not\s+doing\s*\)?\W*$)",
    re.I,
)


def _asks(piece: str) -> bool:
    """The piece asks something: a question, a verb that asks leading it, a value given."""
    said = _LEADING_MARKERS.sub("", piece.strip(" ,;:-"), count=1)
    said = _MARKER_BEFORE_VERB.sub("", said, count=1).strip()
    if not re.search(r"[A-Za-z0-9]", said):
        return False  # "Incoming shift here.", "Handover item 3:": a marker alone
    if _HEDGE.match(said):
        return False  # "sorry if wrong", "I'm not sure I'm asking this right": said of the asking
    if _REFUSAL_ONLY.fullmatch(said):
        return False  # "Please do not touch the RF - just confirm ...": no change, told
    if re.fullmatch(
        r"(?:(?:for\s+)?(?:the|an?|our)\s+)?(?:[a-z-]+\s+){0,3}(?:test|tests|study|studies|scan|"
        r"measurement|experiment|md|commissioning|calibration|campaign|check)[\s.!]*",
        said,
        re.I,
    ):
        return False  # "HCM21 to -0.3 A, orbit bump test": what the change is for, told
    if re.fullmatch(r"(?:wait|hmm+|um+|uh+|well|hold\s+on|one\s+sec(?:ond)?)[\s.!,]*", said, re.I):
        return False  # "set HCM 12 to... wait, ...": a pause, no request
    if re.match(
        r"(?:i|we)\s+(?:want|need|'d\s+like|would\s+like)\s+to\s+(?:be\s+sure|make\s+sure)\b",
        said,
        re.I,
    ):
        return False  # "I want to be sure it's healthy": why the request is made
    if re.match(
        r"(?:(?:i|we)\s+(?:need|have|got|must|'ll|will)\s+(?:to\s+)?|let\s+me\s+|wait,?\s+(?:let\s+me\s+)?)"
        r"(?:look\s+(?:it\s+)?up|find|ask|go|wait|think|dig|double[\s-]check|confirm|figure|"
        r"check\s+(?:the\s+(?:number|value)|first|it\s+first))\b",
        said,
        re.I,
    ):
        return False  # "I need to look up the number first": the operator's own errand, told
    if refusal_spans(said):
        return True  # "we're not going to touch the ID03 gap": the parse reads refusals
    reason = re.match(r"(?:as|because|since|so\s+that|to|in\s+order\s+to)\b", said, re.I)
    if reason and not (said.lower().startswith("since") and not _TELLS.search(said)):
        # "as agreed at the morning meeting", "to get more lifetime": a reason ("since 8 am"
        # is a time)
        return False
    if re.match(r"(?:after|following)\b", said, re.I) and not re.search(r"\d", said):
        return False  # "after the tune jump this morning": an event, told
    if not said.rstrip().endswith("?") and re.match(
        r"(?:had|got|saw|came|went|spent|been|was|were|did)\s+(?!you\b|we\b|i\b|it\b|they\b)",
        said,
        re.I,
    ):
        return False  # "Had a few RF trips last week but none today": told, its subject left out
    if re.fullmatch(
        r"(?:(?:a|what\s+a)\s+)?(?:long|quiet|busy|rough|tough|slow|hard|good|bad|late|early|"
        r"crazy|hectic|calm)\s+(?:day|night|shift|morning|evening|week|one)[\s.!]*",
        said,
        re.I,
    ):
        return False  # "Long night.", "Busy shift!": how the shift went, told
    if _EXPECTED.match(said):
        return False  # "QD 46 readback - should be ninety-five amps, check it": the expectation
    if re.fullmatch(r"[a-z]+\s+[a-z]+ing\s*[.!]*", said, re.I) and not DEVICE_NAME.search(said):
        return False  # "beamline screaming", "vacuum climbing": how things are, told
    if _POLICY_NOTE.match(said):
        return False  # "if the step's too big, tell me", "let it refuse if it must": the policy's
    said = re.sub(r"^(?:but|and|so|then)\s+", "", said, flags=re.I)  # "..., but try QF9 at 135 A"
    if _EMBEDDED_ASK.search(said):
        return True  # "I am wondering whether the vacuum has gone up": a question inside
    if is_question(said) or _ASKER.search(said) or re.match(REQUEST_LEAD, said, re.I):
        return True
    lead = re.findall(r"[a-z]+", lead_stripped(said).lower())[:1]
    if lead and lead[0] in _REQUEST_VERBS:
        return True

    # "ID04 gap to 18 mm", "QD 46 readback": what is wanted of a device, no verb that tells
    return not _TELLS.search(said)
