"""The simulated storage ring: a deterministic function of time, seed and the setpoint history.

Every channel value is computed on demand from the clock, never stepped, so the live connector,
the simulated archiver (which evaluates the same model at past times, vectorised with numpy)
and the demo IOC all agree. What it models:

* beam current: decays with a 10 h lifetime and is topped up to ~500.6 mA every 180 s;
* readbacks follow their setpoints with a first-order lag (0.4 s correctors, 0.8 s quads,
  2 s undulator gaps) plus small noise;
* BPM orbit = static offsets + corrector response matrix x corrector currents + dispersion x
  momentum deviation from the RF frequency, plus 0.5 um noise;
* tunes move with quadrupole currents; vacuum rises with beam current and closed ID gaps;
* alarm status/severity from each channel's HIHI/HIGH/LOW/LOLO limits.

Noise is a hash of (seed, channel, 0.1 s bucket), so the same time always gives the same value.
Given a ``state_file`` (the factory passes ``<data dir>/sim_machine.json``), the ring starts at
the setpoints saved there with the history of their recent writes (so its archive, in the next
process, still knows the value a minute ago), and saves every accepted write, so separate
processes (``ask``, ``approve``, the window, the demo IOC) see one machine; without one it lives
in memory.
A channel of an unknown family is still served: monitors sit at their nominal value and
setpoint/readback pairs still lag, so a facility's own channel list works on the simulator.
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.connectors.sim_lattice import (
    MOMENTUM_COMPACTION,
    NOMINAL_TUNES,
    PlaneOptics,
    build_plane,
)
from osprey_desktop.connectors.sim_noise import gaussian_noise
from osprey_desktop.connectors.sim_scenario_engine import ScenarioEngine, configured_engine
from osprey_desktop.connectors.sim_state import SimStateFile

log = logging.getLogger(__name__)

TOPUP_PERIOD_S = 180.0
FILL_CURRENT_MA = 500.6
LIFETIME_H = 10.0
RF_NOMINAL_MHZ = 499.654
ENERGY_GEV = 3.0

_LAG_SECONDS = {"HCM": 0.4, "VCM": 0.4, "QUAD": 0.8, "ID": 2.0, "RF": 0.5}
_NOISE = {"HCM": 1e-3, "VCM": 1e-3, "QUAD": 5e-3, "ID": 2e-3, "BPM": 5e-4}
#: Tune shift (horizontal, vertical) per ampere of a focusing (QF) or defocusing (QD) quadrupole
#: away from its nominal current; the prediction of a write's effect uses the same optics.
TUNE_PER_AMP = {"QF": (0.0015, -0.0007), "QD": (-0.0008, 0.0014)}
_DIGITS = re.compile(r"(\d+)")


class SimWriteError(ValueError):
    """The simulated device refused a write: read-only channel, bad value, beyond control limits."""


@dataclass(frozen=True)
class SimReading:
    value: float
    timestamp: float
    alarm_status: str
    alarm_severity: str


class _Device:
    """A setpoint and the lagged actual value it drives.

    ``initial`` is where the device sat, settled, before this process's first write (the
    nominal value, or the one restored from the state file); ``changes`` is every write since.
    """

    def __init__(self, nominal: float, tau: float) -> None:
        self.nominal = nominal
        self.initial = nominal
        self.tau = max(tau, 1e-6)
        self.changes: tuple[tuple[float, float], ...] = ()

    @property
    def moved(self) -> bool:
        """Whether the device ever left its nominal value (lets the model skip idle devices)."""
        return bool(self.changes) or self.initial != self.nominal

    def current_setpoint(self) -> float:
        return self.changes[-1][1] if self.changes else self.initial

    def setpoint_at(self, times: np.ndarray) -> np.ndarray:
        out = np.full(times.shape, self.initial, dtype=float)
        earliest = times.min() if times.size else math.inf
        for index, (tc, sp) in enumerate(self.changes):
            # a change followed by another before the first time asked for is overwritten
            # anyway: only the changes in the window cost an array pass (a long history is cheap)
            if self._superseded_before(index, earliest):
                continue
            out[times >= tc] = sp
        return out

    def actual_at(self, times: np.ndarray) -> np.ndarray:
        out = np.full(times.shape, self.initial, dtype=float)
        earliest = times.min() if times.size else math.inf
        a_prev, sp_prev, t_prev = self.initial, self.initial, None
        for index, (tc, sp) in enumerate(self.changes):
            a_tc = sp_prev if t_prev is None else _lag(a_prev, sp_prev, tc - t_prev, self.tau)
            if not self._superseded_before(index, earliest):
                mask = times >= tc
                out[mask] = sp + (a_tc - sp) * np.exp(-(times[mask] - tc) / self.tau)
            a_prev, sp_prev, t_prev = a_tc, sp, tc
        return out

    def _superseded_before(self, index: int, when: float) -> bool:
        """Whether the change after ``changes[index]`` happened at or before ``when``."""
        return index + 1 < len(self.changes) and self.changes[index + 1][0] <= when

    def actual_scalar(self, t: float) -> float:
        value, sp_prev, t_prev = self.initial, self.initial, None
        for tc, sp in self.changes:
            if tc > t:
                break
            value = sp_prev if t_prev is None else _lag(value, sp_prev, tc - t_prev, self.tau)
            sp_prev, t_prev = sp, tc
        return value if t_prev is None else _lag(value, sp_prev, t - t_prev, self.tau)


def _time_of(change: tuple[float, float]) -> float:
    return change[0]


def _lag(start: float, target: float, dt: float, tau: float) -> float:
    return target + (start - target) * math.exp(-max(dt, 0.0) / tau)


def _index(device: str | None) -> int | None:
    match = _DIGITS.search(device or "")
    return int(match.group(1)) if match else None


def alarm_state(record: ChannelRecord, value: float) -> tuple[str, str]:
    """EPICS alarm (status, severity) of a value against the record's alarm limits."""
    limits = record.limits.alarm
    if limits is None or not math.isfinite(value):
        return ("NO_ALARM", "NO_ALARM") if limits is None else ("UDF", "INVALID")
    if limits.hihi is not None and value >= limits.hihi:
        return "HIHI", "MAJOR"
    if limits.lolo is not None and value <= limits.lolo:
        return "LOLO", "MAJOR"
    if limits.high is not None and value >= limits.high:
        return "HIGH", "MINOR"
    if limits.low is not None and value <= limits.low:
        return "LOW", "MINOR"
    return "NO_ALARM", "NO_ALARM"


