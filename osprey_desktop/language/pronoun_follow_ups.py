"""Follow-ups that name no channel of their own: the previous turn's channels take their place.

After a read, the channels just read are what "it", "that" or nothing at all point at:

* a value assigned with an arrow, "=" or "to" ("ok → 0.15 A", "→ 94 then") after a read of
  a device's setpoint or readback is a write of that device; a bare number is not (what it
  sets is not said), nor a value after a read of anything that has no setpoint;
* a change with no target ("half amp down", "bring it in 2 mm") changes the device read (with
  no number, "a tad lower", the plan asks how much);
* "it" with a time ("and what was it at midnight?", "graph of that for last 30 min", "how
  much did it drift over the last hour") is the history of the channels read, and said as a
  comparison ("was it higher than that at six?", "compare it with its value two hours ago")
  the reading now against that moment;
* a moment shifted back ("and one day before, same hour?") is the channels read, that long ago;
* another device given "the same, like this one" is a copy of the value read;
* after a change, "don't touch it, leave it" calls it off: nothing is written or asked;
* "the one in sector 5 would be best" is the same request of the thing in that place, and
  "make the offset 0.2 A instead" the same copy with that offset.

A follow-up that names a channel, or a change said after a change, is left to ``follow_ups``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from osprey_desktop.language.lexicon import ROLE_WORDS
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed
from osprey_desktop.language.quantities import NUM_PATTERN
from osprey_desktop.language.request import Request, Vocabulary, parse_request
from osprey_desktop.language.words import STOP_WORDS

__all__ = [
    "change_called_off",
    "change_of_what_was_read",
    "copy_of_what_was_read",
    "moment_before_what_was_read",
    "new_offset_of_a_copy",
    "one_at_another_place",
    "value_for_what_was_read",
    "what_was_read_over_time",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_POINTERS = r"\b(?:it|that|its|this|them|those|these|their)\b"
#: Roles a device with a setpoint is read by: a value given after them sets that device.
_SETTABLE_ROLES = frozenset({"setpoint", "setpoints", "sp", "readback", "readbacks", "rb", "rbv"})
_DEVICE = re.compile(r"\b[A-Za-z]{2,5}\d{1,3}\b")
_ARROW = r"(?:→|->|=>|⇒|:=|=|\bto\b)"
#: A unit word after an amount, not a word that closes the request ("94 then", "2 please").
_UNIT = r"(?!(?:then|please|thanks|instead|more)\b)[a-zµ]+"
# "ok → 0.15 A", "→ 94 then", "so -> 2.5 MV please": a value assigned, its target not named
_ASSIGNED_VALUE = re.compile(
    rf"^\W*(?:(?:ok(?:ay)?|so|then|and|fine|right|alright|now|please|good)\b[\s,:;]*)*"
    rf"{_ARROW}\s*(?P<amount>{NUM_PATTERN}|{SPELLED_NUMBER_PATTERN})\s*(?P<unit>%|{_UNIT})?"
    rf"(?:[\s,]*(?:then|please|thanks|instead))*[\s.!]*$",
    re.I,
)
# "bring it in 2 mm", "move that out by 1.5 mm": a gap brought in closes, taken out opens
_IN_OR_OUT = re.compile(
    rf"^\W*(?:(?:ok(?:ay)?|so|then|and|now|please)\b[\s,]*)*(?:bring|move|take|drive|run|pull|"
    rf"push)\s+(?:it|that|them|those)\s+(?P<way>in|out|closer|further\s+out)\s+(?:by\s+)?"
    rf"(?P<amount>{NUM_PATTERN})\s*(?P<unit>{_UNIT})(?:\s+(?:please|then|more))?[\s.!]*$",
    re.I,
)
# "set to zero", "ok, put to 0.25 A then": a change verb and "to" with no target of its own
_SET_TO = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|then|and|now|please|fine|right)\b[\s,]*)*(?:set|put|bring|change|"
    r"move|take)\s+(?:(?:it|that|this)\s+)?(?:to|at)\s+(?P<value>[^\s,]+)(?:\s*[a-zµ%]+)?"
    r"(?:[\s,]+(?:then|please|instead))*[\s.!]*$",
    re.I,
)
# "-0.1 A down": a sign and a direction both said, which one is meant is not clear
_SIGN_AND_DIRECTION = re.compile(
    r"(?:^|[\s(])[-+]\s*\.?\d.*\b(?:up|down|higher|lower|more|less|in|out)\b"
    r"|\b(?:up|down|higher|lower|raise|lower|increase|decrease|reduce)\b.*(?:^|[\s(])-\s*\.?\d",
    re.I,
)
_COMPARED = re.compile(
    r"\b(?:higher|lower|more|less|bigger|smaller|greater|above|below|different)\s+than\b"
    r"|\bcompar(?:e|ed|ing)\b|\bvs\.?\b|\bversus\b",
    re.I,
)
_PLOTTED = re.compile(r"\b(?:plot|graph|chart|trend|curve)s?\b", re.I)
_STATISTIC = re.compile(
    r"\b(?P<stat>drift(?:ed)?|mean|average|max(?:imum)?|min(?:imum)?|spread|std|rms|median|"
    r"peak[-\s]to[-\s]peak)\b",
    re.I,
)
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNTS |= {"seven": 7, "twelve": 12, "24": 24}
# "and one day before, same hour?", "a week earlier at the same time?", "same time yesterday"
_SHIFTED_BACK = re.compile(
    r"(?<![\d.])\b(?:(?P<count>\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|twelve)\s+"
    r"(?P<unit>minute|hour|day|week)s?\s+(?:before|earlier|back|prior)"
    r"|(?P<yesterday>yesterday|the\s+day\s+before))\b",
    re.I,
)
#: Words a shifted moment may come with ("same hour", "how much was it?", "at that time").
_SHIFT_FILLERS = _words(
    "and so ok okay then now at the same hour time moment how much was it what value there "
    "that please about reading read"
)
# "give QF33 the same, like this one": another device set to the value just read
_COPY_VERB = re.compile(r"\b(?:give|make|set|put|bring|match|copy|apply|get)\b", re.I)
_SAME_AS_THIS = re.compile(
    r"\b(?:the\s+same|equal|like\s+(?:this|that)(?:\s+one)?|as\s+(?:this|that)\s+one|"
    r"the\s+same\s+value|(?:this|that)\s+value|(?:to|on)\s+(?:this|that|it)(?:\s+one)?\b|"
    r"(?:copy|apply)\s+(?:it|this|that))\b",
    re.I,
)
_QUESTION_LEAD = re.compile(r"^\W*(?:and\s+)?(?:is|are|was|were|does|do|did|has|have)\b", re.I)
# "don't touch it", "leave it", "never mind", "forget it": a change called off
_CALLED_OFF = re.compile(
    r"\b(?:don'?t|dont|do\s+not|never)\s+(?:touch|change|move|write|set|do|send|apply)\b"
    r"|\bleave\s+(?:it|them|that|those|the\s+[a-z]+(?:\s+[a-z]+)?)\b"
    r"|\bnever\s*mind\b|\bforget\s+(?:it|that)\b"
    # "cancel that", "abort", "scrap it": the change asked before, called off
    r"|^\W*(?:\w+\W+){0,2}?(?:cancel|abort|scrap|drop|undo\s+the\s+request)(?:\s+(?:it|that|this))?\W*$"
    # "not yet", "hold off on that", "hold on, not now"
    r"|^\W*(?:\w+\W+){0,3}?(?:not\s+(?:yet|now)|hold\s+off)\b",
    re.I,
)
# the thing a change is refused on, named by its kind ("dont move the quad", "leave the gap")
_REFUSED_OBJECT = re.compile(r"\b(touch|change|move|leave)\s+(?:the|that|this)\s+[a-z]+\b", re.I)
#: Words a change called off may come with ("no wait, dont touch the corrector, leave it").
_CALL_OFF_WORDS = _words(
    "no nope wait hold on uh um hmm ok okay sorry actually please dont don't do not never touch "
    "change move write set leave it them that those the alone be as is are mind forget "
    "anything just send apply cancel yet now for off on hold abort scrap drop request"
)


def value_for_what_was_read(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "ok → 0.15 A" after "HCM2 rb?": HCM2 set to 0.15 A. Only after a read of one device by
    its setpoint or readback, and only a value assigned with an arrow: a bare number after a
    read says no target, and a value after a read of a monitor sets nothing."""
    if previous.changes or previous.intent != "read" or previous.time is not None:
        return None
    if len(previous.targets) != 1 or new.changes:
        return None
    value = _ASSIGNED_VALUE.match(new.text) or _ASSIGNED_VALUE.match(new.canonical)
    device = _settable_device(previous.targets[0])
    if value is None or device is None:
        return None
    said = f"set {device} to {value['amount']} {value['unit'] or ''}".strip()
    return _as_said(said, new, vocabulary, want="write")


