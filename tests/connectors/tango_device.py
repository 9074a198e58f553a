"""A Tango device server of a small facility, for the Tango connector's tests.

``PowerSupply`` serves one attribute of every kind an operator meets:

    ``current``       float in A, ``%.3f``, writable within -5..5 A (the device refuses
                      beyond), alarm above 4.5 A; its read value follows the set value
    ``stuck``         float in A, writable; its read value stays at 12.49 whatever is set
    ``temperature``   float in degC, read-only, 42.0 against a max_alarm of 30: quality ALARM
    ``mode``          string, writable
    ``level``         DevEnum Off/Half/Full, writable
    ``profile``       a spectrum of 16 floats in mm, read-only

Started by the tests with ``DeviceTestContext(PowerSupply, process=True, host="127.0.0.1")``:
a real device server in its own process, on loopback, without a Tango database.
"""

from __future__ import annotations

import enum

from tango import AttrWriteType
from tango.server import Device, attribute

PROFILE = [0.5 * (i + 1) for i in range(16)]


class Level(enum.IntEnum):
    Off = 0
    Half = 1
    Full = 2


class PowerSupply(Device):
    def init_device(self) -> None:
        super().init_device()
        self._current = 1.0
        self._stuck_set = 12.49
        self._mode = "auto"
        self._level = Level.Off

    current = attribute(
        dtype=float,
        unit="A",
        format="%.3f",
        access=AttrWriteType.READ_WRITE,
        min_value=-5.0,
        max_value=5.0,
        max_alarm=4.5,
        description="Corrector current",
    )
    stuck = attribute(dtype=float, unit="A", format="%.2f", access=AttrWriteType.READ_WRITE)
    temperature = attribute(dtype=float, unit="degC", format="%.1f", max_alarm=30.0)
    mode = attribute(dtype=str, access=AttrWriteType.READ_WRITE)
    level = attribute(dtype=Level, access=AttrWriteType.READ_WRITE)
    profile = attribute(dtype=(float,), max_dim_x=16, unit="mm", format="%.2f")

    def read_current(self) -> float:
        return self._current

    def write_current(self, value: float) -> None:
        self._current = value

    def read_stuck(self) -> float:
        return 12.49

    def write_stuck(self, value: float) -> None:
        self._stuck_set = value

    def read_temperature(self) -> float:
        return 42.0

    def read_mode(self) -> str:
        return self._mode

    def write_mode(self, value: str) -> None:
        self._mode = value

    def read_level(self) -> Level:
        return self._level

    def write_level(self, value: int) -> None:
        self._level = Level(value)

    def read_profile(self) -> list[float]:
        return PROFILE
