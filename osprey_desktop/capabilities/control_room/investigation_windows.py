"""The window questions of ``investigation``: statistics (and comparisons), correlations
and events over a time range, each with its provenance.

* statistics: "largest orbit excursion today", "which BPM was least stable in the last hour"
  (the planner sends a statistic of named channels over one window, "std of BPM12 X over the
  last hour", to the history: ``archiver_retrieval`` computes it with ``statistics`` too);
* comparisons (``investigation_comparisons``): "compare the lifetime today with yesterday",
  "vacuum in sector 3 vs sector 7 over the last hour";
* correlations: "did the beam current follow the vacuum yesterday?";
* events: "when did the current last fall by more than 1 mA?", "how often did ... spike?".
"""

from __future__ import annotations

import re
import time
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.investigation_comparisons import (
    MAX_CHANNELS,
    ComparisonQuestions,
    epoch,
)
from osprey_desktop.capabilities.control_room.investigation_contexts import InvestigationContext
from osprey_desktop.capabilities.control_room.investigation_report import (
    EVENT_COLUMNS,
    STATISTICS_COLUMNS,
    event_rows,
    number,
    statistics_rows,
)
from osprey_desktop.capabilities.control_room.investigation_subjects import (
    Subject,
    sectors_named,
    subjects_in,
)
from osprey_desktop.investigate.correlation import correlate
from osprey_desktop.investigate.events import find_events
from osprey_desktop.investigate.provenance import Provenance, clock_text
from osprey_desktop.investigate.series import signals_of
from osprey_desktop.investigate.statistics import InvestigationError, statistics

_THRESHOLD = re.compile(
    r"\b(?:more\s+than|over|above|at\s+least|by|beyond|exceeding|>)\s*([-+]?\d+(?:\.\d+)?)\s*"
    r"(σ|sigma|[a-zA-Zµ°]+)?",
    re.I,
)
_K_SIGMA = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:σ|sigma)\b", re.I)
_EVENT_KIND = [
    ("drop", re.compile(r"\b(?:fell|fall|falls|drop(?:ped|s)?|lost|loss|trip(?:ped|s)?)\b", re.I)),
    ("rise", re.compile(r"\b(?:rose|rise|rises|jump(?:ed|s)?\s+up|increase[ds]?)\b", re.I)),
    ("spike", re.compile(r"\b(?:spike[ds]?|glitch(?:ed|es)?|excursions?)\b", re.I)),
]
_LARGEST = re.compile(r"\b(?:largest|biggest|maximum|max|highest|worst)\b", re.I)
_SMALLEST = re.compile(r"\b(?:smallest|minimum|min|lowest)\b", re.I)
_EXCURSION = re.compile(r"\b(?:excursions?|deviations?|offsets?)\b", re.I)
_epoch = epoch


