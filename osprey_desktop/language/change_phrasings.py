"""Changes said another way before the parse: each form said the way the writers read it.

Part of ``rewordings.said_plainly``: a delta ("QD34 Δ -1.5A" is a change by), another language's
order ("Please the RF voltage on 2.45 MV set.", "To the QF 23 give 121 A"), a value corrected on
the way ("121, no, 121.5 A"), another device's value with an offset ("set QD12 to QD10 minus
0.5 A"), an arrow for a direction ("HCM19 ↑ a touch"), a change suggested as a question
("Shouldn't QD06 be a touch higher?"), amounts taken or added ("take 0.3 A off HCM33"), factors
("double the ID11 gap", "ID04 gap = 2x now"), a nudge given ("give HCM27 a small kick"), a value
wished ("I'd like the ID09 gap closed down to 12 mm") or tried ("try QF43 at 121 A"). A vague
amount stays vague, so the writer asks for it.
"""

from __future__ import annotations

import re

from osprey_desktop.language.lexicon import base_form
from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, as_typed, read_number
from osprey_desktop.language.terse_writes import terse_said_plainly
from osprey_desktop.language.word_order import changes_in_english_order, said_in_english_order

__all__ = ["changes_said_first", "changes_said_plainly"]


def changes_said_first(text: str) -> str:
    """``text`` with the forms that decide its clauses said plainly, before they are read:
    another language's order ("first you show me X, after you make it ...", "please to put")
    and terse writes ("hcms in sec 11 all off pls (0)", "LT > 8 h → ...", "chk ...")."""
    return terse_said_plainly(said_in_english_order(text))


