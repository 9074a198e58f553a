"""The ring model: the simulated ring's linear optics, built from a channel database.

The simulated machine (``connectors.sim_machine``) moves its BPM readings by the corrector
response matrix of ``connectors.sim_lattice`` and its tunes by a fixed shift per quadrupole
ampere; this model uses the same matrix and shifts, so a prediction on the simulated ring (or
on the demo IOC serving it) is what the ring will do, to the model's linear order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from osprey_desktop.channels.records import ChannelRecord
from osprey_desktop.connectors.sim_lattice import build_plane
from osprey_desktop.connectors.sim_machine import TUNE_PER_AMP

PLANES = ("X", "Y")
CORRECTOR_PLANE = {"HCM": "X", "VCM": "Y"}
_DIGITS = re.compile(r"(\d+)")


def _number(device: str | None) -> int | None:
    match = _DIGITS.search(device or "")
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class PlaneResponse:
    """One plane: BPM channel names (row order) and the response in mm per corrector ampere."""

    bpms: tuple[str, ...]
    matrix: np.ndarray  # (n_bpm, n_corrector), column j is corrector number j + 1


@dataclass
class RingModel:
    """Response of the orbit to correctors and of the tunes to quadrupoles."""

    planes: dict[str, PlaneResponse] = field(default_factory=dict)
    correctors: dict[str, tuple[str, int]] = field(default_factory=dict)  # sp -> (plane, col)
    quadrupoles: dict[str, tuple[float, float]] = field(default_factory=dict)  # sp -> dQx, dQy

    @classmethod
    def from_records(cls, records: Iterable[ChannelRecord], seed: int = 0) -> RingModel:
        """The model of the ring these records describe, laid out as the simulator lays it."""
        records = list(records)
        bpm_rows: dict[str, dict[int, str]] = {plane: {} for plane in PLANES}
        model = cls()
        corrector_count = {plane: 0 for plane in PLANES}
        for record in records:
            number = _number(record.device)
            family = record.family.upper()
            if family == "BPM" and number is not None:
                plane = record.name.rsplit(":", 1)[-1].upper()
                if plane in bpm_rows:
                    bpm_rows[plane][number] = record.name
            elif record.role == "setpoint" and family in CORRECTOR_PLANE and number is not None:
                plane = CORRECTOR_PLANE[family]
                model.correctors[record.name] = (plane, number - 1)
                corrector_count[plane] = max(corrector_count[plane], number)
            elif record.role == "setpoint" and family == "QUAD":
                shift = TUNE_PER_AMP.get((record.device or "")[:2])
                if shift is not None:
                    model.quadrupoles[record.name] = shift
        sectors = max([r.sector or 0 for r in records] + [1])
        n_bpm = max((n for rows in bpm_rows.values() for n in rows), default=0)
        for plane in PLANES:
            if not n_bpm or not corrector_count[plane]:
                continue
            optics = build_plane(plane, n_bpm, corrector_count[plane], sectors, seed)
            numbers = sorted(bpm_rows[plane])
            rows = [n - 1 for n in numbers]
            model.planes[plane] = PlaneResponse(
                tuple(bpm_rows[plane][n] for n in numbers), optics.response_mm_per_amp[rows]
            )
        return model

    def knows(self, channel: str) -> bool:
        return channel in self.correctors or channel in self.quadrupoles

    def orbit_change(self, deltas: Mapping[str, float]) -> dict[str, np.ndarray]:
        """Predicted orbit change (mm) per plane at every BPM for corrector changes (A)."""
        out: dict[str, np.ndarray] = {}
        for channel, delta in deltas.items():
            where = self.correctors.get(channel)
            if where is None or where[0] not in self.planes:
                continue
            plane, column = where
            response = self.planes[plane].matrix
            if column >= response.shape[1]:
                continue
            out.setdefault(plane, np.zeros(response.shape[0]))
            out[plane] = out[plane] + response[:, column] * float(delta)
        return out

    def tune_change(self, deltas: Mapping[str, float]) -> tuple[float, float]:
        """Predicted (ΔQx, ΔQy) for quadrupole current changes (A)."""
        qx = qy = 0.0
        for channel, delta in deltas.items():
            shift = self.quadrupoles.get(channel)
            if shift is not None:
                qx += shift[0] * float(delta)
                qy += shift[1] * float(delta)
        return qx, qy


__all__ = ["CORRECTOR_PLANE", "PLANES", "PlaneResponse", "RingModel"]
