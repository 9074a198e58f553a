"""Which requests ask for an explanation rather than a value: a small grammar of questions.

"What is a DCCT?" asks what a kind of device is; "what is the DCCT current?" asks for a value.
The difference is in the form, not the words: an indefinite article or a generic plural after
"what is", a question about meaning ("stand for", "difference between"), "why" about a cause
("why does the lifetime fall when the pressure rises?"), "how do I", a hypothetical ("what
would happen if"), or a question about the assistant itself ("can you change anything
without my approval?"). Such a request is answered from ``osprey_desktop.knowledge`` without
reading or changing anything. The forms of talk ("why they exist", "X vs Y — difference?", "how
are they related?", "A → B. why?") are read by ``understanding``. A device named by its number
("HCM01", "VCM 12", "bpm fifteen") or a time word makes any of these forms a reading.
"""

from __future__ import annotations

import re

from osprey_desktop.language.later_changes import LATER
from osprey_desktop.language.terse_writes import value_asked_of_limits
from osprey_desktop.language.understanding import asks_to_understand
from osprey_desktop.language.units import lookup_unit

# Greetings and politeness before the question ("hi, quick question: what is a BPM?").
_LEAD = re.compile(
    r"^(?:(?:hi|hello|hey|ok|okay|so|well|please|quick question|question|excuse me|sorry|"
    # "can you please explain to me why ...": a request to explain is the explanation asked
    r"(?:(?:can|could|would|will)\s+you(?:\s+please)?|i\s+(?:would\s+like|want)\s+(?:you\s+)?to)"
    r"(?=\s+(?:please\s+)?(?:explain|describe|define|tell\s+me|remind\s+me)\b))"
    r"\b[\s,:;!.-]*)+"
)
_INSTANCE = re.compile(r"\b[a-z]+[-_]?\d+[a-z0-9]*\b|\b[a-z0-9]+:[a-z0-9:]+\b")
#: A device's name typed with a space ("VCM 12", "sector 3", "bpm fifteen"): a word and a
#: whole number that is no amount (no unit, no counted plural after it: "2 kinds", "500 mA",
#: "two tunes") and that no word of the grammar leads ("at 5", "the 2 tunes", "between 1 and 2
#: pm"). "one" is left out: it is far more often a pronoun ("which one is which").
_SPACED_NUMBER = re.compile(
    r"\b([a-z]{2,7})\s(\d{1,3}(?![\d.,:])|(?:two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|"
    r"fifty|sixty|seventy|eighty|ninety)\b)(?:\s*([a-zµ%]+))?"
)
_NOT_A_DEVICE = frozenset(
    re.findall(
        r"\S+",
        """an the at to by in on of or and if is are was were be for per from with over under
        than about around only just each every last past next first these those there their
        our my its has have had take give set put get got up down vs plus minus times top max
        min after before since until till ago within into like some any all both few maybe
        say try approx roughly nearly almost exactly below above near step steps it that this
        me us we you they he she do does did can could would will may might should must
        which why what how where when who then need needs""",
    )
)


def _names_a_device_with_a_space(lowered: str) -> bool:
    """ "why is VCM 12 so high?", "explain the QF 3 readback": a device of the machine."""
    for found in _SPACED_NUMBER.finditer(lowered):
        word, after = found.group(1), found.group(3) or ""
        if word in _NOT_A_DEVICE or lookup_unit(word) is not None:
            continue
        if after and (lookup_unit(after) is not None or (after.endswith("s") and len(after) > 3)):
            continue  # "2 kinds of quads", "tune 14 mm"
        return True
    return False


