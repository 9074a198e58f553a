"""The answer to a question about the write limits ("HCM max step?", "how high could the RF
voltage go?", "if I put VCM 2 at 7 A, is that permitted?"), from the write policy itself.

The channels are the setpoints the question's other words name; each is answered with the
rule that governs it (the range and the largest step), grouped when one rule governs many,
and a value the question gives is checked against them. Nothing is read or written.
"""

from __future__ import annotations

import re
from typing import Any

from osprey_desktop.language.clauses import named_devices
from osprey_desktop.language.numbers import as_typed
from osprey_desktop.language.quantities import Amount, amounts
from osprey_desktop.language.units import (
    UnitConversionError,
    convert,
    converts,
    quantity_word,
)

#: The question's words that are no part of what it names.
_QUESTION_WORDS = re.compile(
    r"\b(?:what(?:'s|s)?|whats|how|high|low|far|much|could|can|may|might|would|will|be|is|are|"
    r"it|this|that|we|i|me|you|the|a|an|in|on|for|of|to|at|by|one|single|step|steps|max(?:imum)?|"
    r"min(?:imum)?|limits?|highest|lowest|set|go|goes|moved?|change[ds]?|put|raise[ds]?|"
    r"lower(?:ed)?|push|write|allowed|permitted|ok(?:ay)?|like|no|not|planning|touch|but|if|"
    r"then|so|just|only|value|there|any|its|their|i'm|im|wondering|tell|please|pls|"
    # what a proposed change asked about says around it ("I think I should set VCM 8 to 0.15,
    # should I do it?", "we might raise QF3 by 1 A, any objections?")
    r"think|should|shall|going|was|were|wanted|want|agree|objections?|idea|sense|makes?|good|"
    r"sure|fine|safe|do|does|ahead|guess|suppose|maybe|perhaps|probably|about|thinking|ask|"
    r"asking|increase|decrease|open|close|setting)\b",
    re.I,
)
_MOST_LISTED = 8


def limits_answer(question: str) -> str:
    """The write limits of what ``question`` names, and a given value checked against them."""
    from osprey_desktop.channels.finding import configured_finder
    from osprey_desktop.connectors import get_configured_channel_database
    from osprey_desktop.safety.write_policy import WritePolicy

    policy = WritePolicy.from_config()
    if policy.limits is None:
        return f"The write limits cannot be read: {policy.limits_error}. Every write is refused."
    database = get_configured_channel_database()
    named = question
    for amount in sorted((a for a in amounts(question) if a.unit), key=lambda a: -a.start):
        named = named[: amount.start] + " " + named[amount.end :]  # "at 7 A": no name
    named = re.sub(r"\([^)]*\)", " ", named)
    phrase = re.sub(r"[^\w\s:.'-]|(?<!\w)[.'-]|[.'-](?!\w)", " ", _QUESTION_WORDS.sub(" ", named))
    phrase = re.sub(r"\b([A-Za-z]{1,5})\s+(\d{1,3})\b(?![.\d])", r"\1\2", phrase)
    # a value without its unit ("to 0.15") is no part of a name, once the names are joined
    phrase = " ".join(re.sub(r"(?<![\w.:])[-+]?\d+(?:\.\d+)?(?![\w.:])", " ", phrase).split())
    finder = configured_finder(database)
    found = finder.find(phrase, writable=True).names if phrase else []
    names = [n for n in found if (record := database.get(n)) is not None and record.writable]
    given = _given(question)
    unit = given.unit if given is not None else None
    if unit and names and not any(_in_unit(database, n, unit) for n in names):
        # "tell me if 3.3 MV would be allowed for the RF": the setpoint of the value's quantity
        quantity = quantity_word(unit)
        more = finder.find(f"{phrase} {quantity}", writable=True).names if quantity else []
        names = [n for n in more if _in_unit(database, n, unit)] or names
    if not names and named_devices(phrase):
        # "we are considering raising QF 20 by 1 A tomorrow; would that be allowed?": the
        # words around the named device are the plan's, not the name's
        found = finder.find(" ".join(sorted(named_devices(phrase))), writable=True).names
        names = [n for n in found if (record := database.get(n)) is not None and record.writable]
    if not names:
        return (
            f"Which setpoint's limits do you mean? No setpoint matches '{phrase or question}'. "
            "The write policy (`limits.yaml`) limits each setpoint to a range and a largest "
            "step per write.\n\n*Nothing was read or changed to answer this.*"
        )
    rules: dict[str, tuple[Any, list[str]]] = {}
    unlisted: list[str] = []
    for name in names:
        governed = policy.limits.rule_for(name)
        if governed is None:
            unlisted.append(name)
        else:
            rules.setdefault(governed[0], (governed[1], []))[1].append(name)
    step = given is not None and _said_as_a_step(question, given)
    lines = [
        _rule_line(key, rule, members, database, given, step)
        for key, (rule, members) in rules.items()
    ]
    if unlisted:
        allowed = policy.limits.allow_unlisted
        lines.append(
            f"- {_listed(unlisted)}: not in the write policy; "
            + ("writes are not limited (allow_unlisted_writes)." if allowed else "never written.")
        )
    switch = "" if policy.writes_enabled else " Writes are switched off now, whatever the limits."
    return (
        "**Write limits** (from the write policy, checked before every approval and again "
        f"before the write):{switch}\n\n"
        + "\n".join(lines)
        + "\n\n*Nothing was read or changed to answer this.*"
    )


