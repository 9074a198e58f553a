"""One channel as a list describes it (``ChannelRecord``) and the error a bad list raises.

Kept apart from ``database`` so that every module that reads records (shapes, search, the
finder, the list formats) imports this small module and none imports the database.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from osprey_desktop.channels.errors import ConnectorError

__all__ = [
    "AlarmLimits",
    "ChannelDatabaseError",
    "ChannelLimits",
    "ChannelRecord",
    "Role",
]

Role = Literal["setpoint", "readback", "monitor"]


class ChannelDatabaseError(ConnectorError):
    """The channel database file is missing or malformed."""


class AlarmLimits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    lolo: float | None = None
    low: float | None = None
    high: float | None = None
    hihi: float | None = None

    def as_dict(self) -> dict[str, float]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class ChannelLimits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    display: tuple[float, float] | None = None
    control: tuple[float, float] | None = None
    alarm: AlarmLimits | None = None


class ChannelRecord(BaseModel):
    """One channel as the database describes it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = ""
    synonyms: tuple[str, ...] = ()
    family: str = ""
    sector: int | None = None
    #: Where along the beam path the channel's device sits (s, in metres), when the list says:
    #: "the 3rd BPM" and "the last two correctors" count in this order.
    position: float | None = None
    device: str | None = None
    role: Role = "monitor"
    units: str = ""
    precision: int = 3
    writable: bool = False
    nominal: float = 0.0
    readback: str | None = None
    setpoint: str | None = None
    limits: ChannelLimits = ChannelLimits()

    @model_validator(mode="after")
    def _setpoints_are_writable(self) -> ChannelRecord:
        if self.role == "setpoint" and not self.writable:
            raise ValueError(f"{self.name}: a setpoint must be writable")
        return self

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
