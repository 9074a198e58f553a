"""Questions of understanding said the way operators talk, naming the words of channels.

"The corrector magnets, why they exist in both planes?", "ID gap closing → orbit moves.
why?", "emittance vs orbit — difference?", "BPM offset vs gain error: what's what?", "tune
shift per amp on a QF — how are they related?", "I don't understand how ...", "how does the
beam current affect the vacuum?": each asks how the machine works, in another order than a
textbook's question, and is answered in words (``questions.is_knowledge_question`` asks here
after its own forms).

What points to the machine's own state keeps a question a reading, whatever its form: a
number (a device's, a value's or a clock's: "HCM 3 moves a lot, why?"), a time word ("why is
the lifetime low right now?"), a verb in the past or the perfect (an event: "the lifetime
dropped. why?", "why has the orbit moved?"), a progressive (now: "why is the current
falling?"), a state said of a device without a condition ("the vacuum - why is it high?"), or
a clause led by a command ("plot the tunes and explain what they mean").
"""

from __future__ import annotations

import re

#: A number names a device, a value or a clock: the machine's own state.
_NUMBER = re.compile(r"\d")
#: Time words beyond those ``questions`` checks first: a moment of the machine's history.
_MOMENTS = re.compile(
    r"\b(?:right\s+now|at\s+the\s+moment|earlier|recently|lately|overnight|tonight|"
    r"this\s+(?:morning|afternoon|evening|night|shift|week)|o'?clock|hours?|minutes?|"
    r"anymore|any\s+more)\b"
)
#: A clause led by a command: a reading, a plot or a change asked, whatever else it asks.
_COMMAND = re.compile(
    r"^(?:(?:please|pls|plz|kindly|just|and|also|then|now|ok|so)\s+)*"
    r"(?:show|plot|trend|graph|chart|read|get|give|check|display|list|fetch|compare|monitor|"
    r"look|find|overlay|set|put|raise|lower|increase|decrease|open|close|move|restore|revert|"
    r"bring|make|change|adjust|bump|zero|nudge|steer|trim|ramp|drive|take|apply|write|undo)\b"
)
_CLAUSE_SPLIT = re.compile(r"[,;:.!?]|\s[-–—]\s|[—–]|\b(?:and|then|but)\b")

#: An event or a change made: the machine's past, not how it works.
_PAST = re.compile(
    r"\b(?:did|didn'?t|was|wasn'?t|were|weren'?t|had|got|went|fell|rose|came|broke|began|ran|"
    r"happened|tripped|dumped)\b"
    r"|\b(?:has|have|'ve|hasn'?t|haven'?t)\s+(?:[a-z]+\s+){0,3}?(?:been|gone|fallen|risen|come|"
    r"got(?:ten)?|become|\w+ed)\b"
)
#: A past tense in -ed after its subject: not a passive ("is lost", "are needed"), not an
#: adjective leading its noun ("the stored beam", "→ stored beam wiggles"), not a word like
#: "speed", nor a participle said of how things are ("how are they related").
_PAST_ED = re.compile(
    r"(?<=[a-z]\s)(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!\bget\s)(?<!\bgets\s)(?<!\bbeing\s)"
    r"(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(?<!\bof\s)(?<!\bwith\s)(?<!\bfor\s)(?<!\bon\s)"
    r"(?<!\bin\s)(?<!\bat\s)(?<!\bto\s)(?<!\bby\s)(?<!\bits\s)(?<!\bno\s)(?<!\bwell\s)"
    r"\b(?!\w*eed\b)(?!(?:related|connected|linked|coupled|correlated|tied|called|named|used|"
    r"needed|required|defined|based|focused|fixed|limited|expected|supposed|designed|powered|"
    r"installed|placed|located|shaped|confused|interested|concerned|advanced|detailed|"
    r"complicated|dedicated|distributed|combined|mixed|charged|bunched|understood|wondered|"
    r"learned|asked)\b)\w{3,}ed\b"
)
#: A progressive: what is happening now ("why is the lifetime falling").
_PROGRESSIVE = re.compile(
    r"\b(?:is|are|'s|r|am|isn'?t|aren'?t)\s+(?:\w+\s+){0,3}?(?!(?:during|bring|ring|thing)\b)"
    r"\w{2,}ing\b"
)
#: A state said of something ("why is it high", "why the vacuum is so bad"): the machine's now,
#: unless a condition makes it a law ("... when the current is high").
_STATE = re.compile(
    r"\b(?:is|are|'s|r|isn'?t|aren'?t)\s+(?:(?:so|too|that|this|very|quite|still|always)\s+)?"
    r"(?:high|low|bad|good|off|wrong|unstable|noisy|weird|strange|odd|different|short|long|"
    r"large|small|big|poor|worse|better|higher|lower|negative|positive|zero|red|yellow)\b"
)
_CONDITION = re.compile(r"\b(?:when|whenever|if|as|once|with|after|before|during|while)\b")

