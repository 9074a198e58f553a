"""A follow-up is the previous request with the slots the new turn names replaced.

"0.55 then" replaces the quantity of "set HCM09 to 0.6 A"; "close it by 1 mm" puts the
previous targets in place of "it"; "same for the vacuum in sector 4" replaces the targets of
"plot the beam current for the last hour" and keeps its intent and time; "what about sector
5?" replaces only the place; roles alone ("and its setpoint?") replace the roles; a new
time alone ("now for the last 10 minutes", "and since 6 am?") replaces the time of a request
that changed nothing and keeps its channels (a read becomes their history); said as "the same
for the last 10 minutes" it is left to the planner, which reuses the channels found before.
The forms that name no channel at all after a read ("→ 94 then", "half amp down", "what
was it at midnight?") are in ``pronoun_follow_ups``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from osprey_desktop.language.corrections import NAMED_DEVICE, correction_of
from osprey_desktop.language.lexicon import DOWN_WORDS, ROLE_WORDS, UP_WORDS
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed, read_number
from osprey_desktop.language.parsed_request import TimeSlot
from osprey_desktop.language.pronoun_follow_ups import (
    change_called_off,
    change_of_what_was_read,
    copy_of_what_was_read,
    moment_before_what_was_read,
    new_offset_of_a_copy,
    one_at_another_place,
    the_change_for_another_device,
    value_for_what_was_read,
    what_was_read_over_time,
)
from osprey_desktop.language.quantities import NUM_PATTERN, Quantity
from osprey_desktop.language.questions import asks_for_limits
from osprey_desktop.language.request import Request, Vocabulary, parse_request
from osprey_desktop.language.rewordings import proposal_asked_for
from osprey_desktop.language.slot_follow_ups import slots_replaced

__all__ = ["follow_up"]

_ONLY_A_VALUE = re.compile(
    rf"^(?:(?:ok(?:ay)?|no|wait|sorry|oops|hmm|um|fine|right|alright|so|then|and|"
    rf"make\s+(?:that|it)|try|i\s+mean(?:t)?|let'?s(?:\s+(?:say|try|do))?|instead|rather|please|"
    rf"actually|do|go(?:\s+(?:with|for))?|use|on\s+second\s+thoughts?|better|no\s+better|to|"
    # "actually only 0.05" after "lower the RF voltage by 0.1 MV": that much, the way kept
    rf"only|just|"
    # "by 0.1 A" after "nudge VCM 20 up a bit" (asked how much): the amount of that change
    rf"(?P<by>by)|(?P<way>up|down|higher|lower)(?=\s+by\b))\b"
    rf"(?:[\s,:;]|\.(?=\s)|\s[—–-]\s|[—–])*|(?:→|->|=>|⇒)\s*)*"
    rf"(?P<amount>{NUM_PATTERN}|{SPELLED_NUMBER_PATTERN})\s*(?P<unit>%|[a-zµ]+)?"
    rf"(?:[\s,]*(?:then|instead|please|rather|thanks|up|down|(?:would\s+be|is)\s+(?:enough|better|fine|"
    rf"plenty)|(?:could|can|would)\s+you\s+(?:please\s+)?do\s+(?:that|it|this)(?:\s+instead)?\??))*"
    # "0.25, not 0.3": the value the new one replaces
    rf"(?:[\s,;]+(?:not|rather\s+than|instead\s+of)\s+(?:{NUM_PATTERN})\s*(?:%|[a-zµ]+)?)?"
    # "by 0.05 MV?" after "could you lower the RF voltage a little bit?": offered, asked
    rf"[\s.!?]*$",
    re.I,
)
_SAME_FOR = re.compile(
    r"^(?:(?:ok(?:ay)?|and|now|then|also|oops|sorry|no)\b[\s,]*)*(?:(?:i\s+)?meant|"
    r"(?:do\s+|put\s+|set\s+)?(?:the\s+)?same"
    r"(?:\s+(?:value|thing|setting|one|change))?\s*(?:\s(?:for|with|on|to|in)|→|->)|"
    r"what\s+about|how\s+about|and|now|also|do|try|use)\s+(?P<rest>.+?)"
    r"(?:\s+instead(?:\s+of\s+.+?)?)?[\s?.!]*$",
    re.I,
)
# "make that 6 hours", "now the last 24 hours", "try 2 days": a new span for the same channels
_ONLY_A_SPAN = re.compile(
    r"^(?:(?:ok(?:ay)?|and|now|then|also|make\s+(?:that|it)|change\s+(?:that|it)\s+to|try|"
    r"what\s+about|how\s+about|instead|rather)\b[\s,]*)*(?:(?:over|for)\s+)?(?:the\s+)?"
    r"(?:(?:last|past)\s+)?(?P<count>\d+(?:\.\d+)?)\s*(?P<unit>minutes?|mins?|hours?|hrs?|h|days?|"
    r"weeks?)(?:\s+instead)?[\s?.!]*$",
    re.I,
)


#: a yes/no question about the change before ("isn't that too much?"), then what follows it
_DOUBT_THEN_A_VALUE = re.compile(
    r"^(?![^?]*\b(?:what|which|how|when|where|why|who)\b)[^?]{0,80}\?\s*(?P<rest>\S.*)$", re.I
)
_LIMITS_OF_IT = re.compile(r"\b(?:for|on|of|with)\s+(?P<it>it|that|this|them)\b", re.I)
_READBACK_SAID = re.compile(
    r"\s*\b(?:readbacks?|rbv?|reading|measured|actual)\b(?:\s+value)?", re.I
)


def follow_up(
    previous: Request, new: Request, vocabulary: Vocabulary | None = None
) -> Request | None:
    """The previous request with the slots ``new`` names replaced, or None when ``new``
    stands on its own. "0.55 then" replaces the quantity; "close it by 1 mm" puts the
    previous targets in place of "it"; "same for X" replaces the targets and keeps the
    intent, the time and the quantity."""
    signed = _MINUS_TYPED.sub("-", new.text)
    if signed != new.text:
        # "no –0.25", "→ −0.1 A": a minus typed as a dash is the value's sign, never a pause
        new = replace(parse_request(signed, vocabulary), text=signed)
    doubt = _DOUBT_THEN_A_VALUE.match(new.text)
    if doubt is not None and _ONLY_A_VALUE.match(doubt["rest"]):
        # "hmm, isn't that too much? 0.45 then": the question answered by the value after it
        said = doubt["rest"]
        new = replace(parse_request(said, vocabulary), text=said)
    same_but = _SAME_BUT.match(new.text)
    if same_but is not None and not _PLANE_WORD_ONLY.match(same_but["rest"]):
        # "same but 0.3" after a change: that change with 0.3; "same but yesterday": then
        said = same_but["rest"]
        new = replace(parse_request(said, vocabulary), text=said)
    if len(previous.targets) == 1 and _THAT_ONE.search(new.text):
        # "that one to 121.5" after "read QF 21": the one device asked before
        said = _THAT_ONE.sub("it", new.text)
        new = replace(parse_request(said, vocabulary), text=said)
    timed_as_before = _SAME_TIME.sub("", new.text)
    if timed_as_before != new.text and timed_as_before.strip(" ,.?!"):
        # "and the horizontal one at the same time": the time asked before is kept
        new = replace(parse_request(timed_as_before, vocabulary), text=timed_as_before)
    remark = _REMARK_AFTER.search(new.text)
    if remark is not None and remark.start() > 0:
        # "no, 18 mm, I misread the request": the remark about the mistake is no request
        new = replace(parse_request(new.text[: remark.start()], vocabulary), text=new.text)
    corrected = correction_of(previous, new, vocabulary, follow_up)
    if corrected is not None:
        # "wrong one, I meant HCM 14", "you read the wrong gauges, I wanted sector 8"
        return corrected
    if previous.changes and _LIMITS_OF_THAT.search(new.text) and previous.quantity is not None:
        # "wait, is that even inside the limits?" after "HCM 4 to 0.5 A": the write policy's
        # answer for that change (nothing is written)
        value = previous.quantity
        if value.kind == "absolute" and value.value is not None:
            unit = f" {value.unit}" if value.unit else ""
            said = (
                f"{' and '.join(previous.targets)} at {as_typed(value.value)}{unit}: within limits?"
            )
            again = parse_request(said, vocabulary)
            if again.intent == "knowledge":
                return replace(again, text=new.text)
    kind = _ANOTHER_KIND.match(new.text)
    if kind and previous.intent == "knowledge":
        # "and a BPM?" after "what is a DCCT?": the same question of another kind of device
        again = parse_request(f"what is {kind['kind']}?", vocabulary)
        return replace(again, text=new.text) if again.intent == "knowledge" else None
    if previous.changes and _ASSENT.match(new.text):
        # "yes, go ahead" after a change: that change again, to approve
        return replace(previous, text=new.text)
    named_before = _DEVICE_JOINED.findall(previous.canonical) if previous.changes else []
    named_now = _DEVICE_JOINED.findall(new.canonical)
    if (
        new.quantity is None
        and (new.changes or new.verb is None)
        and _SAID_INSTEAD.search(new.text)
        and named_now != named_before
        and len(named_now) == len(named_before) >= 1
        and len(set(named_before)) == len(named_before)
    ):
        # "make it HCM 5 and VCM 5 instead" after "Set HCM 4 to 0.2 A and VCM 4 to -0.1 A":
        # each device in the place of the one named there, with its value
        canonical = re.sub(
            _DEVICE_JOINED,
            lambda m: named_now[named_before.index(m.group(0))],
            previous.canonical,
        )
        again = parse_request(canonical, vocabulary)
        if again.changes:
            return replace(again, text=new.text, refers_back=True)
    share = _A_SHARE_OF_THAT.match(new.text)
    earlier = previous.quantity
    if (
        share
        and previous.changes
        and earlier is not None
        and earlier.kind in ("relative", "percent")
        and earlier.value
    ):
        # "too much, half of that" after "increase the RF frequency by 1 kHz": by 0.5 kHz
        factor = _SHARES[share["share"].lower()]
        said = " and ".join(previous.targets)
        return _written(previous, new, replace(earlier, value=earlier.value * factor), said)
    vaguer = _A_BIT_MORE.match(new.text)
    if vaguer and previous.changes and previous.targets:
        # "hmm, maybe a bit lower than that?" after "put QD 22 at 94.5 A": QD 22, how much
        # lower is asked
        said = f"make {' and '.join(previous.targets)} a bit {vaguer['cmp'].lower()}"
        again = parse_request(said, vocabulary)
        if again.changes:
            return replace(again, text=new.text, refers_back=True)
    relative = _RELATIVE_TO_IT.search(new.text) if new.changes else None
    if relative and not previous.changes and len(previous.targets) == 1:
        # "put ID 7 3 mm above that" after "ID 5 gap?": above the ID 5 gap
        said = (
            new.text[: relative.start("it")] + previous.targets[0] + new.text[relative.end("it") :]
        )
        again = parse_request(said, vocabulary)
        if again.intent == "copy":
            return replace(again, text=new.text, refers_back=True)
    # a device's name in what was asked ("HCM 4" of "is 0.3 A too much for HCM 4?")
    device = NAMED_DEVICE.search(previous.text) if previous.intent == "knowledge" else None
    if device and new.changes and re.search(r"\b(?:it|that|this)\b", new.text, re.I):
        # "fine, set it to 0.3 then" after "is 0.3 A too much for HCM 4?": HCM 4 is "it"
        said = re.sub(r"\b(?:it|that|this)\b", device.group(0), new.text, count=1, flags=re.I)
        again = parse_request(said, vocabulary)
        if again.changes and again.targets:
            return replace(again, text=new.text, refers_back=True)
    if previous.intent == "knowledge" and _ASSENT.match(new.text):
        # "ok, do it then" after "is it ok if I raise the RF voltage to 2.7 MV?": the change
        # asked about, now asked for (the question answered by the one who asked it)
        said = proposal_asked_for(f"{previous.text.rstrip(' ?.!')}? yes, do it")
        again = parse_request(said, vocabulary) if said != previous.text else None
        if again is not None and again.changes:
            return replace(again, text=new.text, refers_back=True)
    way = _ONLY_A_WAY.match(new.text)
    if (
        way
        and previous.changes
        and previous.quantity is not None
        and previous.quantity.kind == "comparative"
        and re.search(r"\d", previous.quantity.words)
    ):
        # "up" after "change QF 41 by 0.5 A" asked which way: that amount, that way
        word = "decrease" if _direction_said(new.text) < 0 else "increase"
        said = f"{word} {' and '.join(previous.targets)} by {previous.quantity.words.strip()}"
        return replace(parse_request(said, vocabulary), text=new.text)
    called_off = change_called_off(previous, new, vocabulary)
    if called_off is not None:  # "no wait, dont touch the corrector" after a change
        return called_off
    limits_of_it = _LIMITS_OF_IT.search(new.text) if new.intent == "knowledge" else None
    if limits_of_it and previous.targets and asks_for_limits(new.text):
        # "is 0.3 A too much for it?" after "HCM 4 readback?": the limits of that device
        device = _READBACK_SAID.sub("", previous.targets[0]).strip() or previous.targets[0]
        said = new.text[: limits_of_it.start("it")] + device + new.text[limits_of_it.end("it") :]
        return replace(parse_request(said, vocabulary), text=new.text, refers_back=True)
    if new.intent in ("conversation", "knowledge") or not previous.targets:
        return None
    if (
        new.time is not None
        and previous.intent == "restore"
        and _no_targets(new)
        and new.quantity is None
        and new.time.kind != "range"
    ):
        # "make it 3 hours ago" after "put QF11 back to where it was 2 hours ago": that moment
        return _with_new_time(previous, replace(new, text=new.text))
    that_moment = _THAT_MOMENT_SAID.search(new.text)
    if that_moment and previous.time is not None and previous.time.kind == "moment":
        # "and the lifetime at that moment?" after "the beam current at 9:40 yesterday"
        said = _THAT_MOMENT_SAID.sub(f" {previous.time.canonical} ", new.text)
        said = re.sub(r"^\W*(?:and|also|what\s+about|how\s+about)\b\W*", "", said, flags=re.I)
        again = parse_request(said, vocabulary)
        if again.targets and again.time is not None and not again.changes:
            return replace(again, text=new.text, refers_back=True)
    if (
        _BOTH_TOGETHER.match(new.text)
        and vocabulary is not None
        and not previous.changes
        and len(previous.targets) == 1
    ):
        # "could both of them be on one chart?" after a plot of the horizontal tune: both
        # planes of what was shown
        target = previous.targets[0]
        other = _in_plane(target, "vertical", vocabulary)
        if other == target:
            other = _in_plane(target, "horizontal", vocabulary)
        if other != target:
            canonical = previous.canonical.replace(target, f"{target} and {other}", 1)
            return replace(previous, text=new.text, targets=(target, other), canonical=canonical)
    that = _STATISTIC_OF_THAT.match(new.canonical)
    if that and not previous.changes and (new.time or previous.time) is not None:
        # "10-min average of that?" after "IG07 pressure" ("min" there is no minimum)
        when = (new.time or previous.time).canonical  # type: ignore[union-attr]
        said = f"{that['stat']} of {' and '.join(previous.targets)} {when}"
        again = parse_request(said, vocabulary)
        if again.targets:
            return replace(again, text=new.text, refers_back=True)
    slots = slots_replaced(previous, new, vocabulary)
    if slots is not None:  # "max instead", "sector 8", "15 minutes later?", "the RB value"
        return slots
    for form in _NAMING_NO_CHANNEL:
        # "→ 94 then", "half amp down", "what was it at midnight?" after a read
        merged = form(previous, new, vocabulary)
        if merged is not None:
            return merged
    before = " and ".join(t for t in previous.targets)
    old_phrase = _phrase_in(previous.canonical, previous.targets)
    span = _ONLY_A_SPAN.match(new.canonical) or _ONLY_A_SPAN.match(new.text)
    if span and not previous.changes and previous.time is not None:
        said = f"over the last {span['count']} {span['unit']}"
        time = new.time or parse_request(said, vocabulary).time
        if time is not None:  # "make it the last 6 hours" after a plot of the last hour
            return _with_new_time(previous, replace(new, time=time))
    value = _ONLY_A_VALUE.match(new.text) or _ONLY_A_VALUE.match(new.canonical)
    quantity = new.quantity
    earlier = previous.quantity
    if (
        _SIGN_FLIP.match(new.canonical)
        and previous.changes
        and earlier is not None
        and earlier.value is not None
    ):
        # "make it minus" after "set HCM30 to 0.25 A": the same amount, the other sign
        return _written(previous, new, replace(earlier, value=-earlier.value), before)
    scaled = _STEP_SCALED.match(new.text)
    if (
        scaled
        and previous.changes
        and earlier is not None
        and earlier.value is not None
        and earlier.kind in ("relative", "percent")
    ):
        # "double the step" after "raise HCM 4 by 0.1 A": by 0.2 A, the same way
        factor = _STEP_FACTORS[scaled["how"].lower()]
        return _written(previous, new, replace(earlier, value=earlier.value * factor), before)
    if value and quantity is None and previous.changes:
        # "do 19 instead": a number the parse took for a device's, alone: the value
        quantity = parse_request(f"set x to {value['amount']} {value['unit'] or ''}").quantity
    if value and quantity is not None and quantity.kind == "absolute":
        quantity = _with_typed_sign(quantity, value["amount"])  # "no -0.25": minus, as typed
    if value and quantity is not None and previous.changes:
        earlier = previous.quantity
        unitless = quantity.kind == "absolute" and quantity.unit is None
        if re.search(r"\b(?:not|rather\s+than|instead\s+of)\s+[-+.\d]", value.group(0), re.I):
            # "0.25, not 0.3": the value said first, not the one it replaces
            quantity = parse_request(f"set x to {value['amount']} {value['unit'] or ''}").quantity
            if quantity is None:
                return None
            unitless = quantity.kind == "absolute" and quantity.unit is None
        if unitless and earlier is not None and earlier.kind == "absolute":
            quantity = replace(quantity, unit=earlier.unit)  # "0.55 then" after "0.6 A": in A
        changed_by = earlier is not None and earlier.kind in ("relative", "percent")
        vague = earlier is None or (earlier.kind == "comparative" and earlier.value is None)
        way = _direction_said(previous.text) if vague else 0
        said_to = re.search(r"\bto\b", new.text, re.I)
        unsigned = not re.match(r"\s*[-+]", value["amount"])
        if value["way"] and quantity.kind == "relative" and quantity.value and unsigned:
            # "no, up by 0.5" after "lower QF 3 by 1 A": the way said now
            said_way = 1 if value["way"].lower() in ("up", "higher") else -1
            quantity = replace(quantity, value=said_way * abs(quantity.value))
        elif way and value["by"] and quantity.kind == "relative" and quantity.value and unsigned:
            quantity = replace(quantity, value=way * abs(quantity.value))  # its way, said
        elif changed_by and quantity.kind == "relative" and quantity.value and unsigned:
            # "no, by 0.05" after "lower the RF voltage by 0.1 MV": by 0.05 MV, down still
            sign = -1 if (earlier.value or 0) < 0 else 1
            quantity = replace(
                quantity, value=sign * abs(quantity.value), unit=quantity.unit or earlier.unit
            )
        if (changed_by or way) and quantity.kind == "absolute" and not said_to:
            # "make it 0.5" after "increase QF3 by 1 A": the change's size, in its direction
            # (never QF3 set to 0.5); "0.4 A" after "nudge QF 27 up" (asked how much): up by
            # 0.4 A; "make it -0.2" after "+0.2 A": the sign typed wins
            if changed_by:
                way = -1 if (earlier.value or 0) < 0 else 1
            signed = re.match(r"\s*[-+]", value["amount"])
            amount = quantity.value or 0
            quantity = replace(
                quantity,
                kind=earlier.kind if changed_by else "relative",
                value=amount if signed else way * abs(amount),
                unit=quantity.unit or (earlier.unit if changed_by else None),
            )
        return _written(previous, new, quantity, before)
    pronoun = re.search(r"\b(?:it|that|them|those|these|this)\b", new.canonical, re.I)
    if pronoun and (new.verb or new.quantity) and not _names_a_device(new):
        targets = previous.targets
        if new.changes:
            # "bring it up a bit" after "what's the QF25 readback": the device's setting
            # changes, never what it reads back
            old_phrase = _READBACK_SAID.sub("", old_phrase).strip() or old_phrase
            targets = tuple(_READBACK_SAID.sub("", t).strip() or t for t in targets)
        canonical = new.canonical[: pronoun.start()] + old_phrase + new.canonical[pronoun.end() :]
        time = new.time
        if time is None and previous.time is not None and not new.changes:
            # "plot that" after "tunes over the last hour": the same channels over that time
            canonical = f"{canonical.rstrip(' ?.!')} {previous.time.canonical}"
            time = previous.time
        return replace(new, targets=targets, canonical=canonical, refers_back=True, time=time)
    roles = _roles_only(new)
    if roles and previous.changes:  # "what's its readback now?" after "set VCM14 to 0.5 A"
        targets = tuple(
            " ".join([*(w for w in t.split() if w.lower() not in ROLE_WORDS), *roles])
            for t in previous.targets
        )
        return replace(
            previous,
            text=new.text,
            intent="read",
            targets=targets,
            quantity=None,
            reference=None,
            state=None,
            verb=None,
            canonical="read " + " and ".join(targets),
            reads_first=False,
        )
    if roles and not previous.changes:  # "and its setpoint?" after "HCM 3 readback"
        targets = tuple(
            " ".join([*(w for w in t.split() if w.lower() not in ROLE_WORDS), *roles])
            for t in previous.targets
        )
        canonical = previous.canonical.replace(old_phrase, " and ".join(targets), 1)
        if old_phrase not in previous.canonical:
            when = f" {previous.time.canonical}" if previous.time else ""
            canonical = " and ".join(targets) + when
        return replace(previous, text=new.text, targets=targets, canonical=canonical)
    if new.time is not None and not new.changes and not previous.changes and _no_targets(new):
        if re.search(r"\bsame\b", new.text, re.I):
            return None  # "the same for the last 10 minutes": the planner reuses the channels
        if new.intent == "compare" or _VERSUS_LEAD.match(new.text):
            # "vs 07:00?", "higher or lower than at 7?" after a read: now against that moment
            said = f"{' and '.join(previous.targets)} now vs {new.time.canonical}"
            return replace(parse_request(said, vocabulary), text=new.text)
        return _with_new_time(previous, new)
    if (
        _THAT_WITH_NOW.match(new.text)
        and not previous.changes
        and previous.time is not None
        and previous.time.kind == "moment"
    ):
        # "and how does that compare with now?" after "the current at 04:00": now vs then
        said = f"{' and '.join(previous.targets)} now vs {previous.time.canonical}"
        again = parse_request(said, vocabulary)
        if again.targets:
            return replace(again, text=new.text, refers_back=True)
    hour = _AN_HOUR_ONLY.match(new.text)
    if hour and not previous.changes and previous.time is not None:
        # "and at nine?" after "the tune at seven this morning": that hour, that day
        number = read_number(hour["hour"] or hour["hour2"])
        said_then = re.search(r"\b\d{1,2}:\d{2}\b", previous.time.canonical)
        if number is not None and said_then and 0 <= number < 24 and number == int(number):
            minute = hour["minute"] or hour["minute2"] or "00"
            when = previous.time.canonical.replace(
                said_then.group(0), f"{int(number):02d}:{minute}", 1
            )
            again = parse_request(f"what was {' and '.join(previous.targets)} {when}", vocabulary)
            if again.targets and again.time is not None:
                return replace(again, text=new.text, refers_back=True)
    if hour and not previous.changes and previous.time is None and previous.intent == "read":
        # "and at one?" after "bpm 40 x": the same channels at that hour (which one of the
        # day is read with the clock, when the request is planned: ``time_words``)
        minute = hour["minute"] or hour["minute2"]
        said = f"what was {' and '.join(previous.targets)} at {hour['hour'] or hour['hour2']}" + (
            f":{minute}" if minute else ""
        )
        again = parse_request(said, vocabulary)
        if again.targets and again.time is not None:
            return replace(again, text=new.text, canonical=said, refers_back=True)
    if _NOW_ONLY.match(new.text) and not previous.changes and previous.time is not None:
        # "and now?" after "what was the lifetime 3 hours ago": the same channels now
        said = f"what is {' and '.join(previous.targets)} now"
        return replace(parse_request(said, vocabulary), text=new.text)
    statistic = _STATISTIC_OF_IT.match(new.text) or _STATISTIC_OF_THAT.match(new.canonical)
    if statistic and not previous.changes and (previous.time or new.time) is not None:
        # "and its mean over that window?" after a plot of the last 4 hours
        when = new.time.canonical if new.time is not None else previous.time.canonical  # type: ignore[union-attr]
        said = f"{statistic['stat']} of {' and '.join(previous.targets)} {when}"
        again = parse_request(said, vocabulary)
        if again.targets:
            return replace(again, text=new.text)
    restored = _RESTORE_ONLY.match(new.canonical)
    if restored and not previous.changes:
        # "restore → 06:00 value" after a plot of QF07; "put it back to that" after "what was
        # QF09 at 14:00": the previous channels' value from that moment
        when = restored["when"].lower()
        said_then = when in _THAT_MOMENT and previous.time is not None
        moment = new.time or (
            previous.time if said_then and previous.time.kind == "moment" else None
        )
        if moment is None and re.match(r"\d{1,2}(?::\d{2})?\b", when):
            moment = parse_request(f"what was it at {when}", vocabulary).time  # "→ 06:00 value"
        if moment is not None:
            said = f"restore {' and '.join(previous.targets)} to its value from {moment.canonical}"
            again = parse_request(said, vocabulary)
            if again.intent == "restore":
                return replace(again, text=new.text)
    added = _ADD_AN_ITEM.match(new.text)
    if added and previous.targets and not previous.changes and not new.changes:
        # "add IG 10" after "plot IG 9 last 6 h": both, on the same plot and window
        said = f"same for {' and '.join(previous.targets)} and {added['what']}"
        return follow_up(previous, parse_request(said, vocabulary), vocabulary)
    others = _THE_OTHER_KIND.match(new.text)
    if others and previous.targets and not previous.changes:
        # "and the other sector 7 gauge?" after "read IG13": those of that kind but IG13
        said = f"same for the {others['kind']} except {' and '.join(previous.targets)}"
        return follow_up(previous, parse_request(said, vocabulary), vocabulary)
    other = _OTHER_ONE.match(new.text)
    if other and vocabulary is not None and not previous.changes:
        # "now the other plane" after a plot of the horizontal orbit: the vertical one
        said = " ".join(previous.targets).lower()
        plane = (
            "vertical"
            if re.search(r"\b(?:horizontal|horiz|x|hcm\w*)\b", said)
            else "horizontal"
            if re.search(r"\b(?:vertical|vert|y|vcm\w*)\b", said)
            else None
        )
        if plane is not None:
            return follow_up(
                previous, parse_request(f"now the {plane} one", vocabulary), vocabulary
            )
    planed = _PLANE_OF_A_CHANGE.match(new.text)
    # "and the vertical one?" after a change asks about it; "... too", "... to -0.2" change it
    changed = planed and (planed["value"] or (planed["too"] and "?" not in new.text))
    if changed and previous.changes and vocabulary is not None:
        # "and the horizontal one to -0.2" after "set VCM 10 to 0.2 A": HCM 10 to -0.2
        swapped = tuple(_in_plane(t, planed["plane"], vocabulary) for t in previous.targets)
        if swapped != previous.targets:
            if planed["value"]:
                verb = previous.verb or "set"  # "raise ... by 0.1 A", then "... by 0.05 A"
                said = f"{verb} {' and '.join(swapped)} {planed['value']}"
                again = parse_request(said, vocabulary)
            else:
                canonical = previous.canonical
                for old, new_target in zip(previous.targets, swapped, strict=True):
                    canonical = canonical.replace(old, new_target, 1)
                again = parse_request(canonical, vocabulary)
            if again.changes and again.targets:
                return replace(again, text=new.text)
    plane_only = _PLANE_ONLY.match(new.canonical)
    timed = None
    if plane_only is None and new.time is not None:
        # "and the vertical one yesterday at 22:00?": the other plane, at that time
        plane_only = _PLANE_ONLY.match(new.canonical.replace(new.time.canonical, " "))
        timed = new.time
    if plane_only and vocabulary is not None and not previous.changes:
        chosen = _one_of_both(previous, plane_only["plane"], new, timed)
        if chosen is not None:
            return chosen
        # "and the vertical one?" after "what's the horizontal tune?"
        swapped = tuple(_in_plane(t, plane_only["plane"], vocabulary) for t in previous.targets)
        if swapped != previous.targets:
            canonical = previous.canonical
            # "add the vertical one" after a plot of the horizontal tune: both planes; "the
            # vertical one as well" asks the same of it (the other is answered already)
            for old, new_target in zip(previous.targets, swapped, strict=True):
                replaced = f"{old} and {new_target}" if plane_only["add"] else new_target
                canonical = canonical.replace(old, replaced, 1)
            if plane_only["add"]:
                swapped = (*previous.targets, *swapped)
            merged = replace(previous, text=new.text, targets=swapped, canonical=canonical)
            return _with_new_time(merged, replace(new, time=timed)) if timed else merged
    plane = _OTHER_PLANE.match(new.canonical)
    if plane and vocabulary is not None:
        # "same but vertical" after "set HCM22 to -0.4 A": VCM22 to -0.4 A
        swapped = tuple(_in_plane(t, plane["plane"], vocabulary) for t in previous.targets)
        if swapped != previous.targets:
            canonical = previous.canonical
            for old, new_target in zip(previous.targets, swapped, strict=True):
                canonical = canonical.replace(old, new_target, 1)
            return replace(previous, text=new.text, targets=swapped, canonical=canonical)
    # "Not the ID 7, the ID 9 I wanted.", "no, not QF3 - QF5": the other target, all else kept
    plainly = _same_for_said_plainly(new.text)
    plainly = _FOR_INSTEAD.sub(r"same for \g<rest>", plainly)  # "for the lifetime instead"
    plainly = _ITEM_TOO.sub(r"and \g<rest>", plainly)  # "Qy too" after "Qx trend 2h"
    same = (
        (_SAME_FOR.match(plainly) if _SAME_PERIOD.search(new.text) else None)
        or _SAME_FOR.match(new.canonical)
        or _NOT_THAT_ONE.match(new.canonical)
        or _SAME_FOR.match(plainly)
        # "only IG 4" after the sector 2 vacuum, "both tunes" after the vertical one, "all of
        # them, VCM 5 through VCM 8" after a change of VCM 5: the targets narrowed or widened
        or (_NARROWED.match(plainly) if new.verb is None else None)
    )
    if same and new.quantity is None and (not new.changes or previous.changes):
        if re.match(r"(?:that|it|this|them|those)\b", same.group("rest"), re.I):
            return None  # "do that again": the previous request itself, not a new target
        # "same → s4": a sector said short
        rest = re.sub(
            r"^s(?:ec(?:tor)?)?\.?\s*(\d{1,2})$", r"sector \1", same.group("rest"), flags=re.I
        )
        rest = re.sub(r"[,\s]*\b(?:please|pls|thanks)\b\W*$", "", rest, flags=re.I)
        targets = parse_request(rest, vocabulary).targets
        if not targets:
            return None  # "the same for the last 10 minutes": a new time, the same channels
        old_roles = [w for w in old_phrase.split() if w.lower() in ROLE_WORDS]
        kept = [w for w in old_phrase.split() if w.lower() in ROLE_WORDS | _PLANE_WORDS]
        said_roles = [w for w in rest.split() if w.lower() in ROLE_WORDS | _PLANE_WORDS]
        if kept and not said_roles and _DEVICE_ALONE.fullmatch(rest.strip()):
            # "and BPM 34?" after "what's the BPM 33 y reading": BPM34 y
            rest = f"{rest} {' '.join(kept)}"
            targets = tuple(f"{t} {' '.join(kept)}" for t in targets)
        elif old_roles and not any(w.lower() in ROLE_WORDS for w in rest.split()):
            # "and qd06?" after "what's the QF05 setpoint": QD06's setpoint
            rest = f"{rest} {' '.join(old_roles)}"
            targets = tuple(f"{t} {' '.join(old_roles)}" for t in targets)
        place = _PLACE_ONLY.fullmatch(" ".join(targets))
        old_place = _PLACE_IN.search(old_phrase) if place else None
        if place and old_place:  # "what about sector 5?" after "vacuum in sector 4"
            rest = old_phrase[: old_place.start()] + place.group(0) + old_phrase[old_place.end() :]
            targets = (rest,)
        if previous.intent == "copy" and len(targets) == 1 and len(previous.targets) >= 2:
            # "and QF 9 too" after "copy QF 5 to QF 7": the same source, another target
            canonical = previous.canonical.replace(previous.targets[0], targets[0], 1)
            targets = (targets[0], *previous.targets[1:])
            return replace(previous, text=new.text, targets=targets, canonical=canonical)
        if old_phrase and old_phrase in previous.canonical:
            canonical = previous.canonical.replace(old_phrase, rest, 1)
        else:
            canonical = f"{previous.canonical} for {rest}"
        return replace(previous, text=new.text, targets=targets, canonical=canonical)
    return None


# a minus sign typed as U+2212, or as a dash written against the number ("–0.25")
_MINUS_TYPED = re.compile(
    # "no –0.25", "→ −0.1 A", "I meant minus 0.8 A": a minus, typed or said, before digits
    r"−(?=\s*\.?\d)|(?<![\w.])[–—](?=\.?\d)|\b(?:minus|negative)\s+(?=\.?\d)",
    re.I,
)
_NAMING_NO_CHANNEL = (
    value_for_what_was_read,
    change_of_what_was_read,
    copy_of_what_was_read,
    moment_before_what_was_read,
    what_was_read_over_time,
    one_at_another_place,
    new_offset_of_a_copy,
    the_change_for_another_device,
)
# "could you do the same for the lifetime, over the same period?": the courtesy and the
# period kept (the previous request's time) said no more than "the same for the lifetime"
_COURTESY_LEAD = re.compile(
    r"^\W*(?:(?:thanks?|thank\s+you|cheers|great|perfect|and|ok(?:ay)?|now|then)\W+)*"
    r"(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:(?:show|give)\s+me\s+)?|"
    # "Thank you. Could I see the same thing for the beam current?"
    r"(?:could|can|may)\s+i\s+(?:please\s+)?(?:see|get|have)\s+|i'?d\s+like\s+(?:to\s+see\s+)?|"
    r"please\s+)",
    re.I,
)
_THAT_MOMENT_SAID = re.compile(
    r"\b(?:at\s+)?(?:that|the\s+same)\s+(?:moment|time|instant|point(?:\s+in\s+time)?)\b", re.I
)
_PLANE_WORDS = frozenset({"x", "y", "horizontal", "vertical"})
_DEVICE_ALONE = re.compile(r"(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}", re.I)
_FOR_INSTEAD = re.compile(
    r"^\W*(?:and\s+)?for\s+(?P<rest>.+?)\s+(?:instead|too|as\s+well)\W*$", re.I
)
_ITEM_TOO = re.compile(
    r"^\W*(?!(?:and|also|same|now|what|how)\b)(?P<rest>[^,;?!]+?)\s+(?:too|as\s+well|also)\W*$",
    re.I,
)
_SAME_PERIOD = re.compile(
    r",?\s+(?:(?:over|for|in|during|across)\s+)?(?:the\s+)?same\s+"
    r"(?:period|time(?:\s+(?:frame|span|range))?|window|range|interval|span|timeframe|hours?)\b",
    re.I,
)


_STEP_SCALED = re.compile(
    r"^\W*(?:(?:no|ok(?:ay)?|actually|then|and|maybe|let'?s)\W+)*(?P<how>double|halve|triple|"
    r"twice|half)\s+(?:the\s+|that\s+)?(?:step|amount|change|as\s+much)"
    r"(?:\s+(?:then|please|instead))?\W*$",
    re.I,
)
_STEP_FACTORS = {"double": 2.0, "twice": 2.0, "triple": 3.0, "halve": 0.5, "half": 0.5}
_NARROWED = re.compile(
    r"^\W*(?:(?:no|ok(?:ay)?|and|now|then|actually)\W+)*(?:only|just|all\s+of\s+them\W+|"
    r"(?=both\s))\s*(?P<rest>(?=\S)(?!the\s+(?:value|number|plot|reading)s?\b).+?)\W*$",
    re.I,
)


def _same_for_said_plainly(text: str) -> str:
    plain = _SAME_PERIOD.sub("", _COURTESY_LEAD.sub("", text, count=1))
    return re.sub(r"[,\s]+please\b", "", plain, flags=re.I).strip()


_OTHER_PLANE = re.compile(
    # "now the same sector, but in Y, please": the place kept, the plane swapped
    r"^\W*(?:(?:and|now|ok(?:ay)?|then)\W+)*(?:the\s+)?same\s+(?:(?:thing|sector|cell|place|"
    r"straight|arc|devices?|ones?)\s*,?\s+)?(?:but\s+|for\s+(?:the\s+)?|"
    r"with\s+the\s+|in\s+the\s+)?(?:in\s+)?(?P<plane>vertical|horizontal|vert|horiz|x|y)"
    r"(?:\s+(?:plane|one|side|please))?(?:,?\s*please)?\W*$",
    re.I,
)
_PLANES = {"vertical": ("h", "v"), "vert": ("h", "v"), "y": ("h", "v")}
#: "yes, go ahead", "ok do it": the change just proposed, agreed to
_ASSENT = re.compile(
    r"^\W*(?:(?:yes|yep|yeah|ok(?:ay)?|sure|fine|confirm(?:ed)?|go\s+ahead|do\s+it|proceed|"
    r"please\s+do|send\s+it|apply\s+it|approved?|go|that'?s\s+(?:fine|right|ok))"
    r"(?:[\s,.!]+|$))+(?:please|now|then|thanks)?\W*$",
    re.I,
)
# "and the vertical one?", "what about horizontal?": the other plane of what was read
_BOTH_TOGETHER = re.compile(
    r"^\W*(?:(?:and|now|ok(?:ay)?|then|please)\W+)*(?:(?:could|can|would)\s+(?:you\s+)?)?"
    r"(?:(?:put|show|plot|have|get)\s+)?both(?:\s+of\s+them|\s+planes)?\s+(?:be\s+)?"
    r"(?:on|in)\s+(?:one|the\s+same|a\s+single)\s+(?:chart|plot|graph|figure)\b[^?]*\??\s*$"
    r"|^\W*(?:and\s+)?both\s+planes\W*$",
    re.I,
)
_PLANE_ONLY = re.compile(
    r"^\W*(?:(?:and|now|ok(?:ay)?|then|what\s+about|how\s+about|(?P<add>add|plus|with|also))\W+)*"
    # "same for the verticals" after "read HCM 10 to HCM 12": their vertical correctors
    r"(?:(?:do\s+)?(?:the\s+)?same\s+(?:thing\s+)?(?:for|with)\s+)?"
    # "plot only the vertical one, last 24 h" after a trend of both tunes
    r"(?:(?:plot|show|trend|graph|read)\s+)?(?:(?:only|just)\s+)?"
    r"(?:the\s+)?(?:in\s+)?(?P<plane>vertical|horizontal|vert|horiz|x|y)(?:s\b)?"
    r"(?:\s+(?:one|ones|plane|side))?(?:\s+(?P<too>too|as\s+well|also))?(?:\W+(?:please|pls|plz))?"
    r"\W*$",
    re.I,
)
#: "and the other sector 7 gauge?", "the other two correctors": the kind asked before, less
#: what was asked (never "the other one", "the other plane", "the other way")
_THE_OTHER_KIND = re.compile(
    r"^\W*(?:(?:and|now|then|what\s+about|how\s+about|also)\W+)*(?:the\s+)?other\s+"
    r"(?:(?:two|three|four|five|\d)\s+)?"
    r"(?P<kind>(?!(?:one|ones|plane|side|way|direction|half|end)\b)[a-z][\w\s-]{1,40}?)"
    r"(?:\s+(?:too|as\s+well|please))?\W*$",
    re.I,
)
#: "add IG 10", "also include the current", "put the lifetime on it too": another item for
#: what was asked before
_ADD_AN_ITEM = re.compile(
    r"^\W*(?:(?:and|also|please|now|then|ok(?:ay)?)\W+)*(?:add|include|throw\s+in|put)\s+"
    r"(?P<what>(?!(?:it|them|that|this|one|a|an)\b)[^?!.]+?)"
    r"(?:\s+(?:too|as\s+well|also|to\s+(?:it|that|this|the\s+(?:plot|chart|graph|list|table))|"
    r"on\s+(?:it|the\s+(?:plot|chart|graph))|in\s+(?:it|there)|please|pls))*\W*$",
    re.I,
)
#: "and the horizontal one to -0.2", "the vertical one too" after a change: the same change
#: (or the value said) of the device in the other plane
_PLANE_OF_A_CHANGE = re.compile(
    r"^\W*(?:(?:and|now|then|also|same\s+for)\W+)*(?:the\s+)?(?P<plane>horizontal|vertical|horiz|"
    r"vert)(?:\s+(?:one|corrector|plane|side))?(?:\s+(?P<too>too|as\s+well|also))?"
    r"(?:\s+(?P<value>(?:to|at|by)\s+[-+−]?\.?\d[^?!]*?))?(?:\s+(?:please|pls))?\W*$",
    re.I,
)
#: "same but 0.3", "the same but yesterday", "same again but for QF 5": what is said after it
#: replaces its slot of the request before
_SAME_BUT = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|no|yes|and|then)\W+)*(?:the\s+)?same(?:\s+(?:again|thing|one))?\s*,?\s+"
    r"(?:but|only)\s+(?P<rest>\S.*)$",
    re.I,
)
_PLANE_WORD_ONLY = re.compile(
    r"^\W*(?:the\s+)?(?:other\s+)?(?:vertical|horizontal|vert|horiz|x|y)(?:\s+(?:one|plane))?\W*$",
    re.I,
)
#: "that one", "this one", "the same one": the one device of the request before
_THAT_ONE = re.compile(r"\b(?:that|this|the\s+same)\s+one\b(?!\s+(?:of|in|at|for)\b)", re.I)
#: "at the same time", "for the same period": the time of the request before
_SAME_TIME = re.compile(
    r",?\s*\b(?:at|for|over|in)\s+the\s+same\s+(?:time(?:\s+(?:span|window|range|period|frame))?|"
    r"moment|period|window|interval|span|range|timeframe)\b",
    re.I,
)
_DEVICE_JOINED = re.compile(r"\b[A-Z]{1,5}\d{1,3}\b(?![:.]\d)")
_SAID_INSTEAD = re.compile(
    r"\b(?:instead|rather)\b|^\W*(?:no,?\s+)?(?:make\s+(?:it|that|them)|do)\s+", re.I
)
_REMARK_AFTER = re.compile(
    r"[,;.]\s*(?:i\s+(?:misread|mistyped|misspoke|miscounted|mixed\s+(?:them|it)\s+up)[^,;.!?]*|"
    r"my\s+(?:bad|mistake|fault)|(?:sorry|oops)(?:\s+about\s+that)?|typo)\W*$",
    re.I,
)
_SHARES = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25, "twice": 2.0, "double": 2.0}
_A_SHARE_OF_THAT = re.compile(
    r"^\W*(?:(?:too\s+(?:much|big|large|far)|that'?s\s+too\s+(?:much|big)|no|hmm+|ok(?:ay)?)\W+)*"
    r"(?:(?:make\s+it|do|just|only)\s+)?(?P<share>half|a\s+third|a\s+quarter|twice|double)\s+"
    r"(?:of\s+)?(?:that|it|this)(?:\s+(?:then|please|instead))?\W*$",
    re.I,
)
_A_BIT_MORE = re.compile(
    r"^\W*(?:(?:hmm+|ok(?:ay)?|no|maybe|perhaps|actually|then|and|or|not\s+(?:that|this)\s+"
    r"(?:value|one|much))\W+)*"
    r"(?:(?:make\s+(?:it|that)|go|just|rather)\s+)?(?:a\s+(?:bit|little|touch|tad|hair)|slightly|somewhat|"
    r"something)\s+"
    r"(?P<cmp>lower|higher|more|less|smaller|larger|bigger|wider|narrower|stronger|weaker)"
    r"(?:\s+than\s+(?:that|this|it))?(?:[\s,]+(?:then|please|instead|maybe|perhaps|i\s+guess|"
    r"i\s+think))*\W*$",
    re.I,
)
#: "3 mm above that", "0.1 A below it": another device's value, the one just read
_RELATIVE_TO_IT = re.compile(
    r"\b(?:above|below|over|under|(?:higher|lower|more|less|wider|narrower)\s+than)\s+"
    r"(?P<it>that|it|this)\b",
    re.I,
)
_OTHER_ONE = re.compile(
    r"^\W*(?:(?:and|now|ok(?:ay)?|then)\W+)*(?:the\s+)?other\s+(?:plane|one|side)(?:\s+please)?\W*$",
    re.I,
)
_ANOTHER_KIND = re.compile(
    r"^\W*(?:and|what\s+about|how\s+about|same\s+for)\s+(?P<kind>(?:a|an)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    r"\s*[?.!]*$",
    re.I,
)
_LIMITS_OF_THAT = re.compile(
    r"\b(?:is|was|would)\s+(?:that|it|this)\s+(?:even\s+|still\s+|really\s+)?(?:be\s+)?"
    r"(?:inside|within|in|outside|over|past|beyond)\s+(?:the\s+|its\s+)?limits?\b"
    r"|\b(?:is|was|would)\s+(?:that|it|this)\s+(?:even\s+)?(?:be\s+)?(?:allowed|permitted|ok(?:ay)?\s+"
    r"for\s+the\s+limits)\b",
    re.I,
)
_THAT_WITH_NOW = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:how\s+(?:does|do|did)\s+(?:that|it|this|they)\s+compare|"
    r"(?:is|was)\s+(?:that|it)\s+(?:different|higher|lower)|compared?|comparison|difference)"
    r"\s+(?:with|to|from|against|vs\.?)\s+(?:now|the\s+present|today|right\s+now|the\s+current\s+value)"
    r"\s*[?.!]*$",
    re.I,
)
_AN_HOUR_ONLY = re.compile(
    # "and at nine?", "what about 9 o'clock", "and 15:10?" (a bare number may name a device)
    r"^\W*(?:(?:and|so|ok(?:ay)?|then)\W+)?(?:what\s+about\s+|how\s+about\s+)?"
    rf"(?:at\s+(?P<hour>\d{{1,2}}|{SPELLED_NUMBER_PATTERN})(?::(?P<minute>[0-5]\d))?(?:\s*o'?clock)?"
    rf"|(?P<hour2>\d{{1,2}}|{SPELLED_NUMBER_PATTERN})(?::(?P<minute2>[0-5]\d)|\s*o'?clock))"
    r"\s*[?.!]*$",
    re.I,
)
_NOW_ONLY = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:what\s+about\s+|how\s+about\s+)?(?:now|right\s+now|currently|"
    r"at\s+the\s+moment|at\s+present)\s*[?.!]*$",
    re.I,
)
_STATISTIC_OF_IT = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?|now)\W+)?(?:what(?:'s|\s+is|\s+was)\s+)?(?:its|their|the)\s+"
    r"(?P<stat>mean|average|avg|max(?:imum)?|min(?:imum)?|std|standard\s+deviation|spread|rms|"
    r"peak[-\s]to[-\s]peak|drift|median)\b[^?]*[?.!]*$",
    re.I,
)
# "10-min average of that?" after "IG07 pressure": that channel's statistic over that time
_STATISTIC_OF_THAT = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?|now)\W+)?(?:what(?:'s|\s+is|\s+was)\s+)?(?:the\s+)?"
    r"(?P<stat>mean|average|avg|max(?:imum)?|min(?:imum)?|std|standard\s+deviation|spread|rms|"
    r"peak[-\s]to[-\s]peak|drift|median)\s+of\s+(?:that|it|this|them|those)\b[^?]*[?.!]*$",
    re.I,
)
_VERSUS_LEAD = re.compile(r"^\W*(?:and\s+)?(?:vs\.?|versus|compared|against)\b", re.I)
# "restore → 06:00 value", "put it back to that", "revert them to 9:00"
_RESTORE_ONLY = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|then|now|and|so|please)\W+)*(?:restore|revert|roll\s+back|"
    r"(?:put|set|bring|take)\s+(?:it|that|them|those)\s+back)(?:\s+(?:it|that|them|those))?"
    r"(?:\s+(?:to|→|->))?\s*(?P<when>.*?)(?:\s+(?:value|values|reading|setting))?[\s?.!]*$",
    re.I,
)
_THAT_MOMENT = frozenset(
    {"that", "that value", "then", "that one", "it", "what it was", "what it was then", ""}
)


_BOTH_OF = re.compile(r"\b(?:of\s+)?(?:both|all)\s+(?:the\s+)?(?P<noun>[a-z]+?)s\b", re.I)


def _one_of_both(
    previous: Request, plane: str, new: Request, timed: TimeSlot | None
) -> Request | None:
    """ "plot only the vertical one, last 24 h" after a trend of both tunes: the one asked."""
    word = "horizontal" if plane.lower() in ("horizontal", "horiz", "x") else "vertical"
    for target in previous.targets:
        both = _BOTH_OF.search(target)
        if both is None:
            continue
        lead = "plot " if previous.intent in ("plot", "history") else ""
        when = timed or previous.time
        said = f"{lead}the {word} {both['noun']} {when.canonical if when else ''}"
        again = parse_request(said.strip())
        return replace(again, text=new.text, refers_back=True) if again.targets else None
    return None


def _in_plane(target: str, plane: str, vocabulary: Vocabulary) -> str:
    """``target`` in the other plane: "HCM22" -> "VCM22", "horizontal orbit" -> "vertical
    orbit", when the list has that device family."""
    old, new = _PLANES.get(plane.lower(), ("v", "h"))
    words = {"h": ("horizontal", "x"), "v": ("vertical", "y")}

    def device(found: re.Match[str]) -> str:
        prefix = found.group(1)
        other = new + prefix[1:].lower()
        if prefix.lower().startswith(old) and other in vocabulary.device_prefixes:
            return (other.upper() if prefix.isupper() else other) + found.group(2)
        return found.group(0)

    said = re.sub(r"\b([A-Za-z]{2,5})(\d{1,3})\b", device, target)
    for was, now in zip(words[old], words[new], strict=True):
        said = re.sub(rf"\b{was}\b", now, said, flags=re.I)
    return said


