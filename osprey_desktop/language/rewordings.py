"""Phrasings said another way before the parse: one wording for each thing an operator means.

Each rule is a form of speech, not a sentence: "put them on one plot" is a plot, "set point" the
setpoint, an arrow "=>" an arrow, "give 0.2 A to VCM 9" a value given, "VCM 9 needs 0.2 A" a
value, "together with" a list, "which value had X" a question of the past, "undo whatever
happened to X in the last hour" a restore, "a new current of 96 A" a value, "corrector number
15" a device's number, a reason given with a request ("because the orbit is off, ...") and a
change refused in words ("don't change anything") no part of it; changes said another way are
``change_phrasings``'. ``request.parse_request`` reads the result.
"""

from __future__ import annotations

import re

from osprey_desktop.language.change_phrasings import changes_said_plainly
from osprey_desktop.language.clauses import CHANGE, named_devices
from osprey_desktop.language.copy_phrasings import copies_said_plainly
from osprey_desktop.language.discourse import undulator_named
from osprey_desktop.language.indirect_requests import indirect_said_plainly
from osprey_desktop.language.lexicon import PLOT_VERBS, READ_VERBS
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed, read_number
from osprey_desktop.language.units import lookup_unit, spoken_names

__all__ = ["asides_dropped", "proposal_asked_for", "said_plainly"]


def what_seems_off_checked(text: str) -> str:
    """ "lifetime looks low to me - check it, and if ..." -> "check lifetime, and if ...":
    what is checked named where "it" stood, before the statement is dropped as context."""
    return _SEEMS_OFF_CHECK_IT.sub(lambda m: f"{m['verb']} {m['what'].strip()}", text)


def asides_dropped(text: str) -> str:
    """ "What does a DCCT measure, by the way?" -> "What does a DCCT measure?"; "flat or not?"
    -> "flat?": an aside and a question's "or not" ask nothing more (said before any check of
    what kind of question it is)."""
    work = re.sub(
        r"[,\s]*\b(?:by\s+the\s+way|btw|out\s+of\s+(?:interest|curiosity)|just\s+curious)\b"
        r"(?=\s*[,?.!]|\s*$)",
        "",
        text,
        flags=re.I,
    )
    return re.sub(r"\b(flat|stable|steady|constant)\s+or\s+not\b", r"\1", work, flags=re.I)


