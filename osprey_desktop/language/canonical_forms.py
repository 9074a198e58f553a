"""The request said in the forms the capabilities' parsers read.

A value for its targets becomes "set <targets> to <value>", a comparative "increase <targets>
by <amount>", a copy "set <target> to the same value as <source>", a restore "restore
<targets> to its value from <moment>"; "X should be 0.25 A" gives X a value and "what is QF 3
set to?" asks for its setpoint.
"""

from __future__ import annotations

import re

from osprey_desktop.language.clauses import CONDITIONAL, verb_clauses
from osprey_desktop.language.lexicon import DOWN_WORDS, PRONOUNS, ROLE_WORDS, STATE_VERBS, UP_WORDS
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed
from osprey_desktop.language.parsed_request import TimeSlot
from osprey_desktop.language.quantities import Amount, Quantity, amounts
from osprey_desktop.language.references import AVERAGE_OF, Reference

# "what frequency is cavity 1 set to?", "what is QF 3 set at", "what was HCM20 set to at 3 pm
# yesterday": the device's setpoint of that quantity, asked ("what is the cavity 1 frequency
# setpoint?"); the quantity belongs to the target
_SET_TO = re.compile(
    r"^(?P<lead>.*?)\b(?:what|which)\s+(?:(?P<what>[a-z][a-z -]{0,30}?)\s+)?"
    r"(?P<be>is|are|was|were)\s+"
    r"(?:the\s+)?(?P<device>[^?.!;]+?)\s+(?:currently\s+|now\s+)?set\s+(?:to|at)"
    r"(?:\s+(?:right\s+now|now|currently|at\s+the\s+moment))?"
    r"(?P<when>\s+(?:at|on|in|yesterday|today|this|last|before|after|around|during|\d)[^?.!;]*)?"
    r"\s*(?P<end>[?.!]*)\s*$",
    re.I,
)
_GENERIC_WHAT = frozenset({"value", "values", "setting", "settings", "number", "level"})


# "I only want to know what HCM 27 is set to": the question in a statement's word order
_WHAT_IT_IS_SET_TO = re.compile(
    r"\b(?P<lead>know|tell\s+me|see|check|ask)\s+what\s+(?P<device>(?:the\s+)?[^?.!;,]{1,40}?)\s+"
    r"(?P<be>is|are|was|were)\s+(?:currently\s+|now\s+)?set\s+(?:to|at)\b",
    re.I,
)


def set_to_question(text: str) -> str:
    text = _WHAT_IT_IS_SET_TO.sub(
        lambda m: f"{m['lead']} what {m['be']} {m['device']} set to", text
    )
    found = _SET_TO.match(text)
    if found is None:
        return text
    what = (found.group("what") or "").strip()
    if what.lower() in _GENERIC_WHAT:
        what = ""
    device = found.group("device").strip()
    target = f"{device} {what}".strip()
    when = found.group("when") or ""
    be = found.group("be").lower()
    be = "is" if be in ("is", "are") else "was"
    return f"{found.group('lead')}what {be} the {target} setpoint{when}{found.group('end') or '?'}"


# "X should be 0.25 A", "X needs to be at zero": a value given to X, said as "X to 0.25 A"
MODAL_VALUE = re.compile(
    r"\s+(?:should|must|ought\s+to|needs?\s+to|has\s+to|to)\s+(?:be|go|sit|read)"
    r"(?:\s+(?:set|closed|opened|moved|changed|put|brought|adjusted|ramped|taken))?"
    r"(?:\s+(?:at|to|on))?\s+"
    rf"(?=[-+−]?\.?\d|minus\b|negative\b|{SPELLED_NUMBER_PATTERN})"
    # "ID05 should sit 2 mm wider than ID04": an amount of difference, not the value
    r"(?!(?:\S+\s+){1,3}(?:higher|lower|more|less|wider|narrower|larger|smaller|above|below|stronger|weaker)\b)",
    re.I,
)
_AS_IT_WAS = re.compile(
    r"\b(?:back\s+)?(?:to\s+)?(?:the\s+way|how|as|like)\s+(?:it|they)\s+(?:was|were|used\s+to\s+be)\b",
    re.I,
)


#: "roll HCM4 back to 10:00", "back to the 07:30 setting": a clock time after "to", "at",
#: "from", the moment of a restore
BARE_CLOCK = re.compile(
    r"\b(?:to|at|from)\s+(?:the\s+)?(?P<clock>\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)", re.I
)


def canonical_restore(
    canonical: str, targets: tuple[str, ...], time: TimeSlot | None, unplaced: bool
) -> str:
    """A restore said as the restore parser reads it: "restore <targets> to its value from
    <moment>" ("go back to this morning's value for QD8", "roll HCM4 back to 10:00") when
    every word is placed; otherwise "back the way it was" said "back to what it was"."""
    moment = time.canonical if time is not None else ""
    if not moment:
        clock = BARE_CLOCK.search(canonical)
        moment = clock.group("clock") if clock else ""
    moment = re.sub(r"^(?:from|at|since|to|its)\s+", "", moment.strip(), flags=re.I)
    named = [t for t in targets if t.lower() not in PRONOUNS]
    if moment and named and not unplaced and len(verb_clauses(canonical)) == 1:
        return f"restore {' and '.join(named)} to its value from {moment}"
    return _AS_IT_WAS.sub("back to what it was", canonical)


