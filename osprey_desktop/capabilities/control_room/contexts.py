"""The contexts the control-room capabilities exchange, under the reference's type names.

Summaries carry what the respond step has to say (values with units and alarm state,
statistics of a history, the outcome of each write) and leave bulky arrays out, because the
built-in planner writes its answer from them and a chat model reads them in its prompt.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from osprey_desktop.answers.history_statistics import (
    figure,
    headline,
    not_computed,
    provenance_lines,
)
from osprey_desktop.answers.moments import moment_line
from osprey_desktop.answers.series_stats import finite_summary, padded_rows
from osprey_desktop.connectors.base import (
    CONFIRMED_OUTCOMES,
    SENT_OUTCOMES,
    WriteOutcome,
    format_value,
)
from osprey_desktop.context import CapabilityContext


class TimeRangeContext(CapabilityContext):
    """A resolved time range: timezone-aware ``start_date`` < ``end_date``."""

    CONTEXT_TYPE: ClassVar[str] = "TIME_RANGE"
    CONTEXT_CATEGORY: ClassVar[str] = "METADATA"

    start_date: datetime
    end_date: datetime
    timezone_name: str = "UTC"
    expression: str = ""
    #: A moment asked about ("at 06:30"): the range is the lookback before it (``end_date``).
    moment: datetime | None = None

    @model_validator(mode="after")
    def _ordered(self) -> TimeRangeContext:
        if self.start_date.tzinfo is None or self.end_date.tzinfo is None:
            raise ValueError("TIME_RANGE needs timezone-aware start_date and end_date")
        if self.start_date >= self.end_date:
            raise ValueError(
                f"TIME_RANGE start_date {self.start_date.isoformat()} must be before "
                f"end_date {self.end_date.isoformat()}"
            )
        return self

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "start_date": self.start_date.isoformat(),
            "end_date": self.end_date.isoformat(),
            "timezone_name": self.timezone_name,
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.start_date / .end_date",
            "data_structure": "two timezone-aware datetimes",
        }

    def get_summary(self) -> dict[str, Any]:
        return {
            "type": "Time Range",
            "start_time": f"{self.start_date:%Y-%m-%d %H:%M:%S}",
            "end_time": f"{self.end_date:%Y-%m-%d %H:%M:%S}",
            "timezone": self.timezone_name,
            "duration": str(self.end_date - self.start_date),
            "from_words": self.expression,
            **({"moment": f"{self.moment:%Y-%m-%d %H:%M:%S}"} if self.moment else {}),
        }


class ChannelAddressesContext(CapabilityContext):
    """The channels a request refers to, as found in the channel database."""

    CONTEXT_TYPE: ClassVar[str] = "CHANNEL_ADDRESSES"
    CONTEXT_CATEGORY: ClassVar[str] = "METADATA"

    channels: list[str] = Field(min_length=1)
    original_query: str
    descriptions: dict[str, str] = Field(default_factory=dict)
    #: What the operator should know about how they were found (words the list lacks).
    note: str = ""

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "channels": list(self.channels),
            "total_channels": len(self.channels),
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.channels",
            "data_structure": "list of channel names",
        }

    def get_summary(self) -> dict[str, Any]:
        summary: dict[str, Any] = {
            "type": "Channel Addresses",
            "query": self.original_query,
            "total_channels": len(self.channels),
            "channels": [
                f"{c} ({self.descriptions[c]})" if self.descriptions.get(c) else c
                for c in self.channels
            ],
        }
        if self.note:  # said first in the answer, whatever else it says
            summary["facts"] = [f"*{self.note}*"]
        return summary


class ChannelReading(BaseModel):
    """One channel's value as read, with what an operator needs to trust it."""

    model_config = ConfigDict(extra="forbid")

    value: Any
    timestamp: datetime
    units: str = ""
    alarm_severity: str = "NO_ALARM"
    alarm_status: str = "NO_ALARM"
    precision: int | None = None

    def formatted(self) -> str:
        text = format_value(self.value, self.precision, self.units)
        if self.alarm_severity not in ("NO_ALARM", ""):
            text += f" [{self.alarm_severity} alarm: {self.alarm_status}]"
        return text


class ChannelValuesContext(CapabilityContext):
    """Current readings per channel; channels that could not be read are in ``errors``."""

    CONTEXT_TYPE: ClassVar[str] = "CHANNEL_VALUES"
    CONTEXT_CATEGORY: ClassVar[str] = "COMPUTATIONAL_DATA"

    channel_values: dict[str, ChannelReading]
    errors: dict[str, str] = Field(default_factory=dict)

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "channels": list(self.channel_values),
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.channel_values[name].value",
            "data_structure": "dict channel -> {value, timestamp, units, alarm_severity}",
            "unreadable": dict(self.errors),
        }

    def get_summary(self) -> dict[str, Any]:
        summary: dict[str, Any] = {
            "type": "Channel Values",
            "values": {name: r.formatted() for name, r in self.channel_values.items()},
        }
        alarms = {
            name: r.alarm_severity
            for name, r in self.channel_values.items()
            if r.alarm_severity not in ("NO_ALARM", "")
        }
        if alarms:
            summary["alarms"] = alarms
        if self.errors:
            summary["unreadable"] = dict(self.errors)
        return summary