def changes_said_plainly(text: str) -> str:
    """``text`` with the change forms above said the one way the parse reads them."""
    work = text
    # "QF05 to 121 A, QD06 to 94.5 A and QF07 to 121 A in one go": one approval anyway
    work = re.sub(
        r"[\s,]+(?:in\s+one\s+go|all\s+at\s+once|at\s+once|together)\s*([.!?]*)$",
        r"\1",
        work,
        flags=re.I,
    )
    # "vertical correctors 31 to 33 to 0.05 A", "HCM13 to 15 setpoints, then ...": a range of
    # device numbers, never a value (the value is what the last "to" gives)
    work = _NUMBER_RANGE.sub(lambda m: f"{m['a']} through {m['b']}", work)
    # "corrector H12", "steerer V 7": the horizontal or vertical corrector of that number
    work = _CORRECTOR_LETTER.sub(
        lambda m: f"{'horizontal' if m['hv'].lower() == 'h' else 'vertical'} corrector {m['n']}",
        work,
    )
    # "QD22 and QD24 down 1 A, QF21 and QF23 up 1 A": each group's change, in its direction
    work = _GROUP_DIRECTION.sub(
        lambda m: (
            f"{m['lead']}{'raise' if m['way'].lower() == 'up' else 'lower'} {m['what']} "
            f"by {m['amount']}"
        ),
        work,
    )
    # "read HCM3 and VCM3, then put both to 0.1 A", "zero them all": every device named
    work = _ALL_OF_THEM.sub(lambda m: f"{m['verb']} them", work)
    # "set HCM1, HCM2, HCM3 to +0.1, +0.2, +0.3 A respectively": each its own value
    work = _RESPECTIVELY.sub(_respectively, work)
    # "ID 11 gap: 18 → 17 mm", "QF 3 from 120 to 121 A": the value it goes to
    work = _FROM_TO_VALUE.sub(_value_it_goes_to, work)
    # "121 amps even", "0.2 A exactly": the amount, said precisely
    work = re.sub(
        r"(?<=\d)(?P<unit>\s*[a-zµ%]{1,6})?\s+(?:even|flat|exactly|precisely|on\s+the\s+dot)\b",
        lambda m: m["unit"] or "",
        work,
        flags=re.I,
    )
    # "take QD32's setpoint, subtract 1 A, and put the result into QD30": a copy with an offset
    work = _ARITHMETIC_RECIPE.sub(_recipe_said, work)
    # "QD34 Δ -1.5A": a change by the amount
    work = re.sub(r"\s*(?:Δ|∆|\bdelta\b)\s*(?=[-+−]?\.?\d)", " by ", work, flags=re.I)
    # another language's order: "Please the RF voltage on 2.45 MV set.", "To the QF 23 give
    # 121 A", "The gap of ID 9 you put on 16 mm", "the corrector of sector 2, to him you give
    # 0.3 A", "Is necessary to open ID 11 until 40 mm"
    work = _foreign_order(work)
    # "The QF 29 make more with 1 ampere", "Make less the QD 38 of two percent", "the q.f.21
    # please set on 121.5 A", "the ID 02 gap three times bigger make" (``word_order``)
    work = changes_in_english_order(work)
    # "set QF5 to 121, no, 121.5 A", "... zero point three, scratch that, zero point two": the
    # value said last is the one meant
    work = _CORRECTED_VALUE.sub("", work)
    work = _CORRECTED_DEVICE.sub("", work)  # "HCM 3, I mean HCM 4": the device meant
    # "set QD12 to QD10 minus 0.5 A", "put the ID07 gap 3 mm above the ID05 gap", "give VCM17
    # whatever VCM16 has, plus 0.1 A": another device's value with an offset
    work = _offset_copies(work)
    # "HCM19 ↑ a touch": an arrow for a direction
    work = (
        work.replace("↑", " up ").replace("↓", " down ").replace("⬆", " up ").replace("⬇", " down ")
    )
    # "Shouldn't QD06 be a touch higher?", "could it go a little lower still?": a change
    # suggested as a question (its amount, when vague, is asked for)
    work = _SUGGESTED_CHANGE.sub(lambda m: f"{m['what']} {m['cmp']}", work)
    # "take 0.3 A off HCM33", "add 0.1 A to QF 2": an amount taken from or added to a device
    work = re.sub(r"\bdouble[\s-]+check", "check", work, flags=re.I)
    work = _ON_WHAT_IT_IS.sub(lambda m: f"increase it by {m['amount']}", work)
    work = _TAKE_OFF.sub(lambda m: f"decrease {m['what']} by {m['amount']}", work)
    work = _ADD_TO.sub(lambda m: f"increase {m['what']} by {m['amount']}", work)
    # "ID04 gap = 2x now", "QF3 to 1.5 times its value": a change by a factor
    work = _TIMES_NOW.sub(_times_now, work)
    # "give QF 3 another amp", "give HCM 4 another 0.1 A": more of the same, that much
    work = _ANOTHER.sub(_another, work)
    # "add another amp to QF 3", "put one more 0.1 A on HCM 4": the same, the amount first
    work = _ANOTHER_TO.sub(_another, work)
    # "scale QF 5 by 1.01", "multiply the ID 4 gap by 0.9": a change by a factor
    work = _SCALED.sub(_scaled, work)
    # "double the ID11 gap", "halve the QF 3 current": a change by a factor
    work = _BY_FACTOR.sub(
        lambda m: (
            f"{_FACTORS[m['verb'].lower()]} {m['what']} by {_PERCENTS[m['verb'].lower()]}{m['end']}"
        ),
        work,
    )
    # "give HCM27 a small kick", "give QF 3 a 0.5 A bump": a nudge, by an amount or asked for
    work = _GIVE_A_NUDGE.sub(
        lambda m: (
            # a bump or a push goes up (as "bump QF 3 by 1 A" does); a kick says no way
            f"{'bump' if m['noun'].lower() in ('bump', 'push') else 'nudge'} {m['what']} by "
            f"{m['amount']}"
            if m["amount"]
            else f"nudge {m['what']} a little"
        ),
        work,
    )
    # "VCM 7 needs a small kick upward", "QF3 could use a 0.5 A bump down": a nudge needed is
    # that nudge, by its amount or asked for, in its direction when one is said
    work = _NEEDS_A_NUDGE.sub(_nudge_needed, work)
    # "have QD36 sit at 94 A", "I'd like the ID09 gap closed down to 12 mm": a value wished
    work = _WISHED_STATE.sub(lambda m: f"set {m['what']} to ", work)
    # "I'd like QF01 raised by 0.3 A": a change by an amount, wished
    work = _WISHED_BY.sub(lambda m: f"{base_form(m['verb'])} {m['what']} by ", work)
    work = _WISHED_AT.sub(lambda m: f"set {m['what']} to ", work)  # "I'd like the gap at 18 mm"
    # "check the beam current; if it's at least 300 mA, set HCM31 to 0.25 A", "look at IG10
    # and raise VCM19 by 0.3 A if it's below 5e-9 Torr": the reading is the condition's subject
    work = _condition_on_the_reading(work)
    # "if the lifetime is over 6 h, please raise HCM1 by 0.1 A": the change after its condition
    work = _POLITE_CHANGE.sub(r"\g<cond>, ", work)
    # "rd QF45 SP, then -0.5A": a signed amount alone after a reading is a change of it
    work = _THEN_SIGNED.sub(
        lambda m: (
            f"{m['lead']}{'decrease' if m['sign'] in '-−' else 'increase'} it by {m['amount']}"
        ),
        work,
    )
    # "rd VCM09, then → 0.7": after a reading, an arrow to a value sets what was read
    work = _THEN_ARROW.sub(lambda m: f"{m['lead']}set it to {m['value']}", work)
    # "try QF43 at 121 A? Let's do it.": a value to try, and the go-ahead given with it
    work = _GO_AHEAD.sub("", work)
    work = re.sub(r"\b(?:go\s+ahead|feel\s+free)\s+(?:and\s+|to\s+)(?=[a-z])", "", work, flags=re.I)
    work = _TRY_AT.sub(lambda m: f"set {m['what']} to ", work)
    return work