_SIGN_FLIP = re.compile(
    r"^\W*(?:(?:no|ok(?:ay)?|oops|sorry|now|then|and)\W+)*(?:(?:make\s+(?:it|that)|it\s+should\s+be|go)\s+)?"
    r"(?:minus|negative|the\s+other\s+sign|the\s+opposite\s+sign|(?:the\s+)?(?:other|opposite)\s+"
    r"(?:way(?:\s+round)?|direction))(?:\s+(?:instead|then|please))?\W*$"
    r"|^\W*flip\s+(?:it|the\s+sign)\W*$",
    re.I,
)
_NOT_THAT_ONE = re.compile(
    r"^\W*(?:no[,.!]?\s+|wrong\s+one[,.!]?\s+)?not\s+(?:the\s+)?[^,;:-]+?\s*(?:[,;:]|\s-)\s*"
    r"(?:but\s+|i\s+(?:meant|wanted|said)\s+)?(?:the\s+)?(?P<rest>[^,;.!?]+?)"
    r"(?:\s+(?:i\s+|we\s+)?(?:wanted|meant|said|asked\s+for|please))?\s*[.!]*$",
    re.I,
)


#: Words that leave a follow-up without targets of its own ("the same", "what about", "value
#: 20 min ago?", "higher or lower than at 7?").
_NO_TARGET_WORDS = frozenset(
    ["the", "same", "about", "what", "how", "and", "now", "also", "then", "it", "that", "them"]
    + ["its", "was", "is", "value", "values", "reading", "readings", "or", "than", "vs"]
    + ["higher", "lower", "more", "less", "bigger", "smaller", "better", "worse", "different"]
    + ["compared", "versus", "against"]
)


