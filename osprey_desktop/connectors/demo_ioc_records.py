"""The demo IOC's PVs behave like EPICS ``ai``/``ao`` records: fields, clamping, alarms.

Every channel is a record with its fields served as PVs of their own, created when a client
first asks for one: ``.EGU .DESC .PREC .HOPR .LOPR .HIHI .HIGH .LOW .LOLO .HHSV .HSV .LSV
.LLSV .SEVR .STAT .NAME`` and, on setpoints (``ao``), ``.DRVH .DRVL``. A field reads its
record's current state, so ``.SEVR`` is the severity of the value now.

As an ``ao`` record does, a setpoint clamps a put to its drive limits (DRVL..DRVH, also its
DBR_CTRL control limits) and never refuses one for its range: the value applied is the
clamped one, without a WRITE alarm, and a client that reads back sees the clamp. The alarm
status and severity come from the record's own HIHI/HIGH/LOW/LOLO limits and HHSV/HSV/LSV/LLSV
severities (MAJOR, MINOR, MINOR, MAJOR for the limits the channel database sets, NO_ALARM for
the others, until a client changes them). On setpoints the limit
and severity fields are writable; everything else, and every field of a read-only record, is
read-only. Field changes last as long as the IOC runs (the setpoints themselves persist).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

from caproto import (
    AccessRights,
    AlarmSeverity,
    AlarmStatus,
    CaprotoValueError,
    ChannelData,
    ChannelDouble,
    ChannelEnum,
    ChannelShort,
    ChannelString,
)

from osprey_desktop.channels.database import ChannelRecord
from osprey_desktop.connectors.sim_machine import SimMachine

SEVERITY_MENU = ("NO_ALARM", "MINOR", "MAJOR", "INVALID")
_SEVERITY_CODE = {
    "NO_ALARM": AlarmSeverity.NO_ALARM,
    "MINOR": AlarmSeverity.MINOR_ALARM,
    "MAJOR": AlarmSeverity.MAJOR_ALARM,
    "INVALID": AlarmSeverity.INVALID_ALARM,
}
#: (limit field, alarm key, status when crossed, severity field, default severity), in the
#: order a record checks them.
_ALARM_FIELDS = (
    ("HIHI", "hihi", "HIHI", "HHSV", "MAJOR"),
    ("LOLO", "lolo", "LOLO", "LLSV", "MAJOR"),
    ("HIGH", "high", "HIGH", "HSV", "MINOR"),
    ("LOW", "low", "LOW", "LSV", "MINOR"),
)
_METADATA_OF = {
    "HOPR": "upper_disp_limit",
    "LOPR": "lower_disp_limit",
    "DRVH": "upper_ctrl_limit",
    "DRVL": "lower_ctrl_limit",
}

Getter = Callable[[], Any]
Setter = Callable[[Any], Awaitable[None]] | None


class _Field:
    """A record field: reads its record's state now, writes through to the record."""

    _getter: Getter
    _setter: Setter

    def bind(self, getter: Getter, setter: Setter) -> _Field:
        self._getter, self._setter = getter, setter
        return self

    async def read(self, data_type: Any) -> Any:
        self._data["value"] = self._getter()  # type: ignore[attr-defined]
        return await super().read(data_type)  # type: ignore[misc]

    async def verify_value(self, data: Any) -> Any:
        value = await super().verify_value(data)  # type: ignore[misc]
        if self._setter is None:
            raise CaprotoValueError("this field is read-only")
        await self._setter(value)
        return value

    def check_access(self, hostname: str, username: str) -> AccessRights:
        if self._setter is None:
            return AccessRights.READ
        return AccessRights.READ | AccessRights.WRITE


class _DoubleField(_Field, ChannelDouble):
    async def verify_value(self, data: Any) -> Any:
        value = data[0] if isinstance(data, list | tuple) else data
        if not math.isfinite(float(value)):
            raise CaprotoValueError("a limit must be a finite number")
        return await super().verify_value(float(value))


class _ShortField(_Field, ChannelShort):
    pass


class _StringField(_Field, ChannelString):
    pass


class _MenuField(_Field, ChannelEnum):
    pass