_AMOUNT = r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)\s*[a-zµ%]{0,4}"
_NUMBER_RANGE = re.compile(
    r"(?<![\d.])(?P<a>\d{1,3})\s+to\s+(?P<b>(?:[A-Za-z]{1,5}\s?)?\d{1,3})(?![\d.:])"
    r"(?=\s+(?:to|at|=|->)\s+[-+−]?\.?\d|\s+(?:setpoints?|readbacks?|sps?|rbs?|currents?|values?|"
    r"readings?)\b)",
    re.I,
)
_CORRECTOR_LETTER = re.compile(
    r"\b(?:corrector|steerer|corr)\s+(?P<hv>[HV])[-\s]?(?P<n>\d{1,3})\b", re.I
)
_DEVICE_LIST = r"[A-Za-z]{1,5}\d{1,3}(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)[A-Za-z]{1,5}\d{1,3})*"
_GROUP_DIRECTION = re.compile(
    # a group that leads its clause: "step QF 7 up 0.5 A" keeps its own verb
    rf"(?P<lead>^\W*|[,;]\s*|\b(?:and|then)\s+)(?P<what>{_DEVICE_LIST})\s+(?P<way>up|down)\s+"
    r"(?:by\s+)?"
    r"(?P<amount>[-+−]?(?:\d+(?:\.\d*)?|\.\d+)\s*[a-zµ%]{1,4})\b",
    re.I,
)
_ALL_OF_THEM = re.compile(
    r"\b(?P<verb>put|set|bring|move|zero|raise|lower|change|take|drive|increase|decrease|reset)\s+"
    r"(?:both(?:\s+of\s+them)?|all(?:\s+(?:of\s+them|three|four|two|five|six))?|each(?:\s+of\s+them)?|"
    r"them\s+(?:all|both))\b"
    # the quantifier stands for the devices only when no noun follows ("set all correctors in
    # sector 3 to 0" names its own)
    r"(?=\s*(?:$|[,.;!?]|to\b|at\b|by\b|back\b|up\b|down\b|=|->|on\b|off\b))",
    re.I,
)


_ARITHMETIC_RECIPE = re.compile(
    r"^\W*(?:please\s+)?(?:take|read|get)\s+(?P<source>[^,;]+?)(?:'s|’s)?\s*"
    r"(?:setpoint|set\s*point|value|reading|current)?\s*[,;]?\s*(?:then\s+)?"
    r"(?P<op>add|subtract|take\s+away|remove|plus|minus)\s+"
    r"(?P<amount>[-+]?(?:\d+(?:\.\d*)?|\.\d+)\s*[a-zµ%]{0,4})\s*[,;]?\s*(?:and\s+)?(?:then\s+)?"
    r"(?:put|write|set|apply|send)\s+(?:the\s+result|it|that|this)\s+(?:into|in|on|to|onto)\s+"
    r"(?P<target>[^,;.!?]+?)\s*[.!]*$",
    re.I,
)


def _recipe_said(found: re.Match[str]) -> str:
    sign = (
        "minus" if found["op"].lower() in ("subtract", "take away", "remove", "minus") else "plus"
    )
    return f"set {found['target']} to {found['source']} {sign} {found['amount'].strip()}"


def _value_it_goes_to(found: re.Match[str]) -> str:
    """ "18 → 17 mm": to 17 mm; "the undulator in sector 9 -> 25 mm": sector 9, to 25 mm (a
    number that counts a place or a device is no value it comes from)."""
    if not found.group(0).lower().lstrip(": ").startswith("from") and _COUNTED.search(
        found.string[: found.start()]
    ):
        number = re.match(r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)", found.group(0).lstrip(": "))
        return f"{number.group(0) if number else ''} to "
    return " to " if found.group(0).startswith(":") else "to "