_TIME_WORDS = re.compile(r"\b(?:now|currently|today|yesterday|since|ago|last|past)\b")
#: A change supposed and its effect asked: a question of knowledge even when it names a device
#: or a time ("what would +1 A on QF17 do to Qx?", "if VCM 12 went to 3 A, would the orbit
#: move?").
_SUPPOSED_CHANGES = (
    re.compile(r"^what\s+(?:would|will|could|might)\s+happen\b"),
    re.compile(r"^what\s+(?:would|will|could|might)\s+.+\s+do\s+(?:to|for|with)\b"),
    re.compile(
        r"^(?:what\s+)?if\s+[^,?]+,?\s*(?:what|where|which|when|how(?:\s+much|\s+far)?|would|"
        r"could|might|will)\b"
        r"[^?]*\b(?:would|could|might|happen\w*)\b"
    ),
    re.compile(r"^if\s+[^,?]+,\s*would\b"),
)
#: A quantity under a supposed change ("what would the tune do if we bumped qf three by two
#: amps?"): the device it names is supposed, not read.
_QUANTITY_SUPPOSED = re.compile(
    r"^what\s+(?:would|will|could|might)\s+.+\s+(?:be|do|look\s+like)\s+(?:if|when)\b"
)
_CONCEPT_FORMS = [
    # what is a BPM / what are sextupoles for / what's an undulator
    re.compile(r"^(?:what|who)(?:\s+is|\s+are|'s|s)\s+(?:a|an)\s+\w"),
    re.compile(r"^(?:what|who)(?:\s+is|\s+are|'s)\s+\w+s\s+(?:for|used for)\b"),
    # what does HCM stand for / mean; what does a DCCT measure
    re.compile(
        r"^what\s+(?:does|do)\s+.+\s+(?:actually\s+|really\s+)?(?:mean|stand\s+for|measure|do|control|"
        r"depend\s+on)(?:\s+in\s+practice)?"
        # "..., compared with a BPM sum signal?": the concept set beside another
        r"(?:,?\s+(?:compared\s+(?:with|to)|as\s+opposed\s+to|versus|vs\.?)\s+[^?]+)?"
        # "what does the top-up countdown mean for my experiment?"
        r"(?:\s+(?:for|to)\s+(?:my|our|me|us|a|an|the\s+users?)\b[^?]*)?\s*[?.!]*$"
    ),
    # what does a quadrupole do to the tune
    re.compile(r"^what\s+(?:does|do)\s+(?:a|an)\s+.+\s+do\s+(?:to|for|with)\b"),
    re.compile(r"^what\s+is\s+meant\s+by\b"),
    re.compile(
        r"^what(?:\s+is|'s)\s+the\s+(?:difference|meaning|purpose|role|point|function|idea|use|job)"
        r"\s+(?:between|of|behind)\b"
    ),
    re.compile(
        r"^(?:explain|define|describe)(?:\s+to\s+(?:me|us))?\s+(?:what|how|why|a|an|the\s+difference)\b"
    ),
    re.compile(r"^(?:explain|define)\b"),
    re.compile(r"^(?:tell\s+me|teach\s+me)\s+(?:about|what|how|why)\s+(?:a|an|the\s+concept)\b"),
    # how does an undulator work / how do I set a corrector
    re.compile(r"^how\s+(?:does|do)\s+(?:a|an|the)?\s*[\w\s-]+\bwork\b"),
    re.compile(r"^how\s+(?:do|can|should|would)\s+(?:i|we|one|you)\s+\w"),
    # how do quadrupoles focus the beam / how does an undulator make light: a kind of device
    # in general (a generic plural or "a"), not the machine's ("how do the correctors look")
    re.compile(
        r"^how\s+(?:do\s+[a-z]+s|does\s+(?:a|an)\s+[a-z-]+)\s+"
        r"(?!look|read|compare|behave|stand|do\b)[a-z]+"
    ),
    # "..., can you explain", "give me a short explanation I can pass on": an explanation asked
    re.compile(
        r"(?:^|[,;.-]\s*|\s)(?:can|could|would)\s+you\s+explain(?:\s+(?:it|that|this))?\s*[?.!]*$"
    ),
    re.compile(
        r"\b(?:give|write|send)\s+me\s+(?:an?\s+)?(?:short|quick|brief|simple)?\s*explanation\b"
    ),
    # "what would happen if I set HCM01 to 5 A", "if we closed the ID 9 gap, what would that do?"
    *_SUPPOSED_CHANGES,
    # what would the lifetime be if I raised the RF voltage: a hypothetical about a quantity
    _QUANTITY_SUPPOSED,
    re.compile(r"^what\s+happens\s+(?:(?:to|with)\s+.+\s+)?(?:if|when|as|after)\b"),
    # "I'm curious how changing a quadrupole current shifts the tune": a question said as a wish
    # (a general subject: a gerund or "a"/"an", not "how the vacuum in sector 3 is doing")
    re.compile(
        r"^i'?(?:\s+a)?m\s+(?:curious|wondering)\s+(?:about\s+)?(?:how|why)\s+(?:[a-z]+ing\b|an?\b)"
    ),
    # "what does a sudden lifetime drop usually point to?": what a kind of event tells
    re.compile(
        r"^what\s+(?:does|do|could|can|might)\s+(?:a|an)\s+.+\s+(?:usually\s+|typically\s+|normally\s+)?"
        r"(?:point\s+to|mean|indicate|suggest|tell\s+(?:us|me))\b"
    ),
    # "what would raising the RF voltage do to the lifetime?": an effect, asked in general
    re.compile(r"^what\s+(?:would|will|could|might|does|do)\s+[a-z]+ing\b.+\bdo\s+(?:to|for)\b"),
    # "remind me what a DCCT actually measures": what a kind of device is for
    re.compile(
        r"^(?:remind|tell)\s+me\s+(?:again\s+)?what\s+(?:a|an)\s+.+\s+(?:actually\s+|really\s+)?"
        r"(?:means?|stands?\s+for|measures?|does|controls?|is\s+for)\s*[?.!]*$"
    ),
    # another language's order: "what means lifetime?", "how works the top-up?", "for what
    # are the quadrupoles?", "is normal that the lifetime falls ...?"
    re.compile(r"^what\s+means?\b"),
    re.compile(r"^how\s+works?\b"),
    re.compile(r"^for\s+what\s+(?:is|are)\b"),
    re.compile(r"^is\s+(?:it\s+)?normal\s+(?:that|for|when|if)\b"),
    re.compile(r"\bwhy\s+(?:it\s+|this\s+|that\s+)?matters?\b"),
    re.compile(r"\b(?:could|can|would)\s+you\s+explain\s+(?:that|this|it|why)\b"),
    re.compile(r"^i\s+(?:was|am|'m)\s+wondering\s+why\b"),
    # what causes the orbit to drift / which magnets control the tune: a cause asked of a
    # quantity in general ("what is HCM01 set to" is no such form: "is" leads it)
    re.compile(
        r"^(?:what|which\s+[a-z]+s?)\s+(?:causes?|determines?|sets?|affects?|makes?|limits?|"
        r"controls?|drives?|influences?|governs?|decides?|produces?|changes?|shifts?)\s+"
        r"(?!(?:did|do|does|were|was|are|is|have|has|had|i|we|you|someone|anyone)\b)"
        r"(?:the\s+|a\s+|an\s+)?[a-z]"
    ),
    # how is the lifetime measured / how are the tunes computed: how a quantity comes about
    re.compile(
        r"^how\s+(?:is|are)\s+.+\s+(?:measured|computed|calculated|defined|determined|"
        r"produced|made|generated|controlled|set|corrected|kept|stabili[sz]ed)\s*[?.!]*$"
    ),
    # how does raising the RF voltage change the lifetime: an action in general
    re.compile(r"^how\s+(?:does|do|would|will|can|could)\s+[a-z]+ing\b"),
    re.compile(r"^is\s+it\s+(?:safe|possible|ok|okay|allowed)\s+to\b"),
    # "is a 10 h lifetime at 500 mA considered good or poor?", "what spread between sp and rb
    # is normal on a quad supply?": what is usual in general, not what the machine reads
    re.compile(
        r"\b(?:considered|regarded\s+as|thought\s+of\s+as)\s+(?:good|bad|poor|normal|ok|okay|high|low)\b"
    ),
    re.compile(
        r"^what\s+(?:[a-z]+\s+){1,6}(?:is|are)\s+(?:normal|typical|usual|reasonable)\s+(?:on|for|in)\s+(?:a|an)\b"
    ),
    # "QF vs QD, and what the correctors are for": what a kind of device is for
    re.compile(r"\bwhat\s+(?:the\s+)?[a-z-]+s\s+are\s+(?:for|used\s+for)\b"),
    # "DCCT = what exactly?": a name set equal to a question
    re.compile(r"\b[a-z][\w-]*\s*=\s*what\b"),
    # "lifetime drops when rf volts go down - why?": a cause asked after its observation
    re.compile(r"\b(?:when|if|as)\b[^?]+[-,:;]\s*why\b"),
    # what is top-up injection / what's orbit correction: a process named by a noun made from
    # a verb, with no article and no number, is a concept ("what is the injection rate" and
    # "what is HCM01 doing" are about the machine)
    re.compile(
        r"^what(?:\s+is|'s)\s+(?!(?:the|this|that|its|our|my)\b)(?:[a-z-]+\s+){0,2}"
        r"[a-z-]+(?:ction|ssion|ation|ism|ics)\s*[?.!]*$"
    ),
]
# why does a readback differ / why does the lifetime fall when the pressure rises: "why" asks
# for a cause, never for a value (a question naming a device or a time is about the machine)
# ("why is the beam current dropping" asks about now: a progressive is no general question)
_WHY_GENERIC = re.compile(
    r"^why\s+(?:(?:does|do|would|should|can|could|might|must)\b|(?:is|are)\b(?!.*\w{3,}ing\b)"
    # "why the vacuum go up when the current is high?": a cause in general, said without "does"
    r"|(?:the\s+)?[a-z-]+\s+(?:[a-z-]+\s+)?(?:go|goes|rise|rises|fall|falls|drop|drops|increase|"
    r"increases|decrease|decreases)\b.*\b(?:when|if|with|after)\b)"
)
# can you change anything without my approval / do you write on your own
_ABOUT_ASSISTANT = re.compile(
    r"^(?:can|could|will|would|do|does|are|is|may|might)\s+(?:you|it|the\s+assistant|osprey)\b"
    # "you would never push a magnet past its limit on your own, right?"
    r"|^you\s+(?:would|will|can|could|won'?t|wouldn'?t|never|don'?t|do\s+not)\b"
)
# "why did you ask me before doing it?": the assistant's own way of working
_WHY_YOU = re.compile(r"^why\s+(?:did|do|does|would|are|were|is)\s+(?:you|it|the\s+assistant)\b")
_ASSISTANT_TOPICS = re.compile(
    r"\b(?:without|anything|everything|yourself|your\s+own|on\s+your\s+own|limits?|"
    r"automatically|allowed|permission|"
    r"able\s+to|capable|approv\w*|safe)\b"
)