def _amounts_besides(canonical: str, targets: tuple[str, ...]) -> list[Amount]:
    """The amounts of ``canonical`` that are not the number of a target said in words ("the
    horizontal steering magnet 20": 20 names the magnet, it is no value)."""
    spans = [
        (m.start(), m.end())
        for target in targets
        if re.search(r"\d", target)
        for m in re.finditer(re.escape(target), canonical, re.I)
    ]
    return [
        a
        for a in amounts(canonical)
        if a.unit is not None or not any(s <= a.start and a.end <= e for s, e in spans)
    ]


def canonical_change(
    canonical: str,
    intent: str,
    quantity: Quantity | None,
    targets: tuple[str, ...],
    reference: Reference | None,
    verb: str | None = None,
    ordered: bool = False,
) -> str:
    """The change in a form the write parsers read, when the words had another form: one
    value for its targets is said "set <targets> to <value>", one change "increase <targets>
    by <amount>", a copy "set <target> to the same value as <source>" (with "plus <amount>"
    when it has an offset)."""
    if (
        intent == "write"
        and quantity is not None
        and quantity.kind == "absolute"
        and quantity.value is not None
        and targets
        and len(verb_clauses(canonical)) == 1
        and len(_amounts_besides(canonical, targets)) == 1
        and not CONDITIONAL.search(canonical)
        and not any(t.lower() in PRONOUNS for t in targets)
        # "open the ID04 gap 2 mm": to 2 mm or by 2 mm? a verb of direction or state with an
        # amount nothing marks is left for the writer to ask about
        and (
            verb not in (UP_WORDS | DOWN_WORDS | STATE_VERBS.keys())
            or bool(
                re.search(
                    r"(?:\bto|\bat|->|→|=)\s*[-+−]?\s*$",
                    canonical[: _amounts_besides(canonical, targets)[0].start],
                )
            )
        )
    ):
        unit = f" {quantity.unit}" if quantity.unit else ""
        typed = re.match(r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?", quantity.words, re.I)
        if typed is None and not re.search(r"\d", quantity.words):
            # "set the beam shutter to Half": a word may be a state of the channel, so the
            # writer reads it as typed
            words = quantity.words
            if quantity.unit and words.lower().endswith(quantity.unit.lower()):
                words = words[: -len(quantity.unit)].strip()
            return f"set {' and '.join(targets)} to {words}{unit}"
        number = typed.group(0) if typed else as_typed(quantity.value)  # "9.30" stays "9.30"
        return f"set {' and '.join(targets)} to {number}{unit}"
    if intent == "write" and quantity is not None and quantity.value is not None and targets:
        # "HCM13 up 0.2 A and HCM14 down 0.2 A": an amount per target, each with its own
        # direction, is left for the writer to read item by item
        one_amount = len(_amounts_besides(canonical, targets)) == 1
        # "change HCM10 by +0.1 and HCM11 by -0.05": an amount the targets took in is one too
        one_amount = one_amount and len(re.findall(r"\bby\s+[-+−]?\.?\d", canonical, re.I)) < 2
        single = len(verb_clauses(canonical)) == 1 and one_amount
        by_word = re.search(r"\bby\b", canonical, re.I)
        relative = quantity.kind == "relative" and one_amount and (single or not by_word)
        # "QF 3 one percent up": a percent without "by" said as the write parser reads it
        percent = quantity.kind == "percent" and single and not by_word
        if relative or percent:
            word = "increase" if quantity.value > 0 else "decrease"
            unit = "%" if percent else (f" {quantity.unit}" if quantity.unit else "")
            return f"{word} {' and '.join(targets)} by {as_typed(abs(quantity.value))}{unit}"
    # "copy X to Y": the source comes first, unless a relation put the target first
    same = re.search(r"\bcopy\b", canonical, re.I) and not ordered
    if intent == "copy" and AVERAGE_OF.search(canonical):
        # "set VCM31 to the average of VCM30 and VCM32": the writer reads it; "HCM03 := the
        # average of ...": said with its verb
        return re.sub(
            r"^\W*(?P<target>[^=:→>-]+?)\s*(?::?=|->|→)\s*(?=(?:the\s+)?(?:average|mean)\b)",
            r"set \g<target> to ",
            canonical,
        )
    if intent == "copy" and reference is not None and len(targets) >= 2 and not same:
        offset = ""
        if quantity is not None and quantity.kind == "factor" and quantity.value is not None:
            offset = f" times {as_typed(quantity.value)}"  # "half the ID09 gap"
        if quantity is not None and quantity.kind in ("relative", "percent") and quantity.value:
            # "set QD12 to QD10 minus 0.5 A": the source's value with the offset said;
            # "set QF19 to QF17 plus 1 %": a percent of the source's value
            unit = (
                " %" if quantity.kind == "percent" else f" {quantity.unit}" if quantity.unit else ""
            )
            sign = "plus" if quantity.value > 0 else "minus"
            offset = f" {sign} {as_typed(abs(quantity.value))}{unit}"
        source = targets[-1]
        # "VCM07 setpoint to VCM08": the source's own words end where the target's begin
        said = re.split(
            r"\s+(?:plus|minus|times|to|onto|into|\+|-|−)(?:\s|\d|$)", reference.words, maxsplit=1
        )[0]
        if any(w in ROLE_WORDS for w in re.findall(r"[a-z]+", said.lower())):
            source = said  # "the value the VCM07 readback shows": its role said, not its offset
        return f"set {' and '.join(targets[:-1])} to the same value as {source}{offset}"
    return canonical