def _said_as_a_step(question: str, given: Amount) -> bool:
    """The amount is a change, not a value: "a 0.002 MHz step", "by 0.5 A", "+0.3 A"."""
    before = question[: given.start].lower()
    after = question[given.end :].lower()
    return bool(
        re.match(r"\s*(?:steps?|changes?|jumps?|increments?|moves?|deltas?|kicks?)\b", after)
        or re.search(r"\b(?:by|step\s+of|change\s+of|delta\s+of)\s*$", before)
        # "QD16 down 0.5 A", "0.5 A higher": an amount with its way
        or re.search(r"\b(?:up|down|dn|higher|lower)\s*$", before)
        or re.match(r"\s*(?:up|down|higher|lower|more|less)\b", after)
        or re.match(r"\+", given.words)
        # "would 0.5 kHz be a legal step": the step named after, no "to"/"at" before
        or (
            re.search(r"\b(?:steps?|increments?)\b", after) is not None
            and re.search(r"\b(?:to|at)\s*$", before) is None
        )
    )


def _in_channel_units(given: Amount, units: str, step: bool) -> float | None:
    """The amount asked about in the channel's own unit ("2 kHz" of a setpoint in MHz); as
    given when the channel states no unit; None when the two units do not convert."""
    if not units:
        return float(given.value)
    try:
        return convert(float(given.value), given.unit, units, delta=step)
    except (UnitConversionError, ValueError):
        return None


def _rule_line(
    key: str, rule: Any, members: list[str], database: Any, given: Amount | None, step: bool
) -> str:
    units = getattr(database.get(members[0]), "units", "") or ""
    value = _in_channel_units(given, units, step) if given is not None else None
    unit = f" {units}" if units else ""
    if not rule.writable:
        return f"- {_listed(members)}: never written (`{key}`)."
    parts = []
    if rule.min is not None and rule.max is not None:
        parts.append(f"from {rule.min:g} to {rule.max:g}{unit}")
    elif rule.max is not None:
        parts.append(f"at most {rule.max:g}{unit}")
    elif rule.min is not None:
        parts.append(f"at least {rule.min:g}{unit}")
    if rule.max_step is not None:
        parts.append(f"at most {rule.max_step:g}{unit} per write")
    said = ", ".join(parts) or "no limit on the value"
    line = f"- {_listed(members)} (`{key}`): {said}."
    if given is not None and value is None:
        line += f" {given.words} is no amount in{unit}: it cannot be checked against these limits."
    elif value is not None and step:
        size = abs(value)
        if rule.max_step is not None and size > rule.max_step + 1e-12:
            line += (
                f" A step of {as_typed(size)}{unit} is larger than that: it would be refused "
                "(smaller steps, each approved, get there)."
            )
        else:
            line += (
                f" A step of {as_typed(size)}{unit} is within the largest step per write; the "
                "value it reaches must stay within the range."
            )
    elif value is not None:
        if rule.max is not None and value > rule.max:
            line += f" {as_typed(value)}{unit} is above the maximum: it would be refused."
        elif rule.min is not None and value < rule.min:
            line += f" {as_typed(value)}{unit} is below the minimum: it would be refused."
        else:
            line += (
                f" {as_typed(value)}{unit} is within the range (the step from the present value is "
                "checked when you ask for it)."
            )
    return line


def _listed(names: list[str]) -> str:
    if len(names) <= _MOST_LISTED:
        return ", ".join(names)
    return f"{len(names)} setpoints ({names[0]} … {names[-1]})"


def _in_unit(database: Any, name: str, unit: str) -> bool:
    """Whether the channel ``name`` is counted in a unit ``unit`` converts to."""
    units = getattr(database.get(name), "units", "") or ""
    return bool(units) and converts(unit, units)


def _given(question: str) -> Amount | None:
    """The one amount with a unit the question asks about ("put VCM 2 at 7 A"), not a device's
    number."""
    found = [a for a in amounts(question) if a.unit]
    return found[0] if len(found) == 1 else None