_HELP = re.compile(
    r"^(?:help\b|what\s+(?:can|could)\s+(?:you|i)\s+(?:do|ask)|what\s+(?:are\s+you|do\s+you\s+do)"
    r"|how\s+can\s+you\s+help|what\s+(?:can|do)\s+you\s+(?:know|help\s+with))"
)


def asks_for_help(text: str) -> bool:
    """ "What can you do?", "help": a question about what the assistant can do; also as the
    last clause after what the operator tells ("hi! first shift today, what can you do?")."""
    lowered = " ".join(text.lower().split())
    if _HELP.search(_LEAD.sub("", lowered).strip()):
        return True
    if re.search(r"\d", lowered):
        return False  # "set HCM 3 to 0.2, what can you do": a request comes first
    last = re.split(r"[,;.!]\s+|\s[-–—]\s", lowered.rstrip(" ?!."))[-1]
    return last != lowered.rstrip(" ?!.") and bool(_HELP.fullmatch(_LEAD.sub("", last).strip()))


_THANKS = re.compile(
    # "morning! thanks for the help last night": a greeting before the thanks
    r"^(?:(?:good\s+)?(?:morning|afternoon|evening|hi|hello|hey)\W+)?"
    r"(?:ok(?:ay)?[\s,]+)?(?:that'?s\s+(?:all|enough|it|fine|great|perfect)(?:\s+for\s+now)?"
    r"[\s,!.]+)?(?:thanks|thank\s+you|thx|cheers|ta|great,?\s+thanks)\b"
)


#: Words of a short acknowledgement ("ok cool", "perfect", "understood", "never mind").
_ACKNOWLEDGING = frozenset(
    re.findall(
        r"\S+",
        """ok okay cool great perfect fine good nice excellent wonderful super brilliant thanks
        thank you very much lot so understood got it noted roger copy alright right sure wait
        never mind sorry my mistake no yes that's that is all for now bye goodbye cheers thx ta
        ty awesome""",
    )
)


def is_thanks(text: str) -> bool:
    """ "Thanks!", "ok thanks, that's all", "ok cool", "understood": an acknowledgement,
    answered as one (a few words, every one of them acknowledging)."""
    lowered = " ".join(text.lower().split())
    if _THANKS.search(lowered):
        return True
    words = re.findall(r"[a-z']+", lowered)
    if re.search(r"\d", lowered):
        return False  # "no wait, 0.25": a value, not an acknowledgement
    return 0 < len(words) <= 6 and all(w in _ACKNOWLEDGING for w in words)


# "not planning anything, just curious: why ...", "new here, panic - DCCT = what exactly?":
# what is told before the question is no part of it
_TOLD_FIRST = re.compile(
    r"^(?:[^?:;]*?\b(?:curious|wondering|asking|planning|here|question|panic|curiosity)\b[^?:;]*?)"
    r"(?::|;|\s[-–—]\s)\s*"
)
# "hypothetically, ...", "in theory ...": a supposed state, never the machine's
_SUPPOSED = re.compile(
    r"^(?:(?:purely|just|only|strictly|speaking)\s+)?(?:hypothetically|theoretically|in\s+theory|"
    r"in\s+principle|in\s+general|generally\s+speaking|"
    r"imagine|suppose|supposing|picture\s+this|in\s+a\s+world\s+where|what-if|"
    r"(?:just\s+)?thinking\s+(?:out\s+loud|aloud))\b[\s,:;-]*"
    # "..., asking hypothetically", "... - just theoretically": said at the end
    r"|[\s,;:-]\s*(?:(?:just|asking|purely|only)\s+)?(?:hypothetically|theoretically|in\s+theory|"
    r"for\s+the\s+sake\s+of\s+argument)\W*$",
)


_EXPLAIN_IT_AFTER = re.compile(
    r"[;,.]\s*(?:would|could|can|will)\s+you\s+(?:mind\s+)?(?:please\s+)?explain(?:ing)?"
    r"(?:\s+(?:it|that|this))?(?:\s+(?:to\s+me|please))?\s*\?*\s*$"
)


def is_knowledge_question(text: str) -> bool:
    """Whether ``text`` asks for an explanation (see the module docstring), not a value."""
    lowered = _LEAD.sub("", " ".join(text.lower().split())).strip()
    # "I'm curious how a BPM measures the position; would you mind explaining?": the question
    # before its closing ask asks it
    before = _EXPLAIN_IT_AFTER.sub("", lowered).strip()
    if before and before != lowered and is_knowledge_question(before):
        return True
    lowered = _TOLD_FIRST.sub("", lowered, count=1)
    if not lowered:
        return False
    if asks_for_help(lowered):
        return True
    if _WHY_YOU.search(lowered):
        return True
    if lowered.startswith("you ") and _ABOUT_ASSISTANT.search(lowered):
        # "you would never push a magnet past its limit on your own, right?" ("past" is no time)
        return bool(_ASSISTANT_TOPICS.search(lowered))
    supposed = _SUPPOSED.search(lowered)
    if supposed and ("?" in lowered or re.search(r"\b(?:would|could|might)\b", lowered)):
        return True  # "Hypothetically, if VCM 12 went to 3 A, would the orbit move much?"
    hypothetical = lowered.startswith("what happens") or any(
        form.search(lowered) for form in _SUPPOSED_CHANGES
    )
    if _INSTANCE.search(lowered) and not hypothetical:
        return False  # "what is HCM01?", "explain SR:DCCT:Current": a channel, read it
    if _names_a_device_with_a_space(lowered) and not (
        hypothetical or _QUANTITY_SUPPOSED.search(lowered)
    ):
        return False  # "why is VCM 12 so high?": a device, read it
    if _TIME_WORDS.search(lowered) and not hypothetical:
        return False  # "what is the lifetime now", "why did the current drop since 8"
    if any(form.search(lowered) for form in _CONCEPT_FORMS):
        return True
    if _WHY_GENERIC.search(lowered):
        return True
    if asks_to_understand(lowered):
        return True  # "emittance vs orbit — difference?", "ID gap closing → orbit moves. why?"
    return bool(_ABOUT_ASSISTANT.search(lowered) and _ASSISTANT_TOPICS.search(lowered))


