"""``investigation``: questions answered by computing over the archive, without a model.

* incidents: "We lost 5 mA yesterday around 14:32 — did the vacuum do anything weird?",
  "The beam dumped this morning, figure out what happened" (``investigate.incident``);
* correlations: "did the beam-current drop follow the vacuum yesterday?";
* statistics: "mean and spread of the lifetime over the last 8 hours", "largest orbit
  excursion today";
* events: "when did the current last fall by more than 1 mA?", "how often did the
  reflected power spike in the last 2 days?".

Every answer names its channels, window, samples and method, and what it did not check; the
channels worth seeing are plotted (an ARCHIVER_DATA context with a time-series figure).
Reads only.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired, ErrorClassification, ErrorSeverity
from osprey_desktop.capabilities.control_room.alarm_overview import channel_list, facility_zone
from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import ArchiverDataContext
from osprey_desktop.capabilities.control_room.investigation_contexts import InvestigationContext
from osprey_desktop.capabilities.control_room.investigation_report import (
    EVENT_COLUMNS,
    STATISTICS_COLUMNS,
    event_rows,
    incident_facts,
    number,
    statistics_rows,
)
from osprey_desktop.capabilities.control_room.investigation_subjects import (
    Subject,
    beam_current,
    subjects_in,
)
from osprey_desktop.capabilities.control_room.time_parsing import parse_moment, parse_time_range
from osprey_desktop.capabilities.control_room.time_points import (
    AmbiguousTimeRange,
    NoTimeRange,
    TimeRangeError,
)
from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone
from osprey_desktop.connectors.archiver_base import ArchiverNotConfiguredError
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.investigate.correlation import correlate
from osprey_desktop.investigate.events import find_events
from osprey_desktop.investigate.incident import investigate_incident
from osprey_desktop.investigate.provenance import Provenance, clock_text
from osprey_desktop.investigate.series import signals_of
from osprey_desktop.investigate.statistics import InvestigationError, statistics
from osprey_desktop.planners.investigation_intents import (
    investigation_kind,
    is_investigation_request,
)
from osprey_desktop.state import StateManager

_AROUND = re.compile(
    r"\b(?:around|about|approximately|roughly|circa|near|ca\.?|~)\s*(?=\d{1,2}(?::\d{2}|\s*[ap]m))",
    re.I,
)
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


def _epoch(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


class InvestigationCapability(ControlRoomCapability):
    """Statistics, correlations, events and incident investigations over the archive."""

    name = "investigation"
    description = (
        "Investigate the archive: statistics over a window, correlations between channels, "
        "when something dropped or spiked, and what happened around an incident"
    )
    provides = ["INVESTIGATION", "ARCHIVER_DATA"]
    requires = []
    keywords = ["what happened", "correlation", "statistics", "mean", "when did", "how often"]
    examples = [
        "The beam dumped this morning. Figure out what happened and plot the data.",
        "mean and spread of the lifetime over the last 8 hours",
        "when did the current last fall by more than 1 mA?",
    ]

    @classmethod
    def claims(cls, text: str) -> bool:
        return is_investigation_request(text)

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        return is_investigation_request(text)

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.connectors import get_archiver_connector

        text = StateManager.get_user_query(self._state) or self.request_text()
        kind = investigation_kind(text) or "statistics"
        connector, database = await channel_list()
        archiver = await get_archiver_connector()
        zone = facility_zone()
        self._zone = zone
        self._records = {r.name: r for r in database}
        if kind == "incident":
            context = await self._incident(text, archiver, database)
        elif kind == "correlation":
            context = await self._correlation(text, archiver, database)
        elif kind == "events":
            context = await self._events(text, archiver, database)
        else:
            context = await self._statistics(text, archiver, database)
        update_contexts = [context]
        plot = await self._plot(archiver, context)
        if plot is not None:
            update_contexts.append(plot)
        update = self.store_output_contexts(*update_contexts)
        if plot is not None:
            update.update(self._figure(context))
        return update

    # ----- time ---------------------------------------------------------------------------
    def _moment(self, text: str) -> float | None:
        words = _AROUND.sub("at ", text)
        for part in [words, *re.split(r"(?<=[.?!])\s+", words)]:
            try:
                return parse_moment(part, tz=configured_timezone()).timestamp()
            except TimeRangeError:
                continue
        return None

    def _window(self, text: str, default_hours: float | None = 24.0) -> tuple[float, float, str]:
        try:
            parsed = parse_time_range(text, tz=configured_timezone())
        except AmbiguousTimeRange as exc:
            raise ClarificationRequired(
                f"Which time range do you mean? {exc}", exc.suggestions
            ) from exc
        except NoTimeRange:
            if default_hours is None:
                raise ClarificationRequired(
                    "Over which time range?", ["the last 2 hours", "since 08:00", "yesterday"]
                ) from None
            now = time.time()
            return now - default_hours * 3600, now, f"the last {default_hours:g} hours"
        except TimeRangeError as exc:
            raise ClarificationRequired(f"I cannot use that time range: {exc}") from exc
        end = min(parsed.end.timestamp(), time.time())
        return parsed.start.timestamp(), end, parsed.expression

    # ----- kinds ------------------------------------------------------------------------
    async def _incident(self, text: str, archiver: Any, database: Any) -> InvestigationContext:
        current = beam_current(database)
        subjects = [
            s for s in subjects_in(text, database, monitors_only=True) if s.label != "beam current"
        ]
        names = list(dict.fromkeys(n for s in subjects for n in s.channels))
        moment = self._moment(text)
        window = None
        if moment is None:
            start, end, _ = self._window(text, default_hours=24.0)
            window = (start, end)
        writes = await asyncio.to_thread(_audit_writes)
        report = await investigate_incident(
            archiver,
            self._records,
            moment=moment,
            window=window,
            current=current,
            subjects=names,
            writes=writes,
            now=time.time(),
        )
        facts, tables = incident_facts(report, self._zone)
        provenance = [p.line(self._zone) for p in report.provenance]
        top = report.ranking.rows[0].channel if report.ranking.rows else None
        results = {
            "moment": report.moment,
            "moment_found": report.moment_found,
            "loss": None
            if report.loss is None
            else {"amount": report.loss.amount, "time": report.loss.time},
            "ranking": [r.to_dict() for r in report.ranking.rows],
            "top_channel": top,
            "top_sector": self._records[top].sector if top in self._records else None,
            "correlations": [c.to_dict() for c in report.correlations],
            "precursor": None
            if report.precursor is None
            else {
                "device": report.precursor.device,
                "channels": [r.channel for r in report.precursor.rows],
                "earlier": {c: [e.time for e in ev] for c, ev in report.precursor.earlier.items()},
            },
        }
        return InvestigationContext(
            kind="incident",
            question=text,
            facts=facts,
            tables=tables,
            provenance=provenance,
            results=results,
            plot_channels=report.plot_channels,
            start=report.moment - (3600.0 if report.precursor else 1800.0),
            end=min(report.moment + 1800.0, time.time()),
        )

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
        if len(results) > 1:
            rest = max(abs(c.r) for c in results[1:])
            facts.append(f"The other {len(results) - 1} channel(s): |r| ≤ {rest:.2f}.")
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

    async def _plot(
        self, archiver: Any, context: InvestigationContext
    ) -> ArchiverDataContext | None:
        names = [n for n in context.plot_channels if n in self._records]
        if not names or context.start is None or context.end is None:
            return None
        start, end = _epoch(context.start), _epoch(min(context.end, time.time()))
        data = await archiver.get_data(names, start, end, max_points=2000)
        return ArchiverDataContext(
            **data.context_fields(),
            start_date=start.astimezone(self._zone) if self._zone else start,
            end_date=end.astimezone(self._zone) if self._zone else end,
            timezone_name=configured_timezone() or "local",
            max_points=2000,
        )

    def _figure(self, context: InvestigationContext) -> dict[str, Any]:
        key = str(self._step.get("context_key") or self.name)
        shown = ", ".join(context.plot_channels[:3])
        return StateManager.register_figure(
            self._state,
            self.name,
            f"ARCHIVER_DATA/{key}",
            display_name=f"Investigation: {shown}",
            metadata={
                "figure_type": "timeseries",
                "context_type": "ARCHIVER_DATA",
                "context_key": key,
                "channels": list(context.plot_channels),
            },
        )

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        if isinstance(exc, ArchiverError | InvestigationError):
            configured = not isinstance(exc, ArchiverNotConfiguredError)
            return ErrorClassification(
                severity=ErrorSeverity.CRITICAL,
                user_message=f"The investigation could not be completed: {exc}",
                technical_details=f"{type(exc).__name__}: {exc}",
                metadata={}
                if configured
                else {"suggestion": "Configure an archiver (see the archiver section)."},
            )
        return ControlRoomCapability.classify_error(exc, context)


def _audit_writes() -> list[Any]:
    """The audit log's entries (empty when it cannot be read: the answer says none found)."""
    from osprey_desktop.safety.audit import audit_log_of_running_graph

    try:
        return list(audit_log_of_running_graph().entries(limit=5000))
    except Exception:  # noqa: BLE001 - an unreadable audit log must not stop the investigation
        return []


__all__ = ["InvestigationCapability", "number"]
