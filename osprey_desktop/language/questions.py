"""Which requests ask for an explanation rather than a value: a small grammar of questions.

"What is a DCCT?" asks what a kind of device is; "what is the DCCT current?" asks for a value.
The difference is in the form, not the words: an indefinite article or a generic plural after
"what is", a question about meaning ("stand for", "difference between"), "why" about a cause
("why does the lifetime fall when the pressure rises?"), "how do I", a hypothetical ("what
would happen if"), or a question about the assistant itself ("can you change anything
without my approval?"). Such a request is answered from ``osprey_desktop.knowledge`` without
reading or changing anything.
"""

from __future__ import annotations

import re

# Greetings and politeness before the question ("hi, quick question: what is a BPM?").
_LEAD = re.compile(
    r"^(?:(?:hi|hello|hey|ok|okay|so|well|please|quick question|question|excuse me|sorry|"
    # "can you please explain to me why ...": a request to explain is the explanation asked
    r"(?:(?:can|could|would|will)\s+you(?:\s+please)?|i\s+(?:would\s+like|want)\s+(?:you\s+)?to)"
    r"(?=\s+(?:please\s+)?(?:explain|describe|define|tell\s+me|remind\s+me)\b))"
    r"\b[\s,:;!.-]*)+"
)
_INSTANCE = re.compile(r"\b[a-z]+[-_]?\d+[a-z0-9]*\b|\b[a-z0-9]+:[a-z0-9:]+\b")
_TIME_WORDS = re.compile(r"\b(?:now|currently|today|yesterday|since|ago|last|past)\b")
_CONCEPT_FORMS = [
    # what is a BPM / what are sextupoles for / what's an undulator
    re.compile(r"^(?:what|who)(?:\s+is|\s+are|'s|s)\s+(?:a|an)\s+\w"),
    re.compile(r"^(?:what|who)(?:\s+is|\s+are|'s)\s+\w+s\s+(?:for|used for)\b"),
    # what does HCM stand for / mean; what does a DCCT measure
    re.compile(r"^what\s+(?:does|do)\s+.+\s+(?:mean|stand\s+for|measure|do|control)\s*[?.!]*$"),
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
    # what would happen if I set HCM01 to 5 A
    re.compile(r"^what\s+(?:would|will|could|might)\s+happen\b"),
    # what would the lifetime be if I raised the RF voltage: a hypothetical about a quantity
    re.compile(r"^what\s+(?:would|will|could|might)\s+.+\s+(?:be|do|look\s+like)\s+(?:if|when)\b"),
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
)
_ASSISTANT_TOPICS = re.compile(
    r"\b(?:without|anything|everything|yourself|your\s+own|automatically|allowed|permission|"
    r"able\s+to|capable|approv\w*|safe)\b"
)


_HELP = re.compile(
    r"^(?:help\b|what\s+(?:can|could)\s+(?:you|i)\s+(?:do|ask)|what\s+(?:are\s+you|do\s+you\s+do)"
    r"|how\s+can\s+you\s+help|what\s+(?:can|do)\s+you\s+(?:know|help\s+with))"
)


def asks_for_help(text: str) -> bool:
    """ "What can you do?", "help": a question about what the assistant can do."""
    return bool(_HELP.search(_LEAD.sub("", " ".join(text.lower().split())).strip()))


_THANKS = re.compile(
    r"^(?:ok(?:ay)?[\s,]+)?(?:that'?s\s+(?:all|enough|it|fine|great|perfect)(?:\s+for\s+now)?"
    r"[\s,!.]+)?(?:thanks|thank\s+you|thx|cheers|ta|great,?\s+thanks)\b"
)


#: Words of a short acknowledgement ("ok cool", "perfect", "understood", "never mind").
_ACKNOWLEDGING = frozenset(
    re.findall(
        r"\S+",
        """ok okay cool great perfect fine good nice excellent wonderful super brilliant thanks
        thank you very much lot so understood got it noted roger copy alright right sure wait
        never mind sorry my mistake no yes that's that is all for now bye goodbye cheers thx ta
        awesome""",
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


def is_knowledge_question(text: str) -> bool:
    """Whether ``text`` asks for an explanation (see the module docstring), not a value."""
    lowered = _LEAD.sub("", " ".join(text.lower().split())).strip()
    if not lowered:
        return False
    if asks_for_help(lowered):
        return True
    hypothetical = re.match(r"^what\s+(?:would|will|could|might)\s+happen|^what\s+happens", lowered)
    if _INSTANCE.search(lowered) and not hypothetical:
        return False  # "what is HCM01?", "explain SR:DCCT:Current": a channel, read it
    if _TIME_WORDS.search(lowered) and not hypothetical:
        return False  # "what is the lifetime now", "why did the current drop since 8"
    if any(form.search(lowered) for form in _CONCEPT_FORMS):
        return True
    if _WHY_GENERIC.search(lowered):
        return True
    return bool(_ABOUT_ASSISTANT.search(lowered) and _ASSISTANT_TOPICS.search(lowered))


_LIMIT_WORDS = re.compile(
    r"\b(?:max(?:imum)?|min(?:imum)?|limits?|highest|lowest|how\s+(?:high|low|far|much)|"
    r"allowed|permitted|okay\s+to|ok\s+to)\b",
    re.I,
)
_SETTING_WORDS = re.compile(
    r"\b(?:set|go|goes|move[ds]?|step|steps|change[ds]?|put|raise[ds]?|lower(?:ed)?|push|"
    r"write|limits?|allowed|permitted)\b",
    re.I,
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
_HYPOTHETICAL_CHANGE = re.compile(
    r"^\W*(?:(?:what|how\s+about)\s+if|suppose|supposing|say|if)\s+(?:i|we|you|someone|somebody)\s+"
    r"(?:set|put|raise|lower|move|drive|push|pushed|took|take|ramp|ramped|bring|brought|opened|"
    r"open|close|closed|gave|give|went|go)\b[^?]*?(?:\?\s*$|would\s+(?:that|it|this)\s+"
    r"(?:go\s+through|work|pass|fly|be\s+(?:allowed|accepted|refused|blocked|rejected|ok(?:ay)?|"
    r"fine|possible|permitted)))",
    re.I,
)


def asks_for_limits(text: str) -> bool:
    """ "HCM max step?", "what's the max I can set the RF frequency to?", "how far could HCM10
    be moved in one step?", "If I put VCM 2 at 7 A, is that permitted?": a question about the
    write limits, answered from the write policy; never a reading, never a write. "the max of
    the beam current over the last hour" is a statistic of its history, not this."""
    lowered = " ".join(text.lower().split())
    if _WITHIN_LIMITS.search(lowered):
        return False  # "is the orbit within limits?": its alarm limits, a reading
    if _HYPOTHETICAL_CHANGE.search(lowered):
        return True  # "what if I set QF3 to 125 A?", "if I put ..., would that go through?"
    asked = "?" in lowered or bool(
        re.match(r"^(?:\W*)(?:what|whats|how|can|could|may|is|are|would|if)\b", lowered)
    )
    return (
        asked
        and bool(_LIMIT_WORDS.search(lowered))
        and bool(_SETTING_WORDS.search(lowered))
        and not _STATISTIC_TIME.search(lowered)
    )


__all__ = ["asks_for_help", "asks_for_limits", "is_knowledge_question", "is_thanks"]
