"""Deterministic noise for the simulated ring: a hash of (key, 0.1 s time bucket), not a RNG.

The same channel at the same time always gets the same noise, so live reads, the vectorised
archiver history and the demo IOC agree without sharing any random state.
"""

from __future__ import annotations

import math

import numpy as np

_M64 = (1 << 64) - 1


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser on uint64 arrays (wrapping arithmetic)."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _mix_int(x: int) -> int:
    """``_mix`` on one Python int: the same bits, without numpy's per-call overhead."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def _noise_scalar(key: int, t: float) -> float:
    bucket = int(math.floor(t * 10.0)) & _M64
    base = _mix_int(key & _M64)
    h1 = _mix_int(base ^ ((bucket * 2) & _M64))
    h2 = _mix_int(base ^ ((bucket * 2 + 1) & _M64))
    u1 = 1.0 - (h1 >> 11) * 2.0**-53
    u2 = (h2 >> 11) * 2.0**-53
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def gaussian_noise(key: int, times: np.ndarray) -> np.ndarray:
    """Standard normal noise that depends only on (key, 0.1 s bucket of each time)."""
    times = np.asarray(times, dtype=float)
    if times.size == 1:  # live reads: one value, ten times faster in plain Python
        return np.full(times.shape, _noise_scalar(key, float(times.reshape(-1)[0])))
    bucket = np.floor(np.asarray(times, dtype=float) * 10.0).astype(np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        base = _mix(np.array([key & _M64], dtype=np.uint64))[0]
        h1 = _mix(base ^ (bucket * np.uint64(2)))
        h2 = _mix(base ^ (bucket * np.uint64(2) + np.uint64(1)))
    u1 = 1.0 - (h1 >> np.uint64(11)).astype(float) * 2.0**-53
    u2 = (h2 >> np.uint64(11)).astype(float) * 2.0**-53
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)