class WriteOperationResult(BaseModel):
    """What happened to one requested write, whichever way it went."""

    model_config = ConfigDict(extra="forbid")

    channel: str
    requested_value: Any
    previous_value: Any = None
    readback: Any = None
    units: str = ""
    outcome: WriteOutcome
    verified: bool = False
    message: str = ""
    approval_id: str | None = None
    sent_at: float | None = None


class ChannelWriteResultsContext(CapabilityContext):
    """The outcome of every operation of one write step (written, failed, rejected, refused)."""

    CONTEXT_TYPE: ClassVar[str] = "CHANNEL_WRITE_RESULTS"
    CONTEXT_CATEGORY: ClassVar[str] = "COMPUTATIONAL_DATA"

    results: list[WriteOperationResult]
    #: Where a derived value came from, per channel ("copied from `SR03C:VCM07…`").
    value_origins: dict[str, str] = Field(default_factory=dict)
    total_writes: int = 0
    successful_count: int = 0
    failed_count: int = 0

    @model_validator(mode="before")
    @classmethod
    def _counts(cls, data: Any) -> Any:
        """The counts always follow from the results, whatever a caller passed."""
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            return data
        outcomes = [
            r.get("outcome") if isinstance(r, dict) else getattr(r, "outcome", None)
            for r in data["results"]
        ]
        confirmed = sum(o in CONFIRMED_OUTCOMES for o in outcomes)
        return {
            **data,
            "total_writes": sum(o in SENT_OUTCOMES for o in outcomes),
            "successful_count": confirmed,
            "failed_count": len(outcomes) - confirmed,
        }

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "results": [r.model_dump(mode="json") for r in self.results],
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.results",
            "data_structure": "list of {channel, requested_value, readback, outcome}",
        }

    def get_summary(self) -> dict[str, Any]:
        """The outcome of every write as ``facts``: lines the answer carries word for word
        (``respond`` puts them first, whichever planner writes the rest)."""
        return {
            "type": "Channel Write Results",
            "facts": [
                self.headline(),
                *(_write_line(r, self.value_origins.get(r.channel)) for r in self.results),
            ],
            "sent": self.total_writes,
            "confirmed": self.successful_count,
            "not_confirmed": self.failed_count,
        }

    def headline(self) -> str:
        """One sentence on the whole step, from the outcomes alone."""
        outcomes = [r.outcome for r in self.results]
        counts = {o: outcomes.count(o) for o in dict.fromkeys(outcomes)}
        if not any(o in SENT_OUTCOMES for o in outcomes):
            reasons = ", ".join(f"{n} {_OUTCOME_WORDS[o]}" for o, n in counts.items())
            return f"**Nothing was written** ({reasons})."
        parts = ", ".join(f"{n} {_OUTCOME_WORDS[o]}" for o, n in counts.items())
        total = len(outcomes)
        return f"**{total} write{'s' if total != 1 else ''}**: {parts}."


#: How each outcome reads in an answer.
_OUTCOME_WORDS: dict[str, str] = {
    "blocked": "blocked by the write policy",
    "rejected": "rejected by you",
    "not_sent": "not sent",
    "sent_unverified": "sent, not verified",
    "verified": "verified",
    "verified_with_alarm": "verified, channel in alarm",
    "readback_failed": "sent, readback failed",
    "verification_failed": "sent, readback does NOT match",
    "in_doubt": "in doubt",
}


def _write_line(r: WriteOperationResult, origin: str | None = None) -> str:
    line = _outcome_line(r)
    return f"{line} — value {origin}" if origin else line


def _outcome_line(r: WriteOperationResult) -> str:
    value = _plain(r.requested_value, r.units)
    before = "" if r.previous_value is None else f" (was {_plain(r.previous_value, r.units)})"
    head = f"- `{r.channel}`: **{r.outcome.replace('_', ' ')}**"
    if r.outcome in ("verified", "verified_with_alarm", "verification_failed"):
        readback = _plain(r.readback, r.units, digits=4)
        text = f"{head} — wrote {value}{before}, readback {readback}"
        if r.outcome != "verified":
            text += f"; {r.message}"
        return text
    if r.outcome in ("sent_unverified", "readback_failed"):
        return f"{head} — wrote {value}{before}; {r.message}"
    if r.requested_value is None:  # nothing was computed to write (a condition not met)
        return f"{head} — {r.message}"
    return f"{head} — {value}{before}: {r.message}"