class DemoRecord(ChannelDouble):
    """A read-only record (``ai``): clients read and monitor it; the IOC publishes it."""

    record_type = "ai"

    def __init__(self, *, record: ChannelRecord, **kwargs: Any) -> None:
        super().__init__(reported_record_type=self.record_type, **kwargs)
        self.record = record
        alarm = record.limits.alarm.as_dict() if record.limits.alarm else {}
        self.alarm_limits: dict[str, float | None] = {
            key: alarm.get(key) for _, key, *_ in _ALARM_FIELDS
        }
        # as a record from a .db file would say: a severity for each limit it sets
        self.severities: dict[str, str] = {
            sv: default if alarm.get(key) is not None else "NO_ALARM"
            for _, key, _, sv, default in _ALARM_FIELDS
        }
        self.fields: dict[str, ChannelData] = {}

    def check_access(self, hostname: str, username: str) -> AccessRights:
        return AccessRights.READ

    # ----- alarms ------------------------------------------------------------------------
    def alarm_of(self, value: float) -> tuple[AlarmStatus, AlarmSeverity]:
        """The status and severity this record gives ``value``, from its own fields."""
        if not math.isfinite(value):
            return AlarmStatus.UDF, AlarmSeverity.INVALID_ALARM
        for _, key, status, severity_field, _ in _ALARM_FIELDS:
            limit = self.alarm_limits[key]
            if limit is None:
                continue
            crossed = value >= limit if key in ("hihi", "high") else value <= limit
            severity = self.severities[severity_field]
            if crossed and severity != "NO_ALARM":
                return getattr(AlarmStatus, status), _SEVERITY_CODE[severity]
        return AlarmStatus.NO_ALARM, AlarmSeverity.NO_ALARM

    async def publish_value(self, value: float, timestamp: float) -> None:
        status, severity = self.alarm_of(value)
        await self.write(
            value, timestamp=timestamp, status=status, severity=severity, verify_value=False
        )

    # ----- fields ------------------------------------------------------------------------
    def get_field(self, field: str) -> ChannelData:
        """The PV of ``field`` (caproto's server asks this for ``NAME.FIELD``)."""
        if not field or field == "VAL":
            return self
        if field not in self.fields:
            made = self._make_field(field)
            if made is None:
                raise KeyError(field)
            self.fields[field] = made
        return self.fields[field]

    def _field_writable(self, field: str) -> bool:
        return False

    def _make_field(self, field: str) -> ChannelData | None:
        writable = self._field_writable(field)
        if field in ("EGU", "DESC", "NAME", "STAT"):
            getter: Getter = {
                "EGU": lambda: self.units,
                "DESC": lambda: self.record.description[:40],
                "NAME": lambda: self.record.name,
                "STAT": lambda: AlarmStatus(self.status).name,
            }[field]
            return _StringField(value=getter()).bind(getter, None)
        if field == "PREC":
            return _ShortField(value=int(self.precision)).bind(lambda: int(self.precision), None)
        if field == "SEVR":
            current = lambda: SEVERITY_MENU[int(self.severity)]  # noqa: E731
            return _MenuField(value=current(), enum_strings=SEVERITY_MENU).bind(current, None)
        if field in self.severities:
            return _MenuField(value=self.severities[field], enum_strings=SEVERITY_MENU).bind(
                lambda: self.severities[field], self._severity_setter(field) if writable else None
            )
        limit = self._limit_accessors(field)
        if limit is None:
            return None
        getter, setter = limit
        return _DoubleField(value=getter(), precision=self.precision).bind(
            getter, setter if writable else None
        )

    def _limit_accessors(self, field: str) -> tuple[Getter, Setter] | None:
        if field in _METADATA_OF and (field not in ("DRVH", "DRVL") or self.record_type == "ao"):
            attribute = _METADATA_OF[field]

            async def set_metadata(value: float) -> None:
                await self.write_metadata(**{attribute: float(value)})

            return (lambda: float(getattr(self, attribute))), set_metadata
        keys = {name: key for name, key, *_ in _ALARM_FIELDS}
        if field not in keys:
            return None
        key = keys[field]
        return (lambda: self.alarm_limits[key] or 0.0), self._alarm_setter(key)

    def _alarm_setter(self, key: str) -> Setter:
        metadata = {
            "hihi": "upper_alarm_limit",
            "high": "upper_warning_limit",
            "low": "lower_warning_limit",
            "lolo": "lower_alarm_limit",
        }[key]

        async def set_limit(value: float) -> None:
            self.alarm_limits[key] = float(value)
            await self.write_metadata(**{metadata: float(value)})

        return set_limit

    def _severity_setter(self, field: str) -> Setter:
        async def set_severity(value: Any) -> None:
            self.severities[field] = value if isinstance(value, str) else SEVERITY_MENU[value]

        return set_severity


class DemoSetpoint(DemoRecord):
    """A writable record (``ao``): a put is clamped to DRVL..DRVH and drives the device."""

    record_type = "ao"

    def __init__(self, *, machine: SimMachine, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._machine = machine

    def check_access(self, hostname: str, username: str) -> AccessRights:
        return AccessRights.READ | AccessRights.WRITE

    def _field_writable(self, field: str) -> bool:
        return field in ("HOPR", "LOPR", "DRVH", "DRVL") or any(
            field in (name, severity) for name, _, _, severity, _ in _ALARM_FIELDS
        )

    def clamp(self, value: float) -> float:
        """``value`` inside the drive limits (and the device's own range)."""
        for low, high in (
            (self.lower_ctrl_limit, self.upper_ctrl_limit),
            self.record.limits.control or (0.0, 0.0),
        ):
            if low < high:
                value = min(max(value, low), high)
        return value

    async def verify_value(self, data: Any) -> Any:
        # not ChannelNumeric.verify_value: it refuses a put beyond the control limits (and
        # leaves the PV in a WRITE alarm); a record clamps it instead
        raw = data[0] if isinstance(data, list | tuple) else data
        value = float(raw)
        if not math.isfinite(value):
            raise CaprotoValueError(f"{self.record.name} needs a finite number, got {raw!r}")
        value = self.clamp(value)
        self._machine.set_setpoint(self.record.name, value)
        status, severity = self.alarm_of(value)
        if (status, severity) != (self.alarm.status, self.alarm.severity):
            await self.alarm.write(status=status, severity=severity)
        return value


__all__ = ["SEVERITY_MENU", "DemoRecord", "DemoSetpoint"]