# "sector 9 -> 25 mm", "cell 4 → 0.2 A": the number before the arrow counts a place
_COUNTED = re.compile(
    r"\b(?:sectors?|sec|s|cells?|straights?|girders?|arcs?|number|no\.?|#)\s*$"
    # "vertical correctors 19, 20, 21 -> -0.1 A": the last of a list of device numbers
    r"|[a-z]+s?\s+\d{1,3}(?:\s*(?:,|&|\band\b)\s*\d{1,3})*\s*(?:,|&|\band\b)\s*$"
    # "vertical correctors 31 through 33 -> -0.15 A": the end of a range of device numbers
    r"|(?<![\w.])\d{1,3}\s+(?:through|thru)\s*$|[a-z]+s\s+\d{1,3}\s+(?:to|until|till)\s*$",
    re.I,
)
_FROM_TO_VALUE = re.compile(
    # "RF freq SP: 499.654 -> 499.6535": the label's colon goes with the value it had
    r"(?:(?<=\w):\s*)?(?:\bfrom\s+)?(?<![\w.-])(?<!\d:)[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?![\d:])\s*(?:[a-zµ%]{1,4}\s*)?"
    r"(?:→|->|=>)\s*(?=[-+−]?\.?\d)"
    r"|\bfrom\s+(?<![\d:.])[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?![\d:])\s*(?:[a-zµ%]{1,4}\s+)?to\s+"
    # the value after "to" has a unit of a setpoint ("from 120 to 121 A"); "from 8 to 10 this
    # morning" is a range of hours
    r"(?=[-+−]?\.?\d+(?:\.\d+)?\s*(?:a|amps?|ma|mm|um|µm|kv|mv|v|hz|khz|mhz|ghz|%|torr|mbar|pa|"
    r"w|kw|mrad|urad|deg)\b)",
    re.I,
)
_LIST_GAP = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
_PLAIN_NUMBER = r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)"
_RESPECTIVELY = re.compile(
    rf"(?P<targets>[A-Za-z]{{1,5}}\s?\d{{1,3}}(?:{_LIST_GAP}[A-Za-z]{{1,5}}\s?\d{{1,3}})+)\s+"
    rf"(?:to|at|=)\s+(?P<values>{_PLAIN_NUMBER}(?:\s*[a-zµ%]{{1,4}})?(?:{_LIST_GAP}{_PLAIN_NUMBER}"
    r"(?:\s*[a-zµ%]{1,4})?)+)\s*,?\s+respectively\b",
    re.I,
)


def _respectively(found: re.Match[str]) -> str:
    """Each device with its value, in order; the unit said once applies to every value."""
    targets = re.split(_LIST_GAP, found["targets"])
    values = re.split(_LIST_GAP, found["values"])
    if len(targets) != len(values):
        return found.group(0)  # three devices, two values: left for the writer to ask
    unit = re.search(r"[a-zµ%]+$", values[-1].strip(), re.I)
    said = []
    for target, value in zip(targets, values, strict=True):
        value = value.strip()
        if unit and not re.search(r"[a-zµ%]$", value, re.I):
            value = f"{value} {unit.group(0)}"
        said.append(f"{target.strip()} to {value.lstrip('+')}")
    return ", ".join(said[:-1]) + f" and {said[-1]}"


_TAKE_OFF = re.compile(
    rf"\b(?:take|knock|shave)\s+(?P<amount>{_AMOUNT})\s+off\s+(?:of\s+)?(?P<what>[^,;?!]+)",
    re.I,
)
_SAID_AMOUNT = rf"(?:[-+−]?(?:\d+(?:\.\d*)?|\.\d+)|{SPELLED_NUMBER_PATTERN})"
# "to 1.5 A, no wait, 1.2 A", "qf 5 to 121.5 ... wait, 121.25", "vcm 33 up 0.12, no, 0.1": the
# value said first and taken back
# never the point of the next value (".35"); a dash set apart is a pause ("121 - no sorry")
_PAUSE = r"(?:[,;…]|(?<=\s)[-–—](?=\s)|\.+(?![\d.]))?"
_CORRECTED_VALUE = re.compile(
    r"(?:(?<=\b(?:to|at|by|up)\s)|(?<=\bdown\s)|(?<=[=→>]\s)|(?<=[=→>]))"
    rf"{_SAID_AMOUNT}\s*(?:[a-zµ%]{{1,8}}\s*)?{_PAUSE}\s*(?:(?:no(?:\s+wait)?|wait|"
    r"scratch\s+that|sorry|i\s+mean|correction|or\s+rather|actually|well|make\s+(?:it|that))"
    rf"\s*{_PAUSE}\s*)+\s*(?={_SAID_AMOUNT})",
    re.I,
)
#: "set HCM 3, I mean HCM 4, to 0.2": the device said first is taken back for the one meant
_CORRECTED_DEVICE = re.compile(
    r"\b(?!(?:to|at|by|of|in|on|is|or|and|be|as|it|if|so|up|for|the|was|from|sector)\b)"
    r"[A-Za-z]{1,5}\s?\d{1,3}\b(?![.:]\d)\s*(?:[,;]|\.{2,3}|\s[-–—])?\s*"
    r"(?:no[,\s]+|sorry[,\s]+)?(?:i\s+mean(?:t)?|or\s+rather|correction|sorry)\s*[,:]?\s+"
    r"(?=(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}\b)",
    re.I,
)
_NAMED = r"(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+[a-z]+)?"
# "plus 0.5 A", "plus point five", "minus half an amp": the amount, in digits or in words
_OFFSET = (
    rf"(?P<amount>(?:[-+−]?(?:\d+(?:\.\d*)?|\.\d+)|(?:point\s+[a-z]+|{SPELLED_NUMBER_PATTERN}))"
    r"\s*(?:[a-zµ%]{1,8})?)"
)
_COPY_PLUS = re.compile(
    rf"\b(?:set|put|make|bring|move)\s+(?P<target>{_NAMED})\s+(?:to|=|->|at)\s+(?P<source>{_NAMED}?)"
    rf"(?:'s|’s)?(?:\s+(?:value|setting|setpoint|current|reading))?,?\s+(?P<sign>plus|\+|minus|−|-)"
    rf"\s*{_OFFSET}(?=\s*(?:[,.;!?]|$))",
    re.I,
)
# "HCM03 := HCM02 + 0.15A": an assignment of another device's value with an offset
_ASSIGNED_PLUS = re.compile(
    rf"^\W*(?P<target>{_NAMED}?)\s*(?::=|=|->|→|\bto\b)\s*(?P<source>{_NAMED}?)\s*(?P<sign>plus|\+|minus|−|-)"
    rf"\s*{_OFFSET}(?=\s*(?:[,.;!?]|$))",
    re.I,
)
# "set QD10 half an amp below QD12", "VCM 33 0.1 A above VCM 32": an amount in words too, and
# the verb left out
_SIDE_OFFSET = (
    rf"(?P<amount>(?:[-+−]?(?:\d+(?:\.\d*)?|\.\d+)|{SPELLED_NUMBER_PATTERN})\s*(?:[a-zµ%]{{1,8}})?)"
)
_COPY_OFFSET = re.compile(
    rf"(?:\b(?:set|put|make|bring|move|have)\s+|^\W*)(?P<target>{_NAMED})\s+(?:to\s+be\s+)?{_SIDE_OFFSET}\s+"
    r"(?P<side>above|over|higher\s+than|more\s+than|below|under|lower\s+than|less\s+than)\s+"
    rf"(?P<source>{_NAMED})(?=\s*(?:[,.;!?]|$))",
    re.I,
)
_COPY_WHATEVER = re.compile(
    rf"\b(?:give|set)\s+(?P<target>{_NAMED}?)\s+(?:to\s+)?what(?:ever)?\s+(?P<source>{_NAMED}?)\s+"
    r"(?:has|is|reads|is\s+at),?\s+(?P<sign>plus|\+|minus|−|-)"
    rf"\s*{_OFFSET}(?=\s*(?:[,.;!?]|$))",
    re.I,
)