def said_plainly(text: str) -> str:
    """``text`` with the phrasings above said the one way the parse reads them."""
    work = text
    # "the steering magnet HCM 21 near our beamline": a named device, placed by the user's
    # own place (which no channel list names)
    work = re.sub(
        r"(?P<device>\b[A-Za-z]{2,5}\s?\d{1,3})\s+(?:near|at|by|for|in\s+front\s+of|before|after)\s+"
        r"(?:our|my|their|the\s+users'?)\s+(?:beamline|hutch|experiment|station|end\s*station|"
        r"mirror|sample|optics)\b",
        r"\g<device>",
        work,
        flags=re.I,
    )
    # "open the ID 02 gap by another 2 mm": by that much more
    work = re.sub(
        r"\bby\s+(?:another|an\s+extra|a\s+further)\s+(?=[-+]?\.?\d)", "by ", work, flags=re.I
    )
    # "reduce the strength of focusing quad 13 by 1 A": a magnet's strength is its setting
    work = _STRENGTH_OF.sub("", work)
    # "QD 44 up", "vcm 33 dn", "hcm 9 adjust": a change said in two words, its amount asked
    work = _TERSE_WAY.sub(lambda m: f"{_WAY_VERBS[m['way'].lower()]} {m['what']}", work)
    # "SR03C:HCM07:SP - new value pls", "a new setpoint for HCM 7": a change, its value asked
    work = _NEW_VALUE_AFTER.sub(lambda m: f"change {m['what'].strip()}", work)
    work = _NEW_VALUE_FOR.sub(lambda m: f"change {m['what'].strip()}", work)
    # "drift of tune x, 4 h window", "a 2-hour window": the last that long
    work = _A_WINDOW.sub(r"over the last \g<n> \g<unit>", work)
    # "qf 33 rb same as at 10?": now compared with then
    work = _SAME_AS_THEN.sub(lambda m: f"{m['what']} now vs {m['when']}?", work)
    # "lifetime at 1", "tunes at 9?": a quantity at an hour, a moment asked (a device's
    # number or a value check, "is QF 3 at 120", is no hour)
    work = _QUANTITY_AT_AN_HOUR.sub(_moment_of_a_quantity, work)
    # "no, noon yesterday", "midnight on Sunday": that moment, as "at noon yesterday"
    work = re.sub(
        r"(?<!\bat\s)(?<!\bafter\s)(?<!\bbefore\s)(?<!\bsince\s)(?<!\buntil\s)(?<!\bfrom\s)"
        r"(?<!\bby\s)\b(noon|midnight)\b(?=\s+(?:yesterday|today|on\s|last\s))",
        r"at \1",
        work,
        flags=re.I,
    )
    # "from 10ish this morning", "since 8-ish": a range from about then, from that hour (a
    # moment said so, "back to how it was at 9ish", is asked)
    work = re.sub(
        r"\b((?:from|since)\s+\d{1,2}(?::\d\d)?(?:\s*(?:am|pm))?)\s*-?ish\b",
        r"\1",
        work,
        flags=re.I,
    )
    # "was the current stable in the past 45", "the last 90": minutes, when no unit is said
    work = re.sub(
        r"\b((?:last|past)\s+)(\d{2,3})(?=\s*(?:[?.!,;]|$|\s+(?:please|pls|thanks)\b))",
        r"\1\2 minutes",
        work,
        flags=re.I,
    )
    # "how bad did the vacuum get overnight anywhere in the ring": the worst it got
    work = _HOW_FAR_IT_GOT.sub(
        lambda m: f"what was the {'min' if m['way'].lower() == 'low' else 'max'} of {m['what']}",
        work,
    )
    # "plot the RF voltage from 9 o'clock onwards", "from 8 on": since then
    work = _FROM_ONWARDS.sub(r"since \g<when>", work)
    # "the lifetime two hours back": two hours ago (never a value put back)
    work = _SPAN_BACK.sub(r"\g<span> ago", work)
    # "how many times did X go above ...": how often
    work = re.sub(r"\bhow\s+many\s+times\b", "how often", work, flags=re.I)
    # "HCM 3 setpoint 0.25 please", "ID 9 gap sp 14 mm now": a setpoint given its value, asked
    work = _SETPOINT_VALUE_ASKED.sub(r"set \g<what> to \g<value>", work)
    # "isn't the current a bit low?", "haven't the tunes moved?": the question asked plainly;
    # "the lifetime isn't below 8 h, is it?": the tag ending the message asks nothing more (one
    # before an order is a doubt the order answers: ``discourse``)
    work = _NEGATIVE_LEAD.sub(lambda m: f"{m['lead']}{_POSITIVE[m['aux'].lower()]}", work)
    work = _TAG_QUESTION.sub("?", work)
    # "the current vacuum in sector 3", "current pressures pls": the present one, no magnet's
    # current (the beam's or a magnet's current is never followed by another quantity)
    work = _CURRENT_AS_NOW.sub("", work)
    # "QD 18 from ninety five to ninety six point five amps": the two values typed as numbers
    work = _FROM_SPELLED_TO.sub(_from_to_typed, work)
    # "how many amps is HCM 19 drawing", "how many mA do we have": the device's reading, the
    # unit spelt out (what the finder knows a channel's unit by)
    work = _HOW_MANY_UNITS.sub(_reading_in_units, work)
    # "confirm hcm 3 = 0.0", "make sure HCM 4 is at 0 A", "hold QF 9 at 120": whether it is
    # that value, a reading checked (never a write)
    work = _CONFIRM_A_VALUE.sub(
        lambda m: f"is {(m['what'] or m['kept']).strip()} at {m['value'].strip()}?", work
    )
    # "a tenth of a mega volt", "five hundred milli amps": a unit's prefix said apart
    work = re.sub(
        r"\b(kilo|mega|milli|micro)[\s-]+(volts?|amps?|amperes?|hertz|met(?:er|re)s?)\b",
        r"\1\2",
        work,
        flags=re.I,
    )
    # "lower HCM 3 by about 0.2 A", "set QF 5 to roughly 121 A": the value said, approximately
    work = re.sub(
        r"\b(?P<mark>by|to)\s+(?:about|around|roughly|approximately|approx\.?|some|~)\s*"
        r"(?=[-+−]?\.?\d)",
        r"\g<mark> ",
        work,
        flags=re.I,
    )
    # "did the day shift change the ID11 gap?": the shift as the ones who worked, no time
    work = re.sub(
        r"\b(?P<aux>did|has|have|had)\s+the\s+(?:day|night|late|early|morning|evening)\s+shift\b",
        r"\g<aux> someone",
        work,
        flags=re.I,
    )
    # "at the 2 of afternoon", "since 7 of this morning": an hour of a part of the day, said
    # in another language's order
    work = re.sub(
        r"\b(?:the\s+)?(\d{1,2})\s+of\s+(?:(this)\s+|the\s+)?(morning|afternoon|evening|night)\b",
        lambda m: f"{m[1]} this {m[3]}" if m[2] else f"{m[1]} in the {m[3]}",
        work,
        flags=re.I,
    )
    # "How much is the lifetime in this moment?": now
    work = re.sub(r"\bin\s+this\s+moment\b", "at the moment", work, flags=re.I)
    # "HCM 20 must be 0.15 A more high": a comparative said with "more"
    work = re.sub(
        r"\bmore\s+(high|low|strong|weak|wide|narrow|large|small|big)\b",
        lambda m: _COMPARATIVE_OF[m[1].lower()],
        work,
        flags=re.I,
    )
    # "Put the gap of ID 7 3 mm over the gap of ID 5": in a relation between two devices, each
    # device's field said the short way
    if re.search(r"\b(?:above|below|over|under|than|same|match|as)\b", work, re.I) and (
        len(re.findall(r"\b[A-Za-z]{1,5}\s?\d{1,3}\b", work)) >= 2
    ):
        work = re.sub(
            r"\bthe\s+(gap|current|setpoint|readback|voltage|frequency)\s+of\s+(?:the\s+)?"
            r"([A-Za-z]{1,5}\s?\d{1,3})\b",
            r"the \2 \1",
            work,
            flags=re.I,
        )
    # "over about 2 hours", "roughly 30 min ago": the span said, approximately
    work = re.sub(
        r"\b(?:about|around|roughly|approximately|approx\.?|some|~)\s*(?=\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|"
        r"min|mins|minutes?|days?)\b)",
        "",
        work,
        flags=re.I,
    )
    # "a little smaller for the users - say 12 mm", "down a bit (maybe 0.2 A)": the vague
    # amount made exact by the value said after it
    work = _VAGUE_THEN_SAY.sub(_vague_then_said, work)
    # "the two sector 5 gauges", "both RF readbacks": how many there are, no device number
    work = _COUNTED_FAMILY.sub(_counted_family, work)
    # "make the ID02 gap 2 mm wider than it is": wider than now, a change by that much
    work = re.sub(
        r"\s+than\s+(?:it|they)\s+(?:is|are)(?:\s+(?:now|right\s+now|at\s+the\s+moment))?\b",
        "",
        work,
        flags=re.I,
    )
    # "id 11 gap smaller pls": a device and a comparative, the change whose amount is asked
    work = _DEVICE_THEN_COMPARED.sub(r"make \g<what> a bit \g<cmp>", work)
    # "the first focusing quadrupole in sector 3 needs to be 0.8 A stronger": a change by it
    work = _NEEDS_TO_BE_MORE.sub(
        lambda m: (
            f"{'increase' if m['cmp'].lower() in _MORE_WORDS else 'decrease'} "
            f"{m['what'].strip()} by {m['amount']}"
        ),
        work,
    )
    # "the horizontal steering magnet in sector 7, the third one, to 0.4 A", "the corrector at
    # the start of sector 10": which of them, said after them
    work = _WHICH_ONE_AFTER.sub(lambda m: f"the {m['which']} {m['what'].strip()} ", work)
    work = _WHERE_IN_THE_SECTOR.sub(
        lambda m: f"the {_PLACE_ORDINAL[m['where'].lower()]} {m['what'].strip()} in {m['place']}",
        work,
    )
    # "the undulator in sector 11 should match the one in sector 9", "the second defocusing
    # quad of sector 4 ... as the first one": "one" is the device said before, at its place
    work = _one_said_again(work)
    # "the ID 4 gap needs changing", "the last quadrupole in sector 10 needs to change": a
    # change whose value is asked
    work = _NEEDS_CHANGING.sub(lambda m: f"change {m['what'].strip()}", work)
    # "Our beamline sits in sector 11. Can you take its undulator gap to 16.5 mm?"
    work = _OUR_BEAMLINE_SITS.sub(_its_in_that_sector, work)
    # "the gauges in 11 since 23:00", "beam loss monitors in 6": a family in a sector
    work = _FAMILY_IN_A_NUMBER.sub(r"\g<family> in sector \g<n>", work)
    # "the undulator gap for the sector 7 beamline": the sector's
    work = _SECTOR_BEAMLINE.sub(r"in sector \g<n>", work)
    # "@ 23:00: RF V → 2.4 (not now)": a change placed later, never one refused
    work = re.sub(r"[,;]?\s*\(\s*not\s+(?:right\s+)?now\s*\)", " later", work, flags=re.I)
    # "shift the RF by -1 kHz", "shift QF 3 up 1 A": moved by that much ("the night shift",
    # "shift handover" are no change)
    work = re.sub(
        r"\bshift\s+(?=(?:the\s+)?[\w\s:-]{1,40}?\s+(?:by|up|down)\s+[-+−]?\.?\d)",
        "move ",
        work,
        flags=re.I,
    )
    # "Two things: set VCM22 ...", "Last item on my list: ...": how the message is organised
    work = _MESSAGE_PARTS.sub("", work)
    # "QD12 should be QD10 minus half an amp", "set QF 3 to twice QF 5", ...: another device's
    # value given (``copy_phrasings``), before a share of a device's own value is read
    work = copies_said_plainly(work)
    # "take the ID 2 gap out to 20 mm", "bring the gap in to 12 mm": open and close
    work = _TAKE_OUT_TO.sub(
        lambda m: f"{'open' if m['way'].lower() == 'out' else 'close'} {m['what']} ", work
    )
    # "if lt < 7h -> set HCM 3 to 0.2 else leave it": nothing asked when it does not hold
    work = _ELSE_NOTHING.sub("", work)
    # "is HCM 22 beyond 1 A? if so halve it": the question is the condition of the change
    work = _ASKED_IF_SO.sub(
        lambda m: f"if {m['what']} {m['be'] or 'is'} {m['compared']}, {m['then']}", work
    )
    # "if VCM 28 is negative, set it to 0": a sign is a comparison with zero
    work = _SIGN_COMPARED.sub(
        lambda m: f"{m['lead']} {'below' if m['sign'].lower() == 'negative' else 'above'} 0", work
    )
    # "halve it", "double QF 3", "cut HCM 4 in half": a change by a share of its own value
    work = _HALVED.sub(_halved, work)
    # "over the whole of yesterday", "the entire night", "all day yesterday": the day itself
    work = _THE_WHOLE_OF.sub("", work)
    # "show me how the beam current looked yesterday": the current, its history
    work = _HOW_IT_LOOKED.sub(lambda m: m["what"], work)
    work = _HOW_DID_IT_LOOK.sub(lambda m: m["what"], work)  # "how did the lifetime behave"
    # "what energy are we running at today?", "which fill pattern is it today": today said of
    # the present asks the value now, not a history since midnight
    if _TODAY_IN_THE_PRESENT.search(work) and not _PAST_OR_SPAN.search(work):
        work = " ".join(re.sub(r",?\s*\btoday\b", "", work, flags=re.I).split())
    # "how much beam was there at midnight", "how has the beam been today?": the beam said
    # alone is how much of it there is, its current (never "beam energy", "beam size")
    work = _THE_BEAM_ALONE.sub("beam current", work)
    # "rf volts last 2h", "cavity volts?": the unit named for the quantity (never after a
    # number: "2.5 volts" is a value)
    work = re.sub(
        r"(?<![\d.])(?<!\d\s)\b(?P<what>rf|cavity|cav|klystron|gun|kicker|septum)\s+volts\b",
        r"\g<what> voltage",
        work,
        flags=re.I,
    )
    # "add an amp to QF 3", "QF 3 up a millimetre": one of that unit (never "half an amp")
    work = _ONE_OF_A_UNIT.sub(_one_of_a_unit, work)
    # "to 500 in mA": the value's own unit, said after "in"
    work = _VALUE_IN_UNIT.sub(_value_in_unit, work)
    # "..., in Hz if you can", "the ID 7 gap in mm please": how to show it, no target
    work = _SHOWN_IN.sub(_unit_shown_in, work)
    # "I was told to turn the ID 11 gap down a bit, can you do that?": the change itself
    work = _TOLD_TO.sub(r"\g<change>", work)
    # "VCM 33 to", "HCM 4 ->": a value begun and never given, a change that asks for it
    work = _DANGLING_VALUE.sub(r"set \g<what>", work)
    # "half an amp more negative", "0.1 A less positive": the way a sign word says
    work = _SIGN_WAY.sub(_sign_way, work)
    # "put them on one plot", "show X and Y together in a chart": a plot, never a change
    work = _on_one_plot(work)
    # "make one plot with the current and lifetime", "lifetime and current, make one plot":
    # a plot made is a plot asked, never a change with the value "one"
    work = _plot_made(work)
    # "a single chart of the beam energy", "a trend plot for IG 4": a plot asked as a noun
    work = _A_PLOT_OF.sub("plot ", work)
    # "a quick sweep of the IGs in sector 1", "a rundown of the RF": a reading of each
    work = _A_ROUND_OF.sub("read ", work)
    # "HCM3 set point", "the set-point of QF 5": the setpoint, not a verb
    work = re.sub(r"\bset[\s-]+point(s?)\b(?!\s+(?:to|at)\b)", r"setpoint\1", work, flags=re.I)
    # "hcm 4 => 0.3": an arrow; "give 0.2 A to VCM 9": a value given; "VCM 9 needs 0.2 A"
    work = re.sub(r"\s*=>\s*", " -> ", work)
    work = re.sub(r"\bgive\s+(?=[-+]?\.?\d[^,;?]*\bto\b)", "apply ", work, flags=re.I)
    work = re.sub(r"(?<=\d)\s+(?:needs|wants|requires)\s+(?=[-+−]?\.?\d)", " to ", work, flags=re.I)
    # "the lifetime together with the current": two targets; "which value had X": what was X
    work = re.sub(r"\b(?:together|along)\s+with\b", "and", work, flags=re.I)
    work = re.sub(r"\bwhich\s+value\s+(?:had|has|did)\b", "what was", work, flags=re.I)
    # "undo whatever happened to HCM 2 in the last hour": its value from an hour ago
    work = _UNDO_SINCE.sub(lambda m: f"put {m['what']} back to what it was at {m['when']}", work)
    work = _UNDO_A_PERIOD.sub(
        lambda m: f"restore {m['what']} to its value from {m['n'] or '1'} {m['unit']} ago", work
    )
    # "set a new current of 96 A": the value given
    work = re.sub(
        r"\b(?:a|the)\s+new\s+(?:value|current|setting|setpoint|gap|voltage)\s+(?:of|to|at)\s+"
        r"(?=[-+−]?\.?\d|minus\b)",
        "to ",
        work,
        flags=re.I,
    )
    # "Because the orbit is off, increase VCM08 by 0.1 A", "The lifetime dropped, so open ID05
    # to 30 mm", "..., since they should track": the reason is no part of the request
    work = _without_reasons(work)
    # "set VCM 3 to 0.1 A, sorry if wrong", "I'm not sure, but could you lower QF 5 by 1 A?":
    # an apology or a doubt about the asking, around the request
    work = _APOLOGY_AFTER.sub("", work)
    work = _DOUBT_BEFORE.sub("", work)
    # "how often did ... go above 5e-9 in the last 2 days? is that normal?": the judgement of
    # what the answer shows, asked after the request; "QF 41 up 1 A. Nothing else.": its end
    work = _JUDGED_AFTER.sub(r"\g<end>", work)
    # "RF voltage up by some kV", "vcm 22 needs a few mA more": units not counted, a vague amount
    work = _UNITS_NOT_COUNTED.sub(
        lambda m: "a little" if lookup_unit(m["unit"]) is not None else m.group(0), work
    )
    # "no, 08:00 yesterday, not today": the time ruled out is no part of the request
    work = _NOT_THAT_TIME.sub("", work)
    # "VCM 35 — read, then zero", "QF 3: check, then raise by 1 A": a device, then what to do
    # with it, each verb without its object
    work = _TOPIC_THEN_VERBS.sub(
        lambda m: f"{m['first']} {m['what'].strip()}, then {m['then']} it{m['rest']}", work
    )
    # "ID07 gap: open it some", "RF voltage SP - adjust slightly": a topic, then its change
    work = _TOPIC_THEN_CHANGE.sub(_topic_then_change, work)
    # "show HCM 13 to 15, then HCM 14 to -0.1 A": a change with no verb after a clause of its own
    work = _VERBLESS_CHANGE_AFTER.sub(lambda m: f"{m['lead']}set {m['what']} to ", work)
    # "HCM21 to -0.3 A, orbit bump test": what a change is for, named after it
    work = _PURPOSE_LABEL.sub(lambda m: m["unit"], work)
    # "lt yesterday 14-16h": a range of clock hours on that day, not devices 14 to 16
    work = _DAY_HOURS.sub(lambda m: f"{m['day']} from {m['a']}:00 to {m['b']}:00", work)
    # "now curr same window": the same time as before
    work = re.sub(
        r"\bsame\s+(?:time\s+)?(?:window|period|range|timeframe|time\s+frame|interval|span)\b",
        "same",
        work,
        flags=re.I,
    )
    # "the gap of the undulator feeding beamline 5 (ID 5)": the device the parenthesis names
    # stands for the description before it
    work = _NAMED_IN_PARENTHESES.sub(lambda m: f"{m['lead']}{m['device']}", work)
    # "plot the beam current for the ID02 people": who it is for names no channel
    work = _FOR_SOMEONE.sub("", work)
    # "open the ID07 gap to 20 mm at the frontend's request", "as requested by the beamline":
    # who asked names no channel
    work = _ON_REQUEST.sub("", work)
    # "ID02 gap: widen by 3 mm (user request #4411)", "(ticket 123)", "(per elog 5521)": a
    # reference to where the request came from, in parentheses
    work = _WHERE_IT_CAME_FROM.sub("", work)
    # "VCM 17 must have the same of VCM 16": the same as (another language's preposition)
    work = re.sub(r"\bthe\s+same\s+(?:of|like|than)\b", "the same as", work, flags=re.I)
    # "over 1e-8 or not", "lower than 10 min ago or am I seeing things": the question's tail
    work = re.sub(
        r",?\s+or\s+(?:not|am\s+i\s+(?:seeing\s+things|imagining\s+(?:it|things)|wrong|crazy)|what)"
        r"\s*(?=[?!.]*\s*$)",
        "",
        work,
        flags=re.I,
    )
    # "what was the lowest the lifetime got?", "the highest the current reached": a statistic
    work = re.sub(
        r"\b(?P<stat>lowest|highest|max(?:imum)?|min(?:imum)?|worst|best)\s+(?:that\s+)?"
        r"(?P<what>the\s+[^?,.;]+?)\s+(?:got|was|went|reached|fell\s+to|dropped\s+to|rose\s+to|hit|"
        r"has\s+been|had\s+been)\b",
        lambda m: f"{m['stat']} {m['what']}",
        work,
        flags=re.I,
    )
    # "the beam current just before 2:15": the last value archived before that moment
    work = _JUST_BEFORE.sub("at ", work)
    # "the gap - the readback, not the setpoint": the role refused is no part of the request
    work = _ROLE_REFUSED.sub("", work)
    # "VCM33 needs to come down by 0.25 A", "HCM24 would be happier at 0.6 A", "the beamline
    # at ID07 is asking for a 10 mm gap": what should be, said as the change
    work = indirect_said_plainly(work)
    # "don't set anything, what are HCM04 and VCM04 at?", "read QD26, but don't change
    # anything": a change refused is no word of the request
    kept = _NO_CHANGE_SAID.sub(" ", work)
    rest = re.sub(r"\b(?:no|ok(?:ay)?|yes|please|then|just|so)\b", " ", kept, flags=re.I)
    if kept != work and re.search(r"[a-z]{3,}", rest, re.I):
        # "no, leave it as it is" asks nothing else: the refusal is the request; "don't change
        # anything, but show me ...": the request after its conjunction
        work = re.sub(r"^\W*(?:but|and|so|just|only)\s+", "", kept.strip(), flags=re.I)
    # a change said another way: "Please the RF voltage on 2.45 MV set.", "set QD12 to QD10
    # minus 0.5 A", "HCM19 ↑ a touch", "give HCM27 a small kick", ... (``change_phrasings``)
    work = changes_said_plainly(work)
    # "show me where VCM25 is set", "where the ID gaps are set": their setpoints
    work = re.sub(
        r"\bwhere\s+(?P<what>[^,;?]+?)\s+(?:is|are)\s+(?:currently\s+|now\s+)?set\b(?!\s+(?:to|at)\b)",
        lambda m: f"{m['what']} setpoint",
        work,
        flags=re.I,
    )
    # "is the gap different from 2 hours ago?": now against that moment, not since then
    work = re.sub(
        r"\b(differ(?:ent)?)\s+from\s+(?=[^,;?]*\b(?:ago|yesterday|morning|afternoon|evening|"
        r"earlier|before|midnight|noon)\b)",
        r"\1 than ",
        work,
        flags=re.I,
    )
    # "is the beam still there?", "do we still have beam?": whether beam is stored, which the
    # stored beam current says
    work = _BEAM_THERE.sub("what is the beam current", work)
    # "corrector number 15", "quad no. 7": the word for "number" before a device's number
    work = re.sub(r"(?<=[a-z])\s+(?:number|no\.|nr\.?|num\.?|#)\s*(?=\d)", " ", work, flags=re.I)
    return work


