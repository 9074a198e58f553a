"""Scenarios of the simulated ring: what happened to it, read from YAML.

A scenario file (``resources/scenarios/<name>.yaml``, or any path) gives an *anchor* (a
facility-time clock reading on a day relative to today, or a time ago), *events* on channels
(step, ramp, spike, burst with decay, trip, and setpoint changes nobody recorded), *responses*
(channels that follow others: the beam current and lifetime respond to the vacuum and the RF)
and extra monitor *channels* the scenario needs (RF cavities, say). Times inside are seconds
from the anchor, or words such as ``-40m``, ``90s``, ``-6h``. ``truth`` holds what a correct
investigation should report; the engine ignores it.

``control_system.sim.scenario: NAME`` (config or ``--config``) loads one into the ring; the
live values, the archive and the demo IOC then all show it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from osprey_desktop.connectors.base import ConnectorError

EventKind = Literal["step", "ramp", "spike", "burst", "trip", "setpoint"]
_DURATION = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*(s|m|min|h|d)?\s*$", re.I)
_UNIT_SECONDS = {"s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0, None: 1.0}


class ScenarioError(ConnectorError):
    """A scenario is unknown or its file is malformed (the message says where)."""


def seconds(value: Any) -> float:
    """``90``, ``"90s"``, ``"-40m"``, ``"6h"``, ``"1d"`` as seconds."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    match = _DURATION.match(str(value))
    if not match:
        raise ValueError(f"'{value}' is not a duration (write 90, 90s, -40m, 6h or 1d)")
    unit = match.group(2).lower() if match.group(2) else None
    return float(match.group(1)) * _UNIT_SECONDS[unit]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Selector(_Model):
    """Channels by name, or by family and sector (and device) in the channel list."""

    channels: tuple[str, ...] = ()
    family: str | None = None
    sector: int | None = None
    device: str | None = None
    role: str | None = None


class Anchor(_Model):
    """When the scenario's time zero is: ``day`` (0 today, -1 yesterday) at ``clock`` in the
    facility's zone, or ``ago`` before the ring starts."""

    day: int = 0
    clock: str | None = None
    ago: float | None = None

    @field_validator("ago", mode="before")
    @classmethod
    def _ago(cls, value: Any) -> float | None:
        return None if value is None else seconds(value)

    @field_validator("clock")
    @classmethod
    def _clock(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"\d{1,2}:\d{2}(?::\d{2})?", value.strip()):
            raise ValueError(f"clock '{value}' is not HH:MM or HH:MM:SS")
        return value


class Event(_Model):
    name: str = ""
    select: Selector
    kind: EventKind
    at: tuple[float, ...]
    duration: float | None = None
    rise: float = 1.0
    decay: float = 600.0
    amount: float | None = None
    factor: float | None = None
    value: float | None = None

    @field_validator("at", mode="before")
    @classmethod
    def _at(cls, value: Any) -> tuple[float, ...]:
        items = value if isinstance(value, list | tuple) else [value]
        return tuple(seconds(v) for v in items)

    @field_validator("duration", "rise", "decay", mode="before")
    @classmethod
    def _span(cls, value: Any) -> float | None:
        return None if value is None else seconds(value)


class Response(_Model):
    """``channel`` follows the drivers' relative excess ``x`` (their event-modified value over
    the unmodified one, minus one; averaged over the drivers) ``delay`` seconds later:
    ``add``: + gain·x; ``divide``: / (1 + gain·x); ``gate``: becomes ``value`` while
    x ≤ ``threshold`` and for ``hold`` seconds after."""

    channel: str
    driver: Selector
    mode: Literal["add", "divide", "gate"]
    gain: float = 0.0
    delay: float = 0.0
    threshold: float = -0.5
    value: float = 0.0
    hold: float = 0.0

    @field_validator("delay", "hold", mode="before")
    @classmethod
    def _span(cls, value: Any) -> float:
        return seconds(value)


class ExtraChannel(_Model):
    """A monitor channel the scenario adds to the ring (a ``ChannelRecord`` plus noise)."""

    record: dict[str, Any]
    noise: float = 0.0


class Scenario(_Model):
    name: str
    description: str = ""
    anchor: Anchor = Field(default_factory=Anchor)
    channels: tuple[ExtraChannel, ...] = ()
    events: tuple[Event, ...] = ()
    responses: tuple[Response, ...] = ()
    truth: dict[str, Any] = Field(default_factory=dict)
    source: str = ""


def scenarios_dir() -> Path:
    from osprey_desktop.config.paths import resources_dir

    return Path(resources_dir()) / "scenarios"


def scenario_names() -> list[str]:
    """The scenarios shipped in the resources."""
    folder = scenarios_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def scenario_path(name: str) -> Path:
    """A shipped scenario by name, or a path to a scenario file."""
    candidate = Path(name).expanduser()
    if candidate.suffix in (".yaml", ".yml") or candidate.is_file():
        return candidate
    return scenarios_dir() / f"{name}.yaml"


def load_scenario(name: str) -> Scenario:
    """Read and check a scenario; ``ScenarioError`` names the file and the field at fault."""
    path = scenario_path(name)
    if not path.is_file():
        shipped = ", ".join(scenario_names()) or "none"
        raise ScenarioError(
            f"Simulated-ring scenario '{name}' not found ({path}). Shipped scenarios: {shipped}; "
            "or give the path of a scenario file in control_system.sim.scenario."
        )
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(f"Scenario file {path} cannot be read: {exc}") from exc
    if not isinstance(raw, dict):
        raise ScenarioError(f"Scenario file {path} must hold a mapping (name, anchor, events).")
    raw.setdefault("name", path.stem)
    try:
        return Scenario(**raw, source=str(path))
    except (ValidationError, TypeError, ValueError) as exc:
        raise ScenarioError(f"Scenario file {path} is not valid: {exc}") from exc


__all__ = [
    "Anchor",
    "Event",
    "ExtraChannel",
    "Response",
    "Scenario",
    "ScenarioError",
    "Selector",
    "load_scenario",
    "scenario_names",
    "scenario_path",
    "scenarios_dir",
    "seconds",
]