_READ_LEAD = (
    r"(?:please\s+)?(?:check|read|look\s+at|what'?s|whats|what\s+is|show\s+me|tell\s+me|"
    r"get)\s+(?:the\s+)?"
)
_IT_IS = r"(?:it'?s|it\s+is|its|it\s+(?=\w))"
_READ_THEN_IF_IT = re.compile(
    rf"^(?P<read>{_READ_LEAD}(?P<what>[^;,.?!]+?))"
    r"(?:\s*[;,.?!]+\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+)"
    rf"(?P<if>if|when|provided)\s+{_IT_IS}\s*(?P<rest>.+)$",
    re.I | re.S,
)
_READ_CHANGE_IF_IT = re.compile(
    rf"^(?P<read>{_READ_LEAD}(?P<what>[^;,.?!]+?))\s*[;,.]+\s*(?:and\s+)?(?:then\s+)?"
    rf"(?P<change>.+?)\s+(?P<if>if|when|provided)\s+{_IT_IS}\s*(?P<cond>[^,;]+?)\s*[.!]?\s*$",
    re.I | re.S,
)
_CHANGE_VERB_AHEAD = (
    r"(?=(?:set|put|increase|decrease|raise|lower|reduce|open|close|change|make|bump|move|"
    r"adjust|apply|nudge|bring)\b)"
)
#: Where a condition runs into its change: "over 6h pls raise hcm 1" (the polite word dropped)
_CHANGE_AFTER = re.compile(rf"\s+(?:(?:please|pls|plz)\s+)?{_CHANGE_VERB_AHEAD}", re.I)
_POLITE_CHANGE = re.compile(
    rf"(?P<cond>\b(?:if|when|provided)\b[^,;]+),\s*(?:please|pls|plz|kindly)\s+{_CHANGE_VERB_AHEAD}",
    re.I,
)
_VERB_FIRST = re.compile(r"^(?:stays|reads|gets|goes|falls|drops|rises|is|has)\b", re.I)


def _condition_on_the_reading(text: str) -> str:
    """The condition said of "it" after a reading, said of what was read (the condition's
    check reads it): "if the beam current is at least 300 mA, set HCM31 to 0.25 A"."""
    found = _READ_THEN_IF_IT.match(text)
    if found is not None:
        rest = _its_setpoint(found["rest"], found["what"])
        if not re.search(r"[,;]|\bthen\b", rest):  # "over 6h pls raise hcm 1": where it ends
            rest = _CHANGE_AFTER.sub(", ", rest, count=1)
        be = "" if _VERB_FIRST.match(rest) else "is "
        return f"{found['if']} the {found['what'].strip()} {be}{rest}"
    found = _READ_CHANGE_IF_IT.match(text)
    if found is not None:
        cond = found["cond"]
        be = "" if _VERB_FIRST.match(cond) else "is "
        change = _its_setpoint(found["change"], found["what"])
        return f"{found['if']} the {found['what'].strip()} {be}{cond}, {change}"
    return text