_REASON_FIRST = re.compile(
    r"^\W*(?:because|'?cause)\s+[^,;]+?,\s*(?:so\s+)?(?=\S)|^[^,;?]+?(?:,|;)\s*so\s+"
    # "..., so they match?": a purpose after the request, not a request after a reason
    r"(?!(?:that|they|it|we|i|he|she|you|the\s+\w+\s+(?:is|are|will|can))\b)(?=\S)"
    # "Since the RF group retuned the cavities this morning, could you plot ...": a reason
    # with its own subject and verb (never "since this morning, plot ...", a time)
    r"|^\W*(?:since|as|given\s+that|now\s+that|seeing\s+that)\s+(?=(?:the|a|an|our|my|we|they|it|"
    r"there|users?|someone|this|that)\b)[^,;]*?\b(?:is|are|was|were|has|have|had|did|[a-z]{3,}ed)\b"
    r"[^,;]*[,;]\s*(?=\S)",
    re.I,
)
#: "set the RF voltage to 2.4 MV for the bunch length study", "ID 5 open to 60 mm for the
#: magnetic measurement": what the value is for, after it, names no channel
_PURPOSE_AFTER_A_VALUE = re.compile(
    r"(?P<value>\d(?:\s*(?:%|[a-zµ]{1,4}\b))?)\s*,?\s+(?:for|to\s+(?:help|allow|improve|get|fix|"
    r"prepare|support|compensate|correct))\s+(?:the|their|our|a|an|this|that|my|his|her|tonight'?s|"
    r"tomorrow'?s|today'?s)\s+(?![^,;.?!\d]*\b(?:last|past|next|previous|hours?|minutes?|days?|weeks?|"
    r"shift|night|morning|evening|afternoon|while|moment|now)\b)[a-z][^,;.?!\d]*[.!]?\s*$",
    re.I,
)
#: "get me IG13 at 1 o'clock for the incident report", "the lifetime for the logbook": where
#: the answer goes, never what is asked
_FOR_THE_RECORD = re.compile(
    r"\s*,?\s+for\s+(?:the|my|our|this|a|an|tonight'?s|tomorrow'?s|today'?s)\s+(?:[a-z-]+\s+){0,2}"
    r"(?:report|logbook|log|elog|e-log|meeting|handover|notes|record|records|minutes|summary|"
    r"slides?|presentation|email|e-mail)\s*(?=[.!?]*\s*$)",
    re.I,
)
#: "open their gap to 20 mm while they change samples": when or why, after the value
_WHILE_AFTER_A_VALUE = re.compile(
    # a value, never a device's number ("qf37 same as qf39 plus 1 amp")
    r"(?<![A-Za-z])(?<![A-Za-z]\d)(?<![A-Za-z]\d\d)"
    r"(?P<value>\d(?:\s*(?:%|[a-zµ]{1,4}\b))?)\s*,?\s+(?:while|whilst|as|so\s+that|because|since)\s+"
    # "... so that BPM27 x comes back towards zero": the effect on another device
    r"(?:they|we|he|she|it|the\s+[a-z]+(?:\s+[a-z]+)?|users?|people|[a-z]{1,6}\s?\d{1,3}(?:\s+[xy])?)\s+"
    r"[a-z][^,;.?!]*(?=[.;?!]|$)",
    re.I,
)
#: "For the weekly report I need the minimum lifetime over the past 24 hours; could you find it
#: for me?": what is needed is the request
_NEEDED_THEN_FIND_IT = re.compile(
    r"^\W*(?:for\s+[^,;]{1,40}?,?\s+)?(?:i|we)\s+(?:need|want|would\s+like|'d\s+like)\s+"
    r"(?P<what>[^;?.]+?)\s*[;,.]\s*(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?"
    r"(?:find|get|look\s+up|fetch|pull\s+up|give|show|tell)\s+(?:me\s+|us\s+)?(?:it|that|this|them)"
    r"(?:\s+(?:up|out))?(?:\s+for\s+(?:me|us))?(?:,?\s*please)?\s*[?.!]*\s*$",
    re.I,
)
#: "For the study shift we agreed on QD 26 at 96 A and QD 28 at 94 A; could you apply those,
#: please?": what was agreed is the change asked
_AGREED_THEN_APPLY = re.compile(
    r"^\W*(?:for\s+[^,;]{1,40}?,?\s+)?(?:we|they|the\s+[a-z]+(?:\s+[a-z]+)?)\s+(?:have\s+)?"
    r"(?:agreed\s+(?:on|to)|decided\s+on|settled\s+on|planned|proposed|asked\s+for|requested)\s+"
    r"(?P<what>[^;?]+?)\s*[;,.]\s*(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?"
    r"(?:apply|set|do|make|put\s+in|implement|load)\s+(?:those|these|them|that|this|it)\b"
    r"(?:\s+(?:now|values?|settings?))?(?:,?\s*please)?\s*[?.!]*\s*$",
    re.I,
)
_REASON_AFTER = re.compile(
    r"\s*,?\s*\b(?:because\s+|since\s+(?=(?:they|it|we|i|there)\b|(?:the|this|that)\s+[a-z]+"
    r"(?:\s+[a-z]+)?\s+(?:is|are|was|were|has|have|had|should|must|looks?|seems?)\b))[^,;?]*[.!]?$",
    re.I,
)


