"""Which channels a question is about: the subject words of an investigation.

"the vacuum", "the orbit", "the RF", "the lifetime" name families of channels; device and PV
names ("IG13", "SR05C:HCM14") name channels; "sector 3" narrows any of them. Families are
matched against the list's own ``family`` fields, and a subject no family rule knows falls
back to the list's search, so a facility's own list works too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Subject words and the records they name (tested in order; all that match are kept).
_SUBJECTS: list[tuple[str, re.Pattern[str], Callable[[Any], bool]]] = [
    (
        "vacuum",
        re.compile(r"\b(?:vacuum|pressures?|ion\s+gauges?|gauges?)\b", re.I),
        lambda r: r.family.upper() == "VACUUM",
    ),
    (
        "orbit",
        re.compile(r"\b(?:orbit|bpms?|beam\s+positions?)\b", re.I),
        lambda r: r.family.upper() == "BPM",
    ),
    ("lifetime", re.compile(r"\blifetime\b", re.I), lambda r: "LIFETIME" in r.name.upper()),
    (
        "beam current",
        re.compile(r"\b(?:beam\s+current|stored\s+current|dcct|(?:the\s+)?current)\b", re.I),
        lambda r: r.family.upper() == "DCCT" and "LIFETIME" not in r.name.upper(),
    ),
    (
        "RF",
        re.compile(
            r"\b(?:rf|cavit(?:y|ies)|klystrons?|reflected\s+power|"
            r"forward\s+power)\b",
            re.I,
        ),
        lambda r: r.family.upper() == "RF" and r.role != "setpoint",
    ),
    (
        "correctors",
        re.compile(r"\b(?:correctors?|steering(?:\s+magnets?)?)\b", re.I),
        lambda r: r.family.upper() in ("HCM", "VCM"),
    ),
    ("tunes", re.compile(r"\btunes?\b", re.I), lambda r: r.family.upper() == "TUNE"),
    (
        "quadrupoles",
        re.compile(r"\bquad(?:rupole)?s?\b", re.I),
        lambda r: r.family.upper() == "QUAD",
    ),
    (
        "insertion devices",
        re.compile(r"\b(?:undulators?|id\s+gaps?|gaps?)\b", re.I),
        lambda r: r.family.upper() == "ID",
    ),
]
_SECTOR = re.compile(r"\bsector\s*(\d{1,2})\b|\bSR(\d{2})C?\b", re.I)
_NAME_WORD = re.compile(r"\b[A-Za-z][\w:.\-]*\d[\w:.\-]*\b")
_PLANE = re.compile(r"\b(horizontal|vertical)\b", re.I)


@dataclass(frozen=True)
class Subject:
    label: str
    channels: list[str]


def sector_of(text: str) -> int | None:
    match = _SECTOR.search(text)
    if not match:
        return None
    return int(match.group(1) or match.group(2))


def sectors_named(text: str) -> list[int]:
    """Every sector the text names ("sector 3 vs sector 7", "sectors 3 and 7")."""
    found: list[int] = []
    for match in re.finditer(
        r"\bsectors?\s*((?:\d{1,2}(?:\s*(?:,|and|vs\.?|versus|&)\s*)?)+)", text, re.I
    ):
        found += [int(n) for n in re.findall(r"\d{1,2}", match.group(1))]
    found += [int(m) for m in re.findall(r"\bSR(\d{2})C?\b", text)]
    return list(dict.fromkeys(found))


def without_sectors(text: str) -> str:
    """The text with its sector words removed (to find the systems compared across sectors)."""
    return _SECTOR.sub(
        " ", re.sub(r"\bsectors?\s*[\d,&\s]*(?:and|vs\.?|versus)?\s*\d*", " ", text, flags=re.I)
    )


def subjects_in(text: str, database: Any, monitors_only: bool = False) -> list[Subject]:
    """The subjects ``text`` names, in the order it names them, narrowed to its sector."""
    sector = sector_of(text)
    plane = _PLANE.search(text)
    found: list[tuple[int, Subject]] = []
    records = list(database)
    for label, pattern, test in _SUBJECTS:
        match = pattern.search(text)
        if not match:
            continue
        names = [
            r.name
            for r in records
            if test(r)
            and (sector is None or r.sector in (sector, None))
            and (not monitors_only or r.role != "setpoint")
            and _in_plane(r, plane.group(1) if plane else None)
        ]
        if names:
            found.append((match.start(), Subject(label, names)))
    # "cavity 2 reflected power": a record's own synonym narrows the family it belongs to
    lowered = " ".join(text.lower().split())
    phrased = {
        r.name
        for r in records
        for synonym in r.synonyms
        if len(synonym.split()) >= 2 and re.search(rf"\b{re.escape(synonym.lower())}\b", lowered)
    }
    if phrased:
        found = [
            (at, Subject(s.label, [n for n in s.channels if n in phrased]))
            if phrased & set(s.channels)
            else (at, s)
            for at, s in found
        ]
    named: list[str] = []
    for word in _NAME_WORD.findall(text):
        if _SECTOR.fullmatch(word):
            continue
        try:
            channels = database.channels_named(word)
        except Exception:  # noqa: BLE001 - a word that is no name names nothing
            channels = []
        named += [c for c in channels if c not in named]
    if named:
        found.append((text.find(named[0].split(":")[0]), Subject("named channels", named)))
    found.sort(key=lambda item: item[0])
    return [s for _, s in found]


def _in_plane(record: Any, plane: str | None) -> bool:
    if plane is None or record.family.upper() != "BPM":
        return True
    suffix = record.name.rsplit(":", 1)[-1].upper()
    return suffix == ("X" if plane.lower() == "horizontal" else "Y")


def beam_current(database: Any) -> str | None:
    """The stored-beam current channel of the list (a DCCT's current), if it has one."""
    for record in database:
        if record.family.upper() == "DCCT" and "LIFETIME" not in record.name.upper():
            return str(record.name)
    for match in database.search("stored beam current", limit=1):
        return str(getattr(match, "name", "") or getattr(match, "channel", "")) or None
    return None


__all__ = [
    "Subject",
    "beam_current",
    "sector_of",
    "sectors_named",
    "subjects_in",
    "without_sectors",
]