def _its_setpoint(change: str, read: str) -> str:
    """ "set the setpoint to 2.6 MV" after reading "the RF voltage readback": the RF voltage's
    setpoint (no other device is named)."""
    device = re.sub(
        r"\b(?:readback|read\s*back|rb|reading|value|setpoint|sp)\b", " ", read, flags=re.I
    )
    device = " ".join(device.split())
    if not device:
        return change
    return re.sub(r"\b(?:the|its)\s+set\s*point\b", f"the {device} setpoint", change, flags=re.I)


_THEN_SIGNED = re.compile(
    r"(?P<lead>[,;.]\s*(?:and\s+)?then\s+)(?P<sign>[-+−])\s*(?P<amount>(?:\d+(?:\.\d*)?|\.\d+)\s*"
    r"[a-zµ%]{1,4})\s*[.!]?\s*$",
    re.I,
)


_THEN_ARROW = re.compile(
    r"(?P<lead>[,;.]\s*(?:and\s+)?then\s+)(?:->|→|=>|=)\s*(?P<value>[-+−]?(?:\d+(?:\.\d*)?|\.\d+)"
    r"(?:\s*[a-zµ%]{1,4})?)\s*[.!]?\s*$",
    re.I,
)


def _joined(name: str) -> str:
    """ "HCM 34" -> "HCM34": a device name said with a space, joined."""
    return re.sub(r"\b([A-Za-z]{1,5})\s(\d{1,3})\b", r"\1\2", name)


def _in_digits(amount: str) -> str:
    """ "point five A" -> "0.5 A", "half an amp" -> "0.5 amp"; digits stay as typed."""
    if re.match(r"[-+−]?[\d.]", amount):
        return amount
    said = re.match(rf"(?P<n>point\s+[a-z]+|{SPELLED_NUMBER_PATTERN})(?P<unit>.*)$", amount, re.I)
    value = read_number(said["n"]) if said else None
    if said is None or value is None:
        return amount
    unit = re.sub(r"^\s*(?:an?\s+)?", " ", said["unit"]).rstrip() if said["unit"].strip() else ""
    return f"{as_typed(value)}{unit}"


def _offset_copies(text: str) -> str:
    """The forms above said "set X to the same value as Y plus A" (or "minus A")."""

    def plus(found: re.Match[str]) -> str:
        sign = "minus" if found["sign"].lower() in ("minus", "-", "−") else "plus"
        amount = _in_digits(found["amount"].lstrip("+"))
        # "HCM 34 - 0.2 A": the name joined, never read as a range of devices
        target, source = _joined(found["target"]), _joined(found["source"])
        return f"set {target} to the same value as {source} {sign} {amount}"

    def side(found: re.Match[str]) -> str:
        below = found["side"].lower().startswith(("below", "under", "lower", "less"))
        sign = "minus" if below else "plus"
        return (
            f"set {found['target']} to the same value as {found['source']} {sign} {found['amount']}"
        )

    text = _COPY_PLUS.sub(plus, text)
    text = _ASSIGNED_PLUS.sub(plus, text)
    text = _COPY_WHATEVER.sub(plus, text)
    return _COPY_OFFSET.sub(side, text)


_COMPARED_WAY = (
    r"(?P<cmp>(?:a\s+(?:touch|bit|little|tad|notch|hair)\s+|slightly\s+|somewhat\s+)?(?:higher|lower|"
    r"more|less|larger|smaller|wider|narrower|up|down))"
)
_SUGGESTED_CHANGE = re.compile(
    rf"^\W*(?:(?:should(?:n'?t|\s+not)?|could|can|would|might)\s+(?P<what>[^,;?]+?)\s+(?:be|go|get)\s+"
    rf"{_COMPARED_WAY}(?:\s+still)?\s*[?.!]*$)",
    re.I,
)