#: "...; expect the lifetime to drop a little", ", which should give about 12.5 mm": what the
#: change is expected to do, after a change with its value
_EXPECTED_AFTER = re.compile(
    r"(?<=[\dA-Za-zµ%])\s*[;,.]\s*(?:(?:and|but)\s+)?(?:expect|expecting|anticipate|"
    r"(?:it|this|that|which)\s+should|should\s+give|(?:we|i)\s+expect)\b[^;?]*[.!]?\s*$",
    re.I,
)
#: "Set the ID 7 gap to 22.5 mm, the user changed the photon energy.": what happened, told
#: after a change with its value
_TOLD_AFTER_A_VALUE = re.compile(
    r"(?<=[\dA-Za-zµ%])\s*[,;]\s*(?:the|a|our|my|their|users?|beamline\s+\d+|someone|they|we)\b"
    r"(?:\s+[a-z]+){0,2}\s+(?:changed|asked|wants?|needs?|requested|said|reported|moved|did|"
    r"finished|started|switched|went|has|have|had|was|were)\b[^;?]*[.!]?\s*$",
    re.I,
)
_DAY_HOURS = re.compile(
    r"\b(?P<day>yesterday|today|this\s+(?:morning|afternoon|evening))\s+(?:from\s+|between\s+)?"
    r"(?P<a>[01]?\d|2[0-3])(?:h|:00)?\s*(?:[-–]|to|and)\s*(?P<b>[01]?\d|2[0-4])\s*(?:h\b|:00\b)",
    re.I,
)
_FOR_SOMEONE = re.compile(
    r"\s*,?\s+for\s+(?:the\s+|our\s+|my\s+)?(?:[A-Za-z]{1,5}\s?\d{1,3}\s+|beamline\s+\d{1,2}\s+)?"
    r"(?:people|users?|folks|beamlines?|group|team|experiment(?:ers)?|scientists?|physicists?|"
    r"guys|crew)\b(?:\s+(?:on|at)\s+[A-Za-z]{1,5}\s?\d{1,3}\b)?",
    re.I,
)
_TOPIC_THEN_VERBS = re.compile(
    r"^\W*(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:setpoint|sp|current|gap))?)\s*"
    r"(?:[—–:]|\s-)\s*(?P<first>read|check|show|record|note)\s*,?\s*(?:and\s+)?then\s+"
    r"(?P<then>zero|clear|raise|lower|increase|decrease|reset|restore|set|put|bump|nudge)\b"
    r"(?P<rest>[^,;]*)$",
    re.I,
)
_TOPIC_THEN_CHANGE = re.compile(
    r"^\W*(?P<what>(?:the\s+)?(?:[A-Za-z][\w.]*[\s:.]*){1,4}?\d*\w*)\s*(?::(?!\w)|\s[-–—]\s)\s*"
    r"(?P<verb>[a-z]+)\b(?:\s+(?:it|them|that|this))?(?P<rest>[^:;]*)$",
    re.I,
)


_SAID_OF_IT = re.compile(
    r"\b(?:is|are|was|looks?|seems?|way|off|bad|wrong|high|low|drift\w*|again|still|too)\b", re.I
)


def _topic_then_change(found: re.Match[str]) -> str:
    """ "ID07 gap: open it some" -> "open ID07 gap some" (only a change verb after the colon;
    "HCM 7 - new value pls" or "lifetime: 10 h" stay as typed)."""
    if found["verb"].lower() not in CHANGE or _SAID_OF_IT.search(found["what"]):
        return found.group(0)  # "vert orbit s9 way off - correct it": a state said first
    return f"{found['verb']} {found['what'].strip()}{found['rest']}"


_VERBLESS_CHANGE_AFTER = re.compile(
    r"(?P<lead>[,;]\s*(?:and\s+)?then\s+|\band\s+then\s+|[,;]\s*(?:after\s+that|afterwards)\s*,?\s+)"
    r"(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:setpoint|sp|current|gap))?)\s*"
    r"(?:to|at|->|→|=)\s*(?=[-+−]?\.?\d)",
    re.I,
)
_WHERE_IT_CAME_FROM = re.compile(
    r"\s*\((?:[^()]{0,30}\b)?(?:request|ticket|elog|e-log|logbook|entry|issue|jira|ref|see|per|"
    r"from|as\s+agreed|approved)\b[^()]{0,40}\)",
    re.I,
)
_ON_REQUEST = re.compile(
    r"\s*,?\s*\b(?:(?:at|on|per|by|upon)\s+(?:the\s+|a\s+)?(?:[\w-]+(?:'s|’s|'|’)\s+)?request"
    r"(?:\s+of\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?"
    r"|as\s+(?:requested|asked)\s+by\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?"
    r"|as\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:requested|asked(?:\s+for)?))\b(?=\s*(?:[,.;!?]|$))",
    re.I,
)
_JUST_BEFORE = re.compile(
    r"\b(?:just|right|shortly|immediately)\s+(?:before|prior\s+to)\s+(?:the\s+)?"
    r"(?=\d{1,2}(?::\d{2})?\s*(?:am|pm|h)?\b|noon\b|midnight\b|midday\b)",
    re.I,
)
_ROLE_REFUSED = re.compile(
    r"\s*,?\s*(?:\bbut\s+)?\b(?:not|never)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:setpoints?|set\s+points?|readbacks?|read\s+backs?|sp|rb)\b(?=\s*(?:[,.;!?]|$))",
    re.I,
)
_NO_CHANGE_SAID = re.compile(
    r"(?:,\s*)?\b(?:but\s+|and\s+|just\s+)?(?:(?:please\s+)?(?:don'?t|do\s+not)|(?:i'?d|i\s+would)\s+"
    r"rather\s+not|without)\s+(?:set|change|touch|raise|lower|move|write|adjust|modify|send|apply)"
    r"(?:ing)?"
    r"(?:\s+(?:anything|it|them|that|yet|now|for\s+now))+\s*(?:[,.;]|$)"
    # "show HCM05's setpoint and readback, but leave them as they are"
    r"|(?:,\s*)?\b(?:but\s+|and\s+|just\s+)?(?:please\s+)?leave\s+(?:it|them|everything|all)\s+"
    r"(?:as\s+(?:it\s+is|they\s+are|is)|alone|be|where\s+(?:it\s+is|they\s+are))\s*(?:[,.;!]|$)",
    re.I,
)


_NAMED_IN_PARENTHESES = re.compile(
    r"(?P<lead>\b(?:of|for|on|at|from|read|show|check|plot|set|put|give|get|take|make)\s+|^)"
    r"(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){1,6}?"
    r"\(\s*(?:that'?s\s+|i\.?e\.?,?\s+|aka\s+)?(?P<device>[A-Za-z]{2,5}[\s-]?\d{1,3})\s*\)",
    re.I,
)
_APOLOGY_AFTER = re.compile(
    r"\s*[,;]?\s*\b(?:sorry|apologies)(?:\s+(?:if|for)\b[^,;.?!]*)?[\s.!]*$", re.I
)
_UNITS_NOT_COUNTED = re.compile(
    r"\b(?:by\s+)?(?:a\s+few|some|several|a\s+couple\s+(?:of\s+)?|a\s+handful\s+of)\s+"
    # a time is counted in its own words ("some hours ago" stays)
    r"(?!(?:h|hrs?|hours?|min|mins|minutes?|s|secs?|seconds?|days?|d|weeks?)\b)(?P<unit>[a-zµμ]{1,5})\b",
    re.I,
)
_NOT_THAT_TIME = re.compile(
    r"[,;]?\s+(?:and\s+)?not\s+(?:at\s+|on\s+)?(?:today|yesterday|tonight|this\s+(?:morning|afternoon|"
    r"evening)|last\s+night|\d{1,2}:\d{2})\b(?=\s*[,;.!?]|\s*$)",
    re.I,
)
_JUDGED_AFTER = re.compile(
    r"(?P<end>[?.!])\s*(?:(?:and\s+)?(?:is|was)\s+(?:that|this|it)\s+(?:normal|ok(?:ay)?|expected|"
    r"usual|unusual|bad|good|fine|a\s+problem|too\s+(?:much|many|often))|nothing\s+else|that'?s\s+"
    r"(?:all|it))\s*[?.!]*\s*$",
    re.I,
)
_DOUBT_BEFORE = re.compile(
    r"^\W*(?:sorry,?\s+)?(?:i'?m\s+not\s+(?:sure|certain)|i\s+(?:guess|suppose))"
    r"(?:\s+(?:how\s+to\s+(?:ask|say|put)\s+(?:this|it)|(?:if|whether)\s+[^,;?]{0,40}))?"
    r"\s*[,;:-]?\s*(?:but\s+)?"
    r"(?=(?:could|can|would|will|please|set|put|lower|raise|increase|decrease|read|show|plot|what|"
    r"is|are)\b|[A-Za-z]{2,5}\s?\d)",
    re.I,
)
_PURPOSE_LABEL = re.compile(
    r"(?<=\d)(?P<unit>\s*[a-zµ%]{0,4})\s*[,;]\s*(?!(?:then|and|also|now|please|to|after)\b)"
    r"(?:for\s+(?:the|an?|our)\s+)?(?:[a-z-]+\s+){0,3}"
    r"(?:test|tests|study|studies|scan|measurement|experiment|md|commissioning|calibration|"
    r"campaign)\s*[.!]*$",
    re.I,
)