_LIMIT_WORDS = re.compile(
    r"\b(?:max(?:imum)?|min(?:imum)?|limits?|highest|lowest|largest|biggest|how\s+(?:high|low|far|much)|"
    # "how big a step can I take on the RF frequency?"
    r"how\s+(?:big|large|small)\s+(?:a\s+)?(?:step|change|jump)|"
    r"allowed|permitted|okay\s+to|ok\s+to|legal|(?:allowed|permitted|legal|safe)\s+range|"
    r"(?:write\s+)?polic(?:y|ies))\b",
    re.I,
)
_SETTING_WORDS = re.compile(
    r"\b(?:set|setting|go|goes|going|move[ds]?|moving|step|steps|change[ds]?|changing|put|"
    r"putting|raise[ds]?|raising|lower(?:ed|ing)?|push|write|limits?|allowed|permitted|"
    r"setpoints?|range|increas(?:e[ds]?|ing)|decreas(?:e[ds]?|ing))\b",
    re.I,
)
#: "just tell me if 3.3 MV would be allowed", "whether 0.4 A is ok": a value asked of the limits
_WHETHER_A_VALUE_IS_ALLOWED = re.compile(
    r"\b(?:if|whether)\s+[-+]?\.?\d[\d.]*\s*[a-zµ%]{0,4}\s+(?:would\s+be|is|will\s+be|'?d\s+be)\s+"
    r"(?:ok(?:ay)?|fine|allowed|permitted|acceptable|within\s+(?:the\s+)?limits)\b"
)
_STATISTIC_TIME = re.compile(
    r"\b(?:over|during|since|last|past|yesterday|today|this\s+morning|overnight|hours?|"
    r"minutes?|shift)\b",
    re.I,
)


_WITHIN_LIMITS = re.compile(
    r"\b(?:within|inside|outside|out\s+of|beyond|past)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:alarm\s+)?limits?\b",
    re.I,
)


#: a change supposed, and whether it would pass: the write policy answers, nothing is written
#: a reading asked beside a plan ("..., but don't do anything yet - what's its setpoint?")
_VALUE_ASKED = re.compile(
    r"\bwhat(?:'s|\s+is|\s+are|s|\s+does|\s+do)\s+(?:it|its|they|their|the)\b|\b(?:tell|show|give)\s+me\b|\bread\s+(?:me\s+)?the\b"
)
_CHANGE_VERB = (
    r"(?:set|setting|put|putting|raise|raising|lower|lowering|move|moving|open|opening|close|"
    r"closing|increase|increasing|decrease|decreasing|change|changing|take|taking|bring|bringing|"
    r"go|going|ramp|ramping|bump|bumping|trim|trimming|adjust|adjusting|nudge|nudging|tweak|"
    r"tweaking|shift|shifting|step|stepping|zero|zeroing)"
)
#: a change asked as a rehearsal ("dry run: set HCM 9 to 1 A", "simulate setting ...")
_SIMULATED_CHANGE = re.compile(
    rf"^\W*(?:simulate|dry[-\s]?run|pretend(?:\s+to)?|rehearse|test\s+only|just\s+(?:checking|testing)|"
    rf"as\s+a\s+test)\b\W*(?:\w+\s+){{0,2}}?{_CHANGE_VERB}\b"
    r"|^\W*(?:simulate|dry[-\s]?run|test\s+only)\s*[:\-]"
    # "rehearsal only, do not send anything: copy QF 5 to QF 7"
    r"|^\W*(?:(?:a\s+)?rehearsal|dry[-\s]?run|simulation|test)(?:\s+only)?\s*[,:;-]",
)
#: a change written down for later, not asked ("note for later: VCM 20 -> 0.4 A", "just
#: noting it, no action", "FYI", "for the record")
_NOTED_CHANGE = re.compile(
    r"\b(?:no\s+action(?:\s+(?:needed|required|now))?|just\s+noting|(?:a\s+)?note\s+for\s+later|"
    r"for\s+later|fyi|for\s+the\s+record|for\s+your\s+information|"
    # "Note for the shift: if ... we lower QD02 by half an amp. Nothing to do right now."
    r"nothing\s+to\s+do\s+(?:right\s+)?now|(?:a\s+)?note\s+for\s+the\s+(?:next\s+)?shift)\b"
)
#: a change the speaker means to make later ("tomorrow we'll put QF 1 at 121", "we plan to
#: raise QF 20 by 1 A after the fill")
_PLANNED_CHANGE = re.compile(
    r"\b(?:we'?ll|we\s+will|i'?ll|i\s+will|(?:we|i)\s+(?:are|am|'re|'m)\s+going\s+to|"
    r"(?:we|i)\s+(?:plan|intend|mean|hope)\s+to|(?:we|i)(?:'re|'m|\s+are|\s+am)\s+(?:planning|"
    r"considering|thinking\s+(?:of|about))|we\s+(?:might|may|could)(?:\s+(?:have|need)\s+to)?|"
    r"the\s+(?:run|shift)\s+plan\s+says)\s+(?:\w+\s+){0,2}?"
    rf"{_CHANGE_VERB}\b"
)
_HYPOTHETICAL_CHANGE = re.compile(
    r"^\W*(?:(?:what|how\s+about)\s+if|suppose|supposing|say|if)\s+(?:i|we|you|someone|somebody)\s+"
    r"(?:set|put|raise|lower|move|drive|push|pushed|took|take|ramp|ramped|bring|brought|opened|"
    r"open|close|closed|gave|give|went|go)\b[^?]*?(?:\?\s*$|would\s+(?:that|it|this)\s+"
    r"(?:go\s+through|work|pass|fly|be\s+(?:allowed|accepted|refused|blocked|rejected|ok(?:ay)?|"
    r"fine|possible|permitted)))",
    re.I,
)