def _with_typed_sign(quantity: Quantity, typed: str) -> Quantity:
    """``quantity`` with the sign of the number as it was typed, when only the sign differs."""
    if not re.fullmatch(NUM_PATTERN, typed) or quantity.value is None:
        return quantity
    number = float(typed)
    if number != quantity.value and abs(number) == abs(quantity.value):
        return replace(quantity, value=number)
    return quantity


def _written(previous: Request, new: Request, quantity: Quantity, before: str) -> Request:
    """The previous change with ``quantity`` in place of its own, said as the writers read it
    (under the condition it was asked with: "if the lifetime is above 8 h, ...")."""
    condition = _CONDITION_FIRST.match(previous.canonical)
    if condition is not None:
        kept = [t for t in previous.targets if not _CONDITION_FIRST.match(f"{t},")]
        before = " and ".join(kept) or before
    unit = f" {quantity.unit}" if quantity.unit else ""
    if quantity.kind == "absolute":
        canonical = f"set {before} to {as_typed(quantity.value)}{unit}"
    else:
        word = "increase" if (quantity.value or 0) > 0 else "decrease"
        unit = "%" if quantity.kind == "percent" else unit
        canonical = f"{word} {before} by {as_typed(abs(quantity.value or 0))}{unit}"
    if condition is not None:
        canonical = f"{condition.group(0)}{canonical}"
    return replace(previous, text=new.text, intent="write", quantity=quantity, canonical=canonical)


