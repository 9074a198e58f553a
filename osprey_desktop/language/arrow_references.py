"""A value from elsewhere given with an arrow, and a value described before it is asked for.

Terse typing gives the source of a change after an arrow, as it gives a value:

* an earlier value of the device itself: "VCM5 sp → value @ 07:00", "VCM20 SP: restore →
  value @ 14:00", "HCM 3 -> its 10:30 value" restore it from that moment;
* another device's value: "QD18 sp → same as QD16 sp", "HCM 4 -> value of HCM 5" copy it;
* a value described first and then asked for: "QF 25 setpoint: the value it had at 9 in the
  morning, put it back to that one" restores it from that moment.

A copy is also said with the value shown by the source ("set the HCM 36 setpoint to the value
the HCM 35 readback shows") or between a device's own roles, the device named once before
("the HCM 15 readback looks odd, set the setpoint to match the readback").

Each is said the way the reference grammar reads it ("restore X to its value from T", "set X to
the same value as Y"); an arrow followed by anything else is left as typed.
"""

from __future__ import annotations

import re

__all__ = ["references_said_plainly"]

_ARROW = r"(?:→|->|=>|⇒|⟶)"
_DEVICE = r"\b[A-Za-z]{1,5}\s?\d{1,3}\b"
#: the words of a restore or a copy that may stand before the arrow ("VCM20 SP: restore → ...")
_LABEL = r"(?:restore|revert|back|copy|match|same)"
_ANY_ARROW = re.compile(_ARROW)
_TO_AN_EARLIER_VALUE = re.compile(
    rf"^(?P<lead>\W*)(?P<what>[^,;:→>]{{0,40}}?{_DEVICE}[^,;:→>]{{0,40}}?)\s*[:,]?\s*(?:{_LABEL}\s*)?{_ARROW}\s*"
    r"(?:(?:back\s+)?to\s+)?(?:the\s+|its\s+)?(?:value|setting|setpoint|reading|sp)\s*"
    r"(?:@|at|from|of|as\s+of)\s*(?P<when>[^,;?!]+?)\s*(?P<end>(?:please|pls|thx|thanks)?[\s.!?]*)$",
    re.I,
)
_TO_ANOTHER_DEVICE = re.compile(
    rf"^(?P<lead>\W*)(?P<what>[^,;:→>]{{0,40}}?{_DEVICE}[^,;:→>]{{0,40}}?)\s*[:,]?\s*(?:{_LABEL}\s*)?{_ARROW}\s*"
    r"(?:(?:the\s+)?same\s+(?:value\s+)?(?:as|like)|(?:the\s+)?(?:value|setting|setpoint)\s+of|"
    r"match(?:ing)?|equal\s+to)\s+"
    rf"(?P<source>(?:the\s+)?{_DEVICE}[^,;?!]*?)\s*(?P<end>(?:please|pls|thx|thanks)?[\s.!?]*)$",
    re.I,
)
#: "the value it had at 9 in the morning, put it back to that one"
_DESCRIBED_THEN_ASKED = re.compile(
    r"(?P<lead>^|[:;,.]\s*)(?:the\s+)?(?:value|setting|reading)\s+(?:it|they)\s+(?:had|was\s+at|"
    r"showed|read)\s+(?P<when>[^,;]+?)\s*[,;.]\s*(?:so\s+|and\s+|please\s+)*"
    r"(?P<verb>put|set|bring|take|return|restore)\s+(?P<pronoun>it|them)\s+(?:back\s+)?to\s+"
    r"(?:that|this)(?:\s+(?:one|value|setting))?\b",
    re.I,
)


#: "to the value the HCM 35 readback shows", "to whatever value QF 9 reads"
_VALUE_SHOWN = re.compile(
    r"\bto\s+(?:the|whatever)\s+(?:value|setting|reading|number)\s+(?:that\s+|which\s+)?"
    rf"(?P<source>(?:the\s+)?{_DEVICE}(?:\s+(?:setpoint|readback|sp|rb|current|gap))?)\s+"
    r"(?:shows|reads|has|gives|is\s+at|displays|says)\b",
    re.I,
)
_ROLE = r"(?:setpoint|readback|sp|rb|set\s+point|read\s?back)"
#: "set the setpoint to match the readback": one device's two roles
_ROLE_TO_ROLE = re.compile(
    rf"\b(?P<verb>set|make|bring|put)\s+(?:the\s+|its\s+)?(?P<target>{_ROLE})\s+(?:to\s+)?"
    rf"(?:match|equal|be\s+the\s+same\s+as|the\s+same\s+as)\s+(?:the\s+|its\s+)?(?P<source>{_ROLE})\b",
    re.I,
)


def _roles_of_one_device(text: str) -> str:
    devices = {re.sub(r"\s", "", d).upper() for d in re.findall(_DEVICE, text)}
    found = _ROLE_TO_ROLE.search(text)
    if found is None or len(devices) != 1:
        return text
    (device,) = devices
    said = (
        f"{found['verb']} the {device} {found['target']} to the same value as the {device} "
        f"{found['source']}"
    )
    # what was said before the request ("the HCM 15 readback looks odd, ...") is no part of it
    return said + text[found.end() :]


def references_said_plainly(text: str) -> str:
    """``text`` with a restore or a copy given after an arrow, or a value described before it
    is asked for, said the way the reference grammar reads it."""
    text = _VALUE_SHOWN.sub(lambda m: f"to the same value as {m['source']}", text)
    text = _roles_of_one_device(text)
    if not _ANY_ARROW.search(text):
        return _DESCRIBED_THEN_ASKED.sub(_described_then_asked, text)
    other = _TO_ANOTHER_DEVICE.match(text)
    if other:
        return (
            f"{other['lead']}set {other['what'].strip()} to the same value as "
            f"{other['source'].strip()}"
        )
    earlier = _TO_AN_EARLIER_VALUE.match(text)
    if earlier and not re.search(_DEVICE, earlier["when"]):
        when = re.sub(r"^@\s*", "", earlier["when"].strip())
        return f"{earlier['lead']}restore {earlier['what'].strip()} to its value from {when}"
    return _DESCRIBED_THEN_ASKED.sub(_described_then_asked, text)


def _described_then_asked(found: re.Match[str]) -> str:
    when = found["when"].strip()
    said = (
        f"what it was {when}"
        if re.match(r"(?:at|on|in)\b", when, re.I)
        else f"its value from {when}"
    )
    return f"{found['lead']}{found['verb']} {found['pronoun']} back to {said}"