#: a device given a value, asked whether that value is inside its limits ("HCM20 at -6 A:
#: within limits?"): the write policy answers; "is the orbit within limits?" reads alarms
_VALUE_WITHIN_LIMITS = re.compile(
    r"\b[a-z]{2,5}\s?\d{1,3}\s+(?:at|to|=|->)\s*[-+]?\.?\d[\d.]*\s*[a-zµ]*\s*[:,;-]?\s*"
    r"(?:is\s+that\s+|would\s+that\s+be\s+|still\s+)?(?:within|inside|in)\s+(?:the\s+|its\s+)?limits?\b"
)
#: a change said as a gerund, asked of the limits ("would setting HCM20 to -6 A be within
#: limits?", "is putting QF 3 at 125 A over the limit?")
_SETTING_WITHIN_LIMITS = re.compile(
    r"\b(?:would|will|could|does|is|are)\s+(?:setting|putting|moving|taking|raising|lowering|"
    r"bringing|driving|running)\s+(?:the\s+)?[a-z]{2,5}\s?\d{1,3}\b[^?.!]{0,40}?\s(?:to|at)\s+"
    r"[-+]?\.?\d[\d.]*\s*[a-zµ]*\s+(?:be\s+|stay\s+|go\s+|fall\s+|remain\s+)?"
    r"(?:within|inside|in|over|beyond|outside|above|below)\s+(?:the\s+|its\s+)?limits?\b"
)
#: a change said, then asked about ("vcm 1 thru 6 to zero - would that be ok with beam in?",
#: "quads in sector 3, +1 A each: is that within limits and is it wise"): asked, not ordered
_CHANGE_THEN_DOUBT = re.compile(
    r"(?:\d|\b(?:zero|nominal|off|on|open|closed))\s*[a-zµ%]{0,4}(?:\s+each)?\s*(?:[,;:?]|\s[-–—]+)\s*"
    r"(?:(?:and|but|so)\s+)?(?:(?:would|will|is|could|does|can)\s+(?:that|it|this|they|those)|"
    # "if I put VCM 20 at -4.5 A, that's still inside the limits?": the doubt said as a statement
    r"(?=[^?]*\?)(?:that|it|this)(?:'s|\s+is|\s+would|\s+will))\s+(?:still\s+)?"
    r"(?:(?:still\s+)?be\s+|go\s+|stay\s+|look\s+)?(?:ok(?:ay)?|fine|safe|allowed|permitted|acceptable|"
    r"wise|sensible|a\s+(?:problem|good\s+idea|bad\s+idea)|within|inside|over|outside|beyond|"
    r"through|alright|all\s+right)\b"
)
#: a value on a device asked of its limits ("is 5.5 A on HCM 12 within limits?", "is 2.9 MV
#: inside the limits for the RF voltage?")
_VALUE_ON_WITHIN_LIMITS = re.compile(
    r"\b[-+]?\.?\d[\d.]*\s*[a-zµ%]{0,4}\s+(?:on|for|to)\s+(?:the\s+)?[a-z]{2,5}\s?\d{1,3}\b[^?]*?"
    r"\b(?:within|inside|in|over|beyond|outside)\s+(?:the\s+|its\s+)?limits?\b"
    r"|\b(?:is|would|will|are)\s+[-+]?\.?\d[\d.]*\s*[a-zµ%]{0,4}\s+(?:be\s+)?(?:within|inside|in|"
    r"over|beyond|outside)\s+(?:the\s+|its\s+)?limits?\s+(?:for|of|on)\s+\S"
)
#: a value asked of a device's limits ("is 0.8 A ok for HCM5?", "would 7 A be allowed on VCM 2?")
_VALUE_OK_FOR = re.compile(
    r"\b(?:is|would|will|are)\s+(?:a\s+)?[-+]?\.?\d[\d.]*\s*[a-zµ%]{0,4}\s+(?:be\s+)?(?:ok(?:ay)?|fine|"
    r"allowed|permitted|safe|acceptable|(?:within|inside|in)\s+(?:the\s+)?limits?|"
    # "is 0.3 A too much for HCM 4?", "would 2 mm be too far for it?"
    r"too\s+(?:much|high|big|large|far|low|small|little|strong|weak))\s+(?:for|on|with|of)\s+"
    r"(?:the\s+)?(?:[a-z]{2,5}\s?\d{1,3}\b|(?:it|that|this)\b)"
)
#: a change the operator meant to ask for, and whether it would be fine ("I was going to ask
#: you to set the ID 5 gap to 8 mm. Is that OK for the machine?")
_INTENDED_CHANGE = re.compile(
    r"\b(?:i\s+was\s+going\s+to|i'?m\s+going\s+to|i\s+wanted\s+to|i'?d\s+like\s+to|"
    r"(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:planning|thinking\s+of|thinking\s+about|about)(?:\s+to)?|"
    # "I think I should set VCM 8 to 0.15, is that ok?": a change the operator thinks of making
    r"(?:i|we)\s+(?:should|could|might|may|would)(?:\s+(?:maybe|perhaps|probably))?)\s+"
    r"(?:ask\s+(?:you\s+)?(?:to\s+)?)?(?:set|setting|put|putting|raise|raising|lower|lowering|move|moving|"
    r"open|opening|close|closing|increase|increasing|decrease|decreasing|change|changing|take|taking)\b"
    r".*\b(?:(?:is\s+(?:that|it|this)|would\s+(?:that|it|this)\s+be|that'?s)\s+(?:ok(?:ay)?|fine|allowed|"
    r"safe|acceptable|permitted|within\s+(?:the\s+)?limits|a\s+good\s+idea|wise|sensible)\b"
    r"|(?:a\s+)?good\s+idea\s*\?"
    # "..., should I do it?", "..., can I go ahead?", "..., do you agree?", "..., any objection?"
    r"|(?:should|shall|can|may)\s+(?:i|we)(?:\s+(?:do\s+(?:it|that|so)|go\s+ahead))?\s*\?"
    r"|do\s+you\s+(?:think\s+(?:so|that'?s\s+(?:ok|fine|right))|agree)\b|any\s+objections?\b"
    r"|(?:does\s+(?:that|it|this)\s+)?makes?\s+sense\s*\?)"
)


#: a change asked after the question ("if so set it", "then go ahead", "and do it")
_CHANGE_AFTER = re.compile(
    r"[?.,;]\s*(?:(?:and\s+)?if\s+(?:so|yes|it\s+is|ok)|then|and|but)\b[^?]*\b(?:set|put|do|apply|"
    r"go\s+ahead|write|change|send|raise|lower|increase|decrease)\b"
)


