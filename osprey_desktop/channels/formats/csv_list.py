"""Channel lists kept as spreadsheets: a header row, then one channel per row.

Columns are recognised by name, in the spellings facilities use (``name``/``PV``/``channel``,
``description``/``DESC``, ``units``/``EGU``, ``precision``/``PREC``, ``low``/``min``/``DRVL``,
``high``/``max``/``DRVH``, ``LOPR``/``HOPR``, ``LOLO``/``HIHI``, ``writable``/``access``/
``read only``, ``role``/``record type``, ``s``/``s position`` along the beam path …);
``,``, ``;``, tab and ``|`` delimiters are told apart by ``csv.Sniffer``. A low/high pair
without a qualifier is the control range (and the display range when none is given): the
range a write must stay in.

A value that cannot be read is reported with its line. A channel whose limits cannot be read
is kept read-only: a write whose limits cannot be checked must not be possible.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.epics_db import OUTPUT_TYPES

FORMAT = "CSV"

_COLUMNS = {
    "name": "name pv pvname channel channelname address signal record recordname tag",
    "description": "description desc comment comments label title",
    "units": "units unit egu engunits engineeringunits",
    "precision": "precision prec digits decimals",
    "writable": "writable writeable rw access settable write",
    "readonly": "readonly ro",
    "role": "role type recordtype rtyp kind",
    "family": "family devicetype devicekind class",
    "device": "device devicename",
    "sector": "sector",
    "position": "s spos sposition spositionm zpos zposition beampath beampathposition",
    "synonyms": "synonyms synonym aliases alias keywords tags",
    "nominal": "nominal default",
    "control_low": "low min minimum lowlimit lowerlimit drvl controllow controlmin lo",
    "control_high": "high max maximum highlimit upperlimit drvh controlhigh controlmax hi",
    "display_low": "lopr displaylow displaymin",
    "display_high": "hopr displayhigh displaymax",
    "alarm_lolo": "lolo alarmlolo",
    "alarm_low": "alarmlow lowalarm",
    "alarm_high": "alarmhigh highalarm",
    "alarm_hihi": "hihi alarmhihi",
    "readback": "readback readbackpv rbpv",
    "setpoint": "setpoint setpointpv sppv",
}
_BY_HEADER = {word: key for key, words in _COLUMNS.items() for word in words.split()}
_TRUE = frozenset({"yes", "y", "true", "t", "1", "rw", "readwrite", "read/write", "w", "write"})
_FALSE = frozenset({"no", "n", "false", "f", "0", "ro", "readonly", "read-only", "r", "read"})
_ROLES = {
    "setpoint": "setpoint",
    "sp": "setpoint",
    "readback": "readback",
    "rb": "readback",
    "monitor": "monitor",
    "mon": "monitor",
}


def column_key(header: str) -> str | None:
    return _BY_HEADER.get(re.sub(r"[^a-z0-9]", "", header.lower()))


def read(text: str, problems: list[ListProblem]) -> list[ChannelDraft]:
    rows = csv.reader(io.StringIO(text), _dialect(text))
    header = next(rows, None)
    keys = [column_key(h) for h in header or []]
    if "name" not in keys:
        raise ValueError(
            "the first row must name the columns, one of them the channel name "
            f"(name, PV, channel or address); found: {', '.join(header or []) or 'nothing'}"
        )
    unused = [h for h, k in zip(header or [], keys, strict=True) if k is None and h.strip()]
    if unused:
        problems.append(ListProblem("line 1", f"columns not used: {', '.join(unused)}"))
    drafts: list[ChannelDraft] = []
    for row in rows:
        if not any(cell.strip() for cell in row):
            continue
        where = f"line {rows.line_num}"
        cells = {k: c.strip() for k, c in zip(keys, row, strict=False) if k and c.strip()}
        if len(row) > len(keys):
            problems.append(ListProblem(where, f"{len(row)} cells for {len(keys)} columns"))
        if "name" not in cells:
            problems.append(ListProblem(where, "row without a channel name; skipped"))
            continue
        drafts.append(_draft(cells, f"{where} ({cells['name']})", problems))
    return drafts


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    sample = "\n".join(text.splitlines()[:50])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel


def _draft(cells: dict[str, str], where: str, problems: list[ListProblem]) -> ChannelDraft:
    draft = ChannelDraft(
        name=cells["name"],
        where=where,
        description=cells.get("description", ""),
        synonyms=[s.strip() for s in re.split(r"[;|]", cells.get("synonyms", "")) if s.strip()],
        family=cells.get("family", ""),
        device=cells.get("device"),
        units=cells.get("units", ""),
        readback=cells.get("readback"),
        setpoint=cells.get("setpoint"),
    )
    numbers = {k: _number(k, v, where, problems) for k, v in cells.items() if k in _NUMBER_KEYS}
    draft.precision = _whole(numbers.get("precision"))
    draft.sector = _whole(numbers.get("sector"))
    draft.position = numbers.get("position")
    draft.nominal = numbers.get("nominal")
    draft.limits, readable = _limits(numbers, where, problems)
    draft.role, draft.writable = _role(cells, where, problems)
    if not readable:
        draft.writable, draft.kept_read_only = False, True
        draft.role = None if draft.role == "setpoint" else draft.role
        problems.append(
            ListProblem(where, f"'{draft.name}' kept read-only: its limits cannot be read")
        )
    return draft


_NUMBER_KEYS = frozenset(
    {"precision", "sector", "nominal", "position"}
    | {k for k in _COLUMNS if k.startswith(("control", "display", "alarm"))}
)


def _number(key: str, value: str, where: str, problems: list[ListProblem]) -> float | None:
    try:
        return float(value.replace(",", ".") if value.count(",") == 1 else value)
    except ValueError:
        problems.append(ListProblem(where, f"{key.replace('_', ' ')} '{value}' is not a number"))
        return None


def _whole(value: float | None) -> int | None:
    return int(value) if value is not None and value == int(value) and value >= 0 else None


def _limits(
    numbers: dict[str, float | None], where: str, problems: list[ListProblem]
) -> tuple[dict[str, Any], bool]:
    """(limits, whether every range given could be read)."""
    limits: dict[str, Any] = {}
    readable = True
    for kind in ("control", "display"):
        given = [k for k in (f"{kind}_low", f"{kind}_high") if k in numbers]
        if not given:
            continue
        low, high = numbers.get(f"{kind}_low"), numbers.get(f"{kind}_high")
        if low is None or high is None:
            readable = False
            if len(given) == 1:
                problems.append(ListProblem(where, f"{kind} range needs both a low and a high"))
        elif low < high:
            limits[kind] = (low, high)
        else:
            readable = False
            problems.append(ListProblem(where, f"{kind} range {low:g} to {high:g} is empty"))
    if "control" in limits and "display" not in limits:
        limits["display"] = limits["control"]
    alarm = {k[6:]: v for k, v in numbers.items() if k.startswith("alarm_") and v is not None}
    if alarm:
        limits["alarm"] = alarm
    return limits, readable


def _role(cells: dict[str, str], where: str, problems: list[ListProblem]) -> tuple[Any, Any]:
    role: str | None = None
    writable: bool | None = None
    stated = cells.get("role")
    if stated:
        if stated in OUTPUT_TYPES:
            role, writable = "setpoint", True
        elif stated.lower() in _ROLES:
            role = _ROLES[stated.lower()]
        elif re.fullmatch(r"[a-z]\w*", stated) and stated.lower() == stated:
            writable = False  # an EPICS input record type: ai, bi, calc …
        else:
            problems.append(ListProblem(where, f"role '{stated}' is not known; ignored"))
    for key, invert in (("writable", False), ("readonly", True)):
        value = cells.get(key)
        if value is None:
            continue
        flag = value.lower().replace(" ", "")
        if flag in _TRUE or flag in _FALSE:
            writable = (flag in _TRUE) != invert
        else:
            problems.append(ListProblem(where, f"{key} '{value}' is neither yes nor no; read-only"))
            writable = False
    return role, writable