#: "why"/"how come" leading a clause: at the start, after punctuation or "and"/"but"/"so"/"n",
#: or asked after a verb of knowing ("I wonder why ...", "no idea why ...", "the reason why").
_WHY = re.compile(
    r"(?:^|[,;:.!?]\s*|\s[-–—]\s*|[—–]\s*|\b(?:and|but|so|n)\s+|"
    r"\b(?:wonder(?:ing)?|know|understand|get|see|idea|sure|explain|tell\s+(?:me|us)|ask(?:ing)?|"
    r"curious|reason)\s+)(?:why|how\s+come|for\s+(?:which|what)\s+reason)\b"
)
#: "how" leading a clause in another language's order ("the DCCT, how it measures the current
#: without touching the beam?", "how the RF keeps the beam bunched?"): its subject follows.
_HOW = re.compile(
    r"(?:^|[,;:.!?]\s*|\s[-–—]\s*|[—–]\s*|\b(?:and|but|so|n)\s+|"
    r"\b(?:wonder(?:ing)?|know|understand|explain|tell\s+(?:me|us)|curious)\s+)"
    r"how\s+(?=(?:the|a|an|it|they|we|one|these|those|such|this)\s)"
)
#: Verbs that ask how something is or was doing, not how it works ("how the orbit looks").
_STATE_VERBS = frozenset(
    re.findall(
        r"\S+",
        """is are was were look looks read reads compare compares behave behaves do does doing
        stand stands go goes stay stays change changes move moves vary varies evolve evolves
        seem seems appear appears fare fares perform performs""",
    )
)
#: Words after "why" that add nothing to it ("why so?", "why exactly?", "why that?").
_WHY_FILLERS = frozenset(
    re.findall(r"\S+", "so that this exactly though again really ever then pls please")
)
_CLAUSE_END = re.compile(r"[,;:.!?]|\s[-–—]\s|[—–]")
#: A cause and its effect written with an arrow, words on each side ("gap closing → orbit
#: moves"); "QF → 121 A" gives a value.
_ARROW = re.compile(
    r"[a-z][\w\s'↑↓+-]*?\s*(?:→|->|=>|⇒)\s*(?!(?:open|opened|close|closed|shut|on|off|in|out|zero|"
    r"max|min|nominal|default|golden|reference|same|back|then|it|that|this|those)\b)[a-z][\w'-]*"
)
#: A law said before a trailing "why" or question: a condition, or an arrow.
_LAW = re.compile(r"\b(?:when|whenever|if|as|once|with|after)\b|→|->|=>|⇒")