class ArchiverDataContext(CapabilityContext):
    """History per channel: epoch-second ``timestamps`` and ``time_series_data`` with units."""

    CONTEXT_TYPE: ClassVar[str] = "ARCHIVER_DATA"
    CONTEXT_CATEGORY: ClassVar[str] = "COMPUTATIONAL_DATA"

    timestamps: dict[str, list[float]]
    # numbers (None: a gap), enum state indices, strings, or lists (waveforms)
    time_series_data: dict[str, list[Any]]
    units: dict[str, str] = Field(default_factory=dict)
    start_date: datetime
    end_date: datetime
    timezone_name: str = "UTC"
    max_points: int | None = None
    # per channel, only where they apply (archiver_base.ArchiverData.context_fields):
    kinds: dict[str, str] = Field(default_factory=dict)  # "enum" | "string" | "waveform"
    enum_labels: dict[str, list[str]] = Field(default_factory=dict)  # state index -> label
    severity: dict[str, list[int]] = Field(default_factory=dict)  # EPICS codes per sample
    status: dict[str, list[int]] = Field(default_factory=dict)
    #: The moment asked about ("what was the lifetime at 06:30"), when one was.
    moment: datetime | None = None
    #: Present readings to compare with the moment ("higher than at 08:00?"), per channel:
    #: ``{value, units, timestamp}``.
    compared_with: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: Statistics asked beyond last/min/max/mean ("std of BPM12 X over the last hour"), in the
    #: order asked (``planners.statistic_words``), and per channel every figure, computed
    #: from the archived samples, not the plotted points
    #: (``investigate.statistics.Statistics.to_dict()``, provenance included).
    asked_statistics: list[str] = Field(default_factory=list)
    statistics: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: The range as the request said it ("last 4 h"), for the answer's first line.
    range_words: str = ""

    @model_validator(mode="after")
    def _aligned(self) -> ArchiverDataContext:
        for channel, values in self.time_series_data.items():
            stamps = self.timestamps.get(channel)
            if stamps is None or len(stamps) != len(values):
                raise ValueError(
                    f"ARCHIVER_DATA for {channel} has {len(values)} values but "
                    f"{0 if stamps is None else len(stamps)} timestamps"
                )
        return self

    @property
    def available_channels(self) -> list[str]:
        return list(self.time_series_data)

    def get_access_details(self, key: str) -> dict[str, Any]:
        details = {
            "channels": self.available_channels,
            "points": {c: len(v) for c, v in self.time_series_data.items()},
            "access_pattern": (
                f"context.{self.CONTEXT_TYPE}.{key}.timestamps[channel] (epoch seconds) and "
                f".time_series_data[channel]"
            ),
            "data_structure": "per channel: parallel lists of epoch seconds and values",
        }
        if self.statistics:
            details["statistics"] = (
                f"context.{self.CONTEXT_TYPE}.{key}.statistics[channel]: mean, std, minimum, "
                "maximum, peak_to_peak, drift_per_hour, provenance (from every archived sample)"
            )
        return details

    def get_summary(self) -> dict[str, Any]:
        stats: dict[str, Any] = {}
        states = {
            c
            for c, values in self.time_series_data.items()
            if self.kinds.get(c) in ("enum", "string", "waveform") and values
        }
        found = _number_stats({c: v for c, v in self.time_series_data.items() if c not in states})
        for channel, values in self.time_series_data.items():
            unit = self.units.get(channel, "")
            if channel in states:
                stats[channel] = _state_summary(values, self.enum_labels.get(channel, []))
                continue
            numbers = found[channel]
            if numbers is None:
                stats[channel] = "no data in this range"
                continue
            stats[channel] = {
                "points": len(values),
                **{name: _fmt(number, unit) for name, number in numbers.items()},
            }
        summary: dict[str, Any] = {
            "type": "Archiver Data",
            "start_time": f"{self.start_date:%Y-%m-%d %H:%M:%S}",
            "end_time": f"{self.end_date:%Y-%m-%d %H:%M:%S}",
            "timezone": self.timezone_name,
            "channels": stats,
        }
        if self.moment is not None:
            summary["facts"] = [self._at_moment(channel) for channel in self.time_series_data]
        elif self.statistics:
            summary["statistics_asked"] = list(self.asked_statistics)
            for channel, figures in self.statistics.items():
                if isinstance(stats.get(channel), dict):
                    stats[channel].update(_statistics_summary(figures))
            summary["facts"] = [
                *headline(self.statistics, self.asked_statistics, self.range_words),
                *provenance_lines(self.statistics, self.timezone_name, not_computed(self)),
            ]
        return summary

    def value_at_moment(
        self, channel: str, moment: datetime | None = None
    ) -> tuple[float, float] | None:
        """(epoch seconds, value) of the last finite sample at or before ``moment`` (default:
        the moment asked about), or None."""
        moment = moment or self.moment
        if moment is None:
            return None
        cutoff = moment.timestamp() + 1e-6
        found = None
        for stamp, value in zip(
            self.timestamps.get(channel, []), self.time_series_data.get(channel, []), strict=False
        ):
            if stamp <= cutoff and isinstance(value, int | float) and math.isfinite(value):
                found = (float(stamp), float(value))
        return found

    def _at_moment(self, channel: str) -> str:
        """One answer line: the archived value at the moment (or the gap that hides it), and
        how now compares (``answers.moments``)."""
        assert self.moment is not None
        return moment_line(self, channel)