# "nobody told me the number", "I don't know by how much": the amount is missing, said so
_AMOUNT_UNKNOWN = re.compile(
    r"\s*[,;.]?\s*(?:sorry,?\s*)?(?:(?:nobody|no\s+one)\s+(?:told|gave)\s+me|"
    r"i\s+(?:don'?t|do\s+not)\s+know|i'?m\s+not\s+sure\s+(?:of|about))\s+(?:the\s+)?"
    r"(?:number|value|amount|exact\s+(?:number|value|amount)|how\s+much|by\s+how\s+much)"
    r"[\s.!]*(?=[,;]|$)",
    re.I,
)
# "..., could you do it?", "Please do that", "can you sett it": what was said before is the
# request
_DO_IT_AFTER = re.compile(
    r"[?.!,;]\s*(?:actually,?\s+|on\s+second\s+thoughts?,?\s+)?(?:(?:yes|yeah|yep),?\s+)?"
    # "should VCM 11 be the same as VCM 10? I think so, please copy it over"
    r"(?:i\s+(?:think|guess|believe)\s+so,?\s+)?"
    r"(?:so\s+|then\s+|ok(?:ay)?,?\s+)?(?:(?:please|pls|kindly)\s+)?"
    r"(?:(?:could|can|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+)?)?(?:go\s+ahead\s+and\s+)?"
    r"(?:(?:do|sett?|make|apply|change|execute|perform)\s+(?:it|that|this|so|the\s+change)\b|"
    r"copy\s+(?:it|that|this)(?:\s+(?:over|across))?\b|go\s+ahead\b)"
    r"(?:\s+(?:please|pls|for\s+me|now|then|instead|so))*[\s?.!]*$",
    re.I,
)
_PROPOSAL_LEAD = re.compile(
    r"^\W*(?:(?:i\s+(?:think|believe|guess|suppose|reckon)|maybe|perhaps|probably)\s*,?\s*"
    r"(?:that\s+)?)?(?:(?:i|we)\s+(?:should|need\s+to|have\s+to|must|ought\s+to|want\s+to)\s+"
    # "should I maybe lower VCM 25 by 0.1? actually yes, please do it": asked, then answered
    r"(?=[a-z]+\s)|(?:should|shall|can|could)\s+(?:i|we)\s+(?:maybe\s+|perhaps\s+|just\s+)?"
    # "is it ok if I set HCM 12 to 0.25 A? yes, do it", "would it hurt to ...? go ahead"
    r"(?=[a-z]+\s)|(?:is|would)\s+it\s+(?:be\s+)?(?:ok(?:ay)?|fine|alright|safe|a\s+problem)\s+"
    r"(?:if\s+(?:i|we)|to)\s+(?=[a-z]+\s)|would\s+it\s+hurt\s+to\s+(?=[a-z]+\s))?",
    re.I,
)


_SHOULD_IT_BE = re.compile(r"^\W*should\s+(?P<what>[^?,;]+?)\s+be\s+(?=the\s+same\b|equal\b)", re.I)
_STRENGTH_OF = re.compile(
    r"(?:(?<=\braise\s)|(?<=\blower\s)|(?<=\breduce\s)|(?<=\bincrease\s)|(?<=\bdecrease\s)|"
    r"(?<=\bchange\s)|(?<=\bset\s)|(?<=\badjust\s))(?:the\s+)?(?:field\s+)?strength\s+(?:of\s+)?",
    re.I,
)
_WAY_VERBS = {
    "up": "raise",
    "higher": "raise",
    "dn": "lower",
    "down": "lower",
    "lower": "lower",
    "adjust": "adjust",
    "tweak": "adjust",
    "change": "change",
    "↑": "raise",
    "⬆": "raise",
    "↓": "lower",
    "⬇": "lower",
}
_TERSE_WAY = re.compile(
    # "VCM 3 down pls", "please QD40 up": a polite word either side changes nothing
    r"^\W*(?:(?:please|pls|plz)\s+)?"
    r"(?P<what>(?:sr\d{1,2}c[\s:.]*)?[a-z]{1,5}\s?\d{1,3}(?:[\s:.]+(?:sp|setpoint|gap))?)\s+"
    r"(?P<way>up|higher|dn|down|lower|adjust|tweak|change|[↑⬆↓⬇])(?:\s*,?\s*(?:please|pls|plz))?"
    # "QD 40 ↑ ?": an arrow says a way, never asks whether it is up
    r"(?:(?<=[↑⬆↓⬇])\s*\?+)?\s*[.!]*\s*$",
    re.I,
)
_NEW_VALUE = r"(?:a\s+)?(?:new|different|another)\s+(?:value|setpoint|setting|set\s*point)"
_NEW_VALUE_AFTER = re.compile(
    rf"^\W*(?P<what>[^,;?]+?)\s*(?:[-–—:,]\s*|\s+(?:needs?|wants?|should\s+get)\s+){_NEW_VALUE}"
    r"(?:\s+(?:pls|plz|please|needed|asap))?\W*$",
    re.I,
)
_NEW_VALUE_FOR = re.compile(
    rf"^\W*(?:(?:i\s+need|we\s+need|give|set)\s+)?{_NEW_VALUE}\s+(?:for|on)\s+(?P<what>[^,;?]+?)"
    r"(?:,?\s*(?:pls|plz|please))?\W*$",
    re.I,
)
_A_WINDOW = re.compile(
    r"\b(?:(?:in|over|with)\s+)?(?:an?\s+)?(?P<n>\d+(?:\.\d+)?)[\s-]*(?P<unit>h|hrs?|hours?|mins?|minutes?|days?)"
    r"\s+(?:window|span|range|period)\b",
    re.I,
)
_SAME_AS_THEN = re.compile(
    r"^(?P<what>[^?]+?)\s+(?:(?:still|now|is\s+it)\s+)?(?:the\s+)?same\s+as\s+"
    r"(?P<when>(?:at\s+)?\d{1,2}(?::\d\d)?(?:\s*(?:am|pm|o'?clock))?(?:\s+(?:yesterday|this\s+morning))?|"
    r"yesterday|this\s+morning|last\s+night|(?:an?|\d+)\s+(?:hours?|minutes?|days?)\s+ago|"
    r"before\s+the\s+[a-z]+)\s*\?+\s*$",
    re.I,
)
_HOW_FAR_IT_GOT = re.compile(
    r"\bhow\s+(?P<way>bad|high|low|far\s+up)\s+(?:did|has|had)\s+(?P<what>.+?)\s+(?:get|go|got|gone)"
    r"(?:\s+anywhere)?\b",
    re.I,
)
_FROM_ONWARDS = re.compile(
    r"\bfrom\s+(?P<when>(?:\d{1,2}(?::\d\d)?(?:\s*(?:am|pm|o'?clock|h))?|noon|midnight)"
    r"(?:\s+(?:this\s+morning|today|yesterday|last\s+night))?)\s+(?:onwards?|on)\b(?!\s+\w)",
    re.I,
)
_SPAN_BACK = re.compile(
    rf"(?P<span>\b(?:\d+(?:\.\d+)?|an?|{SPELLED_NUMBER_PATTERN})\s*(?:hours?|hrs?|h|minutes?|mins?|"
    r"days?|weeks?))\s+back\b(?!\s+(?:to|in|by|down|up|on)\b)",
    re.I,
)
_CONFIRM_A_VALUE = re.compile(
    r"^\W*(?:(?:please|pls|plz|can\s+you|could\s+you|kindly|just|now|then|and)\s+)*"
    r"(?:(?:confirm|verify|double[-\s]?check|check|make\s+sure|ensure)\s+(?:that\s+|whether\s+|if\s+)?"
    r"(?P<what>[^=?;,]+?)\s*(?:\b(?:is|are|stays?|remains?|still|reads?|set|sits?)\b\s*|=+\s*|"
    r"(?<=\bsp)\s+|(?<=\brb)\s+)+(?:(?:at|to|on)\s+)?"
    r"|(?:keep|hold|leave)\s+(?P<kept>[^=?;,]+?)\s+(?:at|on)\s+)"
    r"(?P<value>[-+]?\d*\.?\d+\s*(?:%|[a-zµ]{1,4}\b)?)(?:\s+(?:please|pls|thanks))?\s*[.!?]*\s*$",
    re.I,
)
_ONE_OF_A_UNIT = re.compile(
    r"\b(?P<article>an?)\s+(?P<unit>amp(?:ere)?|milliamp(?:ere)?|millimet(?:er|re)|mm|volt|"
    r"kilovolt|megavolt|kv|mv|hertz|kilohertz|khz|mhz)\b(?!-)",
    re.I,
)


_SETPOINT_VALUE_ASKED = re.compile(
    r"^\W*(?P<what>[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:gap|current|voltage|frequency))?)\s+"
    r"(?:setpoint|sp|set\s*point)\s*[:=]?\s*(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
    r"(?:\s*[a-zµ%]{1,4})?)[\s,]+(?:please|pls|plz|now)\W*$",
    re.I,
)
_POSITIVE = {
    "isn't": "is",
    "aren't": "are",
    "wasn't": "was",
    "weren't": "were",
    "hasn't": "has",
    "haven't": "have",
    "hadn't": "had",
    "doesn't": "does",
    "didn't": "did",
    "can't": "can",
    "couldn't": "could",
    "won't": "will",
    "wouldn't": "would",
    "shouldn't": "should",
}
_NEGATIVE_LEAD = re.compile(
    r"(?P<lead>(?:^|[.?!;]\s+|\n)\W*(?:(?:hmm+|so|and|but|ok(?:ay)?|well|wait)\W+)*)"
    r"(?P<aux>isn't|aren't|wasn't|weren't|hasn't|haven't|hadn't|doesn't|didn't|can't|couldn't|"
    r"won't|wouldn't|shouldn't)(?=\s+\w)",
    re.I,
)
_TAG_QUESTION = re.compile(
    r",?\s+(?:(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|should)(?:n't)?"
    r"\s+(?:it|they|there|that|he|she|we|i)|right|correct|no|yes|yeah|eh)\s*\?(?=\s*$)",
    re.I,
)
_QUANTITY_AT_AN_HOUR = re.compile(
    r"^\W*(?P<what>(?:the\s+)?(?!(?:is|are|was|were|set|put|make|move|keep|hold|leave)\b)"
    r"[A-Za-z][A-Za-z ]{1,40}?)\s+at\s+(?P<hour>[1-9]|1[0-2])\s*\??\s*$",
    re.I,
)


def _moment_of_a_quantity(found: re.Match[str]) -> str:
    """ "lifetime at 1" -> "what was lifetime at 1 o'clock?"; as typed when a verb, a question
    or a courtesy leads it ("please set the gap at 5", "can I see it at 2")."""
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", found["what"])}
    if said & (CHANGE | READ_VERBS | PLOT_VERBS | _NOT_A_QUANTITY):
        return found.group(0)
    return f"what was {found['what']} at {found['hour']} o'clock?"


_NOT_A_QUANTITY = frozenset(
    {
        *("please", "pls", "can", "could", "would", "will", "you", "i", "we", "it", "them"),
        *("that", "this", "is", "are", "was", "were"),
    }
)
_CURRENT_AS_NOW = re.compile(
    r"\bcurrent\s+(?=(?:vacuum|pressures?|gaps?|lifetime|tunes?|positions?|orbit|voltages?|"
    r"frequenc(?:y|ies)|values?|readings?|settings?|status|state|temperatures?|energy|emittance|"
    r"chromaticit(?:y|ies)|flux|fill|conditions?|numbers?)\b)",
    re.I,
)
_FROM_SPELLED_TO = re.compile(
    rf"\bfrom\s+(?P<old>{SPELLED_NUMBER_PATTERN}|[-+]?\d+(?:\.\d+)?)\s+to\s+"
    rf"(?P<new>{SPELLED_NUMBER_PATTERN}|[-+]?\d+(?:\.\d+)?)(?=\s*(?:amps?|amperes?|a|mm|"
    r"millimet(?:er|re)s?|volts?|mv|kv|hz|khz|mhz|mega\s*hertz)\b)",
    re.I,
)