_FORMS = (
    # "how does the DCCT read the current without touching the beam?": how a thing works
    re.compile(
        r"^how\s+(?:does|do|can|could|would)\s+(?:the\s+|a\s+|an\s+|our\s+)?[a-z][\w'-]*"
        r"(?:\s+[a-z][\w'-]*){0,3}?\s+(?:measure|read|detect|sense|compute|calculate|determine|"
        r"know|produce|generate|focus|steer|correct|affect|change|pick\s+up|see|tell|track|keep|"
        r"find)\b"
    ),
    # "what's chromaticity got to do with the sextupoles?"
    re.compile(r"\bwhat(?:'s|\s+is|\s+has|\s+does)\s+.+?\s+(?:got\s+)?to\s+do\s+with\b"),
    # "tune shift per amp on a QF — how are they related?", "how is the tune linked to ..."
    re.compile(
        r"\bhow\s+(?:is|are|do|does)\s+(?:[\w'-]+\s+){1,6}?"
        r"(?:(?:related|connected|linked|coupled|tied)\b|relate\b)"
    ),
    # "what is the relation between beam size and emittance?"
    re.compile(r"\b(?:relation(?:ship)?|connection|link|dependence)\s+(?:between|of)\b"),
    # "tune and chromaticity, what is the relation?", "... - connected how?"
    re.compile(
        r"\b(?:what'?s|what\s+is)\s+(?:the\s+)?(?:relation(?:ship)?|connection|link)\s*\?*\s*$"
    ),
    re.compile(r"\b(?:related|connected|linked|coupled)\s+how\b"),
    # "quads and sextupoles: what does each one do?", "... what are they for?"
    re.compile(
        r"\bwhat\s+(?:does|do)\s+(?:each(?:\s+one)?|they|these|those|both)\s+"
        r"(?:actually\s+|really\s+)?do\b"
    ),
    re.compile(r"\bwhat\s+are\s+(?:they|these|those|both)\s+(?:for|used\s+for|good\s+for)\b"),
    # "emittance vs orbit — difference?", "BPM offset vs gain error: what's what?"
    re.compile(
        r"\b(?:vs\.?|versus)\s.*\b(?:difference|differ|differs|what'?s\s+what|which\s+is\s+which|"
        r"same\s+thing)\b"
    ),
    # "ion pumps and gauges — difference?": the difference asked alone after the topic
    re.compile(
        r"(?:[,;:]|\s[-–—]|[—–])\s*(?:so\s+)?(?:the\s+|any\s+|what'?s\s+the\s+)?"
        r"(?:difference|same\s+thing)\s*\?*\s*$"
    ),
    re.compile(r"^(?:the\s+)?difference\s+(?:between\s+)?[a-z]"),
    re.compile(r"\b(?:what'?s|what\s+is)\s+what\b|\bwhich\s+(?:one\s+)?is\s+which\b"),
    re.compile(r"\b(?:what'?s|what\s+is|whats)\s+the\s+(?:real\s+|main\s+)?difference\s+between\b"),
    re.compile(r"\bhow\s+(?:do|does)\s+(?:[\w'-]+\s+){1,6}?differ\b"),
    # "I don't understand ...", "can't understand how ...", "I don't get why ..."
    re.compile(
        r"\b(?:i\s+)?(?:really\s+|still\s+)?(?:don'?t|dont|do\s+not|can'?t|cant|cannot|never)\s+"
        r"(?:really\s+|quite\s+|fully\s+|ever\s+)?(?:understand|understood|"
        r"get\s+(?:why|how|it\b|this\b|the\s+(?:point|idea|difference))|see\s+(?:why|how))"
    ),
    re.compile(
        r"\b(?:i'?m|i\s+am)\s+(?:a\s+bit\s+|still\s+|quite\s+)?confused\s+(?:about|by|why|how)\b"
    ),
    # "explain me please the touschek effect", "chromaticity: explain pls"
    re.compile(r"(?:^|[,;:.!?]\s*|\s[-–—]\s*)(?:pls\s+|please\s+|plz\s+)?explain\b"),
    re.compile(r"\b(?:can|could|would)\s+(?:u|you|ya)\s+(?:please\s+|pls\s+)?explain\b"),
    # "how does the beam current affect the vacuum?", "how do they work together?"
    re.compile(
        r"\bhow\s+(?:does|do|would|will|can|could)\s+(?!(?:you|i|we)\b)(?:[\w'-]+\s+){1,6}?"
        r"(?:affects?|influences?|impacts?|determines?|limits?|acts?\s+on|depends?\s+on|"
        r"couples?\s+to|works?)\b"
    ),
    # "how does the gap change the orbit?" (an object: "how does the lifetime change" alone
    # asks what it did)
    re.compile(
        r"\bhow\s+(?:does|do|would|will|can|could)\s+(?!(?:you|i|we)\b)(?:[\w'-]+\s+){1,6}?"
        r"(?:change|shift|move|alter)s?\s+(?:the|a|an|its|their)\b"
    ),
    # "what does the RF voltage do to the lifetime?": an effect, asked in general
    re.compile(r"^what\s+(?:does|do)\s+(?:the\s+)?[a-z][\w\s'-]*\s+do\s+(?:to|for)\b"),
)


