"""Tables pasted into a request, said as one sentence before the parse.

Operators paste what they have: a spreadsheet's columns ("Name<TAB>New value"), a CSV
("device,setpoint_A"), lines copied from the e-log ("02:14 VCM 19 set to 0.25 A"), a list of
gauges with their sectors. A table is two or more rows, one device each, and sometimes a
header (a row of words without a number) and an order said on a line of its own ("set these",
"pls apply", "redo them now", "current pressures pls").

* Rows that give each device a number are a change only when the message orders one: a verb
  of change on its own line ("set:", "apply", "redo them") or a header naming new values
  ("new", "target", "delta"). A header of a step ("delta", "change", "offset") or a signed
  number in every row makes each number an amount to add. Said then as "set HCM01 to 0.15 A,
  HCM02 to -0.1 A and ...", which the write parser reads item by item.
* Rows without a number of their own (a sector beside the gauge is a column, not a value) are
  the devices the order reads: "IG13, IG14, IG15 and IG16: current pressures pls".
* A form ("device: RF voltage", "new: 2.6 MV", "reason: ...") is the change it names.
* A table beside a hold ("NOT approved yet", "not now", "for tomorrow", a question mark) is
  never said as a change: what is held stays as typed, and the parse asks or answers it.
"""

from __future__ import annotations

import re

from osprey_desktop.language.later_changes import LATER, held_back
from osprey_desktop.language.lexicon import CHANGE

__all__ = ["tables_said_plainly"]

_DEVICE = r"(?:[A-Za-z]{1,5}[ _-]?\d{1,3}[A-Za-z]?|[A-Za-z0-9_-]+(?::[A-Za-z0-9_.-]+){2,})"
_NUMBER = r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?"
_UNIT = r"(?:a|ma|mm|µm|um|mv|kv|v|hz|khz|mhz|%|torr|mbar)"
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)]|\(?[a-z]\))\s+")
_STAMP = re.compile(r"^\s*(?:\d{4}-\d\d-\d\d[ T])?\d{1,2}:\d\d(?::\d\d)?\s+")
#: a row giving a device a value: "VCM04,0.12", "QF05<TAB>121.0", "ID02   16.0 mm",
#: "VCM 19 set to 0.25 A", "RF freq SP: 499.654 -> 499.6535" is no row (not a device name)
_VALUE_ROW = re.compile(
    rf"^(?P<device>{_DEVICE})(?:\s*(?:[,;|\t:=]|\s{{2,}})\s*|\s+(?:set\s+to|to|at|->|→|=>)\s+|\s+)"
    rf"(?:(?P<old>{_NUMBER})\s*(?:{_UNIT})?\s*(?:->|→|=>)\s*)?"
    rf"(?P<value>{_NUMBER})\s*(?P<unit>{_UNIT})?\s*[.;,]?\s*$",
    re.I,
)
#: a row naming a device among other columns ("7<TAB>IG13", "IG13", "* IG14")
_DEVICE_ROW = re.compile(
    rf"^(?P<column>\d{{1,2}}\s*(?:[,;|\t]|\s{{2,}})\s*)?(?P<device>{_DEVICE})\s*$", re.I
)
_HEADER = re.compile(r"^[A-Za-z_ ]+(?:(?:[,;|\t]|\s{2,})\s*[A-Za-z_ ]+)+\s*$")
_UNIT_IN_HEADER = re.compile(r"[_\s(\[](?P<unit>a|ma|mm|mv|kv|v|hz|khz|mhz)[)\]]?\s*$", re.I)
_NEW_VALUES = re.compile(r"\b(?:new|target|delta|desired|wanted|requested)\b", re.I)
_A_STEP = re.compile(r"\b(?:delta|change|step|offset|Δ|diff)\b", re.I)
#: a line that orders: led by its verb ("set these", "pls apply", "Redo them now.", "set:")
_ORDERS = re.compile(
    r"(?:^|[.!;]\s+)(?:(?:please|pls|plz|now|then|so|and|just|ok(?:ay)?)\W+)*"
    rf"(?:{'|'.join(sorted(CHANGE, key=len, reverse=True))}|apply|redo|load|use|write)\b",
    re.I,
)
_HELD = re.compile(
    r"\b(?:not\s+(?:approved|yet|now|until|till)|don'?t|do\s+not|never|wait|plan(?:ned)?\s+for|"
    r"proposal|proposed|draft|for\s+(?:later|review|tomorrow)|check\s+with|pending|herself|"
    r"himself|themselves|nothing\s+for\s+you|no\s+action|fyi)\b|\?",
    re.I,
)


