"""What changed around a moment: the writes the audit log recorded, and the channels whose
archive deviates most from their own recent past, ranked.

Each channel's *baseline* is the ``before`` seconds that end ``guard`` seconds before the
moment; its *focus* is from then to ``after`` seconds past the moment. The score is the
largest distance of a focus sample from the baseline median, in baseline standard
deviations (a channel flat in its baseline that moves at all ranks first). The onset is the
first focus sample beyond ``onset_sigma`` of the baseline: comparing onsets tells which
channel moved first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import Signal

#: A score for a channel that was flat before and moved: above any noise-driven score.
FLAT_THEN_MOVED = 1.0e6


@dataclass(frozen=True)
class DeviationRow:
    channel: str
    score: float
    baseline: float
    extreme: float
    change: float
    ratio: float
    time_of_extreme: float
    onset: float | None
    units: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class WriteRow:
    time: float
    channel: str
    before: Any
    requested: Any
    outcome: str
    operator: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class ChangeRanking:
    moment: float
    writes: list[WriteRow]
    rows: list[DeviationRow]
    provenance: Provenance
    quiet: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "moment": self.moment,
            "writes": [w.to_dict() for w in self.writes],
            "rows": [r.to_dict() for r in self.rows],
            "provenance": self.provenance.to_dict(),
            "quiet": list(self.quiet),
        }


def deviation(
    signal: Signal,
    moment: float,
    before: float,
    after: float,
    guard: float,
    onset_sigma: float = 5.0,
) -> DeviationRow | None:
    """How far ``signal`` left its baseline around ``moment`` (None: no samples to judge)."""
    s = signal.finite()
    base = s.window(moment - guard - before, moment - guard)
    focus = s.window(moment - guard, moment + after)
    if len(base) == 0 or len(focus) == 0:
        return None
    centre = float(np.median(base.values))
    spread = float(np.std(base.values))
    distance = np.abs(focus.values - centre)
    i = int(np.argmax(distance))
    biggest = float(distance[i])
    score = biggest / spread if spread > 0 else FLAT_THEN_MOVED if biggest > 0 else 0.0
    beyond = np.nonzero(distance > onset_sigma * spread if spread > 0 else distance > 0)[0]
    onset = float(focus.times[beyond[0]]) if beyond.size else None
    extreme = float(focus.values[i])
    ratio = extreme / centre if centre not in (0.0,) and math.isfinite(centre) else math.nan
    return DeviationRow(
        signal.channel,
        score,
        centre,
        extreme,
        extreme - centre,
        ratio,
        float(focus.times[i]),
        onset,
        signal.units,
    )


def what_changed(
    signals: Mapping[str, Signal],
    moment: float,
    writes: Iterable[Any] = (),
    before: float = 1800.0,
    after: float = 1800.0,
    guard: float = 300.0,
    limit: int = 10,
    not_checked: Iterable[str] = (),
) -> ChangeRanking:
    """The audit log's writes within the window and the channels ranked by deviation."""
    rows = []
    quiet = []
    samples = 0
    for signal in signals.values():
        row = deviation(signal, moment, before, after, guard)
        samples += len(signal.window(moment - guard - before, moment + after))
        if row is None:
            quiet.append(signal.channel)
        else:
            rows.append(row)
    rows.sort(key=lambda r: (-r.score, r.onset if r.onset is not None else math.inf))
    start, end = moment - guard - before, moment + after
    found = [
        WriteRow(
            float(w.time),
            str(w.channel),
            getattr(w, "value_before", None),
            getattr(w, "requested_value", None),
            str(getattr(w, "outcome", "")),
            str(getattr(w, "operator", "")),
        )
        for w in writes
        if start <= float(w.time) <= end
    ]
    found.sort(key=lambda w: abs(w.time - moment))
    method = (
        f"largest distance from the median of the {before / 60:g} min ending {guard / 60:g} min "
        f"before the moment, in that baseline's standard deviations; audit-log writes from "
        f"{(before + guard) / 60:g} min before to {after / 60:g} min after"
    )
    gaps = list(not_checked)
    if quiet:
        gaps.append(f"{len(quiet)} channel(s) without archived samples in the window")
    provenance = Provenance(tuple(signals), start, end, samples, method, tuple(gaps))
    return ChangeRanking(moment, found, rows[:limit], provenance, quiet)
