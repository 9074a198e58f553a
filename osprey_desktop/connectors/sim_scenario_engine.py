"""The scenario engine: a scenario's events and responses laid over the ring's model.

``SimMachine`` asks the engine to modify every value it computes (``apply``), so the live
reads, the vectorised archive and the demo IOC show the same scenario. Everything is a pure
function of time, like the ring itself: an event is a shape in time (step, ramp, spike,
burst with decay, trip) scaled by its amount or factor; a response reads its drivers'
relative excess (event-modified over unmodified value) ``delay`` seconds earlier. Setpoint
events become changes of the device nobody recorded (no audit entry, not saved), so the
readback lags and the orbit moves through the ring's own optics.
"""

from __future__ import annotations

import logging
import math
import zlib
from collections.abc import Callable
from datetime import datetime, time, timedelta, tzinfo
from typing import Any

import numpy as np

from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.connectors.sim_noise import gaussian_noise
from osprey_desktop.connectors.sim_scenarios import (
    Event,
    Response,
    Scenario,
    ScenarioError,
    Selector,
    load_scenario,
)

log = logging.getLogger(__name__)

Evaluate = Callable[[ChannelRecord, np.ndarray], np.ndarray]


def facility_zone() -> tzinfo:
    """``machine.timezone`` from the configuration, else this computer's zone."""
    from zoneinfo import ZoneInfo

    from osprey_desktop.config import get_config_value

    name = get_config_value("machine.timezone", None)
    if name:
        return ZoneInfo(str(name))
    zone = datetime.now().astimezone().tzinfo
    return zone if zone is not None else ZoneInfo("UTC")


def anchor_time(scenario: Scenario, now: float, zone: tzinfo) -> float:
    """Epoch seconds of the scenario's time zero as seen at ``now``.

    A clock reading on day 0 that is still ahead of ``now`` moves to the day before, so
    "this morning" never lies in the future.
    """
    anchor = scenario.anchor
    if anchor.clock is None:
        return now - (anchor.ago or 0.0)
    parts = [int(p) for p in anchor.clock.split(":")]
    clock = time(parts[0], parts[1], parts[2] if len(parts) > 2 else 0)
    today = datetime.fromtimestamp(now, zone).date() + timedelta(days=anchor.day)
    moment = datetime.combine(today, clock, zone).timestamp()
    if anchor.day == 0 and moment > now:
        moment = datetime.combine(today - timedelta(days=1), clock, zone).timestamp()
    return moment


def _shape(event: Event, at: float, times: np.ndarray) -> np.ndarray:
    """The event's shape in time, 0 before it, about 1 at its height."""
    dt = times - at
    on = dt >= 0
    if event.duration is not None and event.kind != "ramp":
        on &= dt < event.duration
    if event.kind in ("step", "trip", "spike"):
        if event.kind == "spike" and event.duration is None:
            on &= dt < 1.0
        return on.astype(float)
    if event.kind == "ramp":
        span = max(event.duration or 1.0, 1e-9)
        return np.clip(dt / span, 0.0, 1.0)
    if event.kind == "burst":
        rise = np.clip(dt / max(event.rise, 1e-9), 0.0, 1.0)
        return np.where(on, rise * np.exp(-np.clip(dt, 0.0, None) / event.decay), 0.0)
    return np.zeros(times.shape)


def _modify(event: Event, shape: np.ndarray, values: np.ndarray) -> np.ndarray:
    if event.kind == "trip":
        target = 0.0 if event.value is None else event.value
        return np.where(shape > 0, target, values)
    if event.factor is not None:
        return values * (1.0 + (event.factor - 1.0) * shape)
    return values + (event.amount or 0.0) * shape