def change_of_what_was_read(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "half amp down" after "qf 41 sp", "bring it in 2 mm" after "the ID9 gap?": a change
    of the one device read, by the amount said in its direction."""
    if previous.changes or previous.intent not in ("read", "history", "plot"):
        return None
    if len(previous.targets) != 1:
        return None
    device = _device_of(previous.targets[0])
    if device is None:
        return None
    moved = _IN_OR_OUT.match(new.text) or _IN_OR_OUT.match(new.canonical)
    if moved:
        word = "increase" if "out" in moved["way"].lower() else "decrease"
        said = f"{word} {device} by {moved['amount']} {moved['unit']}"
        return _as_said(said, new, vocabulary, want="write")
    quantity = new.quantity
    if (
        new.changes
        and (quantity is None or quantity.kind == "comparative")
        and not new.targets
        and not re.search(_POINTERS, new.canonical, re.I)
    ):
        # "a bit up" after "hcm 7 sp?", "(it needs) closing a little" after "the ID09 gap?":
        # that device, by an amount the plan asks for
        canonical = new.canonical.rstrip(" ?.!")
        verb = re.search(rf"\b{re.escape(new.verb)}\b", canonical, re.I) if new.verb else None
        if verb:
            said = f"{canonical[: verb.end()]} {device}{canonical[verb.end() :]}"
        else:
            said = f"move {device} {canonical}"
        return _as_said(said, new, vocabulary, want="write")
    if (
        new.changes
        and quantity is not None
        and quantity.kind == "absolute"
        and quantity.value is not None
        and not new.targets
        and new.reference is None
        and (set_to := _SET_TO.match(new.text))
    ):
        # "set to zero", "ok, put to 0.25 A" after "hcm 5 sp?": a value said with its verb
        unit = f" {quantity.unit}" if quantity.unit else ""
        value = quantity.value
        typed = set_to["value"]
        if re.fullmatch(NUM_PATTERN, typed) and abs(float(typed)) == abs(value):
            value = float(typed)  # the sign as typed ("set to -0.2")
        said = f"set {device} to {as_typed(value)}{unit}"
        return _as_said(said, new, vocabulary, want="write")
    if (
        not new.changes
        or quantity is None
        or quantity.kind not in ("relative", "percent")
        or not quantity.value
        or new.reference is not None
        or new.targets
        or re.search(_POINTERS, new.text, re.I)  # "lower it by 2 %": kept as said, by follow_ups
        or _SIGN_AND_DIRECTION.search(new.text)
    ):
        return None
    word = "increase" if quantity.value > 0 else "decrease"
    amount = as_typed(abs(quantity.value))
    unit = "%" if quantity.kind == "percent" else f" {quantity.unit or ''}"
    said = f"{word} {device} by {amount}{unit}".strip()
    return _as_said(said, new, vocabulary, want="write")


def what_was_read_over_time(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "sorry, and what was it at midnight?", "graph of that for last 30 min", "was it higher
    than that at six?" after a read: the channels read, over that time or compared with it."""
    if previous.changes or previous.intent != "read" or new.changes:
        return None
    if not previous.targets or new.time is None or not re.search(_POINTERS, new.text, re.I):
        return None
    if _names_a_channel(new, vocabulary):
        return None
    named = " and ".join(_bare(t) for t in previous.targets)
    when = new.time.canonical
    if new.intent == "compare" or _COMPARED.search(new.text):
        if new.time.kind != "moment":
            return None
        said = f"{named} now vs {when}"
        return _as_said(said, new, vocabulary, want="compare")
    statistic = _STATISTIC.search(new.text)
    if _PLOTTED.search(new.text):
        said = f"plot {named} {when}"
    elif statistic and new.time.kind != "moment":
        said = f"{statistic['stat'].lower().removesuffix('ed')} of {named} {when}"
    elif new.time.kind == "moment":
        said = f"what was {named} {when}"
    else:
        said = f"show {named} {when}"
    return _as_said(said, new, vocabulary)


def moment_before_what_was_read(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "and one day before, same hour, how much was?" after a read of the lifetime now: the
    lifetime 1 day ago. Only after a reading of now: a moment before another moment is not
    read here."""
    if previous.changes or previous.intent != "read" or previous.time is not None:
        return None
    if not previous.targets or new.changes:
        return None
    shift = _SHIFTED_BACK.search(new.text)
    if shift is None:
        return None
    rest = new.text[: shift.start()] + " " + new.text[shift.end() :]
    if any(w not in _SHIFT_FILLERS for w in re.findall(r"[a-z']+", rest.lower())):
        return None  # more said than the moment: not only a new time
    if shift["yesterday"]:
        count, unit = 1, "day"
    else:
        count, unit = _COUNTS.get(shift["count"].lower()) or float(shift["count"]), shift["unit"]
    plural = "s" if count != 1 else ""
    named = " and ".join(_bare(t) for t in previous.targets)
    said = f"what was {named} {as_typed(count)} {unit.lower()}{plural} ago"
    return _as_said(said, new, vocabulary, want="history")


def copy_of_what_was_read(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "QF33, please give the same, like this one" after a read of QF35's setpoint: QF33 set
    to the value of QF35's setpoint. A change verb must say it: "and QF33 the same?" reads."""
    if previous.changes or previous.intent != "read" or len(previous.targets) != 1:
        return None
    source = _device_of(previous.targets[0])
    if source is None or new.quantity is not None or new.time is not None:
        return None
    text = new.text
    if _QUESTION_LEAD.match(text) or text.rstrip().endswith("?"):
        return None
    if not (_COPY_VERB.search(text) and _SAME_AS_THIS.search(text)):
        return None
    source_device = _DEVICE.search(source)
    devices = [
        d
        for d in dict.fromkeys(_DEVICE.findall(new.canonical))
        if source_device is None or d.lower() != source_device.group(0).lower()
    ]
    if not devices:
        return None
    said = f"set {' and '.join(devices)} to the same value as {_bare(previous.targets[0])}"
    return _as_said(said, new, vocabulary, want="copy")


def change_called_off(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "no wait, dont touch the corrector, leave it" after a change: nothing written, nothing
    asked. Said with anything more ("... and read the tunes instead") it is no call-off alone."""
    if not previous.changes or new.changes or not _CALLED_OFF.search(new.text):
        return None
    if re.search(r"\d", new.text):
        return None  # "no, don't set it, 0.4": a value said is no call-off
    named = {w.lower() for t in previous.targets for w in re.findall(r"[a-z]+", t.lower())}
    said = _REFUSED_OBJECT.sub(r"\1", new.text.lower())  # "the quad" of "dont move the quad"
    words = re.findall(r"[a-z']+", said)
    if any(w not in _CALL_OFF_WORDS and w not in named for w in words):
        return None
    if any(w.lower() not in _CALL_OFF_WORDS and w.lower() not in named for w in new.unused):
        return None
    again = parse_request("leave it", vocabulary)
    if again.intent != "conversation":
        return None
    return replace(again, text=new.text)


def one_at_another_place(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "the one in sector 5 would be best, I think" after "set the undulator gap to 19 mm":
    the same request of the undulator gap in sector 5."""
    one = _ONE_AT.match(new.text)
    if one is None or len(previous.targets) != 1:
        return None
    if any(w not in _OPINION_WORDS for w in re.findall(r"[a-z']+", one["rest"].lower())):
        return None
    old = previous.targets[0]
    place = re.sub(r"\s+", " ", one["place"])
    said_at = _PLACE_IN.search(old)
    target = _PLACE_IN.sub(place, old, count=1) if said_at else f"{old} in {place}"
    if old not in previous.canonical:
        return None
    return _as_said(previous.canonical.replace(old, target, 1), new, vocabulary, previous.intent)


#: What may come with a device named for a change asked just before ("the one next door then,
#: VCM 9", "VCM 27 -> same value", "HCM 5 too", "actually QF 9 instead").
_ANOTHER_DEVICE_WORDS = frozenset(
    {"then", "instead", "too", "also", "as", "well", "please", "the", "one", "next", "door"}
    | {"same", "value", "setting", "amount", "change", "do", "try", "actually", "no", "ok"}
    | {"okay", "sorry", "make", "it", "for", "and", "now", "use", "with", "go", "over", "on"}
)


def the_change_for_another_device(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "the one next door then, VCM 9", "VCM 27 -> same value" after "VCM 8 SP to 0.2": the
    same change for the device named now. Only a device and words that keep the change may be
    said; a value, a verb or a time of its own makes it a request of its own."""
    if not previous.changes or previous.intent not in ("write", "state") or new.changes:
        return None
    if len(previous.targets) != 1 or previous.quantity is None and previous.state is None:
        return None
    devices = _DEVICE.findall(new.canonical)
    if len(devices) != 1:
        return None
    others = new.canonical.replace(devices[0], " ")
    if re.search(r"\d", others):
        return None  # a value or another number of its own
    rest = re.findall(r"[a-z]+", others.lower())
    if any(w not in _ANOTHER_DEVICE_WORDS for w in rest) or new.time is not None:
        return None
    old = _device_of(previous.targets[0])
    if old is None or old == devices[0].upper():
        return None
    said = re.sub(
        rf"\b{re.escape(old)}\b", devices[0].upper(), previous.canonical, count=1, flags=re.I
    )
    if said == previous.canonical:
        return None
    return _as_said(said, new, vocabulary, previous.intent)


def new_offset_of_a_copy(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """ "make the offset 0.2 A instead" after "set VCM15 to VCM14 plus 0.1 A": the same copy
    with that offset."""
    if previous.intent != "copy" or previous.quantity is None:
        return None
    offset = _NEW_OFFSET.match(new.text)
    said_before = _OFFSET_SAID.search(previous.canonical)
    if offset is None or said_before is None:
        return None
    amount = float(offset["amount"])
    word = "minus" if amount < 0 else "plus"
    unit = offset["unit"] or previous.quantity.unit or ""
    said = (
        previous.canonical[: said_before.start()]
        + f"{word} {as_typed(abs(amount))} {unit}".rstrip()
        + previous.canonical[said_before.end() :]
    )
    return _as_said(said, new, vocabulary, want="copy")


_PLACE_IN = re.compile(r"\b(?:sector|cell|straight)\s+\d{1,2}\b", re.I)
# "the one in sector 5 would be best", "no, the ones in cell 3 I meant"
_ONE_AT = re.compile(
    r"^\W*(?:(?:no|nope|ok(?:ay)?|sorry|oh|actually|i\s+meant|rather)\b\W*)*(?:the\s+)?ones?\s+"
    r"(?:in|at|of|for|from)\s+(?P<place>(?:sector|cell|straight)\s+\d{1,2})\b(?P<rest>.*)$",
    re.I,
)
_OPINION_WORDS = _words(
    "would be best better right i think guess suppose meant mean want wanted please is the one "
    "probably rather instead actually then"
)
# "make the offset 0.2 A instead", "offset -0.05 A then"
_NEW_OFFSET = re.compile(
    rf"^\W*(?:(?:no|ok(?:ay)?|sorry|actually|hmm)\b\W*)*(?:(?:make|set|change|use)\s+)?"
    rf"(?:the\s+)?(?:offset|difference|delta)\s+(?:to\s+|of\s+)?(?P<amount>{NUM_PATTERN})\s*"
    rf"(?P<unit>[a-zµ]+)?(?:\s+(?:instead|then|please))*[\s.!]*$",
    re.I,
)
_OFFSET_SAID = re.compile(rf"\b(?:plus|minus)\s+{NUM_PATTERN}(?:\s*[a-zµ]+)?", re.I)


def _as_said(
    said: str, new: Request, vocabulary: Vocabulary | None, want: str | None = None
) -> Request | None:
    """The parse of ``said`` in place of ``new``, when it reads as meant (``want``) and names
    a channel; else None (the follow-up is left to the other rules)."""
    again = parse_request(said, vocabulary)
    if not again.targets or again.unused:
        return None
    if want is not None and again.intent != want:
        return None
    return replace(again, text=new.text, refers_back=True)


def _bare(target: str) -> str:
    """``target`` without a leading article ("the ID9 gap" -> "ID9 gap")."""
    return re.sub(r"^(?:the|a|an)\s+", "", target.strip(), flags=re.I)


def _device_of(target: str) -> str | None:
    """The device ``target`` names for a change: its words without the roles ("QF41 sp" ->
    "QF41"), when it names a device by its number ("ID9 gap") or by a settable role."""
    words = _bare(target).split()
    if not (_DEVICE.search(target) or any(w.lower() in _SETTABLE_ROLES for w in words)):
        return None
    kept = [w for w in words if w.lower() not in ROLE_WORDS and w.lower() != "actual"]
    return " ".join(kept) or None


def _settable_device(target: str) -> str | None:
    """The device of ``target`` when it was read by a role only a settable device has
    ("HCM2 rb", "QD46 setpoint"); None for a monitor ("BPM50 y", "the lifetime")."""
    if not any(w.lower() in _SETTABLE_ROLES for w in target.split()):
        return None
    return _device_of(target)


def _names_a_channel(request: Request, vocabulary: Vocabulary | None) -> bool:
    """Whether ``request`` names a channel of its own: a device by its number, or a word of
    the channel list that is not a pronoun or a word of the grammar ("it higher than that"
    names none; "the lifetime" does)."""
    text = " ".join(request.targets)
    if _DEVICE.search(text):
        return True
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP_WORDS]
    if vocabulary is None or not vocabulary.channel_words:
        # no channel list to tell names by: any word the grammar does not know names one
        return any(w not in _GRAMMAR_WORDS for w in words)
    return any(w in vocabulary.channel_words for w in words)


#: Words of a follow-up that name nothing ("sorry, and what was it", "how much did it drift").
_GRAMMAR_WORDS = _words(
    "sorry oops ok okay value values reading readings higher lower bigger smaller greater "
    "different compare compared versus vs graph plot chart trend curve drift drifted mean "
    "average max min spread change changed show see"
)
