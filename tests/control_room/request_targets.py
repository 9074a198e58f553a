"""The channels and write values some requests of ``requests_table`` must reach.

Scored by ``bench/request_turns.py``, which runs each request as a whole turn on a fresh
simulated ring (nominal setpoints: correctors 0 A, QF 120 A, QD 95 A, undulator gaps 15 mm, RF
499.654 MHz): ``channels`` are the channels found (readbacks and setpoints as a read finds them,
setpoints for a write), ``values`` the value proposed per channel in the approval.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    channels: tuple[str, ...]
    values: dict[str, float | str] | None = None


def _sp(*names: str) -> tuple[str, ...]:
    return tuple(names)


TARGETS: dict[str, Target] = {
    "read the beam current": Target(("SR:DCCT:Current",)),
    # a quantity named ("the gap") is its readback; a device alone ("HCM01") both channels
    "show me the ID04 gap": Target(("SR04C:ID04:Gap:RB",)),
    "what's HCM01 at?": Target(("SR01C:HCM01:Current:SP", "SR01C:HCM01:Current:RB")),
    "show the horizontal orbit in sector 3": Target(
        tuple(f"SR03C:BPM{n}:X" for n in range(13, 19))
    ),
    "vacuum pressures in sector 5": Target(("SR05C:IG09:Pressure", "SR05C:IG10:Pressure")),
    "plot the beam current over the last 2 hours": Target(("SR:DCCT:Current",)),
    "what was the lifetime at 06:30": Target(("SR:DCCT:Lifetime",)),
    "READ QD04": Target(("SR01C:QD04:Current:SP", "SR01C:QD04:Current:RB")),
    "whats teh lifetiem": Target(("SR:DCCT:Lifetime",)),
    "set HCM01 to 1.5 A": Target(("SR01C:HCM01:Current:SP",), {"SR01C:HCM01:Current:SP": 1.5}),
    "increase HCM01 by 0.2 A": Target(("SR01C:HCM01:Current:SP",), {"SR01C:HCM01:Current:SP": 0.2}),
    "decrease the ID04 gap by 1 mm": Target(("SR04C:ID04:Gap:SP",), {"SR04C:ID04:Gap:SP": 14.0}),
    "set HCM05 to 1500 mA": Target(("SR02C:HCM05:Current:SP",), {"SR02C:HCM05:Current:SP": 1.5}),
    "QF03 to 118.5 A": Target(("SR01C:QF03:Current:SP",), {"SR01C:QF03:Current:SP": 118.5}),
    "VCM11 -> 0.35": Target(("SR04C:VCM11:Current:SP",), {"SR04C:VCM11:Current:SP": 0.35}),
    "HCM17=-0.2": Target(("SR06C:HCM17:Current:SP",), {"SR06C:HCM17:Current:SP": -0.2}),
    "set ID09 gap 19.5mm": Target(("SR09C:ID09:Gap:SP",), {"SR09C:ID09:Gap:SP": 19.5}),
    "set VCM08 to minus three hundred milliamps": Target(
        ("SR03C:VCM08:Current:SP",), {"SR03C:VCM08:Current:SP": -0.3}
    ),
    "VCM02 -150 mA": Target(("SR01C:VCM02:Current:SP",), {"SR01C:VCM02:Current:SP": -0.15}),
    "open the ID02 gap to twenty millimetres": Target(
        ("SR02C:ID02:Gap:SP",), {"SR02C:ID02:Gap:SP": 20.0}
    ),
    "set HCM01 and HCM02 to 0.5 A": Target(
        ("SR01C:HCM01:Current:SP", "SR01C:HCM02:Current:SP"),
        {"SR01C:HCM01:Current:SP": 0.5, "SR01C:HCM02:Current:SP": 0.5},
    ),
    "set VCM05 to VCM08 to 0.1 A": Target(
        (
            "SR02C:VCM05:Current:SP",
            "SR02C:VCM06:Current:SP",
            "SR03C:VCM07:Current:SP",
            "SR03C:VCM08:Current:SP",
        ),
        {
            n: 0.1
            for n in (
                "SR02C:VCM05:Current:SP",
                "SR02C:VCM06:Current:SP",
                "SR03C:VCM07:Current:SP",
                "SR03C:VCM08:Current:SP",
            )
        },
    ),
    "set every undulator gap to 20 mm": Target(
        tuple(f"SR{n:02d}C:ID{n:02d}:Gap:SP" for n in (2, 4, 5, 7, 9, 11)),
        {f"SR{n:02d}C:ID{n:02d}:Gap:SP": 20.0 for n in (2, 4, 5, 7, 9, 11)},
    ),
    "make VCM08 the same as VCM07": Target(
        ("SR03C:VCM07:Current:SP", "SR03C:VCM08:Current:SP"), {"SR03C:VCM08:Current:SP": 0.0}
    ),
    "restore QF11 to its value from 09:30": Target(
        ("SR03C:QF11:Current:SP",), {"SR03C:QF11:Current:SP": 120.0}
    ),
    "set HCM01 to 1.5 A, no wait, 1.2 A": Target(
        ("SR01C:HCM01:Current:SP",), {"SR01C:HCM01:Current:SP": 1.2}
    ),
    "I want HCM02 at 0.4 A": Target(("SR01C:HCM02:Current:SP",), {"SR01C:HCM02:Current:SP": 0.4}),
    "bring VCM03 up by a tenth of an amp": Target(
        ("SR01C:VCM03:Current:SP",), {"SR01C:VCM03:Current:SP": 0.1}
    ),
}

__all__ = ["TARGETS", "Target"]
