"""A statistic asked of a history ("std of BPM12 X over the last hour", "is the vertical tune
drifting"), said first: one line per channel naming the statistics asked, a table of every
figure, and where the numbers come from.

The figures are ``investigate.statistics.Statistics.to_dict()`` per channel, computed by
``archiver_retrieval`` from the archived samples (not the plot's bins) as the investigation
computes them: every sample weighs the same for a sampled signal, each value by how long it
held for a stepped one (a setpoint). They are printed to four significant digits, as the
investigation prints them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from osprey_desktop.answers.model import Cell, Table
from osprey_desktop.answers.numbers import significant
from osprey_desktop.investigate.provenance import Provenance

#: How each statistic is said, the field of ``Statistics.to_dict()`` it reads, and its
#: column. An rms asked of one channel's history is its rms deviation from the mean: the
#: standard deviation, said as such.
_SAID: dict[str, tuple[str, str, str]] = {
    "mean": ("mean", "mean", "Mean"),
    "minimum": ("min", "minimum", "Min"),
    "maximum": ("max", "maximum", "Max"),
    "std": ("standard deviation", "std", "Std dev"),
    "rms": ("rms about the mean", "std", "RMS about the mean"),
    "variance": ("variance", "std", "Variance"),
    "peak_to_peak": ("peak-to-peak", "peak_to_peak", "Peak-to-peak"),
    "drift": ("drift", "drift_per_hour", "Drift"),
}
#: The table's columns after those asked, in this order.
_ALWAYS = ("mean", "std", "minimum", "maximum", "peak_to_peak", "drift")
#: Channels named one by one in the headline; the rest are in the table.
HEADLINE_CHANNELS = 3


def figure(stats: Mapping[str, Any], statistic: str) -> str:
    """One statistic of one channel with its unit: "2.134e-04 mm", "-3.0e-06 /h"."""
    field = _SAID[statistic][1]
    units = str(stats.get("units") or "")
    value = stats.get(field)
    if not isinstance(value, int | float):
        return "—"
    if statistic == "variance":
        return f"{significant(float(value) ** 2)} {units}²" if units else significant(value**2)
    if statistic == "drift":
        return f"{significant(float(value))} {units}/h"
    return f"{significant(float(value))} {units}".strip()


def over_words(range_words: str) -> str:
    """ "last 4 h" -> "over the last 4 h"; "since 06:00", "yesterday" as they are."""
    words = " ".join(range_words.split())
    if not words:
        return ""
    if words.lower().startswith(("last ", "past ", "previous ")):
        return f"over the {words}"
    return words


def headline(
    statistics: Mapping[str, Mapping[str, Any]], asked: Sequence[str], range_words: str = ""
) -> list[str]:
    """One line per channel (the first ``HEADLINE_CHANNELS``), the asked statistics first:
    "**SR:TUNE:Y over the last 4 h: standard deviation 2.134e-04, drift -3.021e-06 /h**"
    (a list item each when there are several)."""
    named = [s for s in asked if s in _SAID] or list(_ALWAYS)
    over = over_words(range_words)
    channels = list(statistics)
    mark = "- " if len(channels) > 1 else ""
    lines = []
    for channel in channels[:HEADLINE_CHANNELS]:
        stats = statistics[channel]
        said = ", ".join(f"{_SAID[s][0]} {figure(stats, s)}" for s in named)
        lines.append(f"{mark}**{channel}{' ' + over if over else ''}: {said}**")
    more = len(channels) - HEADLINE_CHANNELS
    if more > 0:
        lines.append(f"- … and {more} more channel{'s' if more != 1 else ''} in the table below")
    return lines


def provenance_lines(
    statistics: Mapping[str, Mapping[str, Any]],
    zone_name: str = "",
    not_computed: Sequence[str] = (),
) -> list[str]:
    """Where the figures come from: the channels, window, samples and method (one sentence
    per method: sampled signals and stepped ones are weighed differently)."""
    zone = _zone(zone_name)
    by_method: dict[str, list[Provenance]] = {}
    for stats in statistics.values():
        raw = stats.get("provenance")
        if isinstance(raw, Mapping):
            found = Provenance.from_dict(dict(raw))
            by_method.setdefault(found.method, []).append(found)
    lines = []
    for method, found in by_method.items():
        combined = Provenance(
            tuple(c for p in found for c in p.channels),
            min(p.start for p in found),
            max(p.end for p in found),
            sum(p.samples for p in found),
            method,
        )
        lines.append(combined.line(zone))
    if not_computed:
        shown = ", ".join(not_computed[:5]) + (" …" if len(not_computed) > 5 else "")
        lines.append(f"No statistics for {shown}: no archived numbers in the window.")
    return lines


def statistics_table(context: Any, source: tuple[str, str] | None = None) -> Table:
    """The statistics of an ARCHIVER_DATA context (``statistics``, ``asked_statistics``) as a
    table: channel, the statistics asked, then the others, and the samples behind them."""
    statistics: Mapping[str, Mapping[str, Any]] = context.statistics
    asked = [s for s in context.asked_statistics if s in _SAID]
    columns = list(
        dict.fromkeys([*asked, *(s for s in _ALWAYS if _SAID[s][1] not in _fields(asked))])
    )
    rows = []
    for channel, stats in statistics.items():
        samples = int((stats.get("provenance") or {}).get("samples") or 0)
        rows.append(
            [
                Cell(channel, hint=f"{samples:,} archived samples"),
                *(Cell(figure(stats, s), numeric=True) for s in columns),
                Cell(f"{samples:,}", numeric=True),
            ]
        )
    span = f"{context.start_date:%Y-%m-%d %H:%M} to {context.end_date:%Y-%m-%d %H:%M}"
    count = len(statistics)
    return Table(
        kind="statistics",
        title=f"Statistics of {count} channel{'s' if count != 1 else ''}, {span}",
        columns=["Channel", *(_SAID[s][2] for s in columns), "Samples"],
        rows=rows,
        notes=provenance_lines(statistics, context.timezone_name, not_computed(context))
        + [_every_sample_note(context)],
        source=source,
    )


def _every_sample_note(context: Any) -> str:
    points = f"at most {context.max_points} points" if context.max_points else "its points"
    return (
        "These figures use every archived sample in the window; the plot and the history "
        f"kept for follow-ups hold {points} per channel."
    )


def not_computed(context: Any) -> list[str]:
    """The channels of the history without statistics (texts, states, nothing archived)."""
    return [c for c in context.time_series_data if c not in context.statistics]


def _fields(asked: Sequence[str]) -> set[str]:
    """The figures the asked statistics already show ("rms" shows the std's figure)."""
    return {_SAID[s][1] for s in asked if s != "variance"}


def _zone(name: str) -> Any:
    try:
        return ZoneInfo(name) if name and name != "local" else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


__all__ = [
    "HEADLINE_CHANNELS",
    "figure",
    "headline",
    "not_computed",
    "over_words",
    "provenance_lines",
    "statistics_table",
]
