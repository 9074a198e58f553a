"""Comparisons of ``investigation``: the same channels over two windows ("compare the mean
lifetime today with yesterday", "now vs 08:00") and groups of channels sector against sector
over one window ("vacuum in sector 3 vs sector 7 yesterday"), with their provenance.
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime
from typing import Any

from osprey_desktop.capabilities.control_room.investigation_contexts import InvestigationContext
from osprey_desktop.capabilities.control_room.investigation_report import (
    STATISTICS_COLUMNS,
    number,
    statistics_rows,
)
from osprey_desktop.capabilities.control_room.investigation_subjects import (
    Subject,
    sectors_named,
    without_sectors,
)
from osprey_desktop.capabilities.control_room.time_range_parsing import (
    configured_shifts,
    configured_timezone,
)
from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import signals_of
from osprey_desktop.investigate.statistics import InvestigationError, compare, statistics
from osprey_desktop.language.time_parsing import parse_time_range
from osprey_desktop.language.time_points import TimeRangeError

#: Statistics of more channels than this are summarised (the table shows the extremes).
MAX_CHANNELS = 200
# "today with yesterday", "now vs 08:00", "this week compared to last week"
_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|against|than|with)\b", re.I)


def epoch(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


class ComparisonQuestions:
    """Mixed into the capability, which provides ``_window``, ``_subjects``, ``_stepped``,
    ``_zone`` and ``_records``."""

    _zone: Any
    _records: dict[str, Any]

    def _window(self, text: str, default_hours: float | None = 24.0) -> tuple[float, float, str]:
        raise NotImplementedError  # pragma: no cover - the capability's

    def _subjects(self, text: str, database: Any) -> list[Subject]:
        raise NotImplementedError  # pragma: no cover - the window questions'

    def _stepped(self) -> dict[str, bool]:
        raise NotImplementedError  # pragma: no cover - the window questions'

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
                parsed = parse_time_range(
                    part, tz=configured_timezone(), shifts=configured_shifts()
                )
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
            await archiver.get_data(names, epoch(then[0]), epoch(then[1])), self._stepped()
        )
        b = signals_of(
            await archiver.get_data(names, epoch(now[0]), epoch(now[1])), self._stepped()
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
            await archiver.get_data(names, epoch(start), epoch(end)), self._stepped()
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
