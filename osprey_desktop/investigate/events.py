"""Find events in a signal: steps, drops, rises and spikes beyond a threshold or k·σ.

* step / drop / rise: the median of the ``window`` samples after a point against the median
  of the ``window`` before it; a drop is a step down, a rise a step up;
* spike: a sample that differs from the running median around it (``window`` each side).

The limit is an absolute ``threshold`` (in the channel's units) or ``k`` times the signal's
robust spread (1.4826 × the median absolute deviation of its sample-to-sample changes, so a
slow drift or the top-up sawtooth does not inflate it). Neighbouring hits are one event, at
its largest change. Without a limit, k is max(5, √(2 ln N) + 1) for N samples: the largest of
N Gaussian noise samples stays below it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import Signal
from osprey_desktop.investigate.statistics import InvestigationError

EventKind = Literal["step", "drop", "rise", "spike"]
KINDS: tuple[str, ...] = ("step", "drop", "rise", "spike")


@dataclass(frozen=True)
class Event:
    channel: str
    kind: str
    time: float
    size: float
    before: float
    after: float
    units: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "channel": self.channel,
            "kind": self.kind,
            "time": self.time,
            "size": self.size,
            "before": self.before,
            "after": self.after,
            "units": self.units,
        }


def robust_sigma(values: np.ndarray) -> float:
    """1.4826 × MAD of the sample-to-sample changes / √2: the noise, not the trend."""
    if values.size < 3:
        return 0.0
    diffs = np.diff(values)
    mad = float(np.median(np.abs(diffs - np.median(diffs))))
    return 1.4826 * mad / np.sqrt(2.0)


def _rolling_median(values: np.ndarray, window: int) -> np.ndarray:
    """Median of each run of ``window`` consecutive values (length n - window + 1)."""
    view = np.lib.stride_tricks.sliding_window_view(values, window)
    return np.median(view, axis=1)


def _groups(hits: np.ndarray, gap: int) -> list[np.ndarray]:
    if hits.size == 0:
        return []
    cuts = np.nonzero(np.diff(hits) > gap)[0] + 1
    return np.split(hits, cuts)


def find_events(
    signal: Signal,
    kind: EventKind = "step",
    threshold: float | None = None,
    k: float | None = None,
    window: int = 10,
    start: float | None = None,
    end: float | None = None,
) -> tuple[list[Event], Provenance]:
    """Events of ``kind`` beyond ``threshold`` (absolute) or ``k``·σ (default 5σ)."""
    if kind not in KINDS:
        raise InvestigationError(f"unknown event kind '{kind}'; use one of {', '.join(KINDS)}")
    if threshold is not None and threshold <= 0:
        raise InvestigationError("an event threshold must be positive")
    part = signal.finite()
    if (start is not None or end is not None) and len(part):
        lo = float(part.times[0]) if start is None else start
        hi = float(part.times[-1]) if end is None else end
        part = part.window(lo, hi)
    t, v = part.times, part.values
    window = max(1, int(window))
    if v.size < 2 * window + 1:
        raise InvestigationError(
            f"{signal.channel}: {v.size} samples are too few to look for {kind}s "
            f"(need {2 * window + 1})"
        )
    sigma = robust_sigma(v)
    # by default noise alone should (almost) never cross, however long the series
    factor = max(5.0, math.sqrt(2.0 * math.log(v.size)) + 1.0) if k is None else float(k)
    limit = threshold if threshold is not None else factor * sigma
    how = (
        f"> {threshold:g} {signal.units}".rstrip()
        if threshold is not None
        else (f"> {factor:.3g}σ (σ = {sigma:.3g} {signal.units}, robust)".replace(" )", ")"))
    )
    events: list[Event] = []
    if kind == "spike":
        med = _rolling_median(v, 2 * window + 1)
        centre = v[window : v.size - window]
        change = centre - med
        hits = np.nonzero(np.abs(change) > limit)[0]
        for group in _groups(hits, window):
            i = int(group[np.argmax(np.abs(change[group]))])
            events.append(
                Event(
                    signal.channel,
                    "spike",
                    float(t[i + window]),
                    float(change[i]),
                    float(med[i]),
                    float(centre[i]),
                    signal.units,
                )
            )
        method = f"sample minus the running median of {2 * window + 1} samples {how}"
    else:
        med = _rolling_median(v, window)
        before, after = med[: med.size - window], med[window:]
        change = after - before
        sign = {"step": 0, "drop": -1, "rise": 1}[kind]
        crossing = np.abs(change) > limit if sign == 0 else sign * change > limit
        hits = np.nonzero(crossing)[0]
        for group in _groups(hits, window):
            i = int(group[np.argmax(np.abs(change[group]))])
            # the step itself: the largest sample-to-sample change of its sign near there
            jumps = np.diff(v[i : i + 2 * window]) * (1.0 if change[i] > 0 else -1.0)
            at = i + 1 + int(np.argmax(jumps)) if jumps.size else i + window
            events.append(
                Event(
                    signal.channel,
                    kind if sign else ("drop" if change[i] < 0 else "rise"),
                    float(t[at]),
                    float(change[i]),
                    float(before[i]),
                    float(after[i]),
                    signal.units,
                )
            )
        method = f"median of {window} samples after minus median of {window} before {how}"
    provenance = Provenance(
        (signal.channel,),
        float(t[0]),
        float(t[-1]),
        int(v.size),
        method,
    )
    return events, provenance