def tables_said_plainly(text: str) -> str:
    """``text`` with a pasted table of devices said as one request (see the module
    docstring); as typed when it holds no table of two rows or more."""
    lines = [line for line in re.split(r"\s*\n\s*", text.strip()) if line.strip()]
    if len(lines) == 1 and " | " in lines[0]:
        lines = [part for part in lines[0].split(" | ") if part.strip()]  # "Stat: max | ..."
    form = _form_said(lines, text)
    if form is not None:
        return form
    if len(lines) < 3 and not (len(lines) == 2 and _row(lines[0]) and _row(lines[1])):
        return text
    rows: list[re.Match[str]] = []
    devices: list[str] = []
    header = ""
    columns = False
    others: list[str] = []
    for line in lines:
        said = _bare(line)
        valued = _VALUE_ROW.match(said)
        named = None if valued else _DEVICE_ROW.match(said)
        if valued:
            rows.append(valued)
        elif named:
            devices.append(named["device"])
            columns = columns or named["column"] is not None
        elif not rows and not devices and not header and _HEADER.match(said):
            header = said
        else:
            others.append(said)
    if len(rows) >= 2 and not devices:
        return _change_said(text, rows, header, others)
    if len(devices) >= 2 and not rows and (columns or header):
        # "Sector<TAB>Gauge / 7<TAB>IG13 / ... / current pressures pls": a list under its lines
        # alone ("* IG13 / * IG14") is the item lists' (``item_lists``)
        order = " ".join(o.strip(" :") for o in others) or "read"
        return f"{order} of {_listed([_spaced(d) for d in devices])}"
    return text


def _form_said(lines: list[str], text: str) -> str | None:
    """ "device: RF voltage / new: 2.6 MV / reason: ...": a change request written as a form,
    said as the change (None when it is no such form, or it is held)."""
    fields = {}
    for line in lines:
        found = _FIELD.match(line)
        if found is None:
            return None
        fields[found["key"].lower()] = found["value"].strip()
    device = next((fields[k] for k in _DEVICE_KEYS if k in fields), None)
    value = next((fields[k] for k in _VALUE_KEYS if k in fields), None)
    if device is not None and value is None:
        return _reading_form(device, fields)
    if device is None or value is None or not re.match(_NUMBER, value):
        return None
    if held_back(text) or any(_HELD.search(v) for v in fields.values()):
        return None
    return f"set {device} to {value}"


def _reading_form(device: str, fields: dict[str, str]) -> str | None:
    """ "channel: X / from: 08:00 / to: 12:00 / stat: mean": the statistic of X over then."""
    start, end = fields.get("from") or fields.get("start"), fields.get("to") or fields.get("end")
    since = fields.get("since")
    span = fields.get("window") or fields.get("period") or fields.get("last")
    if span and re.match(
        r"(?:since|from|between|over|during|the\s+last|last|yesterday|today)\b", span, re.I
    ):
        return _said_with(device, fields, span)  # "Period: since 06:00 this morning"
    if start and end:
        return _said_with(device, fields, f"from {start} to {end}")
    if since or start:
        return _said_with(device, fields, f"since {since or start}")
    if span:
        return _said_with(device, fields, f"over the last {span}")
    return None


def _said_with(device: str, fields: dict[str, str], when: str) -> str:
    stat = fields.get("stat") or fields.get("statistic")
    return f"{stat} of {device} {when}" if stat else f"history of {device} {when}"


_FIELD = re.compile(r"^\W*(?P<key>[A-Za-z][A-Za-z ]{0,20}?)\s*:\s*(?P<value>\S.*)$")
_DEVICE_KEYS = ("device", "channel", "pv", "magnet", "name", "what", "setpoint", "knob")
_VALUE_KEYS = ("new", "new value", "new setpoint", "target", "set to")


def _bare(line: str) -> str:
    """A line without its bullet ("- ", "2) ") and its time stamp ("02:14 ")."""
    return _STAMP.sub("", _BULLET.sub("", line)).strip()


def _row(line: str) -> bool:
    return bool(_VALUE_ROW.match(_bare(line)))


def _listed(items: list[str]) -> str:
    """ "a, b and c" """
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def _change_said(text: str, rows: list[re.Match[str]], header: str, others: list[str]) -> str:
    order = " ".join(others)
    if not any(_ORDERS.search(o) for o in others) and not _NEW_VALUES.search(header):
        return text  # values told, nothing ordered: a reading quoted, or a question
    if _HELD.search(order) or _HELD.search(header) or held_back(text) or LATER.search(order):
        return text  # "Values physics asked for, NOT approved yet:": only told
    step = bool(_A_STEP.search(header)) or all(r["value"][0] in "+-−" for r in rows)
    unit_said = _UNIT_IN_HEADER.search(header)
    items = []
    for row in rows:
        unit = row["unit"] or (unit_said["unit"] if unit_said else "")
        unit = f" {unit}" if unit else ""
        value = row["value"].replace("−", "-")
        if step:
            signed = value if value[0] in "+-" else f"+{value}"
            items.append(f"{_spaced(row['device'])} by {signed}{unit}")
        else:
            items.append(f"{_spaced(row['device'])} to {value}{unit}")
    return f"{'change' if step else 'set'} {_listed(items)}"


def _spaced(device: str) -> str:
    """ "VCM_04", "vcm-4": the device as the parse reads it."""
    return re.sub(r"[_-](?=\d)", "", device)
