"""The predicted effect of a channel-write approval: orbit change per plane, tune shift.

Only what the model covers is predicted (correctors move the orbit, quadrupoles the tunes);
every other write is listed as not modelled, and with no model at all the effect says why,
so the approval dialog never shows an empty plot as if nothing would happen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from osprey_desktop.prediction.ring_model import RingModel

SOURCE = "prediction from the ring model"
NO_MODEL_REASON = (
    "No model of this machine is configured (prediction.model in the configuration), so the "
    "effect of this write is not predicted."
)
PLANE_WORDS = {"X": "horizontal", "Y": "vertical"}


@dataclass(frozen=True)
class PlaneChange:
    """Predicted orbit change of one plane at every BPM, in mm."""

    plane: str
    bpms: tuple[str, ...]
    delta_mm: np.ndarray

    @property
    def peak_index(self) -> int:
        return int(np.argmax(np.abs(self.delta_mm))) if self.delta_mm.size else 0

    @property
    def peak_mm(self) -> float:
        return float(self.delta_mm[self.peak_index]) if self.delta_mm.size else 0.0

    @property
    def peak_bpm(self) -> str:
        return self.bpms[self.peak_index] if self.bpms else ""

    @property
    def rms_mm(self) -> float:
        return float(np.sqrt(np.mean(self.delta_mm**2))) if self.delta_mm.size else 0.0


@dataclass
class PredictedEffect:
    """What the model predicts, or why nothing is predicted (``reason``)."""

    planes: list[PlaneChange] = field(default_factory=list)
    tune_shift: tuple[float, float] | None = None
    not_modelled: list[str] = field(default_factory=list)
    reason: str = ""
    source: str = SOURCE

    @property
    def available(self) -> bool:
        return bool(self.planes) or self.tune_shift is not None

    def lines(self) -> list[str]:
        """The prediction in words: one line per plane, the tunes, what is not modelled."""
        if not self.available:
            return [self.reason] if self.reason else []
        out = []
        for change in self.planes:
            word = PLANE_WORDS.get(change.plane, change.plane)
            out.append(
                f"{word.capitalize()} orbit: up to {_mm(change.peak_mm)} at "
                f"{_device(change.peak_bpm)} (rms {_mm(change.rms_mm, signed=False)})"
            )
        if self.tune_shift is not None:
            qx, qy = self.tune_shift
            out.append(f"Tunes: ΔQx {qx:+.4f}, ΔQy {qy:+.4f}")
            if not self.planes:
                out.append("Orbit: unchanged in the ring model (its quadrupoles are centred)")
        if self.not_modelled:
            count = len(self.not_modelled)
            out.append(
                f"{count} of the writes {'is' if count == 1 else 'are'} not in the model "
                f"({', '.join(_device(c) for c in self.not_modelled[:4])}"
                f"{', …' if count > 4 else ''}): their effect is not included."
            )
        return out


def _mm(value: float, signed: bool = True) -> str:
    digits = 3 if abs(value) < 1 else 2
    return f"{value:+.{digits}f} mm" if signed else f"{value:.{digits}f} mm"


def _device(channel: str) -> str:
    """The device part of a channel name (``SR03C:BPM13:X`` -> ``BPM13 X``), for a short line."""
    parts = channel.split(":")
    return " ".join(parts[1:]) if len(parts) > 2 else channel


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def write_deltas(operations: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Channel -> new minus current value, for every write whose two values are numbers."""
    deltas: dict[str, float] = {}
    for op in operations:
        new, now = _number(op.get("new_value")), _number(op.get("current_value"))
        channel = op.get("channel")
        if isinstance(channel, str) and new is not None and now is not None:
            deltas[channel] = new - now
    return deltas


def predict_write_effect(
    operations: Sequence[Mapping[str, Any]], model: RingModel | None, reason: str = ""
) -> PredictedEffect:
    """The predicted effect of these writes under ``model`` (None: ``reason`` says why none)."""
    if model is None:
        return PredictedEffect(reason=reason or NO_MODEL_REASON)
    deltas = write_deltas(operations)
    modelled = {c: d for c, d in deltas.items() if model.knows(c)}
    channels = [op.get("channel") for op in operations]
    effect = PredictedEffect(
        not_modelled=[c for c in channels if isinstance(c, str) and not model.knows(c)]
    )
    for plane, delta in sorted(model.orbit_change(modelled).items()):
        effect.planes.append(PlaneChange(plane, model.planes[plane].bpms, delta))
    if any(c in model.quadrupoles for c in modelled):
        effect.tune_shift = model.tune_change(modelled)
    if not effect.available:
        effect.reason = (
            "The ring model covers correctors and quadrupoles; none of these writes is one, "
            "so no effect on the beam is predicted."
        )
    return effect


__all__ = [
    "NO_MODEL_REASON",
    "SOURCE",
    "PlaneChange",
    "PredictedEffect",
    "predict_write_effect",
    "write_deltas",
]
