"""``investigation``: questions answered by computing over the archive, without a model.

* incidents: "We lost 5 mA yesterday around 14:32 — did the vacuum do anything weird?",
  "The beam dumped this morning, figure out what happened" (``investigate.incident``);
* correlations: "did the beam-current drop follow the vacuum yesterday?";
* statistics that rank or compare: "largest orbit excursion today", "vacuum in sector 3 vs
  sector 7", "compare the lifetime today with yesterday" (a statistic of named channels over
  one window, "std of BPM12 X over the last hour", is a history request: ``archiver_retrieval``
  answers it with the same figures);
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
    incident_facts,
    number,
)
from osprey_desktop.capabilities.control_room.investigation_subjects import (
    beam_current,
    subjects_in,
)
from osprey_desktop.capabilities.control_room.investigation_windows import WindowQuestions
from osprey_desktop.capabilities.control_room.time_range_parsing import (
    configured_shifts,
    configured_timezone,
)
from osprey_desktop.connectors.archiver_base import ArchiverNotConfiguredError
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.investigate.incident import NoMomentFound, investigate_incident
from osprey_desktop.investigate.statistics import InvestigationError
from osprey_desktop.language.time_parsing import parse_moment, parse_time_range
from osprey_desktop.language.time_points import (
    AmbiguousTimeRange,
    InvalidTimeRange,
    NoTimeRange,
    TimeRangeError,
)
from osprey_desktop.planners.investigation_intents import (
    investigation_kind,
    is_investigation_request,
)
from osprey_desktop.state import StateManager

_AROUND = re.compile(
    r"\b(?:around|about|approximately|roughly|circa|near|ca\.?|~)\s*(?=\d{1,2}(?::\d{2}|\s*[ap]m))",
    re.I,
)


def _epoch(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


class InvestigationCapability(WindowQuestions, ControlRoomCapability):
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
        "compare the mean lifetime today with yesterday",
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
            except InvalidTimeRange as exc:
                if "future" in str(exc):
                    raise ClarificationRequired(
                        f"{exc}. Which moment do you mean?", ["around 06:48", "yesterday at 14:32"]
                    ) from exc
            except TimeRangeError:
                continue
        return None

    def _window(self, text: str, default_hours: float | None = 24.0) -> tuple[float, float, str]:
        try:
            parsed = parse_time_range(text, tz=configured_timezone(), shifts=configured_shifts())
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
        try:
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
        except NoMomentFound as exc:
            raise ClarificationRequired(
                f"I found no incident to investigate: {exc}.",
                ["what happened this morning around 06:48?", "what changed around 10:15?"],
            ) from exc
        return self._incident_context(text, report)

    def _incident_context(self, text: str, report: Any) -> InvestigationContext:
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
