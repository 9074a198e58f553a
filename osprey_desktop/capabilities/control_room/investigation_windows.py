"""The window questions of ``investigation``: statistics (and comparisons), correlations
and events over a time range, each with its provenance.

* statistics: "mean and spread of the lifetime over the last 8 hours", "largest orbit
  excursion today";
* comparisons: "compare the lifetime today with yesterday" (the same channels over two
  windows), "vacuum in sector 3 vs sector 7 over the last hour" (two groups over one window);
* correlations: "did the beam current follow the vacuum yesterday?";
* events: "when did the current last fall by more than 1 mA?", "how often did ... spike?".
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
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
    without_sectors,
)
from osprey_desktop.capabilities.control_room.time_parsing import parse_time_range
from osprey_desktop.capabilities.control_room.time_points import TimeRangeError
from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone
from osprey_desktop.investigate.correlation import correlate
from osprey_desktop.investigate.events import find_events
from osprey_desktop.investigate.provenance import Provenance, clock_text
from osprey_desktop.investigate.series import signals_of
from osprey_desktop.investigate.statistics import InvestigationError, compare, statistics

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
#: Statistics of more channels than this are summarised (the table shows the extremes).
MAX_CHANNELS = 200


# "today with yesterday", "now vs 08:00", "this week compared to last week"
_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|against|than|with)\b", re.I)


def _epoch(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


class WindowQuestions:
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
        return {n: r.role == "setpoint" for n, r in self._records.items()}

    # ----- comparisons ------------------------------------------------------------------
    def _two_windows(
        self, text: str
    ) -> tuple[tuple[float, float, str], tuple[float, float, str]] | None:
        """Two different time ranges on either side of "vs", "compared with", "than"..."""
        parts = _VERSUS.split(text, maxsplit=1)
        if len(parts) != 2:
            return None
        found = []
        for part in parts:
            try:
                parsed = parse_time_range(part, tz=configured_timezone())
            except TimeRangeError:
                if re.search(r"\bnow\b|\bcurrently\b|\bright now\b", part, re.I):
                    now = time.time()
                    found.append((now - 600.0, now, "the last 10 minutes"))
                    continue
                return None
            found.append(
                (
                    parsed.start.timestamp(),
                    min(parsed.end.timestamp(), time.time()),
                    parsed.expression,
                )
            )
        if found[0][:2] == found[1][:2]:
            return None
        return found[1], found[0]  # "today with yesterday": then = yesterday, now = today

    async def _then_and_now(
        self,
        text: str,
        archiver: Any,
        database: Any,
        then: tuple[float, float, str],
        now: tuple[float, float, str],
    ) -> InvestigationContext:
        subjects = self._subjects(_VERSUS.split(text, maxsplit=1)[0] + " " + text, database)
        names = list(dict.fromkeys(n for s in subjects for n in s.channels))[:MAX_CHANNELS]
        a = signals_of(
            await archiver.get_data(names, _epoch(then[0]), _epoch(then[1])), self._stepped()
        )
        b = signals_of(
            await archiver.get_data(names, _epoch(now[0]), _epoch(now[1])), self._stepped()
        )
        results = []
        for name in names:
            if name in a and name in b:
                try:
                    results.append(compare(a[name], then[:2], b[name], now[:2], then[2], now[2]))
                except InvestigationError:
                    continue
        if not results:
            raise InvestigationError(
                f"no archived numbers for {', '.join(names[:3])} in both windows"
            )
        results.sort(key=lambda c: -abs(c.significance) if math.isfinite(c.significance) else 0)
        top = results[0]
        units = top.a.units
        facts = [
            f"**{top.a.channel}: mean {number(top.a.mean)} {units} {then[2]} → "
            f"{number(top.b.mean)} {units} {now[2]}** (change {number(top.mean_change)} {units}, "
            f"{number(100 * top.relative_change, 3)} %)."
        ]
        if len(results) > 1:
            facts.append(f"The table lists the {min(len(results), 20)} channels that changed most.")
        rows = [
            [
                c.a.channel,
                number(c.a.mean),
                number(c.b.mean),
                number(c.mean_change),
                f"{number(100 * c.relative_change, 3)} %",
                number(c.significance, 3) if math.isfinite(c.significance) else "—",
                c.a.units,
            ]
            for c in results[:20]
        ]
        method = top.a.provenance.method
        prov = [
            Provenance(
                tuple(names), then[0], then[1], sum(c.a.provenance.samples for c in results), method
            ).line(self._zone),
            Provenance(
                tuple(names), now[0], now[1], sum(c.b.provenance.samples for c in results), method
            ).line(self._zone),
        ]
        return InvestigationContext(
            kind="comparison",
            question=text,
            facts=facts,
            tables=[
                {
                    "title": f"{then[2]} against {now[2]} (σ: pooled standard deviations)",
                    "columns": [
                        "channel",
                        f"mean {then[2]}",
                        f"mean {now[2]}",
                        "change",
                        "relative",
                        "σ",
                        "units",
                    ],
                    "rows": rows,
                }
            ],
            provenance=prov,
            results={"comparisons": [c.to_dict() for c in results]},
            plot_channels=[c.a.channel for c in results[:3]],
            start=min(then[0], now[0]),
            end=max(then[1], now[1]),
        )

    async def _sectors(self, text: str, archiver: Any, database: Any) -> InvestigationContext:
        sectors = sectors_named(text)
        subjects = self._subjects(without_sectors(text), database)
        start, end, expression = self._window(text, default_hours=1.0)
        names = [n for s in subjects for n in s.channels if self._records[n].sector in sectors]
        names = list(dict.fromkeys(names))[:MAX_CHANNELS]
        signals = signals_of(
            await archiver.get_data(names, _epoch(start), _epoch(end)), self._stepped()
        )
        per_sector: dict[int, list[Any]] = {}
        for name in names:
            if name in signals:
                try:
                    per_sector.setdefault(self._records[name].sector, []).append(
                        statistics(signals[name], start, end)
                    )
                except InvestigationError:
                    continue
        if len(per_sector) < 2:
            raise InvestigationError(
                f"only sector(s) {', '.join(map(str, per_sector)) or 'none'} have archived "
                f"numbers for {' and '.join(s.label for s in subjects)} {expression}"
            )
        rows = []
        summary = {}
        for sector in sectors:
            group = per_sector.get(sector) or []
            if not group:
                continue
            mean = sum(s.mean for s in group) / len(group)
            summary[sector] = mean
            rows.append(
                [
                    f"sector {sector}",
                    len(group),
                    number(mean),
                    number(min(s.minimum for s in group)),
                    number(max(s.maximum for s in group)),
                    number(max(s.std for s in group)),
                    group[0].units,
                ]
            )
        ordered = sorted(summary, key=lambda k: -summary[k])
        high, low = ordered[0], ordered[-1]
        units = per_sector[high][0].units
        ratio = summary[high] / summary[low] if summary[low] else math.nan
        facts = [
            f"**Sector {high} is highest: mean {number(summary[high])} {units}**, against "
            f"{number(summary[low])} {units} in sector {low}"
            + (f" (×{number(ratio, 3)})" if math.isfinite(ratio) else "")
            + f", {expression}."
        ]
        stats = [s for group in per_sector.values() for s in group]
        prov = Provenance(
            tuple(names),
            start,
            end,
            sum(s.provenance.samples for s in stats),
            stats[0].provenance.method + "; a sector's mean is the mean of its channels' means",
            ("sectors not named",),
        )
        return InvestigationContext(
            kind="comparison",
            question=text,
            facts=facts,
            tables=[
                {
                    "title": f"Sectors {expression}",
                    "columns": ["sector", "channels", "mean", "min", "max", "largest std", "units"],
                    "rows": rows,
                },
                {
                    "title": "Per channel",
                    "columns": STATISTICS_COLUMNS,
                    "rows": statistics_rows(stats[:30]),
                },
            ],
            provenance=[prov.line(self._zone)],
            results={
                "sectors": [{"sector": k, "mean": v} for k, v in summary.items()],
                "statistics": [s.to_dict() for s in stats],
            },
            plot_channels=[per_sector[high][0].channel, per_sector[low][0].channel],
            start=start,
            end=end,
        )