_CONDITION_FIRST = re.compile(r"^\W*(?:if|when|unless|once|provided(?:\s+that)?)\b[^,]*,\s*", re.I)


_ONLY_A_WAY = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|oh|sorry|yes|no)\W+)?(?:up(?:wards?)?|down(?:wards?)?|higher|lower|more|less|"
    r"increase(?:\s+it)?|decrease(?:\s+it)?|raise(?:\s+it)?|lower\s+it|positive|negative|"
    r"wider|narrower|open(?:\s+it)?|close(?:\s+it)?)(?:\s+(?:please|pls|then))*\W*$",
    re.I,
)


def _direction_said(text: str) -> int:
    """+1 or -1 when a change said only its direction ("nudge QF 27 up"), else 0."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    up, down = bool(words & UP_WORDS), bool(words & DOWN_WORDS)
    return 1 if up and not down else -1 if down and not up else 0


def _roles_only(request: Request) -> list[str]:
    """The role words of a follow-up that names only roles ("and its setpoint?")."""
    if request.changes or not request.targets:
        return []
    words = re.findall(r"[a-z]+", " ".join(request.targets).lower())
    roles = [w for w in words if w in ROLE_WORDS]
    rest = [w for w in words if w not in ROLE_WORDS]
    fillers = (
        *("its", "their", "the", "then", "too", "also", "as", "well", "and", "now", "please"),
        # "no — RB", "sorry, I meant the readback": a correction of the role
        *("no", "nope", "not", "i", "meant", "mean", "sorry", "oops", "actually", "rather"),
        *("instead", "want", "wanted"),
    )
    return roles if roles and all(w in fillers for w in rest) else []


def _no_targets(request: Request) -> bool:
    words = re.findall(r"[a-z0-9]+", " ".join(request.targets).lower())
    return all(w in _NO_TARGET_WORDS for w in words)


def _with_new_time(previous: Request, new: Request) -> Request:
    """The previous request over the new turn's time."""
    assert new.time is not None
    when = new.time.canonical
    # "no, on Monday morning at 8": every word of the time as said (the planner reads the
    # clock of a day with its own clock), not only the words read without one
    said = _TIME_LEAD.sub("", new.text).strip(" ?.!")
    if new.time.words.lower() in said.lower() and not parse_request(said).targets:
        when = said
    canonical = previous.canonical
    if previous.time is not None and previous.time.canonical in canonical:
        canonical = canonical.replace(previous.time.canonical, when, 1)
    else:
        # "ID 11 gap now" asked again at another time: "now" is no longer asked
        canonical = f"{_NOW_SAID.sub('', canonical).rstrip(' ?.!')} {when}"
    intent = "history" if previous.intent == "read" else previous.intent
    return replace(previous, text=new.text, intent=intent, time=new.time, canonical=canonical)


