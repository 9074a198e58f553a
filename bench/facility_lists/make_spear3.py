"""Write ``spear3_orbit.csv``: SPEAR3's orbit channels as its MATLAB Middle Layer lists them.

Source: the public Accelerator Toolbox collaboration's MML repository (github.com/atcollab/MML),
``machine/Spear3/StorageRing/spear3init_ref.m``: the BPM table (``bpm={...}``: common name,
``NNG-BPMk:U`` / ``:V`` channel names, girder and number) and the corrector table
(``cor={...}``: ``NNG-CORkH`` / ``CORkV`` with ``Curr1`` monitor and ``CurrSetpt`` setpoint
channels, HW units ampere). Those tables are regular (18 girders; 7 BPMs on girders 1, 9, 10
and 18, 6 elsewhere; 4 corrector cores per girder), so the rows are written from that rule
rather than pasted. Columns: the PV name, the MML family, the MML common name as an alias,
the hardware units, whether the channel is a setpoint. No descriptions: like an archiver's PV
list, the names are all a finder gets. Run: ``python bench/facility_lists/make_spear3.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

SEVEN_BPMS = {1, 9, 10, 18}


def rows() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for girder in range(1, 19):
        for number in range(1, (7 if girder in SEVEN_BPMS else 6) + 1):
            for plane, family in (("U", "BPMx"), ("V", "BPMy")):
                out.append(
                    {
                        "name": f"{girder:02d}G-BPM{number}:{plane}",
                        "family": family,
                        "alias": f"{girder}BPM{number}",
                        "units": "mm",
                        "writable": "no",
                    }
                )
    for girder in range(1, 19):
        for core in range(1, 5):
            for plane, family, common in (("H", "HCM", "CX"), ("V", "VCM", "CY")):
                for field, writable in (("Curr1", "no"), ("CurrSetpt", "yes")):
                    out.append(
                        {
                            "name": f"{girder:02d}G-COR{core}{plane}:{field}",
                            "family": family,
                            "alias": f"{girder}{common}{core}",
                            "units": "A",
                            "writable": writable,
                        }
                    )
    return out


def main() -> None:
    target = Path(__file__).with_name("spear3_orbit.csv")
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["name", "family", "alias", "units", "writable"])
        writer.writeheader()
        writer.writerows(rows())
    print(f"{target}: {len(rows())} channels")


if __name__ == "__main__":
    main()
