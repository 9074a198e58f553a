"""ARCHIVER_DATA entries of every kind, as ``ArchiverData.context_fields`` stores them.

The simulated ring has numbers only, so the enum, text and waveform histories the plots must
draw (and ``docs/make_screenshot.py``'s history picture) come from here: an RF station whose
state is an enum (Off / Standby / On / Fault), the beam current that sags into MINOR and
MAJOR and has a disconnected gap, a text channel and a tune spectrum waveform.
"""

from __future__ import annotations

from typing import Any

import numpy as np

RF_STATES = ["Off", "Standby", "On", "Fault"]
CURRENT = "SR:DCCT:Current"
RF_STATE = "SR:RF1:State"
RF_MODE = "SR:RF1:ModeText"
SPECTRUM = "SR:Tune:Spectrum"


def _json(values: np.ndarray) -> list[Any]:
    """NaN -> None, as the context stores a gap."""
    return [None if v != v else float(v) for v in values.tolist()]


def rf_history_entry(t0: float, span_s: float = 3 * 3600.0, points: int = 1081) -> dict:
    """Three hours of an RF station trip and recovery, one sample every ``span/points``."""
    t = np.linspace(t0, t0 + span_s, points)
    hours = (t - t0) / 3600.0
    # On, a trip to Fault at 1h, Off, Standby, On again at 2h
    state = np.full(points, 2.0)
    state[(hours >= 1.0) & (hours < 1.15)] = 3.0
    state[(hours >= 1.15) & (hours < 1.6)] = 0.0
    state[(hours >= 1.6) & (hours < 2.0)] = 1.0
    state[(hours >= 2.45) & (hours < 2.5)] = np.nan  # the IOC was unreachable
    state_severity = np.where(state == 3.0, 2, 0)
    state_severity[np.isnan(state)] = 3

    current = 300.0 - 12.0 * hours  # decay
    current[hours >= 1.0] = 300.0 - 12.0 - 90.0 * (hours[hours >= 1.0] - 1.0)  # beam lost
    current[hours >= 1.6] = np.nan  # no beam: the DCCT reading is invalid
    refill = hours >= 2.0
    current[refill] = 180.0 + 100.0 * np.minimum(1.0, (hours[refill] - 2.0) * 2.5)
    current[(hours >= 2.45) & (hours < 2.5)] = np.nan  # disconnected
    current_severity = np.zeros(points, dtype=int)
    current_severity[current < 260.0] = 1  # LOW
    current_severity[current < 200.0] = 2  # LOLO
    current_severity[np.isnan(current)] = 3

    mode = np.where(state == 2.0, "closed loop", np.where(state == 1.0, "open loop", "parked"))
    mode_values: list[Any] = [None if s != s else m for s, m in zip(state, mode, strict=True)]

    x = np.linspace(0.0, 1.0, 128)
    spectrum: list[Any] = []
    for hour, amps in zip(hours, np.nan_to_num(current), strict=True):
        tune = 0.22 + 0.004 * np.sin(hour * 3.0)
        peak = np.exp(-(((x - tune) / 0.01) ** 2)) * amps / 300.0
        spectrum.append((20.0 * np.log10(peak + 1e-3)).round(2).tolist())
    for i in np.flatnonzero(np.isnan(state)):
        spectrum[int(i)] = None

    stamps = t.tolist()
    return {
        "timestamps": {CURRENT: stamps, RF_STATE: stamps, RF_MODE: stamps, SPECTRUM: stamps},
        "time_series_data": {
            CURRENT: _json(current),
            RF_STATE: _json(state),
            RF_MODE: mode_values,
            SPECTRUM: spectrum,
        },
        "units": {CURRENT: "mA", RF_STATE: "", RF_MODE: "", SPECTRUM: "dB"},
        "kinds": {RF_STATE: "enum", RF_MODE: "string", SPECTRUM: "waveform"},
        "enum_labels": {RF_STATE: RF_STATES},
        "severity": {CURRENT: current_severity.tolist(), RF_STATE: state_severity.tolist()},
        "status": {},
        "start_date": None,
        "end_date": None,
    }


def history_state(entry: dict, title: str = "RF1 trip, last 3 hours", key: str = "rf") -> dict:
    """A graph state holding ``entry`` and the figure that plots it."""
    return {
        "capability_context_data": {"ARCHIVER_DATA": {key: entry}},
        "ui_captured_figures": [
            {
                "capability": "archiver_retrieval",
                "figure_path": "",
                "display_name": title,
                "metadata": {"figure_type": "timeseries", "context_key": key},
                "created_at": "t-history",
            }
        ],
    }