_NOW_SAID = re.compile(r"\s+(?:right\s+)?now\b", re.I)
_TIME_LEAD = re.compile(
    r"^\W*(?:(?:no|nope|and|what\s+about|how\s+about|now|then|ok(?:ay)?|try|make\s+(?:it|that))\b\W*)+",
    re.I,
)
_PLACE = (
    r"(?:sector|sectors|cell|cells|straight|arc)\s+\d+(?:\s*(?:to|through|-|and)\s*\d+(?![.\d]))?"
)
_PLACE_ONLY = re.compile(rf"(?:the\s+)?(?:in\s+)?{_PLACE}", re.I)
_PLACE_IN = re.compile(rf"\b{_PLACE}", re.I)


def _names_a_device(request: Request) -> bool:
    return any(re.search(r"[A-Za-z]{2,5}\d", t) for t in request.targets) or any(
        len(t.split()) > 1 for t in request.targets
    )


def _phrase_in(canonical: str, targets: tuple[str, ...]) -> str:
    """The words of ``canonical`` that name ``targets`` (from the first to the last)."""
    if not targets:
        return ""
    first = canonical.find(targets[0])
    last_target = targets[-1]
    last = canonical.find(last_target, max(first, 0))
    if first < 0 or last < 0:
        return " and ".join(targets)
    start = first
    article = re.search(r"\bthe\s+$", canonical[:first], re.I)
    if article:
        start = article.start()
    return canonical[start : last + len(last_target)]
