"""Words and tables for the investigation's findings (the facts an answer repeats)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from osprey_desktop.answers.numbers import significant
from osprey_desktop.investigate.correlation import Correlation
from osprey_desktop.investigate.events import Event
from osprey_desktop.investigate.incident import SIGNIFICANT, IncidentReport
from osprey_desktop.investigate.provenance import clock_text
from osprey_desktop.investigate.statistics import Statistics


def number(value: float, digits: int = 4) -> str:
    """Four significant digits, scientific for tiny or huge values (pressures); the history
    answer's statistics print the same way (``answers.numbers.significant``)."""
    return significant(value, digits)


def at(t: float | None, zone: Any) -> str:
    return clock_text(t, zone, with_date=False) if t is not None else "—"


def signed_lag(seconds: float) -> str:
    return f"{seconds:+.0f} s"


def incident_facts(report: IncidentReport, zone: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The headline facts and tables of an incident investigation."""
    facts: list[str] = []
    tables: list[dict[str, Any]] = []
    day = clock_text(report.moment, zone)
    loss = report.loss
    if loss is not None and loss.amount > 0:
        facts.append(
            f"**The beam current fell by {number(loss.amount, 3)} {loss.units}** at "
            f"{at(loss.time, zone)} ({loss.channel}: {number(loss.before)} → "
            f"{number(loss.lowest)} {loss.units})."
            + (" That is the largest drop in the window." if report.moment_found else "")
        )
    elif report.current:
        facts.append(f"{report.current} shows no loss around {day}.")
    if report.subjects:
        facts += _subject_facts(report, zone)
    else:
        facts += _wide_facts(report, zone)
    for row in report.unrecorded:
        facts.append(
            f"**{row.channel} changed with no write in the audit log**: {number(row.baseline)} → "
            f"{number(row.extreme)} {row.units} at {at(row.onset, zone)} (made outside this "
            "console, or by a device)."
        )
    writes = report.ranking.writes
    if writes:
        facts.append(
            f"**{len(writes)} recorded write(s)** in the window: "
            + "; ".join(
                f"{w.channel} {w.before} → {w.requested} at {at(w.time, zone)} ({w.operator})"
                for w in writes[:5]
            )
            + "."
        )
    else:
        facts.append("No write was recorded in the audit log in the window.")
    rows = [
        [
            r.channel,
            number(r.score, 3),
            number(r.baseline),
            number(r.extreme),
            f"{number(r.ratio, 3)}×" if math.isfinite(r.ratio) else "—",
            at(r.onset, zone),
        ]
        for r in report.ranking.rows
    ]
    tables.append(
        {
            "title": f"Channels that moved most around {day} (σ = baseline standard deviations)",
            "columns": ["channel", "deviation (σ)", "before", "extreme", "ratio", "onset"],
            "rows": rows,
        }
    )
    if report.correlations:
        ranked = sorted(report.correlations, key=lambda c: -abs(c.r))
        tables.append(
            {
                "title": f"Correlation with {report.current} over ±30 min",
                "columns": ["channel", "sector", "Pearson r", "best lag", "r at lag", "samples"],
                "rows": [
                    [
                        c.a,
                        report.sectors.get(c.a) or "—",
                        f"{c.r:+.2f}",
                        signed_lag(c.best_lag_s),
                        f"{c.r_at_best_lag:+.2f}",
                        c.samples,
                    ]
                    for c in ranked[:12]
                ],
            }
        )
    return facts, tables


def _subject_facts(report: IncidentReport, zone: Any) -> list[str]:
    facts = []
    moved = [
        r for r in report.ranking.rows if r.channel in report.subjects and r.score >= SIGNIFICANT
    ]
    by_sector: dict[Any, list[Correlation]] = {}
    for c in report.correlations:
        by_sector.setdefault(report.sectors.get(c.a), []).append(c)
    if not moved:
        facts.append(
            f"**No, nothing unusual**: none of the {len(report.subjects)} channels asked about "
            f"left its usual spread (10 σ) around {clock_text(report.moment, zone)}."
        )
        return facts
    top = moved[0]
    sector = report.sectors.get(top.channel)
    where = f"sector {sector}" if sector is not None else top.channel
    same = [r for r in moved if report.sectors.get(r.channel) == sector]
    names = ", ".join(r.channel for r in same[:4])
    ratio = f"×{number(top.ratio, 3)}" if math.isfinite(top.ratio) else ""
    facts.append(
        f"**Yes — {where}**: {names} rose from {number(top.baseline)} to "
        f"{number(top.extreme)} {top.units} ({ratio}), starting at {at(top.onset, zone)}."
    )
    mine = by_sector.get(sector) or []
    if mine and report.current:
        best = max(mine, key=lambda c: abs(c.r))
        follows = (
            "follows" if best.best_lag_s > 0 else "leads" if best.best_lag_s < 0 else "moves with"
        )
        facts.append(
            f"{report.current} against {best.a}: **Pearson r = {best.r:+.2f}** over ±30 min "
            f"({best.samples} aligned samples); the current {follows} the pressure by "
            f"{abs(best.best_lag_s):.0f} s (r = {best.r_at_best_lag:+.2f} at that lag)."
        )
    others = [c for s, cs in by_sector.items() if s != sector for c in cs]
    if others:
        worst = max(abs(c.r) for c in others)
        facts.append(
            f"Every other sector: |r| ≤ {worst:.2f} ({len(others)} channels), none left its "
            "usual spread."
            if not [r for r in moved if report.sectors.get(r.channel) != sector]
            else f"Other sectors: |r| ≤ {worst:.2f}; also moved: "
            + ", ".join(r.channel for r in moved if report.sectors.get(r.channel) != sector)
        )
    return facts


def _wide_facts(report: IncidentReport, zone: Any) -> list[str]:
    facts = []
    strong = [r for r in report.ranking.rows if r.score >= SIGNIFICANT and r.onset is not None]
    if strong:
        first_onset = min(r.onset for r in strong if r.onset is not None)
        first = [r.channel for r in strong if r.onset == first_onset]
        follow = [r.channel for r in strong if r.onset is not None and r.onset > first_onset]
        facts.append(
            f"**First to move: {', '.join(first[:5])}** at {at(first_onset, zone)}"
            + (f"; then {', '.join(follow[:4])}." if follow else ".")
        )
    precursor = report.precursor
    if precursor is not None and precursor.rows:
        start = min(r.onset for r in precursor.rows if r.onset is not None)
        parts = [
            f"{r.channel} {number(r.baseline)} → {number(r.extreme)} {r.units} "
            f"(from {at(r.onset, zone)})"
            for r in precursor.rows
        ]
        minutes = (report.moment - start) / 60.0
        facts.append(
            f"**In the hour before, {precursor.device} drifted** (from {minutes:.0f} min "
            f"before): " + "; ".join(parts) + "."
        )
        for channel, events in precursor.earlier.items():
            when = ", ".join(clock_text(e.time, zone)[5:16] for e in events[-6:])
            facts.append(
                f"{channel} had **{len(events)} earlier excursion(s)** in the 48 h before: {when}."
            )
        if not precursor.earlier:
            facts.append(f"{precursor.device} shows no earlier excursion in the 48 h before.")
    else:
        facts.append("No channel drifted beyond 20 σ in the hour before.")
    return facts


def statistics_rows(stats: Sequence[Statistics]) -> list[list[Any]]:
    return [
        [
            s.channel,
            number(s.mean),
            number(s.std),
            number(s.minimum),
            number(s.maximum),
            number(s.peak_to_peak),
            number(s.drift_per_hour),
            s.units,
            s.provenance.samples,
        ]
        for s in stats
    ]


STATISTICS_COLUMNS = ["channel", "mean", "std", "min", "max", "p-p", "drift/h", "units", "samples"]


def event_rows(events: Sequence[Event], zone: Any) -> list[list[Any]]:
    return [
        [
            clock_text(e.time, zone),
            e.channel,
            e.kind,
            f"{number(e.size)} {e.units}".strip(),
            number(e.before),
            number(e.after),
        ]
        for e in events
    ]


EVENT_COLUMNS = ["time", "channel", "kind", "size", "before", "after"]