def _from_to_typed(found: re.Match[str]) -> str:
    old, new = read_number(found["old"]), read_number(found["new"])
    if old is None or new is None:
        return found[0]
    return f"from {as_typed(old)} to {as_typed(new)}"


_HOW_MANY_UNITS = re.compile(
    r"\bhow\s+(?:many|much)\s+(?P<unit>[A-Za-zµμ]{1,12})\s+(?P<verb>is|are|does|do|did|has|have)\s+"
    r"(?P<what>[^?.!,;]+?)\s+(?:drawing|pulling|taking|delivering|giving|putting\s+out|using|"
    r"running\s+at|sitting\s+at|at|reading|showing|have|got|show|read|draw|pull)(?=\s*[?.!]|\s*$)",
    re.I,
)


def _reading_in_units(found: re.Match[str]) -> str:
    names = spoken_names(found["unit"])
    if lookup_unit(found["unit"]) is None or not names:
        return found[0]
    what = found["what"].strip()
    if re.fullmatch(r"(?:we|you|i|they)", what, re.I):  # "how many mA do we have"
        return f"how many {names[0]} are there"
    return f"what is {what} reading in {names[0]}"


def _one_of_a_unit(found: re.Match[str]) -> str:
    """ "an amp" -> "1 amp", unless a fraction or a count comes before the article ("half an
    amp", "a quarter of an amp", "a tenth of a millimetre" are read by the number grammar)."""
    before = found.string[: found.start()].split()[-1:]
    if before and before[0].lower() in ("half", "of", "quarter", "third", "tenth", "fraction"):
        return found.group(0)
    return f"1 {found['unit']}"


_PLACE_NUMBERED = re.compile(r"\b(?:sector|sectors|cell|cells|straight|arc)\s?\d{1,3}$", re.I)
_SHOWN_IN = re.compile(
    r"(?:(?<![\d.])|(?<=\bsector\s\d)|(?<=\bsector\s\d\d)|(?<=\bsectors\s\d)|(?<=\bcell\s\d))"
    r"[,;]?\s*\b(?:in|as)\s+(?:units\s+of\s+)?(?P<unit>[A-Za-zµ°%][A-Za-zµ°%/]{1,11})"
    r"(?P<tail>\s*(?:,?\s*(?:if\s+(?:you\s+)?(?:can|could|possible)|please|thanks|instead))*)"
    r"(?=\s*[.!?]*\s*$)",
    re.I,
)


_VALUE_IN_UNIT = re.compile(
    r"(?P<value>(?<![\w.:])[-+−]?(?:\d+(?:\.\d*)?|\.\d+))\s+in\s+(?P<unit>[A-Za-zµ°%]{1,12})\b"
)


def _value_in_unit(found: re.Match[str]) -> str:
    if lookup_unit(found["unit"]) is None or _PLACE_NUMBERED.search(
        found.string[: found.end("value")]
    ):
        return found.group(0)  # "horizontal orbit sector 4 in microns": a place, no value
    return f"{found['value']} {found['unit']}"


def _unit_shown_in(found: re.Match[str]) -> str:
    before = found.string[: found.start()]
    if re.search(r"(?:\bto|\bat|\bby|=|->|→)\s*[-+−]?\.?\d[\d.,]*\s*$", before):
        return found.group(0)  # "set HCM 3 to 500 in mA": the unit of the value given
    return "" if lookup_unit(found["unit"]) is not None else found.group(0)


_TOLD_TO = re.compile(
    r"^\W*(?:(?:i|we)(?:\s+(?:was|were|have\s+been|got|am|are)|'ve\s+been|'m|'re)\s+"
    r"(?:told|asked|instructed)|"
    r"(?:[a-z]+\s+){1,4}?(?:told|asked|wants?)\s+(?:me|us))\s+to\s+"
    r"(?P<change>[^,;?—–]+?)\s*(?:(?:[,;]|\s[-—–])?\s*(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?:do|handle|manage|take\s+care\s+of|prepare|set\s+up|queue)\s+(?:that|it|this)"
    r"(?:\s+for\s+(?:me|us))?(?:\s+(?:to\s+approve|to\s+look\s+at|for\s+approval))?)?\s*[?.!]*$",
    re.I,
)
_DANGLING_VALUE = re.compile(
    r"^\W*(?!(?:what|which|who|how|where|why|when|is|are|does|do|did|can|could)\b)"
    r"(?:(?:set|put|change|move|take|bring)\s+)?"
    r"(?P<what>(?:the\s+)?[A-Za-z]{2,5}\s?\d{1,3}(?:\s+[A-Za-z]+){0,2}?)\s*(?:\bto|=|->|→)\s*[.!]*$",
    re.I,
)
_SIGN_WAY = re.compile(r"\b(?P<more>more|less)\s+(?P<sign>negative|positive)\b", re.I)


def _sign_way(found: re.Match[str]) -> str:
    down = (found["more"].lower() == "more") == (found["sign"].lower() == "negative")
    return "lower" if down else "higher"


def proposal_asked_for(text: str) -> str:
    """``text`` as the change it proposes when it ends by asking that it be done ("I think QF 29
    should go up by 1 percent? could you do that please"): the hedge, the modal of the
    proposal and the closing ask left out. A remark that the amount is not known ("nobody told
    me the number") is left out of any request; anything else stays as typed."""
    said = _AMOUNT_UNKNOWN.sub("", text)  # "nobody told me the number": the amount is asked
    # "I need X; could you find it for me?", "we agreed on X at V; could you apply those?"
    said = _NEEDED_THEN_FIND_IT.sub(lambda m: f"show {m['what'].strip()}", said, count=1)
    said = _AGREED_THEN_APPLY.sub(lambda m: f"set {m['what'].strip()}", said, count=1)
    # "I've been asked to raise QD 30 by 2 % - could you prepare that for me to approve?"
    said = _TOLD_TO.sub(r"\g<change>", said)
    work = _APOLOGY_AFTER.sub("", said)
    asked = _DO_IT_AFTER.search(work)
    if asked is None or asked.start() == 0:
        return said
    head = work[: asked.start()]
    lead = _PROPOSAL_LEAD.match(head)
    questioned = head.rstrip().endswith("?") or work[asked.start() :].lstrip().startswith("?")
    if not (lead and lead.group(0).strip(" ,")) and not questioned:
        return said  # "..., so please set that": a request that says its own change
    proposal = head[lead.end() if lead else 0 :].strip(" ,;?")
    # "should VCM 11 be the same as VCM 10? I think so, ...": the device made what it should be
    proposal = _SHOULD_IT_BE.sub(r"make \g<what> ", proposal)
    return proposal if re.search(r"[a-z]{2}", proposal, re.I) else said


def _without_reasons(text: str) -> str:
    """``text`` without a reason said before or after the request."""
    text = _PURPOSE_AFTER_A_VALUE.sub(r"\g<value>", text, count=1)
    text = _WHILE_AFTER_A_VALUE.sub(r"\g<value>", text, count=1)
    reason = _REASON_FIRST.search(text) or _STATED_THEN_ASKED.search(text)
    if reason is not None:
        text = _it_named(text[reason.end() :], reason.group(0))
    text = _REASON_AFTER.sub("", text, count=1)
    text = _EXPECTED_AFTER.sub("", text, count=1)
    if re.search(rf"\d|{SPELLED_NUMBER_PATTERN}", text, re.I):
        text = _TOLD_AFTER_A_VALUE.sub("", text, count=1)
    text = _FOR_THE_RECORD.sub("", text, count=1)
    return _statements_after_dropped(text)


def _it_named(request: str, reason: str) -> str:
    """``request`` with its "it" named by what the reason before it spoke of ("For the energy
    scan the RF frequency has to go up by 1 kHz, so please set it to 499.655 MHz"), and "our
    gap" by the one undulator it named ("we're changing samples at ID 4 - please open our gap
    to 40 mm")."""
    places = set(re.findall(r"\bID\s?0*(\d{1,2})\b", reason, re.I))
    if len(places) == 1:
        request = undulator_named(request, f"ID{int(next(iter(places))):02d}")
    subject = _SUBJECT_OF_A_NEED.search(reason)
    if subject is None or not re.search(r"\bit\b", request, re.I):
        return request
    return re.sub(r"\bit\b", subject["what"], request, count=1, flags=re.I)


#: "we're changing samples at ID 4 - please open our gap to 40 mm", "the ID 11 users want a
#: higher photon energy - please open the ID11 gap by 1.5 mm": a statement, then the request
_STATED_THEN_ASKED = re.compile(
    r"^\W*(?:the|we|we'?re|our|my|users?|beamline|they|[a-z]{2,5}\s?\d{1,3})\b[^?;:]{3,120}?"
    r"\s+[-–—]+\s+(?=(?:please|pls|kindly|so|could\s+you|can\s+you|would\s+you)\b)",
    re.I,
)
#: the subject of a need in a reason: "the RF frequency has to go up", "HCM 3 should be higher"
_SUBJECT_OF_A_NEED = re.compile(
    r"(?:\bthe\s+|^\W*)(?P<what>(?:(?!the\b|it\b|we\b|i\b|they\b)[A-Za-z0-9:-]+\s+){0,3}?"
    r"(?!the\b|it\b|we\b|i\b|they\b|this\b|that\b)[A-Za-z0-9:-]+)\s+(?:has|have|needs?|should|must|"
    r"ought)\s+(?:to\s+)?(?:go|be|come|get|move)\b",
    re.I,
)


#: a request's lead: a verb of its own, or a polite one before it
_ASKING_LEAD = re.compile(
    r"^\W*(?:(?:please|pls|kindly|now|ok(?:ay)?|so)\s*,?\s+)*(?:(?:could|can|would|will)\s+you\s+"
    r"(?:please\s+)?)?(?P<verb>[a-z]+)\b",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.;?!])\s+(?=[A-Za-z])")


_ABOUT_APPROVING = re.compile(
    r"^(?:i|we)\b[^?]*\b(?:before\s+(?:i|we)\s+approve|before\s+approving|(?:to|then|i'?ll|we'?ll)\s+"
    r"approve|the\s+approval)\b[^?]*[.!]?$",
    re.I,
)


#: a sentence that adds to the request ("And the current.", "Also the lifetime.")
_MORE_ITEMS = re.compile(r"^\W*(?:and|also|plus|as\s+well\s+as|or|then|together\s+with)\b", re.I)


