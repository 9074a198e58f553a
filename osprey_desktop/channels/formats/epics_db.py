"""EPICS IOC database files (``.db``): ``record(type, "NAME") { field(DESC, "…") … }``.

What the record states is what the channel is: ``DESC`` the description, ``EGU`` the units,
``PREC`` the precision, ``LOPR``/``HOPR`` the display range, ``DRVL``/``DRVH`` the control
range, ``LOLO``/``LOW``/``HIGH``/``HIHI`` the alarm limits and an output record's ``VAL`` its
nominal value. Output records (``ao``, ``bo``, ``mbbo``, ``longout``, ``stringout`` …) are the
writable setpoints; every other type is read only. Names are kept as written: a name with a
macro (``$(P)``) is loaded as typed and reported, since the substitutions live elsewhere.
"""

from __future__ import annotations

import re
from typing import Any

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem

FORMAT = "EPICS database"
OUTPUT_TYPES = frozenset(
    {"ao", "bo", "mbbo", "mbboDirect", "longout", "int64out", "stringout", "lso", "aao"}
)
_QUOTED_OR_BARE = r"(\"(?:[^\"\\]|\\.)*\"|[^)]*?)"
_RECORD = re.compile(r"\b(g?record)\s*\(\s*([^,()]*?)\s*(?:,\s*" + _QUOTED_OR_BARE + r")?\s*\)")
_FIELD = re.compile(r"\bfield\s*\(\s*(\w+)\s*,\s*" + _QUOTED_OR_BARE + r"\s*\)")
_MACRO = re.compile(r"\$[({][^)}]*[)}]")
_COMMENT = re.compile(r"#[^\n]*")
_OPEN_BRACE = re.compile(r"\s*\{")
_NUMERIC = {"PREC", "LOPR", "HOPR", "DRVL", "DRVH", "LOLO", "LOW", "HIGH", "HIHI", "VAL"}


def looks_like_db(text: str) -> bool:
    return _RECORD.search(_COMMENT.sub("", text[:20000])) is not None


def read(text: str, problems: list[ListProblem]) -> list[ChannelDraft]:
    # Comments are blanked, not removed, so positions (and line numbers) stay as in the file.
    source = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    drafts: list[ChannelDraft] = []
    for match in _RECORD.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        where = f"line {line}"
        rtype, raw_name = match.group(2).strip(), _unquote(match.group(3) or "")
        body = _body(source, match.end())
        if body is None:
            problems.append(
                ListProblem(where, f"record '{raw_name}': its {{ … }} is never closed; fields lost")
            )
        fields = {f.group(1).upper(): _unquote(f.group(2)) for f in _FIELD.finditer(body or "")}
        if not raw_name:
            problems.append(ListProblem(where, "record without a name; skipped"))
            continue
        if not rtype:
            problems.append(ListProblem(where, f"record '{raw_name}' has no type; skipped"))
            continue
        if _MACRO.search(raw_name):
            problems.append(
                ListProblem(
                    where,
                    f"record name '{raw_name}' has an unexpanded macro; loaded as written "
                    "(expand the macros, e.g. with msi, to get the real PV names)",
                )
            )
        drafts.append(_draft(rtype, raw_name, fields, f"{where} ({raw_name})", problems))
    return drafts


def _draft(
    rtype: str, name: str, fields: dict[str, str], where: str, problems: list[ListProblem]
) -> ChannelDraft:
    numbers: dict[str, float] = {}
    for key in _NUMERIC & fields.keys():
        try:
            numbers[key] = float(fields[key])
        except ValueError:
            if key != "VAL" or rtype in OUTPUT_TYPES:
                problems.append(
                    ListProblem(where, f"field {key} '{fields[key]}' is not a number; ignored")
                )
    output = rtype in OUTPUT_TYPES
    limits: dict[str, Any] = {}
    for kind, (low, high) in (("display", ("LOPR", "HOPR")), ("control", ("DRVL", "DRVH"))):
        if low in numbers and high in numbers and numbers[low] < numbers[high]:
            limits[kind] = (numbers[low], numbers[high])
    alarm = {k.lower(): numbers[k] for k in ("LOLO", "LOW", "HIGH", "HIHI") if k in numbers}
    if alarm:
        limits["alarm"] = alarm
    precision = numbers.get("PREC")
    return ChannelDraft(
        name=name,
        where=where,
        description=fields.get("DESC", ""),
        units=fields.get("EGU", ""),
        precision=int(precision) if precision is not None and precision >= 0 else None,
        role="setpoint" if output else None,
        writable=output,
        limits=limits or None,
        nominal=numbers.get("VAL") if output else None,
    )


def _body(text: str, start: int) -> str | None:
    """The text between the braces after a record head: "" without braces, None if unclosed."""
    brace = _OPEN_BRACE.match(text, start)
    if brace is None:
        return ""
    depth, index, quoted = 1, brace.end(), False
    while index < len(text) and depth:
        char = text[index]
        if char == "\\" and quoted:
            index += 1
        elif char == '"':
            quoted = not quoted
        elif not quoted and char in "{}":
            depth += 1 if char == "{" else -1
        index += 1
    return text[brace.end() : index - 1] if depth == 0 else None


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    return value