class SimMachine:
    """One simulated ring; share one instance per process (see ``factory.get_sim_machine``).

    ``state_file`` (a path or a ``SimStateFile``) makes it persistent: setpoints saved there are
    restored, settled, and every accepted write (and ``reset``) is saved. ``None``: in memory.
    """

    def __init__(
        self,
        database: ChannelDatabase,
        seed: int = 0,
        clock: Callable[[], float] | None = None,
        lag_scale: float = 1.0,
        state_file: str | os.PathLike[str] | SimStateFile | None = None,
        scenario: ScenarioEngine | None | Literal["configured"] = "configured",
    ) -> None:
        # a scenario (sim_scenarios) may add channels; "configured": control_system.sim.scenario
        self.scenario = configured_engine() if scenario == "configured" else scenario
        if self.scenario is not None:
            database = self.scenario.extend(database)
        self.database = database
        self.state_file: SimStateFile | None = (
            state_file
            if isinstance(state_file, SimStateFile) or state_file is None
            else SimStateFile(state_file)
        )
        self.seed = seed
        self.clock: Callable[[], float] = clock or time.time
        self._lock = threading.Lock()
        self._devices: dict[str, _Device] = {}
        for record in database:
            if record.role == "setpoint":
                tau = _LAG_SECONDS.get(record.family.upper(), 0.5) * lag_scale
                self._devices[record.name] = _Device(record.nominal, tau)
        self._plane_devices: dict[str, list[tuple[int, str]]] = {"X": [], "Y": []}
        bpm_numbers: set[int] = set()
        for record in database:
            idx = _index(record.device)
            if record.family == "BPM" and idx is not None:
                bpm_numbers.add(idx)
            if record.role == "setpoint" and record.family in ("HCM", "VCM") and idx is not None:
                plane = "X" if record.family == "HCM" else "Y"
                self._plane_devices[plane].append((idx, record.name))
        sectors = max([r.sector or 0 for r in database] + [1])
        n_bpm = max(bpm_numbers, default=0)
        self._optics: dict[str, PlaneOptics] = {}
        for plane in ("X", "Y"):
            n_corr = max((i for i, _ in self._plane_devices[plane]), default=0)
            if n_bpm and n_corr:
                self._optics[plane] = build_plane(plane, n_bpm, n_corr, sectors, seed)
        rng = np.random.default_rng([seed, 99])
        self._topup_phase = float(rng.uniform(0.0, TOPUP_PERIOD_S))
        self._gauge_base = {
            r.name: r.nominal * float(rng.uniform(0.8, 1.6))
            for r in database
            if r.family == "VACUUM"
        }
        self._quads = [
            (r.name, (r.device or "")[:2])
            for r in database
            if r.role == "setpoint" and r.family == "QUAD" and (r.device or "")[:2] in TUNE_PER_AMP
        ]
        self._gap_by_sector = {
            r.sector: r.name for r in database if r.role == "setpoint" and r.family == "ID"
        }
        self._keys = {r.name: zlib.crc32(r.name.encode()) ^ (seed * 0x9E3779B1) for r in database}
        if self.state_file is not None:
            self._restore(self.state_file)
        if self.scenario is not None:
            self.scenario.install(self)

    # ----- writes --------------------------------------------------------------------------
    def set_setpoint(self, name: str, value: float, t: float | None = None) -> float:
        """Change a setpoint now (or at ``t``); the readback starts following it."""
        record = self.database.get(name)
        if record is None or record.name not in self._devices:
            what = "is not a channel of the simulated machine" if record is None else "is read-only"
            raise SimWriteError(f"'{name}' {what}; only setpoint channels can be written.")
        try:
            number = float(value)
        except (TypeError, ValueError) as exc:
            raise SimWriteError(f"'{name}' needs a number, got {value!r}.") from exc
        if not math.isfinite(number):
            raise SimWriteError(f"'{name}' needs a finite number, got {value!r}.")
        control = record.limits.control
        if control is not None and not control[0] <= number <= control[1]:
            raise SimWriteError(
                f"{number:g} {record.units} is outside the control range of '{record.name}' "
                f"({control[0]:g} to {control[1]:g} {record.units})."
            )
        when = self.clock() if t is None else float(t)
        device = self._devices[record.name]
        with self._lock:
            before = float(device.setpoint_at(np.array([np.nextafter(when, -math.inf)]))[0])
            # by time only, stably: of two writes at one instant the later call wins
            device.changes = tuple(sorted(device.changes + ((when, number),), key=_time_of))
            setpoint = device.current_setpoint()
        self._save(
            {record.name: None if setpoint == device.nominal else setpoint},
            written={record.name: (when, number, before)},
        )
        return number

    def inject_change(
        self, name: str, t: float, amount: float | None, value: float | None = None
    ) -> None:
        """A scenario's setpoint change at ``t`` that nobody recorded: not saved, not audited
        (``value``, else the setpoint then plus ``amount``)."""
        device = self._devices.get(name)
        if device is None:
            raise SimWriteError(f"'{name}' is not a setpoint of the simulated machine")
        target = (
            value if value is not None else device.setpoint_at(np.array([t]))[0] + (amount or 0)
        )
        with self._lock:
            device.changes = tuple(sorted(device.changes + ((t, float(target)),), key=_time_of))

    def setpoint_changes(self, name: str) -> tuple[tuple[float, float], ...]:
        """Every (time, value) written to a setpoint, oldest first; empty for other channels."""
        device = self._devices.get(name)
        return device.changes if device else ()

    def reset(self) -> None:
        """Forget every write: all setpoints back to nominal for all time (and in the file)."""
        with self._lock:
            for device in self._devices.values():
                device.changes = ()
                device.initial = device.nominal
        self._save({}, replace_all=True)

    # ----- persistence ---------------------------------------------------------------------
    def _restore(self, state: SimStateFile) -> None:
        """Start at the saved setpoints, with their saved history where it ends at the saved
        setpoint (else settled there); entries this ring cannot take are skipped."""
        ignored: list[str] = []
        for name, value in state.load().items():
            record = self.database.get(name)
            device = self._devices.get(record.name) if record is not None else None
            control = record.limits.control if record is not None else None
            if device is None or (control is not None and not control[0] <= value <= control[1]):
                ignored.append(f"{name}={value:g}")
                continue
            device.initial = value
        now = self.clock()
        for name, history in state.load_history().items():
            record = self.database.get(name)
            device = self._devices.get(record.name) if record is not None else None
            if device is None or record is None:
                continue
            control = record.limits.control
            values = [history.before, *(v for _, v in history.changes)]
            # a history that does not end at the saved setpoint (another program set it by
            # hand), lies in this clock's future or leaves the control range is not this
            # ring's past: the channel then starts settled, as without history
            if (
                not history.changes
                or history.changes[-1][1] != device.initial
                or history.changes[-1][0] > now
                or (control is not None and not all(control[0] <= v <= control[1] for v in values))
            ):
                continue
            device.initial = history.before
            device.changes = history.changes
        if ignored:
            log.warning(
                "Simulated machine state %s: ignored %d saved setpoint(s) that are not writable "
                "channels of this channel database or are outside their control range: %s. "
                "They stay in the file; those channels start at their nominal value.",
                state.path,
                len(ignored),
                ", ".join(ignored[:5]) + (" ..." if len(ignored) > 5 else ""),
            )

    def _save(
        self,
        changes: dict[str, float | None],
        replace_all: bool = False,
        written: dict[str, tuple[float, float, float]] | None = None,
    ) -> None:
        """Persist after an accepted write; a disk problem is logged, the write still stands."""
        if self.state_file is None:
            return
        try:
            self.state_file.update(changes, replace_all=replace_all, written=written)
        except OSError as exc:
            log.warning(
                "Could not save the simulated machine's setpoints to %s: %s. The write took "
                "effect in this process only; check that the data folder is writable.",
                self.state_file.path,
                exc,
            )

    # ----- reads ---------------------------------------------------------------------------
    def read(self, name: str, t: float | None = None) -> SimReading:
        """The value of a channel at ``t`` (default now) with its alarm state."""
        record = self._record(name)
        when = self.clock() if t is None else float(t)
        value = float(self._evaluate(record, np.array([when]))[0])
        status, severity = alarm_state(record, value)
        return SimReading(value, when, status, severity)

    def value(self, name: str, t: float | None = None) -> float:
        return self.read(name, t).value

    def history(self, name: str, times: Iterable[float] | np.ndarray) -> np.ndarray:
        """Values of a channel at many times at once (what the simulated archiver serves)."""
        return self._evaluate(self._record(name), np.asarray(times, dtype=float))

    def snapshot(self, names: Iterable[str], t: float | None = None) -> dict[str, SimReading]:
        """Every named channel at one instant (what the demo IOC publishes each tick)."""
        when = self.clock() if t is None else float(t)
        return {n: self.read(n, when) for n in names}

    def _record(self, name: str) -> ChannelRecord:
        record = self.database.get(name)
        if record is None:
            raise KeyError(f"'{name}' is not a channel of the simulated machine")
        return record

    # ----- the model -----------------------------------------------------------------------
    def _evaluate(self, record: ChannelRecord, times: np.ndarray) -> np.ndarray:
        values = self._model(record, times)
        if self.scenario is None:
            return values
        return self.scenario.apply(record, times, values, self._model)

    def _model(self, record: ChannelRecord, times: np.ndarray) -> np.ndarray:
        name, family = record.name, record.family.upper()
        if record.role == "setpoint":
            return self._devices[name].setpoint_at(times)
        if record.role == "readback" and record.setpoint in self._devices:
            actual = self._devices[record.setpoint].actual_at(times)
            # unknown families: noise of half the last displayed digit (RF: 0.5 Hz, 0.5 kV)
            sigma = _NOISE.get(family, 0.5 * 10.0 ** -(record.precision + 1))
            return actual + sigma * gaussian_noise(self._keys[name], times)
        noise = gaussian_noise(self._keys[name], times)
        suffix = name.rsplit(":", 1)[-1].upper()
        if family == "DCCT" and "LIFETIME" in name.upper():
            return LIFETIME_H + 0.03 * noise
        if family == "DCCT":
            return self.beam_current(times) + 0.005 * noise
        if family == "TOPUP":
            return np.ceil(TOPUP_PERIOD_S - self._since_injection(times))
        if family == "ENERGY":
            return ENERGY_GEV * (1.0 + self._momentum_deviation(times)) + 2e-5 * noise
        if family == "TUNE" and suffix in NOMINAL_TUNES:
            return self._tune(suffix, times) + 2e-4 * noise
        if family == "BPM" and suffix in self._optics:
            return self._orbit(record, suffix, times) + _NOISE["BPM"] * noise
        if family == "VACUUM":
            return self._pressure(record, times) * (1.0 + 0.02 * noise)
        return np.full(times.shape, record.nominal, dtype=float)

    def _since_injection(self, times: np.ndarray) -> np.ndarray:
        return np.mod(times - self._topup_phase, TOPUP_PERIOD_S)

    def beam_current(self, times: np.ndarray) -> np.ndarray:
        """Noise-free stored current: exponential decay between top-up injections."""
        return FILL_CURRENT_MA * np.exp(-self._since_injection(times) / (LIFETIME_H * 3600.0))

    def _momentum_deviation(self, times: np.ndarray) -> np.ndarray:
        rf = self._devices.get("SR:RF:Frequency:SP")
        if rf is None or not rf.moved:
            return np.zeros(times.shape)
        f = rf.actual_at(times)
        return -(f - RF_NOMINAL_MHZ) / RF_NOMINAL_MHZ / MOMENTUM_COMPACTION

    def _tune(self, plane: str, times: np.ndarray) -> np.ndarray:
        out = np.full(times.shape, NOMINAL_TUNES[plane])
        column = 0 if plane == "X" else 1
        for name, kind in self._quads:
            device = self._devices[name]
            if device.moved:
                out += TUNE_PER_AMP[kind][column] * (device.actual_at(times) - device.nominal)
        return out

    def _orbit(self, record: ChannelRecord, plane: str, times: np.ndarray) -> np.ndarray:
        optics = self._optics[plane]
        row = (_index(record.device) or 1) - 1
        if row >= optics.response_mm_per_amp.shape[0]:
            return np.zeros(times.shape)
        out = np.full(times.shape, optics.offsets_mm[row])
        for number, sp_name in self._plane_devices[plane]:
            device = self._devices[sp_name]
            if not device.changes and device.initial == 0.0:
                continue
            gain = optics.response_mm_per_amp[row, number - 1]
            out += gain * device.actual_at(times)
        if plane == "X":
            out += optics.dispersion_mm[row] * self._momentum_deviation(times)
        return out

    def _pressure(self, record: ChannelRecord, times: np.ndarray) -> np.ndarray:
        base = self._gauge_base.get(record.name, record.nominal)
        load = 1.0 + 0.6 * self.beam_current(times) / FILL_CURRENT_MA
        gap_name = self._gap_by_sector.get(record.sector)
        if gap_name is None:
            return base * load
        gap = self._devices[gap_name].actual_at(times)
        return base * load * (1.0 + 2.0 * np.exp(-(gap - 5.0) / 3.0))