class ScenarioEngine:
    """One loaded scenario, bound to one ring by ``SimMachine`` (``install``)."""

    def __init__(self, scenario: Scenario, zone: tzinfo | None = None) -> None:
        self.scenario = scenario
        self.zone = zone
        self.t0 = 0.0
        self._extra: dict[str, tuple[float, int]] = {}
        self._events: dict[str, list[Event]] = {}
        self._responses: dict[str, list[tuple[Response, list[ChannelRecord]]]] = {}
        self._machine: Any = None  # the SimMachine (not imported: it imports this module)

    @classmethod
    def named(cls, name: str, zone: tzinfo | None = None) -> ScenarioEngine:
        return cls(load_scenario(name), zone)

    @property
    def name(self) -> str:
        return self.scenario.name

    # ----- set-up ------------------------------------------------------------------------
    def extend(self, database: ChannelDatabase) -> ChannelDatabase:
        """The ring's channel list plus the scenario's own channels."""
        if not self.scenario.channels:
            return database
        records = list(database)
        for extra in self.scenario.channels:
            try:
                record = ChannelRecord(**extra.record)
            except (ValueError, TypeError) as exc:
                raise ScenarioError(
                    f"Scenario '{self.name}': channel {extra.record.get('name')!r} is not a "
                    f"valid channel record: {exc}"
                ) from exc
            if record.name not in database:
                records.append(record)
            self._extra[record.name] = (extra.noise, zlib.crc32(record.name.encode()))
        return ChannelDatabase(records, source=f"{database.source} + scenario {self.name}")

    def install(self, machine: Any) -> None:
        """Bind to ``machine``: time zero from its clock, selectors to its channels."""
        self._machine = machine
        zone = self.zone or facility_zone()
        self.t0 = anchor_time(self.scenario, machine.clock(), zone)
        database = machine.database
        for event in self.scenario.events:
            names = self.select(database, event.select)
            if not names:
                raise ScenarioError(
                    f"Scenario '{self.name}': event '{event.name or event.kind}' selects no "
                    f"channel of {database.source}."
                )
            for name in names:
                if event.kind == "setpoint":
                    for at in event.at:
                        machine.inject_change(name, self.t0 + at, event.amount, event.value)
                else:
                    self._events.setdefault(name, []).append(event)
        for response in self.scenario.responses:
            record = database.get(response.channel)
            drivers = [database.require(n) for n in self.select(database, response.driver)]
            if record is None or not drivers:
                raise ScenarioError(
                    f"Scenario '{self.name}': response of '{response.channel}' names a channel "
                    "or drivers that are not in the channel list."
                )
            self._responses.setdefault(record.name, []).append((response, drivers))
        log.info("Simulated ring: scenario '%s' anchored at %s", self.name, self.t0)

    @staticmethod
    def select(database: ChannelDatabase, selector: Selector) -> list[str]:
        names = [database.require(n).name for n in selector.channels]
        if selector.family or selector.sector is not None or selector.device:
            for record in database:
                if selector.family and record.family.upper() != selector.family.upper():
                    continue
                if selector.sector is not None and record.sector != selector.sector:
                    continue
                if selector.device and (record.device or "").upper() != selector.device.upper():
                    continue
                if selector.role and record.role != selector.role:
                    continue
                if record.name not in names:
                    names.append(record.name)
        return names

    # ----- values ------------------------------------------------------------------------
    def events_only(self, record: ChannelRecord, times: np.ndarray, base: np.ndarray) -> np.ndarray:
        """``base`` with this channel's events applied (no responses)."""
        out = base
        extra = self._extra.get(record.name)
        if extra is not None and extra[0] > 0:
            out = out + extra[0] * gaussian_noise(extra[1], times)
        for event in self._events.get(record.name, ()):
            for at in event.at:
                shape = _shape(event, self.t0 + at, times)
                if shape.any():
                    out = _modify(event, shape, out)
        return out

    def apply(
        self, record: ChannelRecord, times: np.ndarray, base: np.ndarray, evaluate: Evaluate
    ) -> np.ndarray:
        """The channel's value with the scenario: events, then responses to drivers."""
        out = self.events_only(record, times, base)
        for response, drivers in self._responses.get(record.name, ()):
            x = self._excess(drivers, times - response.delay, evaluate)
            if response.mode == "add":
                out = out + response.gain * x
            elif response.mode == "divide":
                out = out / np.maximum(1.0 + response.gain * x, 1e-6)
            else:
                out = np.where(
                    self._gated(x, times, response, drivers, evaluate), response.value, out
                )
        return out

    def _excess(
        self, drivers: list[ChannelRecord], times: np.ndarray, evaluate: Evaluate
    ) -> np.ndarray:
        total = np.zeros(times.shape)
        for driver in drivers:
            if not self._events.get(driver.name):
                continue
            base = evaluate(driver, times)
            modified = self.events_only(driver, times, base)
            scale = np.where(np.abs(base) > 0, np.abs(base), 1.0)
            total += (modified - base) / scale
        return total / max(len(drivers), 1)

    def _gated(
        self,
        x: np.ndarray,
        times: np.ndarray,
        response: Response,
        drivers: list[ChannelRecord],
        evaluate: Evaluate,
    ) -> np.ndarray:
        low = x <= response.threshold
        if response.hold <= 0:
            return low
        # held: also ``hold`` seconds after the driver recovered (evaluated on a 1 s grid)
        start, end = float(times.min()) - response.hold, float(times.max())
        spans = [
            (self.t0 + at, self.t0 + at + (event.duration or math.inf))
            for driver in drivers
            for event in self._events.get(driver.name, ())
            for at in event.at
        ]
        if not spans:
            return low
        start = max(start, min(a for a, _ in spans) - 1.0)
        end = min(end, max(b for _, b in spans) + 1.0)
        if end < start:
            return low
        grid = np.arange(math.floor(start), math.ceil(end) + 1.0)
        grid_low = self._excess(drivers, grid - response.delay, evaluate) <= response.threshold
        if not grid_low.any():
            return low
        last_low = np.where(grid_low, grid, -np.inf)
        last_low = np.maximum.accumulate(last_low)
        index = np.clip(np.searchsorted(grid, times, side="right") - 1, 0, grid.size - 1)
        return low | (times - last_low[index] <= response.hold)


def configured_engine() -> ScenarioEngine | None:
    """The engine of ``control_system.sim.scenario`` (None when no scenario is set)."""
    from osprey_desktop.config import get_config_value

    name = get_config_value("control_system.sim.scenario", None)
    return ScenarioEngine.named(str(name)) if name else None


__all__ = ["ScenarioEngine", "anchor_time", "configured_engine", "facility_zone"]
