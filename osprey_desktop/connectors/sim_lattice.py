"""Linear optics of the simulated ring: where BPMs and correctors sit, and how kicks move the orbit.

The closed-orbit response of a corrector kick is the textbook formula

    x_i = theta_j * sqrt(beta_i * beta_j) / (2 sin(pi Q)) * cos(|phi_i - phi_j| - pi Q)

with betas and phases laid out smoothly around the ring. It is not a real lattice, but it has
the right shape: every BPM sees every corrector, neighbours more than far ones, with sign
changes around the ring, so a "correct the orbit" exercise behaves believably. Deterministic
given the seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Corrector kick per ampere (mrad/A); with response in m/rad the orbit comes out in mm.
KICK_PER_AMP_MRAD = 0.05
NOMINAL_TUNES = {"X": 14.22, "Y": 8.31}
MOMENTUM_COMPACTION = 3.0e-4

_BPM_OFFSETS = (0.06, 0.2, 0.38, 0.62, 0.8, 0.94)
_CORRECTOR_OFFSETS = (0.14, 0.5, 0.86)


@dataclass(frozen=True)
class PlaneOptics:
    """Response of one plane: BPM readings (mm) per corrector ampere, plus dispersion."""

    response_mm_per_amp: np.ndarray  # shape (n_bpm, n_corrector)
    dispersion_mm: np.ndarray  # orbit (mm) per unit relative momentum deviation
    offsets_mm: np.ndarray  # static orbit at rest (BPM offsets and misalignments)


def _positions(count: int, per_sector: int, offsets: tuple[float, ...], sectors: int) -> np.ndarray:
    """Fractional ring position (0..1) of device number 1..count, per_sector in each sector."""
    pos = np.empty(count)
    for n in range(count):
        sector, k = divmod(n, per_sector)
        local = offsets[k % len(offsets)] if k < len(offsets) else (k + 0.5) / per_sector
        pos[n] = (sector + local) / sectors
    return pos


def _beta(pos: np.ndarray, plane: str, sectors: int) -> np.ndarray:
    base, swing = (10.0, 6.0) if plane == "X" else (12.0, 7.0)
    shift = 0.0 if plane == "X" else 0.5
    return base + swing * np.cos(2 * np.pi * (pos * sectors * 2 + shift))


def build_plane(
    plane: str, n_bpm: int, n_corr: int, sectors: int, seed: int, tune: float | None = None
) -> PlaneOptics:
    """Optics of the "X" or "Y" plane for this many BPMs and correctors."""
    q = NOMINAL_TUNES[plane] if tune is None else tune
    bpm_per_sector = max(1, n_bpm // sectors)
    corr_per_sector = max(1, n_corr // sectors)
    s_bpm = _positions(n_bpm, bpm_per_sector, _BPM_OFFSETS, sectors)
    s_corr = _positions(n_corr, corr_per_sector, _CORRECTOR_OFFSETS, sectors)
    beta_bpm = _beta(s_bpm, plane, sectors)
    beta_corr = _beta(s_corr, plane, sectors)
    phi_bpm = 2 * np.pi * q * s_bpm
    phi_corr = 2 * np.pi * q * s_corr
    dphi = np.abs(phi_bpm[:, None] - phi_corr[None, :])
    response = (
        np.sqrt(beta_bpm[:, None] * beta_corr[None, :])
        / (2 * math.sin(math.pi * q))
        * np.cos(dphi - math.pi * q)
        * KICK_PER_AMP_MRAD
    )
    rng = np.random.default_rng([seed, 1 if plane == "X" else 2])
    if plane == "X":
        dispersion_m = 0.12 + 0.12 * np.abs(np.sin(np.pi * s_bpm * sectors))
    else:
        dispersion_m = np.zeros(n_bpm)
    offsets = rng.normal(0.0, 0.04 if plane == "X" else 0.02, n_bpm)
    return PlaneOptics(response, dispersion_m * 1000.0, offsets)