#: whether a change would be safe, asked before it is made
_SAFE_TO_CHANGE = re.compile(
    r"\b(?:is|would|will|does|could)\s+it\s+(?:be\s+)?(?:safe|ok(?:ay)?|fine|allowed|permitted|wise|"
    # "would it hurt to put HCM 4 at 0.3 A?", "would it be a problem to set QF 5 to 122?"
    r"(?:a\s+)?(?:problem|issue|bad|risky|dangerous|harmful|mistake)|hurt|matter|harm\s+anything)\s+"
    r"(?:for\s+(?:me|us)\s+)?(?:to|if\s+(?:i|we)|were\s+(?:i|we)\s+to)\s+(?:set|put|close|open|raise|"
    r"lower|move|increase|decrease|change|take|bring|drive|ramp|push|go)\b"
)
#: "can the RF voltage setpoint be written from this console?", "is QF 3 writable?": whether
#: a channel can be written at all (no value given), asked of the write policy
_WRITABLE_ASKED = re.compile(
    r"^\W*(?:(?:can|could|may)\s+(?:the\s+)?[^?]{1,50}?\s+be\s+(?:written|set|changed|controlled)"
    r"(?:\s+(?:from\s+(?:this|here|the)\b[^?\d]*|here|at\s+all|remotely|by\s+(?:me|us|you)))?"
    r"|(?:is|are)\s+(?:the\s+)?[^?]{1,50}?\s+(?:writable|writeable|settable|read[-\s]only))\s*\?*\s*$"
)
#: "how would I set the ID 9 gap to 15 mm?", "how do I change HCM 3 to 0.4?": the way asked
_HOW_TO_CHANGE = re.compile(
    r"^\W*how\s+(?:would|do|can|could|should|shall)\s+(?:i|we|one)\s+(?:go\s+about\s+)?"
    r"(?:set|put|close|open|raise|lower|move|increase|decrease|change|take|bring|drive|ramp|"
    r"adjust|apply)\b[^?]*\?"
)
#: a device asked whether it could go to a value ("could QD 30 go to 104 A without tripping
#: anything?"); "could you set ..." is a request, not this
_DEVICE_COULD_GO = re.compile(
    r"^\W*(?:could|can|would|will|might)\s+(?!you\b|u\b|we\b|i\b)(?:the\s+)?[a-z]{2,5}\s?\d{1,3}\b"
    r"[^?]*?\s(?:go|get|be\s+(?:set|put|moved|taken|raised|lowered|run))\s+(?:up\s+|down\s+)?to\s+"
    r"[-+]?\.?\d[^?]*\?\s*$"
)


#: a change the speaker asks permission or advice for, to make it themself ("should I raise
#: QF 17 by 0.5 A?", "could i set rf freq to 499.66?", "thinking of taking vcm 12 to -0.15
#: myself, good idea or not?", "any reason I shouldn't put VCM 11 at 0.3 A myself?")
_PERMISSION_OR_ADVICE = re.compile(
    r"^\W*(?:(?:should|shall|can|could|may|might|ought(?:\s+to)?)\s+i\s+(?:(?:just|maybe|also|then|"
    rf"now)\s+)?{_CHANGE_VERB}|do\s+you\s+think\s+(?:i|we))\b"
    # "The lifetime is 4 h. Should we open ID05 to 40 mm to check?", "should we open ID07 to 40
    # mm, or wait?": advice asked after what was seen, or beside another way; a bare "should
    # we set HCM3 to 0.2 A?" proposes the change (asked in the approval)
    r"|[.!;]\s+\W*(?:should|ought)\s+we\s+(?:(?:just|maybe|also|then|now)\s+)?"
    rf"{_CHANGE_VERB}\b"
    r"|\b(?:should|ought|would|do|shall)\s+(?:we|you|i)\s+[^?]*,?\s+or\s+(?:wait|not|leave|keep|hold|"
    r"do\s+nothing|rather\s+not)\b"
    # "HCM09 at 0.6 A or 0.55 A, what separates the two?": two values weighed, none chosen
    r"|[-+]?\d[\d.]*\s*[a-zµ%]{0,4}\s+or\s+[-+]?\d[\d.]*\s*[a-zµ%]{0,4}\b[^?]*\b(?:the\s+two|"
    r"difference|separates?|better|worse|which\s+one)\b[^?]*\?"
    r"|\b(?:good\s+idea|bad\s+idea|your\s+(?:opinion|view|advice|thoughts|take)|thoughts\s*\?|"
    r"any\s+objections?|objections?\s*\?|(?:would|do)\s+you\s+(?:recommend|advise|suggest)|"
    r"any\s+reason\s+(?:i|we)\s+shouldn'?t|would\s+you\s+be\s+(?:ok|okay|fine|"
    r"comfortable|happy)\s+with|in\s+your\s+view)(?:\b|(?<=\?))"
    # "... put VCM 11 at 0.3 A myself", "nudge qf5 +0.3A from the knob panel": a change the
    # speaker makes by hand (never "count that myself")
    rf"|\b{_CHANGE_VERB}\b[^?.;]{{0,60}}?\b(?:myself|by\s+hand|from\s+the\s+(?:knob|panel|console))\b"
)
#: how a value asked about would fare ("would a step of 2.5 A on vcm 11 be refused?", "RF
#: voltage 3.5 MV - safe?", "is an ID11 gap of 150.5 mm even possible?")
_FARE = re.compile(
    r"\b(?:would|will|could|might|does|do)\b[^?.]{0,40}\btrip|"
    r"\b(?:pass|fail|go\s+through)\s+(?:the\s+)?(?:write\s+)?(?:checks?|limits?|polic(?:y|ies))|"
    r"\bmax[_\s]?steps?\b|\bclip(?:s|ped)?\b|"
    r"\b(?:refused|blocked|rejected|accepted|interlocks?|ceiling|floor|"
    r"(?:control|allowed|permitted)\s+range|(?:on|over|under|past|beyond|at)\s+the\s+limits?|"
    r"outside\s+(?:the\s+)?(?:control\s+)?(?:range|limits?)|"
    # "would it be possible to lower HCM 8 by 0.05 A?": a polite request, not this
    r"possible(?!\s+(?:for\s+(?:you|us)\s+)?to\b)|permitted|allowed|safe)\b|"
    # "qf 17 up 1A ok?": whether it is fine, asked at the end
    r"\b(?:ok|okay|fine|alright)\s*\?+\s*$"
)
#: the assistant asked to act ("could you set ...", "please put ..."): a change, not advice
_ASKED_TO_ACT = re.compile(
    r"\b(?:(?:could|can|would|will)\s+(?:you|u)\s+(?:please\s+)?(?!recommend|advise|suggest|"
    r"think|tell|say|check|confirm|let)[a-z]+|please\s+(?:set|put|raise|lower|apply|change|move|go|"
    r"increase|decrease|take|bring|open|close)|go\s+ahead|"
    # "should I maybe lower VCM 25 by 0.1? actually yes, please do it": answered by the asker
    r"(?:please|yes|yeah|yep|ok(?:ay)?)[,\s]+(?:please\s+)?(?:do\s+(?:it|that|so)|make\s+it\s+so))\b"
)
#: a value given to a device or a change ("at 84 A", "to 499.71", "= -5 A", "2.5 A on vcm 11",
#: "raise ... by 0.5 A"), never a clock time
_GIVEN = re.compile(
    r"(?:\b(?:at|to|of|by)|=|->|→)\s*[-+]?\d*\.?\d+(?![\d:])|"
    r"\d\s*(?:%|a|amps?|mm|mv|kv|v|hz|khz|mhz)\s+(?:on|for)\b|"
    r"\b[a-z]{2,5}\s?\d{1,3}\s+[-+]?\d*\.?\d+\s*(?:%|a|amps?|mm|mv|khz|mhz)\b|"
    # "HCM05 1.2 -- would that clip?", "...:sp 121.5 within max_step?": a decimal after a name
    r"\b(?:sp|setpoint|[a-z]{2,5}\s?\d{1,3})\s+[-+]?\d*\.\d+(?![\d.:])|"
    # "qf 17 up 1A", "V_RF -100 kV", "QF 9 = QF 11": an amount, a signed value, another device
    r"\b(?:up|down)\s+[-+]?\d*\.?\d+|\b[a-z_]{2,8}\s+[-+]\d*\.?\d+\s*(?:%|a|amps?|mm|mv|kv|v|hz|khz|mhz)\b|"
    r"=\s*(?:the\s+)?[a-z]{2,5}\s?\d{1,3}\b"
)
_A_VALUE = re.compile(r"(?<![a-z])[-+]?\d*\.?\d+\s*(?:%|[a-zµ]{1,4}\b)?")


