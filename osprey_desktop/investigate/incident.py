"""Investigate an incident: find the moment, rank what moved then and in the hour before,
correlate the suspects with the beam, and look for earlier excursions of the prime suspect.

The steps, each a computation over the archive (no guessing):

1. the moment: the one asked for, else the largest drop of the beam current in the window,
   else (no loss, channels named) when those channels strayed furthest from their median;
2. the loss: the current's median over the 10 minutes before against its lowest value in the
   10 minutes after;
3. at the moment: every candidate channel ranked by how far it left its baseline
   (``changes.what_changed``), with the onset of each, so the first mover is named;
4. before the moment (when no subject was named): the hour before against the two hours
   before that, grouped by device: the precursor;
5. suspects against the beam current: Pearson r and best lag over ±30 minutes, best per
   sector;
6. the precursor's channels over the 48 hours before: earlier excursions of at least 30 % of
   this one's size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from osprey_desktop.investigate.changes import ChangeRanking, DeviationRow, what_changed
from osprey_desktop.investigate.correlation import Correlation, correlate
from osprey_desktop.investigate.events import Event, find_events
from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import Signal, signals_of
from osprey_desktop.investigate.statistics import InvestigationError

#: Precursors must stand out this far (baseline standard deviations) to be named.
PRECURSOR_SCORE = 20.0
#: A channel that left its baseline by this much (standard deviations) moved; less is noise.
SIGNIFICANT = 10.0
EARLIER_HOURS = 48.0


class NoMomentFound(InvestigationError):
    """The window shows no incident to investigate: the operator must name the time."""


@dataclass
class Loss:
    channel: str
    time: float
    before: float
    lowest: float
    units: str

    @property
    def amount(self) -> float:
        return self.before - self.lowest


@dataclass
class Precursor:
    device: str
    rows: list[DeviationRow]
    earlier: dict[str, list[Event]] = field(default_factory=dict)


@dataclass
class IncidentReport:
    moment: float
    moment_found: bool
    current: str | None
    loss: Loss | None
    ranking: ChangeRanking
    precursor: Precursor | None
    correlations: list[Correlation]
    sectors: dict[str, int | None]
    devices: dict[str, str]
    subjects: list[str]
    plot_channels: list[str]
    provenance: list[Provenance]
    not_checked: list[str]
    #: Setpoints that moved in the window although the audit log has no write of them.
    unrecorded: list[DeviationRow] = field(default_factory=list)


def _epoch(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


async def _fetch(
    archiver: Any, channels: Sequence[str], start: float, end: float, stepped: dict[str, bool]
) -> dict[str, Signal]:
    if not channels:
        return {}
    data = await archiver.get_data(list(channels), _epoch(start), _epoch(end))
    return signals_of(data, stepped)


def _loss(signal: Signal, moment: float) -> Loss | None:
    before = signal.window(moment - 600, moment - 30).finite()
    after = signal.window(moment - 30, moment + 600).finite()
    if len(before) == 0 or len(after) == 0:
        return None
    level = float(np.median(before.values))
    i = int(np.argmin(after.values))
    lowest = float(after.values[i])
    if level - lowest <= 0:
        return None
    # the time of the loss: where the current first fell halfway to its lowest
    half = np.nonzero(after.values <= level - 0.5 * (level - lowest))[0]
    when = float(after.times[half[0]]) if half.size else float(after.times[i])
    return Loss(signal.channel, when, level, lowest, signal.units)


async def find_moment(
    archiver: Any, current: str, start: float, end: float, stepped: dict[str, bool]
) -> tuple[float, Event]:
    """The largest drop of the beam current in [start, end]."""
    signals = await _fetch(archiver, [current], start, end, stepped)
    signal = signals.get(current)
    if signal is None or len(signal.finite()) == 0:
        raise InvestigationError(f"{current} has no archived samples in the window")
    level = float(np.median(signal.finite().values))
    threshold = max(1.0, 0.005 * abs(level))
    events, _ = find_events(signal, "drop", threshold=threshold)
    if not events:
        raise NoMomentFound(
            f"{current} fell by no more than {threshold:.3g} {signal.units} in the window; "
            "name the time of the incident (e.g. 'around 06:48')"
        )
    biggest = min(events, key=lambda e: e.size)
    return biggest.time, biggest


async def most_unusual_moment(
    archiver: Any, channels: Sequence[str], window: tuple[float, float], stepped: dict[str, bool]
) -> float:
    """When any of ``channels`` was furthest from its own median in the window, in robust
    standard deviations (1.4826 × MAD)."""
    signals = await _fetch(archiver, list(channels), window[0], window[1], stepped)
    best, when = -1.0, None
    for signal in signals.values():
        part = signal.finite()
        if len(part) < 3:
            continue
        centre = float(np.median(part.values))
        spread = 1.4826 * float(np.median(np.abs(part.values - centre)))
        distance = np.abs(part.values - centre) / (spread if spread > 0 else 1.0)
        i = int(np.argmax(distance))
        if float(distance[i]) > best:
            best, when = float(distance[i]), float(part.times[i])
    if when is None:
        raise InvestigationError("no archived samples of the channels asked about in the window")
    return when


async def investigate_incident(
    archiver: Any,
    records: dict[str, Any],
    *,
    moment: float | None,
    window: tuple[float, float] | None,
    current: str | None,
    subjects: Sequence[str] = (),
    writes: Iterable[Any] = (),
    now: float | None = None,
) -> IncidentReport:
    """Run the steps of the module docstring; ``records`` maps channel names to records."""
    # setpoints hold their value; other channels: as their archive's spacing shows
    stepped = {name: True for name, r in records.items() if getattr(r, "role", "") == "setpoint"}
    moment_found = False
    if moment is None:
        if window is None or (current is None and not subjects):
            raise NoMomentFound("name the time of the incident (e.g. 'around 14:32')")
        try:
            if current is None:
                raise InvestigationError("no beam current channel in the list")
            moment, _ = await find_moment(archiver, current, window[0], window[1], stepped)
        except InvestigationError:
            if not subjects:
                raise
            # no beam loss: the moment the channels asked about strayed furthest
            moment = await most_unusual_moment(archiver, subjects, window, stepped)
        moment_found = True
    end = min(moment + 1200.0, now) if now is not None else moment + 1200.0
    wide = not subjects
    candidates = list(subjects) if subjects else list(records)
    if current and current not in candidates:
        candidates.append(current)
    start = moment - (3 * 3600.0 + 300.0 if wide else 2400.0)
    signals = await _fetch(archiver, candidates, start, end, stepped)
    writes = list(writes)
    not_checked = [
        "channels outside the channel list",
        "the logbook (ask 'what did we log about ...')",
    ]
    if not wide:
        not_checked.append(
            f"the {len(records) - len(candidates)} channels of the list that were not named"
        )
    ranking = what_changed(
        signals,
        moment,
        writes,
        before=1800.0,
        after=600.0,
        guard=60.0,
        limit=12,
        not_checked=not_checked,
    )
    provenance = [ranking.provenance]
    loss = _loss(signals[current], moment) if current and current in signals else None
    precursor = None
    if wide:
        before = what_changed(
            {n: s for n, s in signals.items() if n != current},
            moment - 2.0,
            (),
            before=7200.0,
            after=0.0,
            guard=3600.0,
            limit=20,
        )
        provenance.append(before.provenance)
        precursor = _precursor(before, records)
        if precursor is not None:
            await _earlier(archiver, precursor, moment, stepped, provenance)
    correlations: list[Correlation] = []
    if subjects and current and current in signals:
        for name in subjects:
            if name == current or name not in signals or stepped.get(name):
                continue
            try:
                correlations.append(
                    correlate(signals[name], signals[current], moment - 1800, moment + 1800, 120)
                )
            except InvestigationError:
                continue
        if correlations:
            provenance.append(
                Provenance(
                    tuple(c.a for c in correlations) + (current,),
                    moment - 1800,
                    moment + 1800,
                    sum(c.samples for c in correlations),
                    correlations[0].provenance.method,
                )
            )
    plot = [current] if current else []
    for row in ranking.rows:
        if row.channel not in plot and len(plot) < 4 and row.score >= SIGNIFICANT:
            plot.append(row.channel)
    if precursor is not None:
        plot += [r.channel for r in precursor.rows[:3] if r.channel not in plot]
    written = {str(w.channel) for w in ranking.writes}
    unrecorded = [
        row
        for row in ranking.rows
        if stepped.get(row.channel) and row.score >= SIGNIFICANT and row.channel not in written
    ]
    sectors = {n: getattr(r, "sector", None) for n, r in records.items()}
    devices = {n: str(getattr(r, "device", "") or "") for n, r in records.items()}
    return IncidentReport(
        moment,
        moment_found,
        current,
        loss,
        ranking,
        precursor,
        correlations,
        sectors,
        devices,
        list(subjects),
        [p for p in plot if p],
        provenance,
        not_checked,
        unrecorded=unrecorded,
    )


def _precursor(before: ChangeRanking, records: dict[str, Any]) -> Precursor | None:
    """The device whose channels drifted most in the hour before (None: nothing did)."""
    strong = [r for r in before.rows if r.score >= PRECURSOR_SCORE and r.onset is not None]
    if not strong:
        return None
    device = str(getattr(records.get(strong[0].channel), "device", "") or strong[0].channel)
    rows = [
        r
        for r in strong
        if str(getattr(records.get(r.channel), "device", "") or r.channel) == device
    ]
    rows.sort(key=lambda r: r.onset if r.onset is not None else math.inf)
    return Precursor(device, rows)


async def _earlier(
    archiver: Any,
    precursor: Precursor,
    moment: float,
    stepped: dict[str, bool],
    provenance: list[Provenance],
) -> None:
    """Earlier excursions of the precursor's channels in the 48 h before its drift began."""
    first = min(r.onset for r in precursor.rows if r.onset is not None)
    start, end = moment - EARLIER_HOURS * 3600.0, first - 600.0
    if end <= start:
        return
    signals = await _fetch(archiver, [r.channel for r in precursor.rows], start, end, stepped)
    samples = 0
    for row in precursor.rows:
        signal = signals.get(row.channel)
        if signal is None or len(signal) < 30:
            continue
        kind = "rise" if row.change > 0 else "drop"
        threshold = 0.3 * abs(row.change)
        try:
            events, _ = find_events(signal, kind, threshold=threshold)
        except InvestigationError:
            continue
        samples += len(signal)
        if events:
            precursor.earlier[row.channel] = events
    provenance.append(
        Provenance(
            tuple(r.channel for r in precursor.rows),
            start,
            end,
            samples,
            f"{EARLIER_HOURS:g} h before the drift began: steps of at least 30 % of this "
            "excursion (median of 10 samples after minus before)",
        )
    )