def _statistics_summary(figures: dict[str, Any]) -> dict[str, Any]:
    """A channel's figures from all its archived samples (its summary's min, max and mean
    are of the points kept for the plot), with those the summary lacks."""
    return {
        "min": figure(figures, "minimum"),
        "max": figure(figures, "maximum"),
        "mean": figure(figures, "mean"),
        "std": figure(figures, "std"),
        "peak_to_peak": figure(figures, "peak_to_peak"),
        "drift": figure(figures, "drift"),
        "samples": int((figures.get("provenance") or {}).get("samples") or 0),
    }


def _plain(value: Any, units: str, digits: int | None = None) -> str:
    """A requested or read-back value for a sentence: 1.5 A, 1.4525 A (``digits`` rounds)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"{value} {units}".strip()
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits is not None else f"{value:g}"
    return f"{text} {units}".strip()


def _state_summary(values: list[Any], labels: list[str]) -> dict[str, Any]:
    """First and last of an enum, string or waveform history (no mean of states)."""

    def shown(value: Any) -> str:
        if isinstance(value, list):
            return f"waveform of {len(value)} elements"
        if isinstance(value, int | float) and 0 <= int(value) < len(labels):
            return labels[int(value)]
        return "no value" if value is None else str(value)

    return {"points": len(values), "first": shown(values[0]), "last": shown(values[-1])}


_FLOAT_OR_GAP = frozenset((float, type(None)))


def _number_stats(series: dict[str, list[Any]]) -> dict[str, dict[str, float] | None]:
    """Per channel: first, last, min, max and mean of the finite int/float samples; None when
    there are none.

    Histories of plain floats and gaps (``None``), the usual case, go through numpy all
    together (``answers.series_stats``): a day of 72 BPMs took 20 ms one channel at a time, on
    the window's loop. The figures are the very same as Python's: the mean is the floats
    added one after the other in sample order, and a zero extreme (numpy may pick 0.0 or -0.0
    among equals) is taken by ``min``/``max``. Other histories (ints, bools) stay in Python.
    """
    out: dict[str, dict[str, float] | None] = {}
    plain = []
    for channel, values in series.items():
        if values and _FLOAT_OR_GAP.issuperset(map(type, values)):
            plain.append(channel)
        else:
            out[channel] = _python_number_stats(values)
    if plain:
        array, _ = padded_rows([series[c] for c in plain])
        summary = finite_summary(array)
        means = summary.mean()
        for i, channel in enumerate(plain):
            if summary.count[i] == 0:
                out[channel] = None
                continue
            low, high = float(summary.low[i]), float(summary.high[i])
            if low == 0.0 or high == 0.0:  # which zero: the first, as Python picks it
                floats = array[i][summary.finite[i]].tolist()
                low = min(floats) if low == 0.0 else low
                high = max(floats) if high == 0.0 else high
            out[channel] = {
                "first": float(summary.first[i]),
                "last": float(summary.last[i]),
                "min": low,
                "max": high,
                "mean": float(means[i]),
            }
    return {c: out[c] for c in series}


def _python_number_stats(values: list[Any]) -> dict[str, float] | None:
    """``_number_stats`` of one history that is not plain floats, sample by sample."""
    numbers = [v for v in values if isinstance(v, int | float) and math.isfinite(v)]
    if not numbers:
        return None
    return {
        "first": numbers[0],
        "last": numbers[-1],
        "min": min(numbers),
        "max": max(numbers),
        "mean": sum(numbers) / len(numbers),
    }


def _fmt(number: float, unit: str) -> str:
    return format_value(float(number), 4 if abs(number) >= 1e-3 or number == 0 else 3, unit)


__all__ = [
    "ArchiverDataContext",
    "ChannelAddressesContext",
    "ChannelReading",
    "ChannelValuesContext",
    "ChannelWriteResultsContext",
    "TimeRangeContext",
    "WriteOperationResult",
]