_VALUE_AHEAD = r"(?P<val>[-+−]?(?:\d+(?:\.\d*)?|\.\d+)\s*[a-zµ%]{0,8})"
_VERB_LAST = re.compile(
    rf"^\W*(?:please\s+)?(?P<what>[^,;?!]+?)\s+(?:on|at|to)\s+{_VALUE_AHEAD}\s+"
    r"(?:set|put|give|make|bring)\s*[.!]*$",
    re.I,
)
_TO_IT_GIVE = re.compile(
    rf"^\W*(?:to\s+(?P<what>[^,;?!]+?)|(?P<named>[^,;?!]+?),?\s+to\s+(?:him|her|it|them))\s+"
    rf"(?:you\s+)?(?:give|put|set)\s+(?:on\s+|at\s+|to\s+)?{_VALUE_AHEAD}\s*(?:,?\s*please)?[.!]*$",
    re.I,
)
_YOU_PUT_ON = re.compile(
    rf"^\W*(?P<what>[^,;?!]+?)\s+you\s+(?:put|set|give|bring)\s+(?:on|at|to)\s+{_VALUE_AHEAD}"
    r"\s*(?:,?\s*please)?[.!]*$",
    re.I,
)
_NECESSARY_TO = re.compile(
    r"^\W*(?:it\s+)?is\s+(?:necessary|needed|required)\s+to\s+(?=[a-z])", re.I
)
_UNTIL_VALUE = re.compile(
    r"\b(?P<verb>open|close|raise|lower|increase|decrease|bring|move)\b(?P<mid>[^,;?!]*?)\s+"
    r"(?:until|till|up\s+to|down\s+to)\s+(?=[-+−]?\.?\d+(?:\.\d+)?\s*[a-zµ%]{1,8}\b)",
    re.I,
)


def _foreign_order(text: str) -> str:
    """The forms above said "set <what> to <value>" (or with the verb said first)."""
    text = _NECESSARY_TO.sub("", text)
    text = _UNTIL_VALUE.sub(lambda m: f"{m['verb']}{m['mid']} to ", text)
    text = _VERB_LAST.sub(lambda m: f"set {m['what']} to {m['val']}", text)
    text = _YOU_PUT_ON.sub(lambda m: f"set {m['what']} to {m['val']}", text)
    return _TO_IT_GIVE.sub(lambda m: f"set {m['what'] or m['named']} to {m['val']}", text)


_ON_WHAT_IT_IS = re.compile(
    rf"\b(?P<verb>add|increase|raise)\s+(?:it\s+by\s+)?(?P<amount>{_AMOUNT})\s+(?:to|on|onto)\s+"
    r"(?:what\s+it\s+is(?:\s+now)?|its\s+(?:current|present)\s+value|the\s+current\s+value)\b",
    re.I,
)
_ADD_TO = re.compile(
    rf"\badd\s+(?P<amount>{_AMOUNT})\s+(?:to|onto)\s+(?P<what>(?!what\b|it\s+is\b)[^,;?!]+)",
    re.I,
)
_WISHED_STATE = re.compile(
    r"\b(?:(?:i|we)(?:'d|\s+would)\s+like|(?:i|we)\s+(?:want|need)|(?:can|could|would)\s+you"
    r"\s+(?:have|get)|please\s+(?:have|get)|have|get)\s+(?P<what>(?:the\s+)?[^,;?!]{1,40}?)\s+"
    r"(?:(?:closed|opened|set|moved|brought|put|lowered|raised|changed|adjusted|dropped|taken|"
    r"run|ramped|driven)(?:\s+(?:down|up|back|over))?|sit(?:ting)?|stay(?:ing)?|sat|be|running"
    r"|ramp(?:ed)?)\s+(?:to|at)\s+(?=[-+−]?\.?\d|minus\b)",
    re.I,
)
_GIVE_A_NUDGE = re.compile(
    r"\bgive\s+(?P<what>[^,;?!]+?)\s+an?\s+(?:(?:small|little|tiny|slight|gentle|quick)\s+)?"
    rf"(?:(?P<amount>{_AMOUNT})\s+)?(?P<noun>kick|nudge|bump|tweak|push|touch)\b",
    re.I,
)
_NEEDS_A_NUDGE = re.compile(
    r"(?P<lead>^\W*|[,;.:]\s*|\b(?:and|so|but|think|guess)\s+)"
    r"(?P<what>(?:the\s+)?[A-Za-z][\w\s-]{0,40}?)\s+(?:needs|wants|requires|could\s+use|"
    r"should\s+(?:get|have)|might\s+need)\s+an?\s+(?:(?:small|little|tiny|slight|gentle|quick)\s+)?"
    rf"(?:(?P<amount>{_AMOUNT})\s+)?(?:kick|nudge|bump|tweak|push|touch)\b"
    r"(?:\s+(?P<way>up(?:wards?)?|down(?:wards?)?|higher|lower|positive|negative))?",
    re.I,
)


def _nudge_needed(found: re.Match[str]) -> str:
    way = (found["way"] or "").lower()
    verb = "nudge"
    if way.startswith(("up", "higher", "positive")):
        verb = "raise"
    elif way.startswith(("down", "lower", "negative")):
        verb = "lower"
    amount = f"by {found['amount']}" if found["amount"] else "a little"
    return f"{found['lead']}{verb} {found['what']} {amount}"


