"""Channel records built with the channels API, for tests that need a list of their own."""

from __future__ import annotations

from osprey_desktop.channels import ChannelRecord


def magnet_pair(name: str, kind: str, sector: int = 1, units: str = "A") -> list[ChannelRecord]:
    """A magnet's current setpoint and readback, paired ("SR01C:HCM01:Current:SP" / ":RB")."""
    base = f"SR{sector:02d}C:{name}:Current"
    return [
        ChannelRecord(
            name=f"{base}:SP",
            description=f"{kind} current setpoint",
            device=name,
            role="setpoint",
            writable=True,
            units=units,
            readback=f"{base}:RB",
        ),
        ChannelRecord(
            name=f"{base}:RB",
            description=f"{kind} current readback",
            device=name,
            role="readback",
            units=units,
            setpoint=f"{base}:SP",
        ),
    ]