def _points_to_state(text: str) -> bool:
    """A number, a moment, or a clause led by a command: the machine's own state is asked."""
    if _NUMBER.search(text) or _MOMENTS.search(text):
        return True
    return any(_COMMAND.match(piece.strip()) for piece in _CLAUSE_SPLIT.split(text))


def _told_event(words: str) -> bool:
    """The main clause (before a condition: "when the tune is approaching a resonance" is a
    law's) tells an event (a past, a perfect) or what happens now (a progressive)."""
    main = _CONDITION.split(words, maxsplit=1)[0]
    return bool(_PAST.search(main) or _PAST_ED.search(main) or _PROGRESSIVE.search(main))


def _an_event_or_now(words: str) -> bool:
    """An event, what happens now, or a state without the condition that would make it a law
    ("why is it high?")."""
    if _told_event(words):
        return True
    return bool(_STATE.search(words) and not _CONDITION.search(words))


def _asks_why(text: str) -> bool:
    """ "why they exist in both planes", "the correctors, why do we need both?", or a law
    followed by "why?" ("ID gap closing → orbit moves. why?")."""
    for found in _WHY.finditer(text):
        rest = text[found.end() :]
        end = _CLAUSE_END.search(rest)
        clause = (rest[: end.start()] if end else rest).strip()
        words = re.findall(r"[a-z']+", clause)
        if words[:1] == ["not"] and len(words) == 1:
            continue  # "why not": a consent
        while words and words[0] in _WHY_FILLERS:
            words = words[1:]
        before = text[: found.start()]
        # "why they exist", "why sextupoles?" (a kind of thing asked the reason of); "why is
        # that?" asks about what was said before it
        if words and not (words[0] == "is" and words[1:2] in (["that"], ["it"], ["this"])):
            if not _an_event_or_now(clause) and not _an_event_or_now(before):
                return True
            continue
        # a trailing "why?": the statement before it must be a law, not an observation
        if _LAW.search(before) and not _an_event_or_now(before):
            return True
    return False


def _asks_how(text: str) -> bool:
    """ "the DCCT, how it measures the current?": how a thing works, its subject after "how"."""
    for found in _HOW.finditer(text):
        rest = text[found.end() :]
        end = _CLAUSE_END.search(rest)
        clause = (rest[: end.start()] if end else rest).strip()
        words = re.findall(r"[a-z']+", clause)
        if len(words) >= 3 and not _STATE_VERBS & set(words) and not _an_event_or_now(clause):
            return True
    return False


def _arrow_asked(text: str) -> bool:
    """ "pressure up → lifetime down?": a cause and its effect, asked about."""
    if not text.rstrip().endswith("?") or not any(a in text for a in ("→", "->", "=>", "⇒")):
        return False  # the search below reads every start again: only where it may match
    return bool(_ARROW.search(text) and not _an_event_or_now(text))


def asks_to_understand(lowered: str) -> bool:
    """Whether ``lowered`` (lower case, its greeting dropped) asks how the machine works in one
    of the forms above, and nothing points to the machine's own state."""
    # "what's X got to do with Y": no event that happened, an idiom of relation
    lowered = re.sub(r"\bgot\s+to\s+do\s+with\b", "to do with", lowered)
    if _points_to_state(lowered) or _told_event(lowered):
        return False
    if _asks_why(lowered) or _asks_how(lowered) or _arrow_asked(lowered):
        return True
    return any(form.search(lowered) for form in _FORMS)


__all__ = ["asks_to_understand"]
