"""The clauses of a request and the verbs leading them.

A word that is a noun and a verb ("tune", "trim", "set") is a verb only in verb position:
first in its clause after politeness ("please", "can you", "I want to") and followed by what it
acts on. A question or a negation ("is HCM01 set to zero?", "don't change anything") leads no
command.
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import (
    CHANGE,
    COMPARE_WORDS,
    DETERMINERS,
    HISTORY_WORDS,
    NEGATIONS,
    NO_WAY_VERBS,
    NOUN_VERB_STEMS,
    NOUN_VERBS,
    PHRASAL_CHANGES,
    PLACE_WORDS,
    PLOT_VERBS,
    POLITE,
    QUESTION_LEADS,
    READ_VERBS,
    STATISTIC_WORDS,
)
from osprey_desktop.language.parsed_request import Vocabulary
from osprey_desktop.language.quantities import amounts
from osprey_desktop.language.words import SHIFT_TAKEN_OVER, STOP_WORDS, stem

#: A request said as a question ("could you set ...?", "would you be so kind as to ...", "is it
#: possible to see ...", "you can put ...?"): a command, not a question about ability.
REQUEST_LEAD = (
    r"(?:would\s+you\s+(?:please\s+)?(?:be\s+so\s+kind\s+as\s+to|mind)|do\s+you\s+mind|"
    r"(?:can|could|would|will)\s+you(?:\s+please)?(?:\s+(?:maybe|possibly|kindly|just))?"
    r"(?:\s+be\s+able\s+to)?|"
    r"you\s+can|(?:can|could|shall|may|should)\s+we|"
    # "maybe we should bring QD46 up to 96 A?", "would it hurt to try QF43 at 121 A?"
    r"(?:maybe\s+|perhaps\s+)?(?:we|you)\s+(?:should|could|might\s+want\s+to|ought\s+to)|"
    r"would\s+it\s+hurt\s+to(?:\s+try)?|"
    r"(?:(?:is|would)\s+(?:it\s+)?(?:be\s+)?)?possible\s+(?:to|for\s+you\s+to)|"
    r"(?:may|can|could)\s+i\s+ask\s+you\s+to|i\s+(?:think|guess|believe|suppose)|"
    # "can I get the ID 4 gap, ...", "could I see the tunes": what is asked follows
    r"(?:may|can|could)\s+i\s+(?:please\s+)?(?:get|have|see)(?=\s+(?:the|a|an|all|both|[a-z]{1,5}\s?\d))|"
    r"i(?:'d|\s+would)?\s+(?:appreciate\s+it|be\s+grateful)\s+if\s+you\s+(?:could|would|can)|"
    r"it\s+would\s+be\s+" + r"(?:great|nice|good|helpful|lovely|wonderful|brilliant|super|ideal|"
    r"fantastic|marvellous|splendid)\s+if\s+you\s+(?:could|would|can)|"
    # "I wonder if you could ...", "I was wondering whether you might ..."
    r"i\s+(?:was\s+)?wonder(?:ing)?\s+(?:if|whether)\s+you\s+(?:could|would|can|might)|"
    r"would\s+you\s+be\s+so\s+(?:good|kind)\s+as\s+to|(?:may|might)\s+i\s+ask\s+you\s+to|"
    # "do you happen to know what the ID07 gap is": what is asked follows
    r"do\s+you\s+(?:happen\s+to\s+)?know(?=\s+(?:what|where|how|which|the|if|whether)\b)|"
    # "it might be worth opening the ID07 gap a little": a suggestion, its verb after
    r"it\s+(?:might|may|would|could)\s+be\s+worth(?!\s+(?:it|a|an|the|while)\b))"
)
_POLITE_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|so|now|also|just|please|kindly|hi|hello|hey|and|then|right|alright|first|"
    r"(?:good\s+)?(?:morning|afternoon|evening)|go ahead and|" + REQUEST_LEAD + r"|"
    r"i(?:'d| would)? (?:want|like|need) (?:to|you to)|we (?:want|need) to|let'?s|"
    # "morning, taking over from the night shift - lifetime?": the shift's start, said first
     + SHIFT_TAKEN_OVER + r"|"
    # "at 23:00 set the RF voltage to 2.4", "@ 06:00: ...": when, said before the verb
    r"(?:at|@)\s*\d{1,2}:\d{2}(?=[\s,:]))\b[\s,:!.–-]*)+",
    re.I,
)
_REQUESTED = re.compile(
    r"^\W*(?:(?:please|hi|hello|hey|good\s+\w+)\b[\s,!]*)*" + REQUEST_LEAD + r"\b", re.I
)
# Courtesy that is no condition: "if you could", "if possible", "when you get a chance"
_COURTESY = re.compile(
    r",?\s*\b(?:if\s+(?:possible|you\s+(?:can|could|would(?:n'?t|\s+not)?\s+mind|would|"
    r"(?:don'?t|do\s+not)\s+mind|please)|that(?:'s|\s+is)\s+"
    r"(?:possible|ok(?:ay)?|alright|all\s+right))|when\s+you\s+(?:get|have)\s+a\s+(?:chance|moment|"
    r"minute|second)|(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:do|set|make|apply|"
    r"change)\s+(?:that|it|this)(?:\s+for\s+me)?(?:,?\s+please)?\??)\b[,.!]?"
    # "..., thanks a lot.": thanks after the request, not a request of their own
    # "... a little - would you mind?": the request's courtesy after it
    r"|(?<=\S)\s*[-,.;]?\s*(?:would|do)\s+you\s+mind\s*\?*\s*$"
    r"|(?:(?<=\?)\s+|(?<=\S)[\s,.!]+)(?:(?:many\s+)?thanks?(?:\s+you)?|cheers|thx|ta|much\s+appreciated)"
    r"(?:\s+(?:a\s+lot|very\s+much|so\s+much|in\s+advance))?"
    r"[\s.!]*$",
    re.I,
)


#: Sounds a dictation writes down between words ("uh", "umm", "erm"), and the "so" or "okay
#: so" that opens a spoken sentence.
# (not after a number: "5 um" is micrometres)
_HESITATION = re.compile(
    r"(?<![\w'-])(?<!\d\s)(?:u+h+|u+m+|u+h+m+|e+r+m*|h+m+|a+h+)(?![\w'-])[,.]?", re.I
)
_SPOKEN_OPENING = re.compile(
    r"^\W*(?:(?:(?:ok(?:ay)?|right|alright|well)[\s,]+)?so|actually(?:[\s,]+just)?)\b[\s,]+", re.I
)


_HEDGE_AFTER = re.compile(
    r"(?<=[\w%])[\s,]+(?:i\s+(?:guess|think|suppose|reckon|believe)|maybe|perhaps|probably)"
    r"(?=\s*[?.!]*\s*$)",
    re.I,
)
_ACKNOWLEDGED_FIRST = re.compile(
    r"^\W*(?:fine|good|great|perfect|cool|nice|excellent|thanks|thank\s+you|got\s+it|understood)"
    r"\s*(?:[,.!;:]|\s[-–—])\s*(?:(?:then|now|so|and)\b\s*,?\s*)?(?=\S)",
    re.I,
)
_ADDRESSED = re.compile(r"^\W*osprey\b[,:!]?\s*|,?\s*\bosprey\s*(?=[.!?]*$)", re.I)
#: what follows a thanks that only praises ("thanks, that helps a lot", "thank you, very
#: useful"): the thanks is the message, never an acknowledgement before a request
_PRAISE = frozenset(
    re.findall(
        r"\S+",
        """that this it was is that's it's helps helped helpful useful a lot very really so much
        great perfect exactly what i needed good job nice work quick fast appreciated for the
        help everything all your you last night earlier today super""",
    )
)


_SAID_NUMBER_WORD = (
    r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|"
    r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)"
)
_HESITATION_BETWEEN_VALUES = re.compile(
    rf"(?P<value>(?:\d|\b{_SAID_NUMBER_WORD})(?:\s+[a-zµ%]{{1,9}})?)\s*,\s*(?:u+h+|u+m+|e+r+m*|h+m+)"
    rf"\s*,?\s+(?=[-+−]?\.?\d|(?:{_SAID_NUMBER_WORD}|point|minus|a\s+hundred)\b)",
    re.I,
)


def without_fillers(text: str) -> str:
    """``text`` without the hesitations of speech ("uh set the ... to minus zero point three",
    "so um put the ID2 gap at ..."), and without the assistant's name when it is addressed
    ("good morning osprey", "osprey, plot the lifetime"): they are no words of a request."""
    # a hesitation between two values corrects the first ("96 amps, er, 96.5"): kept as "no"
    cleaned = _HESITATION_BETWEEN_VALUES.sub(lambda m: f"{m['value']}, no, ", text)
    cleaned = " ".join(_HESITATION.sub(" ", cleaned).split())
    cleaned = _SPOKEN_OPENING.sub("", cleaned)
    # "by 0.05 MV I guess?", "0.2 A, I think": a hedge said after the words it hedges
    cleaned = _HEDGE_AFTER.sub("", cleaned)
    cleaned = _ADDRESSED.sub(" ", cleaned).strip()
    # "fine, then open it to 24 mm", "great, now plot it": an acknowledgement before a request
    acknowledged = _ACKNOWLEDGED_FIRST.sub("", cleaned)
    if set(re.findall(r"[a-z']+", acknowledged.lower())) - _PRAISE:
        cleaned = acknowledged
    return cleaned.strip(" ,") or text


def without_courtesy(text: str) -> str:
    """``text`` without courtesy phrases that read like conditions or clauses ("I'd
    appreciate it if you could open ...", "..., if possible", "When you get a chance, ...")."""
    lead = re.match(
        r"^\W*(?:(?:i(?:'d|\s+would)?\s+(?:appreciate\s+it|be\s+grateful)|it\s+would\s+be\s+"
        r"(?:great|nice|good|helpful|lovely|wonderful|brilliant|super|ideal|fantastic|marvellous|"
        r"splendid))\s+if|i\s+(?:was\s+)?wonder(?:ing)?\s+(?:if|whether))\s+you\s+"
        r"(?:could|would|can|might)\s+",
        text,
        re.I,
    )
    if lead:
        text = text[lead.end() :]
    text = _MIND_DOING.sub(lambda m: f"{m['lead']} {_verb_from_gerund(m['gerund'])}", text)
    text = _LOOK_AT.sub("show", text)
    text = _CONTROL_AS_CHECK.sub(r"\g<lead>check", text)
    text = _SITTING_AT.sub(r"\g<be> at", text)
    text = _ALL_FINE.sub("", text)
    return " ".join(_COURTESY.sub(" ", text).split()).strip(" ,") or text


# "would you mind plotting ...": the verb in its gerund after "mind"
_MIND_DOING = re.compile(
    r"\b(?P<lead>(?:would|do)\s+you\s+mind|it\s+(?:might|may|would|could)\s+be\s+worth)\s+"
    r"(?P<gerund>[a-z]+ing)\b",
    re.I,
)


def _verb_from_gerund(gerund: str) -> str:
    """ "plotting" -> "plot", "raising" -> "raise", "checking" -> "check"."""
    known = CHANGE | READ_VERBS | PLOT_VERBS
    base = gerund[:-3].lower()
    for candidate in (base, base + "e", base[:-1] if base[-1:] == base[-2:-1] else base):
        if candidate in known:
            return candidate
    return gerund


# "have a look at X": a reading asked; "... and tell me if everything is fine": the reading
# itself answers that (values with their alarm state)
#: "please control the lifetime", "control if the setpoint is 499.654": to check, as the
#: word is used in several languages (never a change: it gives no value)
_CONTROL_AS_CHECK = re.compile(
    r"(?P<lead>^\W*|\bplease\s+|\byou\s+|[,;.]\s*)control(?=\s+(?:if|whether|that|the|a|an|all|is)\b)",
    re.I,
)
#: "what the ID07 gap is sitting at", "where QF3 sits": where a value rests is its value
_SITTING_AT = re.compile(
    r"\b(?P<be>is|are|'s|was)\s+(?:sitting|sat|resting|parked|hovering)\s+at\b", re.I
)
_LOOK_AT = re.compile(r"\b(?:have|take)\s+a\s+(?:quick\s+)?look\s+at\b", re.I)
_ALL_FINE = re.compile(
    r",?\s*(?:and\s+)?(?:(?:tell|let)\s+me\s+(?:know\s+)?)?(?:if|whether)\s+(?:everything|all|things|"
    r"it|they)\s+(?:is|are|looks?|seems?)\s+(?:fine|ok(?:ay)?|normal|good|alright|all\s+right)\b",
    re.I,
)
#: "I want", "we'd like": a wish, so what follows may be a change without a verb of its own.
WISH = re.compile(
    r"\b(?:i|we)(?:'d|\s+would)?\s+(?:just\s+|only\s+|really\s+)?(?:want|need|like)\b"
    r"(?:\s+to\s+(?:know|see|check|have\s+a\s+look\s+at|look\s+at|hear)\b)?",
    re.I,
)
#: A condition ("when QF3 is above 121 A, lower it"): the clauses are not one plain change.
CONDITIONAL = re.compile(r"\b(?:if|when|whenever|unless|once|until|provided)\b", re.I)


def leading_verb(clause: str, vocabulary: Vocabulary | None = None) -> str | None:
    """The verb leading ``clause`` after politeness, or None: "tune the RF" leads with
    "tune", "tunes, chromaticity and lifetime" and "trim values of ..." with no verb."""
    found, known = verb_of(lead_stripped(clause), vocabulary or Vocabulary())
    return found if known else None


def lead_stripped(clause: str) -> str:
    previous = None
    clause = clause.strip(" ,.!")
    while clause != previous:
        previous, clause = clause, _POLITE_LEAD.sub("", clause).strip(" ,")
    return clause


#: The particles of a phrasal verb ("power down QF7", "dial back the RF").
_PARTICLES = frozenset({"up", "down", "back", "off", "on", "out"})
_PLANES = frozenset({"x", "y", "h", "v", "horizontal", "vertical", "horiz", "vert"})
#: Nouns that are also verbs and name something measured in a plane ("tune x", "scan y")
_MEASURED_NOUNS = frozenset({"tune", "trim", "scan", "current"})
_GIVEN_A_VALUE = re.compile(r"\b(?:to|by)\s+(?:[-+−]?\.?\d|minus\b|zero\b)", re.I)


def verb_of(clause: str, vocabulary: Vocabulary) -> tuple[str | None, bool]:
    """The verb leading a clause and whether it is one this grammar knows. ``(None, True)``
    when the clause leads with something else (a name, a question word, a number)."""
    ws = re.findall(r"[a-z]+\d*|\d+", clause.lower())
    if not ws:
        return None, True
    first, nxt = ws[0], (ws[1] if len(ws) > 1 else "")
    acts_on = (
        nxt in DETERMINERS
        or nxt in _PARTICLES
        # "set gap ID5 18": "set" leading the request, a number ending it (not "set dipole 4
        # current to golden values": there the number names the dipole)
        or (
            first == "set"
            and nxt not in ("of", "point", "points")
            and bool(re.search(r"\d\s*[a-zµ%]*\s*$", clause.strip(" .!?"), re.I))
            and bool(amounts(clause))
        )
        # "set horizontal corrector 9 to 0.1 A": what follows is given a value
        or (
            nxt not in ("of", "values", "value", "point", "points", "and", "or")
            and bool(_GIVEN_A_VALUE.search(clause))
        )
        or bool(re.match(r"[a-z]+\d|\d", nxt) or re.search(rf"\b{first}\s+[A-Z]{{2,}}\d", clause))
        or bool(re.search(rf"\b{first}\s+(?:\w+://)?[A-Za-z][\w-]*:\w", clause))  # a PV name
        # "set horizontal corrector 12 to...": a value about to be given (and then missing)
        or (
            nxt not in ("of", "values", "value", "point", "points", "and", "or")
            and bool(re.search(r"\s(?:to|at)\s*(?:\.{2,}|…)?\s*$", clause.strip()))
        )
        # "set rf voltage 2.4 MV": what follows is given an amount in a unit
        or (nxt not in ("of", "point", "points") and any(a.unit for a in amounts(clause)))
        # "set RF frequency setpoint to the same value as RF frequency readback": another
        # channel's value given
        or bool(
            re.search(
                r"\bto\s+(?:the\s+)?(?:same\s+(?:\w+\s+)?as|(?:average|mean)\s+of)\b", clause, re.I
            )
        )
    )
    # "go back to this morning's value", "roll HCM4 back", "go to 0.3 A on HCM14"
    particle = next((w for w in ws[1:5] if w in PHRASAL_CHANGES.get(first, ())), None)
    with_a_value = particle != "to" or re.match(r"to\s+[-+−]?\.?\d", " ".join(ws[1:3]))
    if particle is not None and (particle == nxt or first == "roll") and with_a_value:
        return first, True
    if first in _MEASURED_NOUNS and nxt in _PLANES:
        return None, True  # "tune y history 2h": a plane names which tune, the noun's
    if first in NOUN_VERBS or stem(first) in NOUN_VERB_STEMS:
        # "tune the RF", never "tunes, chromaticity and lifetime" (a plural is a noun)
        return (first, True) if acts_on and first in NOUN_VERBS else (None, True)
    if stem(first) in {stem(v) for v in CHANGE} or first in CHANGE:
        if nxt in ("in", "of") and not re.match(r"(?:in|of)\s+[-+]?\.?\d", " ".join(ws[1:3])):
            return None, True  # "increase in lifetime since 8": a change as a noun
        return first, True
    if first in READ_VERBS or first in PLOT_VERBS or first in COMPARE_WORDS:
        return first, True
    if first in QUESTION_LEADS or first in STOP_WORDS or first in POLITE:
        return None, True
    if first in vocabulary.channel_words or first in STATISTIC_WORDS or first in HISTORY_WORDS:
        return None, True
    if first in vocabulary.device_prefixes or re.match(r"[a-z]+\d", first):
        return None, True
    if acts_on and (nxt in DETERMINERS or nxt in _PARTICLES) and first not in PLACE_WORDS:
        return first, False  # "straighten the orbit": a verb nobody taught this grammar
    return None, True


_DEGREE_NOT = re.compile(
    r"\bnot\s+(?:(?:too|that|so)\s+)?(?:much|a\s+lot|by\s+much|far|many)\b(?!\s+(?:of|to)\b)"
    # "QF 3 a little lower, not sure how much": doubt about the amount, no negation
    r"|\bnot\s+(?:sure|certain)\b",
    re.I,
)


def is_question(clause: str) -> bool:
    """A question, not a request said as one ("could you set HCM3 to 0.1 A?" is a command)."""
    if _REQUESTED.match(clause.strip()):
        return False
    stripped = lead_stripped(clause).lower()
    first = re.findall(r"[a-z]+", stripped)[:1]
    return clause.strip().endswith("?") or bool(first and first[0] in QUESTION_LEADS)


def negated(clause: str) -> bool:
    # "a little more current, not much": a degree, not a negation
    clause = _DEGREE_NOT.sub(" ", clause)
    ws = re.findall(r"[a-z]+", clause.lower().replace("n't", " not"))
    return any(w in NEGATIONS for w in ws)


def verb_clauses(text: str) -> list[str]:
    """Pieces that may each lead with a verb: sentences, "then", ", " and "and" before a verb."""
    verbs = "|".join(sorted(CHANGE | READ_VERBS | PLOT_VERBS, key=len, reverse=True))
    pieces = re.split(
        rf"[;?!]|\.(?!\d)|\s[-–—]\s|\bthen\b|\bafterwards\b|\bafter\s+that\b|"
        rf",\s*(?=(?:and\s+)?(?:just\s+)?(?:{verbs})\b)|"
        rf"\band\s+(?=(?:then\s+)?(?:{verbs})\b)",
        text,
        flags=re.I,
    )
    return [p.strip() for p in pieces if p and p.strip(" ,.")]


_AFTERWARDS = re.compile(r"(?:,?\s*\band)?\s*\b(?:afterwards|after\s+that|next)\b,?", re.I)
# "first read X, then ...", "check HCM8 first and ...": an order, never "the first four BPMs"
_FIRST = re.compile(
    r"(?:^|(?<=[,;.?!]))\s*first(?:ly)?\b(?:,\s*|\s+(?=(?:please\s+)?(?:"
    + "|".join(sorted(CHANGE | READ_VERBS | PLOT_VERBS, key=len, reverse=True))
    + r")\b))"
    r"|\s+first\b(?=\s*(?:$|[,;.?!]|\band\b|\bthen\b))",
    re.I,
)


def in_order(text: str) -> str:
    """The words that order clauses said as "then": "first read X, afterwards set it" is
    "read X, then set it" (no channel is called "first" or "afterwards")."""
    if not re.search(r"\b(?:first(?:ly)?|afterwards|after\s+that|next)\b", text, re.I):
        return text
    text = _FIRST.sub(lambda m: " " if m.group(0).startswith(" ") else "", text)
    if re.search(r"\b(?:afterwards|after\s+that)\b", text, re.I) or re.search(
        r"[,;.]\s*next\b|\band\s+next\b", text, re.I
    ):
        text = _AFTERWARDS.sub(" then", text)
    return " ".join(text.split())


#: A change refused in words: "don't set ...", "never touch ...", "leave it as it is".
_REFUSED_CHANGE = re.compile(
    r"\b(?:(?:do\s+not|don'?t|dont|never|no\s+need\s+to|not\s+going\s+to|won'?t|let'?s\s+not|"
    # "nobody writes to the quads", "no one should touch the RF": a standing order, not a report
    r"(?:nobody|no\s+one|no-one)(?=\s+(?:writes|touches|changes|sets|moves|should|may|must|is\s+to)\b))\s+"
    r"(?P<first>[a-z]+)(?:\s+(?P<second>[a-z]+))?|leave\s+(?:it|them|this|that|[a-z]{1,5}\s?\d{1,3}|"
    # "leave the RF alone", "leave the ID 7 gap as it is": a device said in a few words
    r"the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+"
    r"(?:as\s+(?:it\s+is|they\s+are)|alone|be|where\s+(?:it|they)\s+(?:is|are))"
    # "never mind, leave it": nothing after it
    r"|leave\s+(?:it|them|that)(?=\s*[.!]*\s*$))",
    re.I,
)
#: What may follow a refusal without asking anything: "understood?", "ok?", "thanks".
_ACKNOWLEDGED = re.compile(
    r"^(?:(?:so|and|but|then)\s+)?(?:understood|ok(?:ay)?|right|got\s+it|clear|thanks?|thank\s+you|please|no|"
    # "Note to self: ...", "... Acknowledge.": who it is for, and the asked acknowledgement
    r"notes?\s+to\s+(?:self|myself|me)|acknowledged?|ack|confirm(?:ed)?|noted|roger|"
    r"whatever\s+[\w\s]+|for\s+now|today|tonight|this\s+shift|"
    # "..., and call me if the lifetime drops under 6 h": asked of a person, not of the machine
    r"(?:call|ping|phone|wake|page|text|tell|warn)\s+(?:me|us|the\s+\w+)\b.*|"
    # "Notes for the next shift:", "For the next hour": the frame of a standing order
    r"(?:notes?|reminder|standing\s+orders?)(?:\s+for\s+(?:the\s+)?[\w\s]+)?|"
    r"for\s+the\s+(?:next|rest\s+of\s+the)\s+[\w\s]+|until\s+(?:i|we)\s+say\s+so)$",
    re.I,
)
_CLAUSE_END = r"[,;!?]|\.(?!\d)|:\s|\s[-–—]\s"


# "..., no wait, cancel that", "... - scratch that": the whole message taken back at its end
_TAKEN_BACK = re.compile(
    r"(?:[,.;!?(]|\s[-–—]|\.\.\.|…)\s*"
    r"(?:(?:no|nah|nope|naw|wait|hold\s+on|actually|sorry|oh|hmm+|um+|oops|please|"
    r"on\s+second\s+thoughts?)\W+)*"
    r"(?:cancel(?:\s+(?:that|it|this))?|scratch\s+that|never\s*mind|forget\s+(?:it|that|i\s+asked)|"
    r"belay\s+that|hold\s+that|hold\s+off|just\s+kidding|(?:jk|j/k)(?:\s+ignore)?|"
    # "please disregard this", "ignore that request", "disregard, not my call"
    r"(?:disregard|ignore)(?:\s+(?:that|this|it|me|my\s+(?:last\s+)?(?:request|message)|"
    r"th(?:at|is)\s+(?:request|message|one)))?(?=\s*(?:[,;.:!—–-]|$))|"
    r"not\s+yet|don'?t\s+bother|let'?s\s+(?:not|wait)(?:\s+(?:do\s+(?:that|it|this)|bother))?|"
    r"(?:but\s+)?(?:please\s+)?(?:don'?t|dont|do\s+not)(?:\s+(?:actually|really))?"
    r"(?:\s+(?:do|send|apply|write)\s+(?:it|that|this))?(?:\s+(?:yet|now|for\s+now))?|"
    r"leave\s+(?:it|that|them)(?:\s+(?:alone|be|as\s+(?:it\s+)?is))?)\b"
    # what may follow: a reason or a time ("..., the physicist wants to do it himself",
    # "... today"), never a request of its own (checked in ``takes_itself_back``)
    r"(?P<after>[^?]*)$",
    re.I,
)


#: "set qf 9 to 121, no wait, don't, just show it", "X... on second thought just give me the
#: gap readback": a change taken back and a reading asked in its place
_TAKEN_BACK_THEN = re.compile(
    r"^(?P<before>.+?)(?:[,.;!?]+|\s[-–—]+|\.\.\.|…)?\s+"
    r"(?P<back>(?:(?:no|nope|nah|wait|hold\s+on|actually|hmm+|oh|sorry|on\s+second\s+thoughts?|"
    r"not\s+now|cancel\s+(?:that|it)|scratch\s+that|never\s*mind|forget\s+(?:it|that)|don'?t|"
    r"leave\s+(?:it|that|them))(?:\W+|$))+)(?:(?:and|so|but)\s+)?"
    r"(?P<after>(?:just|only|instead|show|read|tell|give|what|plot|display|rb|readback)\b.*|"
    r".*\b(?:only|instead)\W*)$",
    re.I,
)
_REALLY_TAKEN_BACK = re.compile(
    r"\b(?:cancel|scratch|never\s*mind|forget|don'?t|dont|leave|nah|not\s+now|second\s+thoughts?|"
    r"disregard|ignore|"
    r"no\s+wait|wait\s+no|hold\s+on)\b",
    re.I,
)


_READING_OF_THE_REFUSED = re.compile(
    r"^\W*(?:leave|(?:don'?t|do\s+not|never)\s+(?:touch|change|move)|no\s+changes?\s+(?:to|on))\s+"
    r"(?P<device>(?:the\s+)?[a-z]{1,5}\s?\d{1,3}(?:\s+(?:gap|current|setpoint))?)"
    r"(?:\s+(?:alone|be|as\s+it\s+is))?\s*[,;.:-]+\s*(?:but\s+)?(?:i\s+)?(?:just|only)\s+"
    r"(?:want|need|show\s+me|give\s+me|read|tell\s+me)\s+(?P<what>.+)$",
    re.I,
)


def _question_after_taking_back(text: str) -> str | None:
    """ "SR07C:ID07:Gap:SP 30mm... disregard, not my call. Is the ID07 RB at nominal?": a
    question of its own after a sentence that takes its change back is the request."""
    sentences = [p for p in re.split(r"(?<=[.;!?])\s+(?=[A-Za-z])", text.strip()) if p]
    if len(sentences) < 2 or not sentences[-1].rstrip().endswith("?"):
        return None
    last = sentences[-1]
    if {w.lower() for w in re.findall(r"[a-z]+", last, re.I)} & CHANGE:
        return None
    before = " ".join(sentences[:-1])
    if not (_TAKEN_BACK.search(before) or _TAKEN_BACK_SHORT.search(before)):
        return None
    return last


#: words of a reading that name no subject ("just give me the readback", "rb only")
_READING_ONLY_WORDS = frozenset(
    [
        "just",
        "only",
        "instead",
        "please",
        "me",
        "us",
        "the",
        "a",
        "its",
        "show",
        "read",
        "tell",
        "give",
        "what",
        "is",
        "display",
        "plot",
        "rb",
        "readback",
        "readbacks",
        "sp",
        "setpoint",
        "setpoints",
        "value",
        "values",
        "reading",
        "readings",
        "gap",
        "current",
        "now",
        "then",
    ]
)


def reading_in_place_of_a_change(text: str) -> str | None:
    """The reading a message asks after taking its change back ("set qf 9 to 121, no wait,
    don't, just show it" -> "just show qf 9"; "qf9 -> 121? nah, rb only" -> "rb only qf9"),
    or None. The devices named before stand for "it" or are added when none is named."""
    kept = _READING_OF_THE_REFUSED.match(text)
    if kept is not None and not named_devices(kept["what"]):
        # "leave id 7 alone, just want the gap rb": the reading is of the device left alone
        what, device = kept["what"].strip(" .!?"), kept["device"].strip()
        if not re.search(r"\b(?:it|its|them|their)\b", what, re.I):  # "its readback" is read as is
            return f"show {what} of {device}"
    found = _TAKEN_BACK_THEN.match(text)
    if found is None or not _REALLY_TAKEN_BACK.search(found["back"]):
        return _question_after_taking_back(text)
    after = found["after"].strip()
    if not after or re.search(r"\d", _NAMED_DEVICE.sub(" ", after)):
        return None  # "scratch that, 122 A": a correction, not a reading
    before = found["before"]
    names = re.findall(r"\b(?:the\s+)?[a-z]{1,5}\s?\d{1,3}\b(?:\s+gap)?", before, re.I)
    names = [n for n in names if named_devices(n)]
    if not names:
        return after
    named = " and ".join(dict.fromkeys(n.strip() for n in names))
    if re.search(r"\b(?:it|its|them|their)\b", after, re.I):
        return re.sub(
            r"\b(?P<w>it|its|them|their)\b",
            lambda m: f"{named}'s" if m["w"].lower() in ("its", "their") else named,
            after,
            flags=re.I,
        )
    subject = {w.lower() for w in re.findall(r"[a-z]+", after, re.I)} - _READING_ONLY_WORDS
    if named_devices(after) or subject:
        return after  # "... and show me the orbit instead": a reading of its own
    return f"{after.rstrip(' .!')} of {named}"


#: "set qf8 122 nvm", "... jk": the chat shorthands, with no punctuation before them
_TAKEN_BACK_SHORT = re.compile(
    r"\s(?:nvm|nevermind|jk|j/k|jkjk|"
    # "set hcm 13 to 0.5 wait no cancel": typed on without a stop
    r"(?:(?:wait|no|nope|nah|naw|actually|hmm+|oh|oops)\s+)+(?:cancel(?:\s+(?:that|it|this))?|"
    r"scratch\s+that|never\s*mind|forget\s+(?:it|that)|don'?t|stop)"
    r"(?:\s+(?:leave\s+(?:it|that|them)(?:\s+(?:alone|be))?|forget\s+it|never\s*mind))*)\W*$",
    re.I,
)


_ABOUT_IT = re.compile(
    r"(?:\s[-–—]|[,;:]|\.\s)\s*(?:and\s+)?(?:is|are|was|were|does|do|did|has|have|can|could|would|will|"
    r"should)\s+(?:it|they|that|this|those|these|them)\b[^,;]*$",
    re.I,
)


def without_question_about_it(text: str) -> str:
    """``text`` without a closing question about what it named ("plot the lifetime - is it
    decaying faster than usual?", "show the current; does it look ok?"): no target of its own."""
    return _ABOUT_IT.sub("", text)


_ONLY_THE_OTHER = re.compile(
    r"^.*?\b(?:do\s+not|don'?t|dont|never)\s+(?:touch|change|move|write)\b[^,;]*[,;]\s*(?:but\s+)?"
    r"(?:i\s+|we\s+)?(?:only|just)\s+(?:want|need)(?:\s+to\s+(?:see|know|read|check))?\b"
    # "do NOT touch QF07, I only want its readback": the pronoun names the refused thing
    r"(?!.*\b(?:its|their|it|them|that|those)\b)",
    re.I,
)


def without_the_refused(text: str) -> str:
    """``text`` without a refused thing when another is asked for alone ("do not touch the
    correctors, I only want the sector 3 orbit" -> "the sector 3 orbit")."""
    return _ONLY_THE_OTHER.sub("", text)


def takes_itself_back(text: str) -> bool:
    """The message asks something and takes it back at its end ("set HCM 31 to 0.6 - no
    wait, cancel that", "plot the lifetime, scratch that"): nothing is to be done."""
    found = _TAKEN_BACK.search(text)
    if found is not None and re.search(r"\w", found["after"]):
        said = found[0][: len(found[0]) - len(found["after"])]
        if re.search(r"\b(?:leave|don'?t|dont|do\s+not|not\s+yet)\b", said, re.I) and not re.match(
            r"\s*[,;.:!—–-]", found["after"]
        ):
            # "..., leave it there for an hour", "..., don't tell anyone": no take-back ("dont,
            # users still on" is one, its reason after a stop)
            found = None
        elif not _only_a_reason(found["after"]):
            found = None  # "scratch that, set HCM 4 to 0.2": a correction, a request of its own
    found = found or _TAKEN_BACK_SHORT.search(text)
    return found is not None and re.search(r"\w", text[: found.start()]) is not None


def _only_a_reason(after: str) -> bool:
    """What follows a take-back asks nothing: no number and no verb of a reading, a plot or
    a change ("the physicist wants to do it himself", "today", "sorry")."""
    if re.search(r"\d", after):
        return False
    if re.match(
        r"\W*(?:i|we|they|he|she|it|that|this|users?|someone|the\s+[a-z]+)\b(?!\s+(?:to|by)\b)",
        after,
        re.I,
    ):
        return True  # "; I read the wrong plan", "the beamline is not ready": told, not asked
    words = {w.lower() for w in re.findall(r"[a-z]+", after, re.I)}
    asks = (CHANGE | READ_VERBS | PLOT_VERBS) - {"do", "make", "take", "wait"}
    return not words & asks


def only_refuses_changes(text: str) -> bool:
    """The request refuses a change and asks nothing else ("never set the RF frequency above
    499.656, understood?", "no, leave it as it is"): nothing to read or plan, only to take in.
    With a reading asked beside it ("don't touch QF07, just show its readback") it is a read."""
    spans = refusal_spans(text)
    if not spans:
        return False
    rest = text
    for start, stop in reversed(spans):
        rest = rest[:start] + " " + rest[stop:]
    pieces = [p.strip() for p in re.split(rf"(?:{_CLAUSE_END})+", rest)]
    return all(not p or _ACKNOWLEDGED.match(p) for p in pieces)


def refusal_spans(text: str) -> list[tuple[int, int]]:
    """Where each refused change runs: the refusal and the rest of its clause ("I'm not going
    to touch the ID09 gap today" in "..., just tell me what it is")."""
    spans = []
    for m in _REFUSED_CHANGE.finditer(text):
        if not _changes(m):
            continue
        end = re.search(rf"{_CLAUSE_END}|\b(?:but|just|only|instead|and\s+then)\b", text[m.end() :])
        stop = m.end() + (end.start() if end else len(text) - m.end())
        for joint in _NEXT_REQUEST.finditer(text, m.end(), stop):
            # "don't touch HCM 3 and set HCM 2", "leave HCM 3 alone and show me HCM 4": a
            # request of its own, a change or a read
            if (CHANGE | READ_VERBS | PLOT_VERBS) & {
                w.lower() for w in re.findall(r"[a-z]+", text[joint.end() : stop], re.I)[:1]
            }:
                stop = joint.start()
                break
        spans.append((m.start(), stop))
    return spans


#: A device named by its family and number ("HCM 3", "qf07", "ID-9"), as FAMILY + number.
_NAMED_DEVICE = re.compile(
    r"\b(?P<family>[a-z]{1,5})[\s-]?0*(?P<number>\d{1,3})(?![\w.]|:\d)", re.I
)
#: Where a refusal's clause gives way to the next request ("don't touch HCM 3 and set HCM 2").
_NEXT_REQUEST = re.compile(
    r"\s*\b(?:and|then|so|instead)\b\s+(?:please\s+)?(?:just\s+)?(?=[a-z]+\b)", re.I
)


#: a device said as what a value is measured against ("half an amp below QD12", "the same
#: as VCM 7", "higher than QF 5"): the change's reference, never its target
_AS_A_REFERENCE = re.compile(
    r"\b(?:than|(?<!well\s)as(?!\s+well\b)|above|below|under|over)\s+(?:that\s+of\s+|the\s+one\s+"
    r"(?:on|of|in|at)\s+)?(?:the\s+)?(?P<device>[a-z]{1,5}[\s-]?\d{1,3})(?![\w.]|:\d)",
    re.I,
)


def reference_devices(text: str) -> set[str]:
    """The devices ``text`` names only as a reference ("set QD10 half an amp below QD12":
    QD12), as "QD12"; a device also named elsewhere is not one."""
    said = {d for m in _AS_A_REFERENCE.finditer(text) for d in named_devices(m["device"])}
    rest = _AS_A_REFERENCE.sub(" ", text)
    return said - named_devices(rest)


def named_devices(text: str) -> set[str]:
    """The devices ``text`` names by family and number, as "HCM3" (no leading zeros)."""
    return {
        f"{m['family'].upper()}{int(m['number'])}"
        for m in _NAMED_DEVICE.finditer(text)
        if m["family"].lower() not in STOP_WORDS
    }


#: Devices left out of a whole family ("every corrector in sector 1 except HCM 3").
_ONE_DEVICE = r"(?:the\s+)?[a-z]{1,5}[\s-]?\d{1,3}\b"
_DEVICES = rf"{_ONE_DEVICE}(?:\s*(?:,|\band\b|\bor\b)\s*{_ONE_DEVICE})*"
_EXCLUDED = re.compile(
    r"[,;]?\s*(?:\b(?:except(?:\s+for)?|but\s+not|apart\s+from|other\s+than|excluding)\s+"
    rf"{_DEVICES}|(?:[,;]\s*|\band\s+)not\s+{_DEVICES}(?!\s+(?:to|by|at)\b)"
    # "keep HCM 3 where it is", "HCM 3 stays as is": kept, so not written
    rf"|\b(?:but\s+|and\s+)?keep\s+{_DEVICES}\s+(?:where\s+(?:it\s+is|they\s+are)|as\s+(?:it\s+)?is|"
    r"unchanged|untouched|fixed|put)"
    rf"|(?<=[,;])\s*{_DEVICES}\s+(?:stays?|remains?)(?:\s+(?:put|where\s+it\s+is|as\s+(?:it\s+)?is|unchanged))?)",
    re.I,
)
#: "except HCM 3", "but not QF 2": a device left out of the family before it, which the
#: channel finder leaves out of what it finds (the words stay for it)
_LEFT_OUT_OF_A_FAMILY = re.compile(
    r"[,;]?\s*\b(?:except(?:\s+for)?|but\s+not|apart\s+from|other\s+than|excluding)\s", re.I
)
#: Words that make the rest of a request a whole family ("all", "every", "the horizontal
#: correctors") without a number.
_A_WHOLE_FAMILY = re.compile(
    r"\b(?:all|every|each|whole|entire)\b|\b(?:the|those|these)\s+(?:[a-z]+\s+){0,2}[a-z]{2,}s\b",
    re.I,
)


def _refused_clauses(text: str) -> list[tuple[int, int]]:
    """Each refusal's clause, ended where a request of its own begins after it, and each
    device left out of a family."""
    return sorted([m.span() for m in _EXCLUDED.finditer(text)] + refusal_spans(text))


def refused_devices(text: str) -> set[str]:
    """The devices ``text`` names only where it refuses a change ("set HCM 2 to 0.3 and don't
    touch HCM 3", "leave QF 5 alone, raise QF 4 by 1 A"): never a target of its write."""
    spans = _refused_clauses(text)
    inside: set[str] = set()
    outside: set[str] = set()
    last = 0
    for start, stop in spans:
        inside |= named_devices(text[start:stop])
        outside |= named_devices(text[last:start])
        last = stop
    outside |= named_devices(text[last:])
    return inside - outside


def without_refused_devices(text: str) -> str:
    """``text`` without each refused change that names a device, when the rest names a device
    of its own and no pronoun that could mean the refused one ("set HCM 2 to 0.3 and don't
    touch HCM 3" -> "set HCM 2 to 0.3"; "don't touch QF07, just show its readback" stays)."""
    refused = refused_devices(text)
    if not refused:
        return text
    spans = [
        (a, b)
        for a, b in _refused_clauses(text)
        if named_devices(text[a:b]) & refused and not _LEFT_OUT_OF_A_FAMILY.match(text[a:b])
    ]
    if not spans:
        return text  # "the BPMs in sector 3 except BPM 15": the finder leaves it out
    rest = text
    for start, stop in reversed(spans):
        rest = rest[:start] + " " + rest[stop:]
    # "leave the ID 7 gap as it is and plot the lifetime": a request with its own verb
    verbs = CHANGE | READ_VERBS | PLOT_VERBS
    asks = any(w.lower() in verbs for w in re.findall(r"[a-z]+", rest, re.I))
    if not (named_devices(rest) or _A_WHOLE_FAMILY.search(rest) or asks) or re.search(
        r"\b(?:it|its|them|their)\b", rest, re.I
    ):
        return text
    role = re.search(r"\b(?:rb|rbv|sp|readbacks?|setpoints?)\b", rest, re.I)
    if not named_devices(rest) and role:
        # "dont touch vcm 20 just read rb": the role is the refused device's
        if len(refused) != 1:
            return text
        rest = f"{rest[: role.start()]}{next(iter(refused))} {rest[role.start() :]}"
    rest = re.sub(r"(?:\s*(?:[,;]|\b(?:and|but|or)\b))+\s*$", "", rest, flags=re.I)
    rest = re.sub(r"^\s*(?:[,;]|\b(?:and|but|so|then)\b)\s*", "", rest, flags=re.I)
    return " ".join(rest.split())


def without_refusal_words(phrase: str) -> str:
    """``phrase`` without the words that refuse a change ("I'm not going to touch the ID09
    gap" -> "the ID09 gap"): what they name is still the channel meant."""
    for m in reversed(list(_REFUSED_CHANGE.finditer(phrase))):
        if m.group("first") is None and re.match(r"leave\s+(?:it|them|this|that)\b", m[0], re.I):
            # "show HCM05's setpoint, but leave them as they are": the pronoun names nothing new
            lead = re.search(r"(?:,\s*)?(?:\b(?:but|and|just)\s+)?$", phrase[: m.start()], re.I)
            phrase = f"{phrase[: lead.start() if lead else m.start()]} {phrase[m.end() :]}"
            continue
        if not _changes(m) or m.group("first") is None:
            continue
        end = m.end() if _changes_word(m.group("second")) else m.end("first")
        lead = re.search(
            r"(?:\b(?:i'?m|i\s+am|we'?re|we\s+are|i|we)\s+)?$", phrase[: m.start()], re.I
        )
        start = lead.start() if lead else m.start()
        phrase = f"{phrase[:start]} {phrase[end:]}"
    return " ".join(phrase.split())


_CHANGING_STEMS = frozenset({stem(v) for v in CHANGE | NO_WAY_VERBS} | {"touch"})


def _changes_word(word: str | None) -> bool:
    return word is not None and (word.lower() in CHANGE or stem(word.lower()) in _CHANGING_STEMS)


def _changes(refusal: re.Match[str]) -> bool:
    """A "leave it ..." refusal, or a negation followed (at most one word later) by a change
    verb ("don't set", "do not ever change", "never touch")."""
    if refusal.group("first") is None:
        return True
    if _WRITES_REFUSED.match(refusal.string, refusal.end("first")):
        return True  # "don't send any RF writes", "do not make any changes": writes refused
    return _changes_word(refusal.group("first")) or _changes_word(refusal.group("second"))


_WRITES_REFUSED = re.compile(
    r"\s+(?:any|a|the|more|further)?\s*(?:[a-z]+\s+)?(?:writes?|changes?|adjustments?|settings?)\b",
    re.I,
)
