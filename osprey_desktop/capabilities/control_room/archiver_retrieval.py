"""``archiver_retrieval``: CHANNEL_ADDRESSES + TIME_RANGE -> ARCHIVER_DATA, plus a plot.

The history is reduced to at most ``MAX_POINTS`` bin means per channel before it enters the
state, because the state is checkpointed after every step and a day at 1 Hz per BPM would
make each step write megabytes. A request asking a statistic the history table does not show
("std of BPM12 X over the last hour", "is the tune drifting") gets it computed from every
archived sample, as the investigation computes it (``investigate.statistics``), and stored
with the history (``statistics``). The window draws the plot live from the stored context (a
``timeseries`` figure); launchable commands open a live strip chart of the same channels, the
Archiver Appliance viewer (when that archiver is configured) and, for one channel, the
facility's display tool.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from osprey_desktop.base.errors import ErrorClassification, ErrorSeverity
from osprey_desktop.capabilities.control_room.channel_read import channels_of
from osprey_desktop.capabilities.control_room.common import (
    ControlRoomCapability,
    command_updates,
    display_tool_command,
    stripchart_command,
)
from osprey_desktop.capabilities.control_room.contexts import (
    ArchiverDataContext,
    TimeRangeContext,
)
from osprey_desktop.capabilities.control_room.time_range_parsing import (
    configured_shifts,
    configured_timezone,
)
from osprey_desktop.connectors.archiver_base import ArchiverData, ArchiverNotConfiguredError
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.investigate.series import signals_of
from osprey_desktop.investigate.statistics import InvestigationError, statistics
from osprey_desktop.language.time_parsing import (
    TimeRangeError,
    parse_time_range,
)
from osprey_desktop.language.time_slots import NOW_THAN_THEN
from osprey_desktop.planners.builtin import split_task
from osprey_desktop.planners.statistic_words import TABLE_STATISTICS, asked_statistics

# A question that compares a present reading with a past one ("higher than at 08:00?").
_COMPARES = re.compile(
    r"\b(?:higher|lower|more|less|greater|bigger|smaller|larger|better|worse|changed|"
    r"different|differ|compared?|comparison|versus|vs\.?|against|than)\b"
    # "same now as an hour ago?", "what was X at 04:00 and what is it now?": the two sides said
    r"|\bsame\s+(?:now\s+)?as\b|\band\s+(?:what\s+(?:is|'s)\s+(?:it|they|that)\s+)?now\s*[?.!]*$",
    re.I,
)


# "is the vertical tune where it was at 09:00?": now against then, with no word that compares
_WHERE_IT_WAS = re.compile(r"^\W*(?:is|are)\b.*\bwhere\s+(?:it|they)\s+(?:was|were)\b", re.I)


async def figures_of(
    archiver: Any, names: list[str], time_range: TimeRangeContext
) -> dict[str, dict[str, Any]]:
    """Per channel of numbers, every statistic of its archived samples in the range (up to
    now), as the investigation computes them: setpoints held between samples (time-weighted),
    other channels judged by their archive's spacing (``investigate.series.signals_of``).
    A channel without a number in the range is left out."""
    start = time_range.start_date.timestamp()
    end = min(time_range.end_date.timestamp(), time.time())
    if not end > start:
        return {}
    data = await archiver.get_data(
        names, datetime.fromtimestamp(start, UTC), datetime.fromtimestamp(end, UTC)
    )
    stepped = _setpoints(names)

    def compute() -> dict[str, dict[str, Any]]:
        numbers = {n: s for n, s in data.series.items() if s.kind == "number"}
        signals = signals_of(ArchiverData(data.start, data.end, numbers), stepped)
        out = {}
        for name in names:
            if name in signals:
                try:
                    out[name] = statistics(signals[name], start, end).to_dict()
                except InvestigationError:
                    continue
        return out

    return await asyncio.to_thread(compute)  # a day of 72 BPMs is millions of samples


async def _no_figures() -> dict[str, dict[str, Any]]:
    return {}


def _setpoints(names: list[str]) -> dict[str, bool]:
    """Which of ``names`` hold their value between samples: the list's setpoints."""
    from osprey_desktop.connectors import get_configured_channel_database

    try:
        database = get_configured_channel_database()
    except Exception:  # noqa: BLE001 - without the list, the archive's spacing decides
        return {}
    return {n: True for n in names if (r := database.get(n)) is not None and r.role == "setpoint"}