#: "...? yes, do it", "...? I think so, please copy it over", "... - go ahead": the question
#: answered by the one asking it, and the change asked
_ANSWERED_BY_THE_ASKER = re.compile(
    r"[?.!,;]\s*(?:actually,?\s+)?(?:(?:yes|yeah|yep|ok(?:ay)?),?\s+|i\s+(?:think|guess)\s+so,?\s+)"
    r"(?:please\s+)?(?:do\s+(?:it|that|so)|go\s+ahead|copy\s+it(?:\s+over)?|make\s+it\s+so|"
    r"set\s+it|apply\s+it)\b[\s.!]*$"
)
#: "not sure HCM26 should be at 0.7 A, explain what's normal": a value doubted, asked about
_DOUBTED = re.compile(
    r"^\W*(?:i'?m\s+|i\s+am\s+)?(?:not\s+sure|unsure|i\s+doubt|(?:i'?m\s+)?wondering|i\s+wonder)\s+"
    # the doubt is of the value, in its own clause ("I'm not sure how to say this, but QF 3
    # should be 121 A" doubts the wording and asks the change)
    r"(?!how\s+to\b)(?:if\s+|whether\s+|that\s+)?[^?.;,]*\b(?:should|ought\s+to|needs?\s+to)\s+"
    r"(?:be|go|sit|stay)\b"
)
_OR_WAIT = re.compile(
    r",?\s+or\s+(?:(?:should\s+(?:we|i)|do\s+we|would\s+you)\s+)?(?:wait|not|leave\s+it|keep\s+it|hold|"
    r"hold\s+off|do\s+nothing|rather\s+not)\b[^?]*\?",
    re.I,
)


def _advice_or_fare_of_a_value(lowered: str) -> bool:
    """A change with a value the speaker asks about (permission, advice, whether it is
    allowed or would trip), never asks to be made by the assistant."""
    if not _A_VALUE.search(lowered):
        return False
    if _OR_WAIT.search(lowered):
        return True  # "would you try HCM33 at 0.4 A, or wait?": advice between two courses
    if _ASKED_TO_ACT.search(lowered):
        return False
    if _PERMISSION_OR_ADVICE.search(lowered) or _DOUBTED.search(lowered):
        return True
    asked = (
        "?" in lowered
        or re.match(r"^\W*(?:is|are|would|will|could|can|does)\b", lowered)
        # "V_RF -100 kV, is that allowed", "QF 9 = QF 11 - would that pass limits"
        or re.search(
            r"(?:[,;:]|\s[-–—])\s*(?:is|would|will|does|could)\s+(?:that|it|this)\b", lowered
        )
    )
    return bool(asked) and _FARE.search(lowered) is not None and _GIVEN.search(lowered) is not None


#: a change refused for the whole message ("(no write, just asking about the step)", "don't
#: write: ...", "read-only question", "I am NOT asking for a change", "without applying")
NO_WRITE_SAID = re.compile(
    r"\b(?:no|without)\s+(?:any\s+)?(?:writes?|writing|changes?|changing|applying|action)\b"
    r"(?!\s+(?:to|on|of|for)\b)|"
    r"\b(?:don'?t|do\s+not|never)\s+(?:write|apply|change|touch|set|modify|move)\s+(?:anything|it|that|"
    r"this)\b|\b(?:don'?t|do\s+not)\s+(?:write|apply|put|caput|send)\s*(?:[:;,.!)-]|$)|"
    r"\bread[-\s]only\b|"
    r"\bnot\s+asking\s+(?:you\s+)?(?:for|to)\s+(?:a\s+|any\s+)?(?:change|write|set|apply)|"
    r"\bjust\s+asking\b|\bwithout\s+(?:applying|changing|touching|writing)\b|"
    # "HCM03 := HCM02 + 0.15A - just check, no put", "hcm 4 => 0.3 ? (q only)", "--dry-run"
    r"\bno\s+(?:put|caput|send)\b|\(\s*q(?:uestion)?\s+only\s*\)|\bquestion\s+only\b|"
    r"--?dry-?run\b|\bdry[\s-]run\b",
    re.I,
)


def forbids_writes(text: str) -> bool:
    """The message refuses every change in words ("(no write, just asking)", "read-only:
    ..."): whatever else it says, nothing of it is written."""
    return NO_WRITE_SAID.search(text) is not None


_LIMITS_SHORT = re.compile(r"\blims?\b(?=\s*[?.!]*\s*$)")


