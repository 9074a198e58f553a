"""The command line's forms said in words: how an engineer used to the EPICS tools types.

* a read tool before names: "caget SR:DCCT:Current", "pvget -v SR:TUNE:X", "camonitor X",
  "cainfo X" → "read ..." (its options are the tool's, never the request's);
* a write tool before a name and a value: "caput SR04C:VCM11:Current:SP 0.3", "pvput X=0.3"
  → "set X to 0.3"; without a value ("caput X") → "set X", whose value is asked; with another
  channel's value read by the shell ("caput A $(caget -t B)") → "set A to the same value as B";
* an assignment that changes by an amount: "hcm20 += 0.1" → "increase hcm20 by 0.1",
  "hcm20 -= 0.1" → "decrease hcm20 by 0.1", "qf1 *= 1.01" → "scale qf1 by 1.01",
  "qf1 /= 2" → "scale qf1 by 0.5"; alone after a change ("no, -= 0.1") the change is of "it".

Only the forms: which channel a name is stays the finder's to say.
"""

from __future__ import annotations

import re

from osprey_desktop.language.quantities import NUM_PATTERN

__all__ = ["command_lines_said_plainly"]

_VALUE = NUM_PATTERN
#: a tool's options ("-a", "-t", "-w 5", "--verbose"), a number only after a one-letter one
_OPTIONS = r"(?:\s+-{1,2}(?:[a-z#](?:\s+\d+(?:\.\d+)?)?|[a-z][a-z-]+)(?=\s))*"
_READ_TOOL = re.compile(
    rf"^\W*(?:caget|pvget|cainfo|pvinfo|camonitor|pvmonitor){_OPTIONS}\s+(?P<rest>\S.*)$",
    re.I | re.S,
)
#: "caput A $(caget -t B)": the value another channel holds, read by the shell first
_WRITE_OF_A_READ = re.compile(
    rf"^\W*(?:caput|pvput){_OPTIONS}\s+(?P<name>[^\s=]+)\s*=?\s*[\"']?\$\(\s*(?:caget|pvget)"
    rf"{_OPTIONS}\s+(?P<source>[^\s)]+)\s*\)[\"']?\s*[.!]*$",
    re.I | re.S,
)
_WRITE_TOOL = re.compile(
    rf"^\W*(?:caput|pvput){_OPTIONS}\s+(?P<name>[^\s=]+)"
    rf"(?:\s*=\s*|\s+)?(?P<value>{_VALUE})?(?P<unit>\s*[a-zµ%]{{1,4}})?\s*[.!]*$",
    re.I | re.S,
)
_ASSIGNED = re.compile(
    r"(?P<lead>^|[,;:]\s*(?:(?:then|and|no|now|ok)\s+)?|\b(?:then|and|no|now|ok)\s+)"
    r"(?P<name>[\w:.\- ]{0,60}?[\w.:])?\s*"
    rf"(?P<op>\+=|-=|−=|\*=|/=)\s*(?P<value>{_VALUE})(?P<unit>\s*[a-zµ%]{{1,4}}\b)?",
    re.I,
)
_AN_OPERATOR = re.compile(r"[-+−*/]=")
_VERBS = {"+=": "increase", "-=": "decrease", "−=": "decrease", "*=": "scale", "/=": "scale"}


def command_lines_said_plainly(text: str) -> str:
    """``text`` with the command-line forms above said in words (unchanged when none fits)."""
    copied = _WRITE_OF_A_READ.match(text)
    if copied is not None:
        return f"set {copied['name']} to the same value as {copied['source']}"
    written = _WRITE_TOOL.match(text)
    if written is not None:
        value = written["value"]
        if value is None:
            return f"set {written['name']}"  # "caput X": the value is asked
        return f"set {written['name']} to {value}{written['unit'] or ''}"
    read = _READ_TOOL.match(text)
    if read is not None:
        names = read["rest"].split()
        if len(names) > 1 and all(":" in n for n in names):
            return f"read {', '.join(names)}"  # "caget A B": each name its own item
        return f"read {read['rest']}"
    if not _AN_OPERATOR.search(text):
        return text  # no "+=" anywhere: nothing to look for at every clause's start
    return _ASSIGNED.sub(_assignment, text)


def _assignment(found: re.Match[str]) -> str:
    operator, amount = found["op"], found["value"]
    if operator == "/=":
        divisor = float(amount)
        if divisor == 0:
            return found.group(0)  # "/= 0" says no factor: left as typed, and asked
        amount = f"{1 / divisor:g}"
    what = (found["name"] or "").strip() or "it"
    unit = found["unit"] or ""
    return f"{found['lead']}{_VERBS[operator]} {what} by {amount}{unit}"