_WISHED_BY = re.compile(
    r"\b(?:(?:i|we)(?:'d|\s+would)\s+like|(?:i|we)\s+(?:want|need)|(?:can|could|would)\s+you"
    r"\s+(?:have|get))\s+(?P<what>(?:the\s+)?[^,;?!]{1,40}?)\s+"
    r"(?P<verb>raised|lowered|increased|decreased|reduced|opened|closed|dropped|bumped)"
    r"(?:\s+(?:up|down))?\s+by\s+(?=[-+−]?\.?\d|minus\b|a\s|an\s|half\b)",
    re.I,
)
_WISHED_AT = re.compile(
    r"\b(?:(?:i|we)(?:'d|\s+would)\s+like|(?:i|we)\s+(?:want|need))\s+(?P<what>(?:the\s+)?[^,;?!]{1,40}?)\s+"
    r"(?:at|to\s+be(?:\s+at)?)\s+(?=[-+−]?\.?\d|minus\b)",
    re.I,
)
_TIMES_NOW = re.compile(
    r"^\W*(?:(?:set|put|make)\s+)?(?P<what>[^=,;?]+?)\s*(?:=|->|→|\bto\b)\s*(?P<factor>\d+(?:\.\d+)?)\s*"
    r"(?:x|×|times)\s*(?:now|(?:its|the)\s+(?:current|present)\s+value|what\s+it\s+is(?:\s+now)?|"
    r"its\s+value)?\s*[.!?]*$",
    re.I,
)


_ANOTHER = re.compile(
    r"\b(?:give|add)\s+(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:gap|current|setpoint))?)\s+"
    r"(?:another|one\s+more|an\s+extra)\s+(?P<number>[-+]?(?:\d+(?:\.\d*)?|\.\d+)\s*)?"
    r"(?P<unit>amps?|amperes?|a|millimet(?:er|re)s?|mm|mhz|khz|mv|kv)\b",
    re.I,
)

_ANOTHER_TO = re.compile(
    r"\b(?:give|add|put)\s+(?:another|one\s+more|an\s+extra)\s+"
    r"(?P<number>[-+]?(?:\d+(?:\.\d*)?|\.\d+)\s*)?"
    r"(?P<unit>amps?|amperes?|a|millimet(?:er|re)s?|mm|mhz|khz|mv|kv)\s+(?:to|on(?:to)?)\s+"
    r"(?P<what>(?:the\s+)?[A-Za-z]{1,5}\s?\d{1,3}(?:\s+(?:gap|current|setpoint))?)\b",
    re.I,
)


def _another(found: re.Match[str]) -> str:
    amount = (found["number"] or "1 ").strip() or "1"
    return f"increase {found['what']} by {amount} {found['unit']}"


_SCALED = re.compile(
    r"\b(?:scale|multiply)\s+(?P<what>(?:the\s+)?[^,;?!]+?)\s+(?:by|with)\s+(?:a\s+factor\s+(?:of\s+)?)?"
    r"(?P<factor>\d+(?:\.\d+)?|\.\d+)(?!\s*(?:%|percent|[a-zµ]))",
    re.I,
)


def _scaled(found: re.Match[str]) -> str:
    """ "scale QF 5 by 1.01" -> "increase QF 5 by 1%" (never by 1.01 A)."""
    return _by_a_factor(found)


def _times_now(found: re.Match[str]) -> str:
    """ "ID04 gap = 2x now" -> "increase ID04 gap by 100%"; "0.5x" a decrease by 50%."""
    return _by_a_factor(found)


def _by_a_factor(found: re.Match[str]) -> str:
    """The change by the match's ``factor`` of its ``what``, said as a percent change (a
    factor of 1 or less than nothing is left as typed)."""
    factor = float(found["factor"])
    if factor <= 0 or factor == 1:
        return found.group(0)
    word = "increase" if factor > 1 else "decrease"
    return f"{word} {found['what'].strip()} by {abs(factor - 1) * 100:.6g}%"


_GO_AHEAD = re.compile(
    r"(?<=[?.!,])\s*(?:let'?s\s+do\s+it|go\s+ahead|do\s+it|please\s+do(?:\s+it)?)\s*[.!]*$", re.I
)
_TRY_AT = re.compile(
    r"\btry\s+(?P<what>(?:the\s+)?[A-Za-z][^,;?!]{0,40}?)\s+(?:at|on|with)\s+(?=[-+−]?\.?\d|minus\b)",
    re.I,
)
_BY_FACTOR = re.compile(
    r"(?P<verb>\b(?:double|halve))\s+(?!(?:check|checking)\b)(?P<what>(?:the\s+)?[^,;?!]+?)"
    r"(?P<end>\s*(?:[.!,;]|$))",
    re.I,
)
_FACTORS = {"double": "increase", "halve": "decrease"}
_PERCENTS = {"double": "100%", "halve": "50%"}