def asks_for_limits(text: str) -> bool:
    """ "HCM max step?", "what's the max I can set the RF frequency to?", "how far could HCM10
    be moved in one step?", "If I put VCM 2 at 7 A, is that permitted?": a question about the
    write limits, answered from the write policy; never a reading, never a write. "the max of
    the beam current over the last hour" is a statistic of its history, not this."""
    # "HCM18 lim?", "vcm lims": the limits, shortened
    lowered = _LIMITS_SHORT.sub("limits", " ".join(text.lower().split()))
    if _ANSWERED_BY_THE_ASKER.search(lowered):
        return False  # "is it ok if I set HCM 12 to 0.25 A? yes, do it": the change is asked
    # "max_step for QF 3?": a policy's key, as a config file spells it
    lowered = re.sub(r"\b(max|min)_(step|value|limit|change)s?\b", r"\1 \2", lowered)
    if (
        _VALUE_WITHIN_LIMITS.search(lowered)
        or _SETTING_WITHIN_LIMITS.search(lowered)
        or _CHANGE_THEN_DOUBT.search(lowered)
        or _VALUE_ON_WITHIN_LIMITS.search(lowered)
        or _INTENDED_CHANGE.search(lowered)
        or _VALUE_OK_FOR.search(lowered)
        or _WHETHER_A_VALUE_IS_ALLOWED.search(lowered)
        or value_asked_of_limits(lowered)  # "vcm 13 +3a ok or over the limit"
    ):
        # "is 0.3 A ok for HCM5? if so set it": the question is the change's condition
        return not _CHANGE_AFTER.search(lowered)
    if (
        forbids_writes(lowered)
        and _GIVEN.search(lowered)
        and not _VALUE_ASKED.search(lowered)
        and not _CHANGE_AFTER.search(lowered)
    ):
        return True  # "SR03C:QF09:SP -> 121.5 ? (no write, just asking about the step)"
    if _advice_or_fare_of_a_value(lowered) and not _CHANGE_AFTER.search(lowered):
        return True  # "should I raise QF 17 by 0.5 A?", "would 2.5 A on vcm 11 be refused?"
    if (
        (
            _SIMULATED_CHANGE.search(lowered)
            or _NOTED_CHANGE.search(lowered)
            or (_PLANNED_CHANGE.search(lowered) and LATER.search(lowered))
        )
        and re.search(r"\d", lowered)
        and not _VALUE_ASKED.search(lowered)
    ):
        # "dry run: set HCM 9 to 1 A", "tomorrow we'll put QF 1 at 121", "QD 10 to 97 A at
        # 18:00 - just noting it": not a change now; the write policy says how it would go
        return True
    if _WITHIN_LIMITS.search(lowered):
        return False  # "is the orbit within limits?": its alarm limits, a reading
    if _HYPOTHETICAL_CHANGE.search(lowered):
        return True  # "what if I set QF3 to 125 A?", "if I put ..., would that go through?"
    if _CHANGE_AFTER.search(lowered) and re.search(r"\d", lowered):
        return False  # "I'm not sure if that's allowed, but could you set HCM 5 to 4 A?"
    if (
        _SAFE_TO_CHANGE.search(lowered)
        or _DEVICE_COULD_GO.search(lowered)
        or _HOW_TO_CHANGE.search(lowered)
        or _WRITABLE_ASKED.search(lowered)
    ):
        return True  # "is it safe to close the ID 9 gap to 10 mm?", "could QD 30 go to 104 A?"
    asked = "?" in lowered or bool(
        re.match(r"^(?:\W*)(?:what|whats|how|can|could|may|is|are|would|if)\b", lowered)
        # "I want to know the step limit ...", "check the limits for QF 13"
        or re.search(
            r"\b(?:(?:want|like|need)\s+to\s+know|wonder(?:ing)?|tell\s+me|show\s+me|check|list)\b",
            lowered,
        )
    )
    return (
        asked
        and bool(_LIMIT_WORDS.search(lowered))
        and bool(_SETTING_WORDS.search(lowered))
        and not _STATISTIC_TIME.search(lowered)
        # "how much did the lifetime change between 3 and 4 pm?": what happened, not a limit
        and not re.search(r"\b(?:did|has|have|had)\b[^?]*\bchange", lowered)
    )


def limits_beside_a_reading(text: str) -> tuple[str, str] | None:
    """(the question of the limits, the reading asked) when a message asks both ("what's the
    max I can put on QD 20, and what is it reading now?"): each is answered, neither dropped.
    Each one's "it" is the device the other names. None otherwise."""
    parts = [p.strip() for p in _TWO_QUESTIONS.split(text) if p and p.strip(" ,;?")]
    if len(parts) != 2:
        return None
    asked = [asks_for_limits(p) for p in parts]
    if asked.count(True) != 1:
        return None
    limits, reading = (parts[0], parts[1]) if asked[0] else (parts[1], parts[0])
    if not _READING_ASKED.search(reading):
        return None
    named = _DEVICE_NAMED.search(reading)
    if named and not _DEVICE_NAMED.search(limits):  # "..., and what's the max I can put on it?"
        limits = re.sub(r"\bit\b", named.group(0), limits, count=1, flags=re.I)
    device = _DEVICE_NAMED.search(limits)
    if device and not _DEVICE_NAMED.search(reading):
        reading = re.sub(r"\bit\b", device.group(0), reading, count=1, flags=re.I)
        noun = re.match(r"\s+([a-z]+)", limits[device.end() :], re.I)
        if noun:  # "... the ID 11 gap in one step? and what is the gap now?": ID 11's gap
            said = rf"\bthe\s+{re.escape(noun.group(1))}\b"
            reading = re.sub(said, f"the {device.group(0)} {noun.group(1)}", reading, count=1)
    return limits, reading


#: where two questions of one message part: "?", ", and ...", "; "
_TWO_QUESTIONS = re.compile(r"(?<=\?)\s+(?:and\s+)?|,\s+and\s+(?=what|how|is|are)|;\s+", re.I)
_READING_ASKED = re.compile(
    r"^\W*(?:and\s+)?(?:what(?:'s|\s+is|\s+are)|where\s+is|how\s+(?:high|much|far)\s+is|"
    r"(?:read|show|give\s+me|tell\s+me)\b)",
    re.I,
)
_DEVICE_NAMED = re.compile(r"\b[A-Za-z]{1,5}\s?\d{1,3}\b")


__all__ = [
    "NO_WRITE_SAID",
    "asks_for_help",
    "asks_for_limits",
    "limits_beside_a_reading",
    "forbids_writes",
    "is_knowledge_question",
    "is_thanks",
]
