"""Write a generated facility list of about 11,000 channels (CSV: name, description) to time
a cold ``osprey-desktop ask`` on a list of the size of a real facility's.

The list is made up, with a naming of its own (``AREA-SS:KINDnn:FIELD``, a gun, a linac of
sectors, a transfer line, a booster and a storage ring; magnets, BPMs, vacuum, RF, diagnostics)
and plain-words descriptions; it measures time only, never accuracy (accuracy is measured on
lists written by facilities). Run: ``python bench/facility_lists/make_timing_list.py OUT.csv``.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

AREAS = [
    ("GUN", "electron gun", 1, 4),
    ("LIN", "linac", 12, 10),
    ("LTB", "linac to booster transfer line", 2, 6),
    ("BOO", "booster", 12, 8),
    ("BTS", "booster to storage ring transfer line", 2, 6),
    ("SRG", "storage ring", 32, 12),
]
KINDS = [
    ("QD", "defocusing quadrupole", [("I_SET", "current setpoint"), ("I_MON", "current")]),
    ("QF", "focusing quadrupole", [("I_SET", "current setpoint"), ("I_MON", "current")]),
    ("XC", "horizontal steering magnet", [("I_SET", "current setpoint"), ("I_MON", "current")]),
    ("YC", "vertical steering magnet", [("I_SET", "current setpoint"), ("I_MON", "current")]),
    (
        "BPM",
        "beam position monitor",
        [("X", "horizontal position"), ("Y", "vertical position"), ("SUM", "sum signal")],
    ),
    ("VGC", "cold cathode vacuum gauge", [("P", "pressure")]),
    ("VIP", "ion pump", [("I", "pump current"), ("P", "pressure"), ("HV", "high voltage")]),
    ("TC", "thermocouple", [("T", "temperature")]),
]
RF = [
    ("AMP_SET", "cavity voltage setpoint"),
    ("AMP", "cavity voltage"),
    ("PHS_SET", "cavity phase setpoint"),
    ("PHS", "cavity phase"),
    ("FWD", "forward power"),
    ("REF", "reflected power"),
]


def rows() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for area, area_words, sectors, per_sector in AREAS:
        for sector in range(1, sectors + 1):
            for kind, kind_words, fields in KINDS:
                for number in range(1, per_sector + 1):
                    for field, field_words in fields:
                        name = f"{area}-{sector:02d}:{kind}{number:02d}:{field}"
                        text = f"{area_words} sector {sector} {kind_words} {number} {field_words}"
                        out.append((name, text))
            for cavity in range(1, 3 if area in {"LIN", "SRG", "BOO"} else 1):
                for field, field_words in RF:
                    name = f"{area}-{sector:02d}:CAV{cavity}:{field}"
                    out.append(
                        (name, f"{area_words} sector {sector} rf cavity {cavity} {field_words}")
                    )
    out.append(("SRG:DCCT:I", "storage ring beam current"))
    out.append(("SRG:DCCT:LIFE", "storage ring beam lifetime"))
    return out


def write(path: Path) -> int:
    listed = rows()
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "description"])
        writer.writerows(listed)
    return len(listed)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "timing_list.csv")
    print(f"{write(target)} channels -> {target}")
