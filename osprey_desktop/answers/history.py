"""Archived history as an operator reads it: one row per channel (last, min, max, mean).

The mean is time-weighted: an archived sample holds until the next one (the archive stores a
change, not a ramp), so a setpoint's mean is where it sat, not the average of its samples.

With many channels (an orbit of 50 BPMs) the rows that need a look come first: channels in
alarm in a reading of this thread, channels without data, and channels out of the ordinary
for their family (last value, mean or spread far from the others, by a robust z-score). The
ordinary rest is cut after ``MAX_ROWS`` with a line saying what their range is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from osprey_desktop.answers.history_kinds import STATE_KINDS, gap_note, state_row
from osprey_desktop.answers.model import Cell, Table
from osprey_desktop.answers.numbers import decimals_for, format_fixed
from osprey_desktop.answers.series_stats import finite_summary, held_means, padded_rows

MAX_ROWS = 16
"""Rows shown when the ordinary channels have to be cut."""
NOTHING_ARCHIVED = "no samples archived in this range"
MANY_CHANNELS = 20
"""From this many channels on, unusual ones go first and the ordinary rest may be cut."""
OUTLIER_Z = 3.5
_DIGITS = re.compile(r"\d+")


def family_key(channel: str) -> str:
    """Channels that differ only in their numbers are one family (SR03C:BPM13:X -> SR#C:BPM#:X)."""
    return _DIGITS.sub("#", channel)


def position_key(channel: str) -> tuple[int, ...]:
    """Order within a family: the numbers in the name (sector, then device)."""
    return tuple(int(n) for n in _DIGITS.findall(channel))


def families(
    channels: Sequence[str], units: Mapping[str, str], minimum: int = 4
) -> list[list[str]]:
    """Groups of at least ``minimum`` channels with one name pattern and one unit, in order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for channel in channels:
        groups.setdefault((family_key(channel), units.get(channel, "")), []).append(channel)
    return [
        sorted(members, key=position_key) for members in groups.values() if len(members) >= minimum
    ]


def channel_stats(
    values: Sequence[Any], timestamps: Sequence[float] | None = None, end: float | None = None
) -> dict[str, float] | None:
    """last, min, max, mean and point count of the finite values; None when there are none.

    With ``timestamps`` the mean is time-weighted: an archived sample holds until the next
    one (a gap ends it; the last holds until ``end``), so a setpoint that sat at 1.2 A for
    an hour and at 0.5 A for ten minutes averages near 1.2 A, not halfway."""
    stamps = {"": timestamps} if timestamps is not None else {}
    return many_channel_stats({"": values}, stamps, end)[""]


def many_channel_stats(
    series: Mapping[str, Sequence[Any]],
    timestamps: Mapping[str, Sequence[float] | None],
    end: float | None = None,
) -> dict[str, dict[str, float] | None]:
    """``channel_stats`` of every channel, as a few array operations over all of them (a day
    of 72 BPMs took 20 ms one channel at a time, on the window's loop)."""
    channels = list(series)
    if not channels:
        return {}
    values, lengths = padded_rows([series[c] for c in channels])
    summary = finite_summary(values)
    means = summary.mean()
    # a channel's mean is time-weighted where its stamps match its samples one for one
    stamp_rows = [timestamps.get(c) for c in channels]
    timed = np.array(
        [s is not None and len(s) == n for s, n in zip(stamp_rows, lengths, strict=True)]
    )
    if timed.any():
        rows = [s if ok else () for s, ok in zip(stamp_rows, timed, strict=True)]
        stamps, _ = padded_rows(rows, values.shape[1])  # type: ignore[arg-type]
        held = held_means(stamps, values, np.where(timed, lengths, 0), end, summary.finite)
        means = np.where(np.isnan(held), means, held)
    out: dict[str, dict[str, float] | None] = {}
    for i, channel in enumerate(channels):
        if summary.count[i] == 0:
            out[channel] = None
            continue
        out[channel] = {
            "last": float(summary.last[i]),
            "min": float(summary.low[i]),
            "max": float(summary.high[i]),
            "mean": float(means[i]),
            "points": float(summary.count[i]),
        }
    return out


def _time_axis(context: Any) -> tuple[Mapping[str, Sequence[float]], float | None]:
    """The channels' timestamps and the history's end, for time-weighted statistics."""
    stamps = getattr(context, "timestamps", None) or {}
    end_date = getattr(context, "end_date", None)
    return stamps, end_date.timestamp() if hasattr(end_date, "timestamp") else None


def _robust_z(values: dict[str, float]) -> dict[str, float]:
    if len(values) < 5:
        return {}
    numbers = np.array(list(values.values()))
    median = float(np.median(numbers))
    mad = float(np.median(np.abs(numbers - median)))
    if mad <= 0:
        spread = float(np.std(numbers))
        if spread <= 0:
            return {}
        return {k: (v - median) / spread for k, v in values.items()}
    return {k: 0.6745 * (v - median) / mad for k, v in values.items()}


def unusual_channels(
    stats: Mapping[str, Mapping[str, float]], units: Mapping[str, str]
) -> dict[str, str]:
    """Why each out-of-the-ordinary channel is so, compared with its family."""
    reasons: dict[str, str] = {}
    for members in families(list(stats), units, minimum=5):
        for field, words in (
            ("last", "last value far from the others"),
            ("mean", "mean far from the others"),
            ("span", "moved much more than the others"),
        ):
            sample = {
                c: (stats[c]["max"] - stats[c]["min"]) if field == "span" else stats[c][field]
                for c in members
            }
            for channel, z in _robust_z(sample).items():
                if abs(z) > OUTLIER_Z and channel not in reasons:
                    reasons[channel] = words
    return reasons


def history_table(
    context: Any,
    alarms: Mapping[str, str] | None = None,
    source: tuple[str, str] | None = None,
) -> Table:
    """An ARCHIVER_DATA context (``time_series_data``, ``units``, range) as a summary table."""
    alarms = dict(alarms or {})
    units: dict[str, str] = dict(getattr(context, "units", {}) or {})
    channels = list(context.time_series_data)
    stats: dict[str, dict[str, float]] = {}
    empty: list[str] = []
    kinds = dict(getattr(context, "kinds", {}) or {})
    labels = dict(getattr(context, "enum_labels", {}) or {})
    state_rows = {  # enums, texts, waveforms: states and per-element summaries, not a mean
        c: state_row(c, context.time_series_data[c], kinds[c], labels.get(c, []), units.get(c, ""))
        for c in channels
        if kinds.get(c) in STATE_KINDS
    }
    numbers = [c for c in channels if c not in state_rows]
    stamps, end = _time_axis(context)
    found = many_channel_stats(
        {c: context.time_series_data[c] for c in numbers}, {c: stamps.get(c) for c in numbers}, end
    )
    for channel, result in found.items():
        if result is None:
            empty.append(channel)
        else:
            stats[channel] = result
    reasons = unusual_channels(stats, units)
    flagged = [c for c in channels if c in alarms or c in empty or c in reasons]
    ordinary = [c for c in channels if c not in flagged]
    many = len(channels) >= MANY_CHANNELS
    shown = flagged + ordinary[: max(0, MAX_ROWS - len(flagged))] if many else channels
    decimals = _decimals_per_unit(stats, units)
    rows = [
        state_rows[c]
        if c in state_rows
        else _row(c, stats.get(c), units.get(c, ""), alarms.get(c), reasons.get(c), decimals)
        for c in shown
    ]
    for row, channel in zip(rows, shown, strict=True):
        values = context.time_series_data[channel]
        if channel in empty:  # nothing archived is not a disconnection; only gaps are INVALID
            row[-1].text = "only gaps: " + gap_note(values) if values else NOTHING_ARCHIVED
            row[-1].severity = row[-1].severity or ("INVALID" if values else "")
        elif channel in stats:  # a gap is said, never passed over
            gaps = gap_note(len(values) - int(stats[channel]["points"]))
            row[-1].text = "; ".join(t for t in (row[-1].text, gaps) if t)
    notes: list[str] = []
    hidden = [c for c in ordinary if c not in shown]
    if hidden:
        notes.append(_hidden_note(hidden, stats, units))
    span = f"{context.start_date:%Y-%m-%d %H:%M} to {context.end_date:%Y-%m-%d %H:%M}"
    title = f"History of {len(channels)} channel{'s' if len(channels) != 1 else ''}, {span}"
    if many and flagged:
        title += f" — {len(flagged)} need a look, listed first"
    if "no time was named" in getattr(context, "range_words", ""):
        # "plot it": the window was chosen, never asked; the answer says which
        notes.append("No time was named, so this shows the last hour; name another to change it.")
    return Table(
        kind="history",
        title=title,
        columns=["Channel", "Last", "Min", "Max", "Mean", "Note"],
        rows=rows,
        notes=notes,
        source=source,
    )


def _row(
    channel: str,
    stats: Mapping[str, float] | None,
    unit: str,
    alarm: str | None,
    reason: str | None,
    decimals: Mapping[str, int | None],
) -> list[Cell]:
    severity = alarm or ""
    if stats is None:  # the note is set by history_table: nothing archived, or only gaps
        return [Cell(channel), *(Cell("—") for _ in range(4)), Cell("")]
    numbers = [stats["last"], stats["min"], stats["max"], stats["mean"]]
    places = decimals.get(unit, decimals_for(numbers))
    cells = [Cell(format_fixed(n, places, unit), numeric=True) for n in numbers]
    cells[0].severity = severity
    notes = [f"{alarm} alarm now" if alarm else "", reason or ""]
    note = "; ".join(n for n in notes if n)
    hint = f"{int(stats['points'])} points"
    return [
        Cell(channel, hint=hint),
        *cells,
        Cell(note, severity=severity, look="warning" if reason and not alarm else ""),
    ]


def _decimals_per_unit(
    stats: Mapping[str, Mapping[str, float]], units: Mapping[str, str]
) -> dict[str, int | None]:
    """One number of decimals per unit, so a column of BPMs in mm lines up."""
    groups: dict[str, list[float]] = {}
    for channel, values in stats.items():
        groups.setdefault(units.get(channel, ""), []).extend((values["min"], values["max"]))
    return {unit: decimals_for(numbers) for unit, numbers in groups.items()}


def _hidden_note(
    hidden: list[str], stats: Mapping[str, Mapping[str, float]], units: Mapping[str, str]
) -> str:
    lasts = [stats[c]["last"] for c in hidden if c in stats]
    unit_set = {units.get(c, "") for c in hidden}
    plural = "s" if len(hidden) != 1 else ""
    text = f"… and {len(hidden)} more channel{plural}, none out of the ordinary"
    if lasts and len(unit_set) == 1:
        unit = unit_set.pop()
        decimals = decimals_for(lasts)
        low, high = (
            format_fixed(min(lasts), decimals, unit),
            format_fixed(max(lasts), decimals, unit),
        )
        text += f" (last values from {low} to {high})"
    return text + "; every channel is in the plot and in the Context dock."


def latest_alarms(context_data: Mapping[str, Any]) -> dict[str, str]:
    """Channel -> severity of any reading in alarm among the stored CHANNEL_VALUES entries."""
    out: dict[str, str] = {}
    for entry in (context_data.get("CHANNEL_VALUES") or {}).values():
        readings = entry.get("channel_values") if isinstance(entry, Mapping) else None
        for name, reading in (readings or {}).items():
            severity = reading.get("alarm_severity") if isinstance(reading, Mapping) else None
            if isinstance(severity, str) and severity.upper() in ("MINOR", "MAJOR", "INVALID"):
                out[name] = severity.upper()
    return out


__all__ = [
    "channel_stats",
    "families",
    "family_key",
    "history_table",
    "latest_alarms",
    "many_channel_stats",
    "position_key",
    "unusual_channels",
]