class WindowQuestions(ComparisonQuestions):
    """Statistics, comparisons, correlations and events; mixed into the capability, which
    provides ``_moment``, ``_window``, ``_zone`` and ``_records``."""

    _zone: Any
    _records: dict[str, Any]

    def _moment(self, text: str) -> float | None:  # pragma: no cover - the capability's
        raise NotImplementedError

    def _window(self, text: str, default_hours: float | None = 24.0) -> tuple[float, float, str]:
        raise NotImplementedError  # pragma: no cover - the capability's

    async def _correlation(self, text: str, archiver: Any, database: Any) -> InvestigationContext:
        subjects = subjects_in(text, database, monitors_only=True)
        if len(subjects) < 2:
            found = " and ".join(s.label for s in subjects) or "nothing I can name"
            raise ClarificationRequired(
                f"A correlation needs two things to compare; I found {found}. Which two?",
                ["did the beam current follow the vacuum yesterday?"],
            )
        first, second = subjects[0], subjects[1]
        moment = self._moment(text)
        if moment is not None:
            start, end = moment - 1800.0, min(moment + 1800.0, time.time())
        else:
            start, end, _ = self._window(text)
        reference = second.channels[0] if len(second.channels) <= len(first.channels) else None
        group = first if reference else second
        reference = reference or first.channels[0]
        names = list(dict.fromkeys([reference, *group.channels[:MAX_CHANNELS]]))
        data = await archiver.get_data(names, _epoch(start), _epoch(end))
        signals = signals_of(data, self._stepped())
        results = []
        for name in names[1:]:
            if name in signals and reference in signals:
                try:
                    results.append(correlate(signals[name], signals[reference], start, end, 300))
                except InvestigationError:
                    continue
        if not results:
            raise InvestigationError(
                f"no archived samples to correlate {group.label} with {reference} in the window"
            )
        results.sort(key=lambda c: -abs(c.r))
        best = results[0]
        lag = (
            f"{reference} follows by {best.best_lag_s:.0f} s"
            if best.best_lag_s > 0
            else f"{reference} leads by {-best.best_lag_s:.0f} s"
            if best.best_lag_s < 0
            else "no lag"
        )
        facts = [
            f"**Strongest: {best.a} against {reference}, Pearson r = {best.r:+.2f}** "
            f"({best.samples} aligned samples; best lag: {lag}, r = {best.r_at_best_lag:+.2f})."
        ]
        strong = [c for c in results[1:] if abs(c.r) >= 0.5 * abs(best.r)]
        rest = [c for c in results[1:] if c not in strong]
        if strong:
            facts.append("Also: " + ", ".join(f"{c.a} (r = {c.r:+.2f})" for c in strong[:5]) + ".")
        if rest:
            worst = max(abs(c.r) for c in rest)
            facts.append(f"The other {len(rest)} channel(s): |r| ≤ {worst:.2f}.")
        table = {
            "title": f"Correlation with {reference}",
            "columns": ["channel", "Pearson r", "best lag", "r at lag", "samples"],
            "rows": [
                [c.a, f"{c.r:+.2f}", f"{c.best_lag_s:+.0f} s", f"{c.r_at_best_lag:+.2f}", c.samples]
                for c in results[:15]
            ],
        }
        prov = Provenance(
            tuple(names),
            start,
            end,
            sum(c.samples for c in results),
            best.provenance.method,
            ("channels not named in the request",),
        )
        return InvestigationContext(
            kind="correlation",
            question=text,
            facts=facts,
            tables=[table],
            provenance=[prov.line(self._zone)],
            results={"correlations": [c.to_dict() for c in results]},
            plot_channels=[reference, best.a],
            start=start,
            end=end,
        )

    async def _statistics(self, text: str, archiver: Any, database: Any) -> InvestigationContext:
        if len(sectors_named(text)) >= 2:
            return await self._sectors(text, archiver, database)
        windows = self._two_windows(text)
        if windows is not None:
            return await self._then_and_now(text, archiver, database, *windows)
        subjects = self._subjects(text, database)
        start, end, expression = self._window(text, default_hours=None)
        names = list(dict.fromkeys(n for s in subjects for n in s.channels))[:MAX_CHANNELS]
        data = await archiver.get_data(names, _epoch(start), _epoch(end))
        signals = signals_of(data, self._stepped())
        stats = []
        for name in names:
            if name in signals:
                try:
                    stats.append(statistics(signals[name], start, end))
                except InvestigationError:
                    continue
        if not stats:
            raise InvestigationError(f"no archived numbers for {', '.join(names[:3])} {expression}")
        facts = [self._statistics_headline(text, stats)]
        shown = stats
        if len(stats) > 20:
            shown = sorted(
                stats, key=lambda s: -max(abs(s.maximum - s.mean), abs(s.minimum - s.mean))
            )[:20]
            facts.append(f"The table shows the 20 of {len(stats)} channels that moved most.")
        prov = Provenance(
            tuple(s.channel for s in stats),
            start,
            end,
            sum(s.provenance.samples for s in stats),
            stats[0].provenance.method,
            ("channels outside the list",)
            if len(stats) == len(names)
            else (f"{len(names) - len(stats)} channel(s) without archived numbers",),
        )
        return InvestigationContext(
            kind="statistics",
            question=text,
            facts=facts,
            tables=[
                {
                    "title": f"Statistics {expression}",
                    "columns": STATISTICS_COLUMNS,
                    "rows": statistics_rows(shown),
                }
            ],
            provenance=[prov.line(self._zone)],
            results={"statistics": [s.to_dict() for s in stats]},
            plot_channels=[s.channel for s in shown[:4]],
            start=start,
            end=end,
        )

    def _statistics_headline(self, text: str, stats: list[Any]) -> str:
        zone = self._zone
        if _EXCURSION.search(text) or (_LARGEST.search(text) and len(stats) > 1):

            def reach(s: Any) -> tuple[float, float, float]:
                centre = s.mean if _EXCURSION.search(text) and s.units != "mm" else 0.0
                up, down = s.maximum - centre, centre - s.minimum
                return (
                    (up, s.maximum, s.time_of_max)
                    if up >= down
                    else (down, s.minimum, s.time_of_min)
                )

            best = max(stats, key=lambda s: reach(s)[0])
            size, value, when = reach(best)
            return (
                f"**Largest excursion: {best.channel} reached {number(value)} {best.units}** "
                f"at {clock_text(when, zone)} (of {len(stats)} channels)."
            )
        if _SMALLEST.search(text) and len(stats) > 1:
            best = min(stats, key=lambda s: s.minimum)
            return (
                f"**Lowest: {best.channel} at {number(best.minimum)} {best.units}** "
                f"({clock_text(best.time_of_min, zone)})."
            )
        s = stats[0]
        more = f" (and {len(stats) - 1} more channels below)" if len(stats) > 1 else ""
        return (
            f"**{s.channel}: mean {number(s.mean)} {s.units}, standard deviation "
            f"{number(s.std)} {s.units}**, min {number(s.minimum)}, max {number(s.maximum)}, "
            f"peak-to-peak {number(s.peak_to_peak)}, drift {number(s.drift_per_hour)} "
            f"{s.units}/h{more}."
        )

    async def _events(self, text: str, archiver: Any, database: Any) -> InvestigationContext:
        subjects = self._subjects(text, database)
        start, end, expression = self._window(text, default_hours=24.0)
        names = list(dict.fromkeys(n for s in subjects for n in s.channels))[:20]
        kind = next((k for k, pattern in _EVENT_KIND if pattern.search(text)), "step")
        threshold, k_sigma = self._limit(text)
        data = await archiver.get_data(names, _epoch(start), _epoch(end))
        signals = signals_of(data, self._stepped())
        found = []
        method = ""
        samples = 0
        for name in names:
            if name not in signals:
                continue
            try:
                events, prov = find_events(signals[name], kind, threshold=threshold, k=k_sigma)
            except InvestigationError:
                continue
            found += events
            samples += prov.samples
            method = prov.method
        found.sort(key=lambda e: e.time)
        units = next((signals[n].units for n in names if n in signals), "")
        limit = (
            f"of more than {number(threshold)} {units}".rstrip()
            if threshold
            else f"beyond {k_sigma:g}σ"
            if k_sigma
            else "beyond the noise"
        )
        if not found:
            facts = [f"**No {kind} {limit}** in {', '.join(names[:3])} {expression}."]
        elif re.search(r"\bhow\s+(?:often|many)\b", text, re.I):
            facts = [
                f"**{len(found)} {kind}(s) {limit}** {expression}; the last at "
                f"{clock_text(found[-1].time, self._zone)}."
            ]
        else:
            last = found[-1]
            facts = [
                f"**Last {kind} {limit}: {clock_text(last.time, self._zone)}** — "
                f"{last.channel} changed by {number(last.size)} {last.units} "
                f"({number(last.before)} → {number(last.after)}); {len(found)} in all "
                f"{expression}."
            ]
        prov = Provenance(
            tuple(names),
            start,
            end,
            samples,
            method or "no samples to search",
            ("other channels", "times outside the window"),
        )
        return InvestigationContext(
            kind="events",
            question=text,
            facts=facts,
            tables=[
                {
                    "title": f"{kind.capitalize()}s {limit}",
                    "columns": EVENT_COLUMNS,
                    "rows": event_rows(found[-30:], self._zone),
                }
            ]
            if found
            else [],
            provenance=[prov.line(self._zone)],
            results={"events": [e.to_dict() for e in found]},
            plot_channels=names[:4],
            start=start,
            end=end,
        )

    # ----- helpers ----------------------------------------------------------------------
    def _subjects(self, text: str, database: Any) -> list[Subject]:
        subjects = subjects_in(text, database)
        if not subjects:
            raise ClarificationRequired(
                "Which channels should I look at? Name a system (vacuum, orbit, RF, beam "
                "current, lifetime) or a device.",
                ["the lifetime over the last 8 hours", "the vacuum in sector 7 since 08:00"],
            )
        return subjects

    @staticmethod
    def _limit(text: str) -> tuple[float | None, float | None]:
        k = _K_SIGMA.search(text)
        if k:
            return None, float(k.group(1))
        match = _THRESHOLD.search(text)
        if match and (match.group(2) or "").lower() not in ("h", "hour", "hours", "min", "days"):
            value = abs(float(match.group(1)))
            return (value, None) if value > 0 else (None, None)
        return None, None

    def _stepped(self) -> dict[str, bool]:
        """Setpoints hold their value; other channels are judged by their archive's spacing
        (an Archiver Appliance keeps many monitors on change: those are stepped too)."""
        return {n: True for n, r in self._records.items() if r.role == "setpoint"}
