"""Which plots and images a state asks for (no Qt here).

Figures come from ``ui_captured_figures``. A figure with ``metadata.figure_type ==
"timeseries"`` is drawn live from its ARCHIVER_DATA context entry — named by
``metadata.context_key`` (and ``metadata.context_type``, default ARCHIVER_DATA), else the
newest ARCHIVER_DATA entry — optionally limited to ``metadata.channels``. Any other figure
is an image file shown as is.

Besides values and units an entry may carry, per channel, ``kinds`` (enum, string, waveform),
``enum_labels``, ``severity`` codes per sample and ``minimum``/``maximum`` envelopes; they go
to the artifact as they are and ``plot_data.prepare_series`` draws each by its kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

ARCHIVER_DATA = "ARCHIVER_DATA"


@dataclass
class PlotArtifact:
    """One tab of the plot dock.

    Its series and envelopes are the state entry's own lists, not copies (nothing changes a
    state entry's lists once the graph has delivered them): copying a 72-channel history's
    stamps, values and envelopes cost 5-10 ms of the window's loop, and the collector's
    next passes over the fresh lists as much again."""

    identity: str
    title: str
    kind: str  # "timeseries" or "image"
    series: dict[str, tuple[list[float], list[Any]]] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    path: str = ""
    problem: str | None = None  # why a timeseries cannot be drawn
    # min/max per point when the archive binned the data (the plot's band)
    envelopes: dict[str, tuple[list[Any], list[Any]]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # channels that are not numbers
    labels: dict[str, list[str]] = field(default_factory=dict)  # enum state labels
    severity: dict[str, list[int]] = field(default_factory=dict)  # EPICS code per sample
    end: float | None = None  # epoch seconds the history ends at (a state holds until then)

    def prepare_fields(self) -> dict[str, Any]:
        """The keywords of ``plot_data.prepare_series`` for this figure."""
        return {
            "kinds": self.kinds,
            "labels": self.labels,
            "severity": self.severity,
            "end": self.end,
        }


def series_from_archiver_entry(
    entry: Mapping[str, Any], channels: list[str] | None = None
) -> tuple[dict[str, tuple[list[float], list[Any]]], dict[str, str]]:
    """``{channel: (timestamps, values)}`` and units from one ARCHIVER_DATA entry."""
    stamps = entry.get("timestamps") or {}
    data = entry.get("time_series_data") or {}
    units = entry.get("units") or {}
    wanted = channels or list(data)
    series = {c: (_as_list(stamps.get(c)), _as_list(data.get(c))) for c in wanted if c in data}
    return series, {c: str(units.get(c) or "") for c in series}


def _as_list(values: Any) -> list[Any]:
    """The entry's list itself; any other sequence (a tuple, a checkpoint's) as a list."""
    return values if isinstance(values, list) else list(values or [])


def figure_identity(figure: Mapping[str, Any]) -> str:
    """What makes a figure record the same figure across state updates."""
    meta = figure.get("metadata") or {}
    path = str(figure.get("figure_path") or "")
    title = str(figure.get("display_name") or meta.get("title") or path or "Figure")
    return f"{figure.get('capability', '')}|{path}|{title}|{figure.get('created_at', '')}"


def artifact_from_figure(
    figure: Mapping[str, Any], context_data: Mapping[str, Any]
) -> PlotArtifact:
    meta = figure.get("metadata") or {}
    path = str(figure.get("figure_path") or "")
    title = str(figure.get("display_name") or meta.get("title") or path or "Figure")
    identity = figure_identity(figure)
    if meta.get("figure_type") != "timeseries":
        return PlotArtifact(identity, title, "image", path=path)
    context_type = str(meta.get("context_type") or ARCHIVER_DATA)
    entries = context_data.get(context_type) or {}
    key = meta.get("context_key")
    if key is None and entries:
        key = list(entries)[-1]
    entry = entries.get(key) if key is not None else None
    if not isinstance(entry, Mapping):
        return PlotArtifact(
            identity,
            title,
            "timeseries",
            problem=f"No {context_type} entry '{key}' in the context: the data this plot "
            "needs is missing. Ask for the history again.",
        )
    channels = meta.get("channels")
    series, units = series_from_archiver_entry(entry, list(channels) if channels else None)
    artifact = PlotArtifact(identity, title, "timeseries", series=series, units=units)
    artifact.envelopes = envelopes_from_archiver_entry(entry, list(series))
    artifact.kinds = _per_channel(entry.get("kinds"), series, str)
    artifact.labels = _per_channel(entry.get("enum_labels"), series, list)
    artifact.severity = _per_channel(entry.get("severity"), series, list)
    artifact.end = _epoch(entry.get("end_date"))
    return artifact


def _per_channel(field_value: Any, channels: Mapping[str, Any], kind: type) -> dict[str, Any]:
    """The entries of a per-channel field for the plotted channels (wrong types left out)."""
    if not isinstance(field_value, Mapping):
        return {}
    return {c: field_value[c] for c in channels if isinstance(field_value.get(c), kind)}


def _epoch(moment: Any) -> float | None:
    """Epoch seconds of a stored ``end_date`` (a datetime, or its ISO text in a checkpoint)."""
    if isinstance(moment, datetime):
        return moment.timestamp()
    if isinstance(moment, str):
        try:
            return datetime.fromisoformat(moment).timestamp()
        except ValueError:
            return None
    if isinstance(moment, int | float) and not isinstance(moment, bool):
        return float(moment)
    return None


def envelopes_from_archiver_entry(
    entry: Mapping[str, Any], channels: list[str]
) -> dict[str, tuple[list[Any], list[Any]]]:
    """Per-bin ``minimum`` / ``maximum`` lists, when the entry carries them for a channel."""
    low, high = entry.get("minimum") or {}, entry.get("maximum") or {}
    if not isinstance(low, Mapping) or not isinstance(high, Mapping):
        return {}
    return {
        c: (low[c], high[c])
        for c in channels
        if isinstance(low.get(c), list) and isinstance(high.get(c), list)
    }


def artifacts_from_state(
    values: Mapping[str, Any], skip: set[str] | frozenset[str] = frozenset()
) -> list[PlotArtifact]:
    """Artifacts of every figure in ``values`` except those in ``skip`` (already shown)."""
    context_data = values.get("capability_context_data") or {}
    figures = values.get("ui_captured_figures") or []
    return [
        artifact_from_figure(f, context_data)
        for f in figures
        if isinstance(f, Mapping) and figure_identity(f) not in skip
    ]