def _statements_after_dropped(text: str) -> str:
    """ "Please set HCM 20 to -1.5 A; the orbit group computed that value this morning.",
    "Could you tell me the tune two hours ago? Someone reported a shift and I want to
    check.": sentences after a request that only tell (no verb of a request, no question, no
    device, no number) are its reason; their words and times are not the request's."""
    sentences = _SENTENCE_END.split(text.strip())
    if len(sentences) < 2:
        return text
    asks = READ_VERBS | PLOT_VERBS | CHANGE | {"tell", "give", "find", "check"}
    lead = _ASKING_LEAD.match(sentences[0])
    asked = sentences[0].rstrip().endswith("?")  # "How often did ...? I'm not sure how to ..."
    if not asked and (lead is None or lead["verb"].lower() not in asks):
        return text
    kept = [sentences[0]]
    for sentence in sentences[1:]:
        if _ABOUT_APPROVING.search(sentence):
            continue  # "I'd like to check before approving.": the approval dialog is that
        more = _MORE_ITEMS.match(sentence) is not None  # "And the current.": an item of its own
        # a verb of a request leads the sentence or follows "to" ("I want to check it");
        # "I need it for the weekly report" tells what the request is for
        opening = _ASKING_LEAD.match(sentence)
        wanted = {w.lower() for w in re.findall(r"\bto\s+([a-z]+)", sentence, re.I)}
        asking = bool(opening and opening["verb"].lower() in asks) or bool(wanted & asks)
        if (
            more
            or "?" in sentence
            or asking
            or named_devices(sentence)
            or re.search(r"\d", sentence)
        ):
            kept.append(sentence)
    return " ".join(kept)


_BEAM_THERE = re.compile(
    r"\b(?:is\s+(?:the\s+)?beam\s+(?:still\s+)?(?:there|on|up|in|alive|present|stored|back)|"
    r"do\s+we\s+(?:still\s+)?have\s+(?:any\s+)?beam|(?:is\s+there|any)\s+(?:still\s+)?beam"
    r"(?:\s+(?:in\s+the\s+ring|stored|left))?)(?=\s*(?:[?.!]|$))",
    re.I,
)
_ON_ONE_PLOT = re.compile(
    r"\b(?:put|show|draw|display|place)\s+(?P<what>(?:them|it|these|those|both|all)|[^,;.?!]{1,60}?)\s+"
    r"(?:together\s+)?(?:on|in|into)\s+(?:one|a|a\s+single|the\s+same|a\s+common)\s+"
    r"(?:plot|chart|graph|figure|window)\b",
    re.I,
)


_A_PLOT_OF = re.compile(
    r"\b(?:a|one|the)\s+(?:single\s+|quick\s+|combined\s+|common\s+)?(?:trend\s+)?"
    r"(?:chart|plot|graph|figure|trend)\s+(?:of|for|with|showing)\s+",
    re.I,
)


_SEEMS_OFF_CHECK_IT = re.compile(
    r"^\W*(?P<what>(?:the\s+)?[a-z][\w\s]{0,30}?)\s+(?:looks?|seems?|is|'s)\s+(?:a\s+bit\s+|rather\s+|"
    r"too\s+|very\s+|quite\s+)?(?:low|high|off|odd|weird|strange|wrong|noisy|bad|unstable)"
    r"(?:\s+to\s+me)?\s*(?:[-–—,;:.]|\s)\s*(?:(?:can|could)\s+you\s+|please\s+)?"
    r"(?P<verb>check|read|show)\s+(?:it|them|that)\b",
    re.I,
)
_TAKE_OUT_TO = re.compile(
    r"\b(?:take|bring|move)\s+(?P<what>(?:the\s+)?[^,;?.]{1,30}?)\s+(?P<way>out|in)\s+(?=to\s+[-+]?\.?\d)",
    re.I,
)
_ELSE_NOTHING = re.compile(
    r"[,;]?\s*\b(?:else|otherwise|if\s+not)\b[,\s]*(?:just\s+)?(?:leave\s+(?:it|them|everything)"
    r"(?:\s+(?:alone|be|as\s+(?:it\s+is|they\s+are)))?|do\s+nothing|nothing|don'?t\s+touch\s+"
    r"(?:it|them|anything)|keep\s+(?:it|them)(?:\s+as\s+(?:it\s+is|they\s+are))?|no\s+change)"
    r"\s*[.!]*\s*$",
    re.I,
)
_ASKED_IF_SO = re.compile(
    # "lifetime above 8 h? then HCM 34 +0.4A": the verb of the question left out
    r"^\W*(?:(?P<be>is|are)\s+)?(?P<what>[^?]{1,60}?)\s+(?P<compared>(?:still\s+)?(?:beyond|above|over|"
    r"below|under|greater\s+than|more\s+than|less\s+than|higher\s+than|lower\s+than|at|"
    r"not\s+at)\s+[-+−]?\.?\d[^?]*?)\s*\?\s*(?:(?:and\s+)?if\s+(?:so|yes|it\s+is|they\s+are)|"
    r"then|yes\s*\?)[,:\s]+(?P<then>.+)$",
    re.I,
)
_SIGN_COMPARED = re.compile(
    r"(?P<lead>\b(?:if|when|whenever|unless|once)\s+[^,;?]{1,40}?\s+(?:is|are|goes|gets|reads|"
    r"turns)(?:\s+still)?)\s+(?P<sign>negative|positive)\b",
    re.I,
)
_HALVED = re.compile(
    # (never after "to" or "be": "set QF 3 to double QF 5" gives QF 3 another device's value)
    r"(?<!\bto\s)(?<!\bbe\s)\b(?:(?P<verb>halve|double|triple)\s+(?P<what>it|them|(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}"
    r"(?:\s+(?:setpoint|sp|current|gap))?)|cut\s+(?P<cut>it|them|(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3})"
    r"\s+in\s+half)(?=\s*(?:[,.;!?]|$|\b(?:please|pls|now|then|and)\b))",
    re.I,
)


def _halved(found: re.Match[str]) -> str:
    """ "halve it" -> "decrease it by 50%", "double QF 3" -> "increase QF 3 by 100%"."""
    if found["cut"]:
        return f"decrease {found['cut']} by 50%"
    verb = found["verb"].lower()
    if verb == "halve":
        return f"decrease {found['what']} by 50%"
    return f"increase {found['what']} by {100 if verb == 'double' else 200}%"


_MESSAGE_PARTS = re.compile(
    r"^\W*(?:(?:two|three|four|a\s+few|some|a\s+couple\s+of)\s+(?:things|items|points|tasks|requests)|"
    r"(?:last|first|next|final|one\s+more)\s+(?:item|thing|point|task)(?:\s+on\s+my\s+list)?|"
    r"(?:tasks?|items?|to-?dos?|jobs?)\s+for\s+(?:the\s+)?(?:night|day|late|early|next)?\s*shift)"
    r"\s*(?::|-|,)\s*",
    re.I,
)


_VAGUE_THEN_SAY = re.compile(
    r"(?P<between>[^,;.?!()]*?)"
    r"\s*(?:\b(?:a\s+(?:little|bit|touch|tad)|slightly|somewhat)\b\s*(?:(?:smaller|larger|bigger|"
    r"lower|higher|narrower|wider|less|more)\b)?|\b(?:smaller|larger|bigger|lower|higher|narrower|"
    r"wider)\b)(?:\s+for\s+(?:the\s+|them|us|me)\w*)?"
    r"\s*(?:[,;]|\s[-–—]|(?P<paren>\())\s*(?:say|let'?s\s+say|something\s+like|maybe|perhaps|about|"
    r"around|roughly|approximately|approx\.?)\s+(?P<value>[-+−]?\.?\d[\d.]*\s*(?:%|[a-zµ]{1,4}\b)?)"
    r"(?(paren)\s*\))",
    re.I,
)


def _vague_then_said(found: re.Match[str]) -> str:
    """ "make the gap a little smaller, say 12 mm": to 12 mm (the state it is made); "lower
    HCM 3 a bit (maybe 0.2 A)": by 0.2 A (the verb's way); "open the gap a bit, say 20 mm"
    stays open to the writer's question, to or by."""
    verbs = re.findall(
        r"\b(raise|lower|increase|decrease|reduce|bump|drop|open|close|widen|narrow)\b",
        found["between"],
        re.I,
    )
    verb = verbs[-1].lower() if verbs else ""
    word = "" if verb in ("open", "close") else "by " if verb else "to "
    return f"{found['between']} {word}{found['value']}"


_DEVICE_THEN_COMPARED = re.compile(
    r"^\W*(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:gap|current|setpoint|sp))?)\s+"
    r"(?P<cmp>smaller|larger|bigger|wider|narrower|higher|lower|stronger|weaker)"
    r"(?=\s*(?:pls|please|thanks|now|a\s+bit|a\s+little)?\W*$)",
    re.I,
)
_NEEDS_TO_BE_MORE = re.compile(
    r"^\W*(?P<what>[^,;?]{2,60}?)\s+(?:needs?|has|have|ought|should|must)\s+(?:to\s+)?(?:be|go|sit|get)\s+"
    r"(?P<amount>[-+]?\.?\d[\d.]*\s*(?:%|[a-zµ]{1,5}\b)?)\s+(?P<cmp>stronger|weaker|higher|lower|more|"
    r"less|wider|narrower|larger|smaller|bigger)\b(?!\s+than\b)",
    re.I,
)
_COMPARATIVE_OF = {
    "high": "higher",
    "low": "lower",
    "strong": "stronger",
    "weak": "weaker",
    "wide": "wider",
    "narrow": "narrower",
    "large": "larger",
    "small": "smaller",
    "big": "bigger",
}
_MORE_WORDS = frozenset({"stronger", "higher", "more", "wider", "larger", "bigger"})
_DESCRIBED_IN_PLACE = re.compile(
    r"\bthe\s+(?:(?:first|second|third|fourth|fifth|last|middle)\s+)?"
    r"(?P<head>(?!one\b)[a-z]+(?:\s+(?!one\b)[a-z]+){0,2}?)\s+(?P<place>(?:in|of|at)\s+sector\s+\d{1,2})\b",
    re.I,
)
_ONE_AGAIN = re.compile(
    r"\bthe\s+(?:(?P<ord>first|second|third|fourth|fifth|last|middle)\s+)?one"
    r"(?:\s+(?P<place>(?:in|of|at)\s+sector\s+\d{1,2}))?\b(?!\s+of\b)",
    re.I,
)