def viewer_url(base_url: str, channels: list[str], start: datetime, end: datetime) -> str:
    """The Archiver Appliance viewer (archViewer.html) for these channels and this range."""
    query = [("pv", name) for name in channels]
    query += [("from", start.isoformat()), ("to", end.isoformat())]
    return f"{base_url}?{urlencode(query)}"


class ArchiverRetrievalCapability(ControlRoomCapability):
    """Fetch the archived history of the channels found over the range found, and plot it."""

    name = "archiver_retrieval"
    description = (
        "Retrieve the archived history (time series) of channels over a time range and plot "
        "it, with any statistic asked of it (standard deviation, rms, peak-to-peak, drift)"
    )
    provides = ["ARCHIVER_DATA"]
    requires = ["CHANNEL_ADDRESSES", ("TIME_RANGE", "single")]
    keywords = [
        "plot",
        "history",
        "historical",
        "trend",
        "graph",
        "chart",
        "archive",
        "archived",
        "archiver",
        "evolve",
        "evolution",
        "over time",
        "compare",
        "time series",
    ]
    examples = [
        "plot a channel over the last 2 hours",
        "show the history of a channel since 8:00",
        "how did a channel evolve yesterday",
        "trend of a channel from 2026-11-20 10:00 to 12:00",
    ]
    default_for = ["CHANNEL_ADDRESSES", "TIME_RANGE"]
    """A request naming channels and a time range ("the lifetime since 8:00") wants history."""
    parameters = {"max_points": "at most this many points per channel (default 2000)"}
    MAX_POINTS = 2000

    @classmethod
    def inputs_for(cls, text: str) -> list[str]:
        """ "Is the beam current higher than at 08:00?": the present reading, to compare."""
        if not _COMPARES.search(text) and not _WHERE_IT_WAS.search(text):
            return []
        if NOW_THAN_THEN.search(text):
            # "is the lifetime lower now than this morning?", "different from 2 hours ago?",
            # "is the tune where it was at 09:00?": now against a time, a moment or a period
            return ["CHANNEL_VALUES"]
        try:
            moment = parse_time_range(
                text, tz=configured_timezone(), shifts=configured_shifts()
            ).moment
        except TimeRangeError:
            return []
        return ["CHANNEL_VALUES"] if moment is not None else []

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.connectors import get_archiver_connector

        addresses, time_range = self.get_required_contexts()
        names = channels_of(addresses)
        if not isinstance(time_range, TimeRangeContext) or not names:
            raise ArchiverError("archiver_retrieval needs channel names and one time range")
        max_points = self._max_points()
        archiver = await get_archiver_connector()
        # a statistic beyond the table ("std of ..."): every archived sample, beside the
        # reduced history kept for the plot
        asked = () if time_range.moment else self._asked_statistics()
        if not any(s not in TABLE_STATISTICS for s in asked):
            asked = ()
        data, figures = await asyncio.gather(
            archiver.get_data(
                names, time_range.start_date, time_range.end_date, max_points=max_points
            ),
            figures_of(archiver, names, time_range) if asked else _no_figures(),
        )
        compared = self._present_readings(names) if time_range.moment else {}
        # Off the loop: a day of 72 BPMs is ~150,000 samples to turn into JSON, validate and
        # store (some 25 ms of computing that would freeze the window).
        update = await asyncio.to_thread(
            self._store_history,
            data,
            time_range,
            max_points,
            compared,
            {"asked_statistics": list(asked), "statistics": figures},
        )
        key = str(self._step.get("context_key") or self.name)
        update.update(self._figure_update(key, names, time_range))
        update.update(command_updates(self._state, self.name, self._commands(names, time_range)))
        return update

    def _store_history(
        self,
        data: ArchiverData,
        time_range: TimeRangeContext,
        max_points: int,
        compared: dict[str, dict[str, Any]],
        asked_figures: dict[str, Any],
    ) -> dict[str, Any]:
        """The state update storing the history as ARCHIVER_DATA (runs in a worker thread)."""
        context = ArchiverDataContext(
            **data.context_fields(),  # values, units, kinds, enum labels, severity/status
            start_date=time_range.start_date,
            end_date=time_range.end_date,
            timezone_name=time_range.timezone_name,
            max_points=max_points,
            moment=time_range.moment,
            compared_with=compared,
            range_words=time_range.expression,
            **asked_figures,
        )
        return self.store_output_context(context)

    def _asked_statistics(self) -> tuple[str, ...]:
        """The statistics the operator asked ("std of BPM12 X"), in their words first, else in
        the turn's task (a follow-up the planner completed: "and over the last 2 hours?")."""
        from osprey_desktop.state import StateManager

        said = StateManager.get_user_query(self._state) or ""
        task, _ = split_task(str(self._state.get("task_current_task") or ""))
        for text in (said, task):
            asked = asked_statistics(text)
            if asked:
                return asked
        return ()

    def _present_readings(self, names: list[str]) -> dict[str, dict[str, Any]]:
        """The plan's present readings of ``names`` (see ``inputs_for``), if it has them."""
        from osprey_desktop.context import ContextManager

        for item in self.get_step_inputs():
            key = item.get("CHANNEL_VALUES") if isinstance(item, dict) else None
            values = ContextManager(self._state).get_context("CHANNEL_VALUES", key) if key else None
            if values is not None:
                return {
                    n: {"value": r.value, "units": r.units, "timestamp": r.timestamp.timestamp()}
                    for n, r in values.channel_values.items()
                    if n in names
                }
        return {}

    def _max_points(self) -> int:
        raw = self.get_parameters().get("max_points")
        try:
            value = int(raw) if raw is not None else self.MAX_POINTS
        except (TypeError, ValueError):
            value = self.MAX_POINTS
        return max(2, value)

    def _figure_update(
        self, key: str, names: list[str], time_range: TimeRangeContext
    ) -> dict[str, Any]:
        from osprey_desktop.state import StateManager

        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        title = f"{shown} ({time_range.start_date:%Y-%m-%d %H:%M} to {time_range.end_date:%H:%M})"
        return StateManager.register_figure(
            self._state,
            self.name,
            f"ARCHIVER_DATA/{key}",
            display_name=title,
            metadata={
                "figure_type": "timeseries",
                "context_type": "ARCHIVER_DATA",
                "context_key": key,
                "channels": list(names),
            },
        )

    def _commands(self, names: list[str], time_range: TimeRangeContext) -> list[dict[str, Any]]:
        from osprey_desktop.config import get_config

        commands = [stripchart_command(names)]
        archiver = get_config().archiver
        if archiver.type == "archiver_appliance":
            commands.append(
                {
                    "launch_uri": viewer_url(
                        archiver.archiver_appliance.effective_viewer_url,
                        names,
                        time_range.start_date,
                        time_range.end_date,
                    ),
                    "display_name": "Open in the Archiver Appliance viewer",
                    "command_type": "web_app",
                    "metadata": {"channels": list(names)},
                }
            )
        if len(names) == 1:
            display = display_tool_command(names[0])
            if display is not None:
                commands.append(display)
        return commands

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        if isinstance(exc, ArchiverError):
            # no archiver serves this control system: the fix is in the config, not the request
            configured = not isinstance(exc, ArchiverNotConfiguredError)
            advice = "Set the archiver section of the config file as shown, then ask again."
            return ErrorClassification(
                severity=ErrorSeverity.CRITICAL,
                user_message=f"The archived history could not be retrieved: {exc}",
                technical_details=f"{type(exc).__name__}: {exc}",
                metadata={} if configured else {"suggestion": advice},
            )
        return ControlRoomCapability.classify_error(exc, context)


__all__ = ["ArchiverRetrievalCapability", "viewer_url"]