def _one_said_again(text: str) -> str:
    """ "the one in sector 9" -> "the undulator in sector 9" after "the undulator in sector
    11"; "the first one" -> "the first defocusing quad of sector 4" after "the second
    defocusing quad of sector 4"."""
    first = _DESCRIBED_IN_PLACE.search(text)
    if first is None:
        return text

    def again(found: re.Match[str]) -> str:
        if found.start() < first.end() or not (found["ord"] or found["place"]):
            return found.group(0)
        ordinal = f"{found['ord']} " if found["ord"] else ""
        return f"the {ordinal}{first['head']} {found['place'] or first['place']}"

    return _ONE_AGAIN.sub(again, text)


_NEEDS_CHANGING = re.compile(
    r"^\W*(?P<what>[^,;?]{2,60}?)\s+(?:needs?|has\s+to|must|should)\s+(?:changing|adjusting|"
    r"(?:to\s+)?be\s+(?:changed|adjusted|moved)|to\s+(?:change|move))\b",
    re.I,
)
_OUR_BEAMLINE_SITS = re.compile(
    r"^\W*(?:our|my|the)\s+(?:beamline|experiment|station|hutch)\s+(?:sits|is|lives)\s+(?:in|at|on)\s+"
    r"(?P<place>sector\s+\d{1,2})\s*[.,;:]\s*(?P<rest>.+)$",
    re.I,
)


def _its_in_that_sector(found: re.Match[str]) -> str:
    """ "Our beamline sits in sector 11. Can you take its undulator gap to 16.5 mm?" ->
    "Can you take the undulator gap in sector 11 to 16.5 mm?"."""
    rest = found["rest"]
    said = re.sub(
        r"\b(?:its|our|my|their)\s+(?P<what>(?:undulator|insertion\s+device|id)(?:\s+gap)?|gap)\b",
        lambda m: f"the {m['what']} in {found['place']}",
        rest,
        count=1,
        flags=re.I,
    )
    return said if said != rest else found.group(0)


_ORDINAL_WORDS = r"first|second|third|fourth|fifth|sixth|last|middle|1st|2nd|3rd|4th|5th|6th"
_WHICH_ONE_AFTER = re.compile(
    r"\bthe\s+(?P<what>(?!(?:" + _ORDINAL_WORDS + r")\b)[a-z][a-z\s]{2,40}?(?:\s+(?:in|of)\s+"
    r"sector\s+\d{1,2})?)\s*,\s*the\s+(?P<which>" + _ORDINAL_WORDS + r")\s+one\b\s*,?",
    re.I,
)
_PLACE_ORDINAL = {
    "start": "first",
    "beginning": "first",
    "end": "last",
    "middle": "middle",
    "centre": "middle",
    "center": "middle",
}
_WHERE_IN_THE_SECTOR = re.compile(
    r"\bthe\s+(?P<what>[a-z][a-z\s]{2,40}?)\s+(?:at|in)\s+the\s+(?P<where>start|beginning|end|"
    r"middle|centre|center)\s+of\s+(?P<place>sector\s+\d{1,2})\b",
    re.I,
)
_COUNTED_FAMILY = re.compile(
    r"(?P<lead>(?:^|[,;:]\s*|\b(?:and|plus|show|read|plot|check|the|of)\s+))(?:the\s+)?"
    r"(?:both|two|three|four|five|six)\s+"
    r"(?=(?P<family>(?:sector\s+\d{1,2}\s+|[a-z]+\s+){0,2}(?P<plural>[a-z]{3,}s))\b)",
    re.I,
)


def _counted_family(found: re.Match[str]) -> str:
    """ "the two sector 5 gauges" -> "all sector 5 gauges"; "two amps down", "three hours"
    stay (an amount, a span)."""
    plural = found["plural"].lower()
    family = found["family"].lower().split()
    if (
        lookup_unit(plural)
        or lookup_unit(plural[:-1])
        or plural in _SPANS
        or re.search(r"(?:ss|is|us|ys)$", plural)
        or any(w.isalpha() and read_number(w) is not None for w in family)
    ):
        return found.group(0)  # "five thirty this morning": a time, not five of a family
    return f"{found['lead']}all "


_SPANS = frozenset(
    {"hours", "minutes", "mins", "days", "weeks", "seconds", "secs", "times"}
    | {"things", "items", "points", "tasks", "requests", "questions", "steps"}
)
_FAMILY_IN_A_NUMBER = re.compile(
    r"\b(?P<family>(?!(?:hours|minutes|mins|secs|seconds|days|times|steps|amps|volts)\b)"
    r"[a-z]{3,}s)\s+in\s+(?P<n>\d{1,2})\b(?![.:,]\d|\s*(?:h|hrs?|hours?|min|mins|minutes?|"
    r"s|sec|secs|seconds?|days?|am|pm|a\.m\.|p\.m\.|o'?clock|mm|%|steps?)\b)",
    re.I,
)
_SECTOR_BEAMLINE = re.compile(
    r"\b(?:for|of|at|on|in)\s+(?:the\s+)?sector\s+(?P<n>\d{1,2})\s+beamline\b", re.I
)
_THE_WHOLE_OF = re.compile(
    r"\b(?:(?:over|for|during|across|throughout|through)\s+)?(?:the\s+)?(?:whole|entire|full)\s+"
    r"(?:of\s+)?(?=yesterday|today|last\s+night|tonight|this\s+(?:morning|afternoon|evening|shift)|"
    r"the\s+(?:night|day|shift|morning|afternoon|evening|weekend)\b)"
    r"|\ball\s+(?:of\s+|day\s+|night\s+)?(?=yesterday\b|last\s+night\b|today\b)",
    re.I,
)
_HOW_IT_LOOKED = re.compile(
    # "how did the lifetime behave yesterday evening?": the auxiliary is no part of the thing
    r"\bhow\s+(?:(?:did|does|do|has|have)\s+)?(?!(?:often|much|many|long|far|high|low|fast|big|"
    r"large|small)\b)"
    r"(?P<what>(?:the\s+)?[^?.;,!]{1,60}?)\s+(?:looked|behaved|evolved|developed|fared|performed|"
    r"(?:has|have)\s+been\s+(?:doing|behaving|looking)|was\s+(?:doing|behaving|looking))\b",
    re.I,
)
_HOW_DID_IT_LOOK = re.compile(
    r"\bhow\s+(?:did|does|do)\s+(?P<what>(?:the\s+)?[^?.;,!]{1,60}?)\s+(?:look|behave|evolve|"
    r"develop|fare|perform)\b",
    re.I,
)
_TODAY_IN_THE_PRESENT = re.compile(
    r"^\W*(?:(?:what|which|how\s+(?:much|many|high|low))\b[^.;!]*?(?:\b(?:is|are|am)\b|'s\b|'re\b)"
    r"|(?:is|are)\b)[^.;!]*\btoday\b\s*[?.!]*\s*$",
    re.I,
)
_PAST_OR_SPAN = re.compile(
    r"\b(?:was|were|been|did|had|has|have|since|until|from|plot|trend|history|average|mean|max|"
    r"maximum|min|minimum|highest|lowest|peak|worst|best|over|during|so\s+far|all\s+day|through|"
    r"throughout|how\s+often|spread|\w{3,}ed)\b",
    re.I,
)
_THE_BEAM_ALONE = re.compile(
    r"(?<=\bhow\smuch\s)beam\b(?!\s+(?:current|energy|size|position|lifetime|loss|charge)\b)"
    r"|(?<=\bthe\s)beam(?=\s+(?:been|was|is|were|has|had|today|now|yesterday|since|over|during|"
    r"this|last)\b|\s*(?:[?.!,;]|$))",
    re.I,
)
_MAKE_A_PLOT = re.compile(
    r"\b(?:make|do|draw|create|produce|generate|build|prepare|(?:put|add)(?:\s+up)?)\s+"
    r"(?:me\s+|us\s+)?(?:(?:a|an|one|two|three|four|some|another|\d)\s+)?(?:(?:single|quick|combined|common|separate|"
    r"new|more|trend)\s+)*(?:plots?|charts?|graphs?|graphics?|figures?|trends?|diagrams?|curves?)\b"
    r"(?:\s*(?::|of|for|with|showing|from)\b)?\s*",
    re.I,
)
_A_ROUND_OF = re.compile(
    r"\b(?:a\s+)?(?:quick\s+|short\s+|fast\s+)?(?:sweep|rundown|run-down|round|tour|roundup|"
    r"round-up|status\s+round)\s+(?:of|over|through|across)\s+",
    re.I,
)
# "undo whatever got done to VCM 30 since 06:00": its value from that moment
_UNDO_SINCE = re.compile(
    r"\bundo\s+(?:whatever|what|all\s+that|anything(?:\s+that)?)\s+(?:happened|was\s+done|got\s+done|"
    r"changed)\s+(?:to|on|with)\s+(?P<what>.+?)\s+since\s+(?:the\s+)?(?P<when>\d{1,2}(?::\d{2})?"
    r"(?:\s*o'?clock)?)(?:\s+[a-z-]+(?:\s+[a-z-]+)?)?(?=\s*(?:[,.;!?]|$))",
    re.I,
)
_UNDO_A_PERIOD = re.compile(
    r"\bundo\s+(?:(?:whatever|what|anything(?:\s+that)?)\s+(?:happened|was\s+done|got\s+done|"
    r"changed)\s+(?:to|on|with)|"
    r"(?:all\s+)?(?:the\s+)?(?:changes?|writes?)\s+(?:to|of|on))\s+(?P<what>.+?)\s+(?:in|during|over|"
    r"for|within)\s+the\s+(?:last|past)\s+(?:(?P<n>\d+|two|three|four|five|six|ten|twelve)\s+)?"
    r"(?P<unit>hours?|minutes?|mins?|days?)\b",
    re.I,
)


def _plot_made(text: str) -> str:
    """ "make a plot of HCM 3 and HCM 4" is "plot HCM 3 and HCM 4"; "lifetime and current,
    make one plot" plots what came before it."""
    found = _MAKE_A_PLOT.search(text)
    if found is None:
        return text
    before, after = text[: found.start()], text[found.end() :]
    if re.fullmatch(r"[\s,.;!?]*(?:(?:please|pls|thanks)[\s,.;!?]*)?", after) and before.strip(
        " ,;"
    ):
        return " ".join(f"plot {before.strip(' ,;')}{after}".split())
    return " ".join(f"{before}plot {after}".split())


def _on_one_plot(text: str) -> str:
    """ "put the lifetime and the current on one plot" is "plot the lifetime and the current";
    "lifetime and current, put them on one plot" plots what came before "them"."""
    found = _ON_ONE_PLOT.search(text)
    if found is None:
        return text
    what = found["what"]
    before = text[: found.start()].strip(" ,;")
    if what.lower() in ("them", "it", "these", "those", "both", "all") and before:
        what, before = before, ""
    return " ".join(f"{before} plot {what}{text[found.end() :]}".split())
