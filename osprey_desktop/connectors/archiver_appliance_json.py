"""Turn the Archiver Appliance's JSON answers into ``ArchiverSeries`` and ``ArchiverSample``.

The layouts (EPICS Archiver Appliance retrieval API):

* ``getData.json`` / ``getDataForPVs.json``: a list of blocks ``{"meta": {"name", "EGU",
  "PREC", ...}, "data": [sample, ...]}`` (meta values are strings); a sample is ``{"secs",
  "nanos", "val", "severity", "status"}`` plus, on the first sample after a reconnection,
  ``"fields": {"cnxlostepsecs", "cnxregainedepsecs", ...}`` (strings). ``val`` is a number
  (doubles, ints, enum state indices; ``NaN`` written bare), a string, or a list (waveforms).
  Binned by ``optimized_N`` it is ``[mean, std, min, max, count]``.
* ``getDataAtTime``: ``{name: sample}`` with the same sample layout; names without data are
  left out.
* ``bpl/getMetadata``: a flat object of strings, including the archived ``DBRType``
  (``DBR_SCALAR_DOUBLE``, ``DBR_SCALAR_ENUM``, ``DBR_SCALAR_STRING``, ``DBR_WAVEFORM_*``...).

Severities above INVALID (3) are the Channel Archiver's special codes (3904 disconnected, 3872
archive off, 3848 archive disabled) in imported data: such a sample carries no value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from osprey_desktop.connectors.archiver_base import (
    GAP_SEVERITY,
    GAP_STATUS,
    INVALID,
    ArchiverSample,
    ArchiverSeries,
    SeriesKind,
)
from osprey_desktop.connectors.base import ArchiverError

#: ``optimized_N`` bins: [mean, std, min, max, count].
OPTIMIZED_FIELDS = 5


@dataclass(frozen=True)
class PVType:
    """What the Appliance archives for a PV, from ``bpl/getMetadata`` (or the control system)."""

    kind: SeriesKind | None = None  # None: not known, told from the values
    labels: tuple[str, ...] = ()
    units: str = ""
    precision: int | None = None


def kind_of_dbr_type(dbr_type: str) -> SeriesKind | None:
    text = dbr_type.upper()
    if not text.startswith("DBR_"):
        return None
    if "WAVEFORM" in text:
        return "waveform"
    if "ENUM" in text:
        return "enum"
    if "STRING" in text:
        return "string"
    if "SCALAR" in text:
        return "number"
    return None


def _precision(raw: Any) -> int | None:
    try:
        return int(float(raw)) if raw not in (None, "") else None
    except (TypeError, ValueError):
        return None


def enum_labels_of(meta: Any) -> tuple[str, ...]:
    """The state strings an Appliance ``meta`` or ``getMetadata`` answer carries as
    ``ENUM_0``, ``ENUM_1``, … (index order; a missing index is an empty label)."""
    if not isinstance(meta, dict):
        return ()
    found: dict[int, str] = {}
    for key, value in meta.items():
        head, _, index = str(key).partition("_")
        if head.upper() == "ENUM" and index.isdigit():
            found[int(index)] = str(value)
    if not found:
        return ()
    return tuple(found.get(i, "") for i in range(max(found) + 1))


def pv_type_from_metadata(metadata: Any) -> PVType:
    """The kind, units, precision and enum states a ``getMetadata`` answer names (unknown
    parts left empty)."""
    if not isinstance(metadata, dict):
        return PVType()
    kind = kind_of_dbr_type(str(metadata.get("DBRType") or ""))
    return PVType(
        kind=kind,
        labels=enum_labels_of(metadata) if kind in ("enum", None) else (),
        units=str(metadata.get("EGU") or metadata.get("units") or ""),
        precision=_precision(metadata.get("PREC", metadata.get("precision"))),
    )


def _number(raw: Any) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise TypeError(f"expected a number, got {type(raw).__name__}")
    return float(raw)


def _waveform(raw: Any) -> Any:
    """A waveform sample: a float array (NaN elements kept), or a list of strings."""
    if not isinstance(raw, list):
        return np.array([_number(raw)])
    if all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw):
        return np.asarray(raw, dtype=float)
    return [str(x) for x in raw]


def _gap_time(sample: dict[str, Any], previous: float | None, stamp: float) -> float | None:
    """When a reconnected PV lost its connection, if that opens a gap after ``previous``."""
    fields = sample.get("fields")
    if not isinstance(fields, dict) or "cnxlostepsecs" not in fields:
        return None
    try:
        lost = float(fields["cnxlostepsecs"])
    except (TypeError, ValueError):
        return None
    if lost <= 0 or lost >= stamp or (previous is not None and lost <= previous):
        return None
    return lost


class _Columns:
    """Samples gathered column by column while parsing one block."""

    def __init__(self) -> None:
        self.t: list[float] = []
        self.v: list[Any] = []
        self.severity: list[int] = []
        self.status: list[int] = []
        self.low: list[float] = []
        self.high: list[float] = []
        self.count: list[float] = []

    def add(self, t: float, v: Any, severity: int, status: int, envelope: Any = None) -> None:
        self.t.append(t)
        self.v.append(v)
        self.severity.append(severity)
        self.status.append(status)
        if envelope is not None:
            low, high, count = envelope
            self.low.append(low)
            self.high.append(high)
            self.count.append(count)


def _stamp(sample: dict[str, Any]) -> float:
    return float(sample["secs"]) + float(sample.get("nanos", 0) or 0) * 1e-9


def _kind_from_values(samples: list[dict[str, Any]], binned: bool) -> SeriesKind:
    for sample in samples:
        val = sample.get("val")
        if isinstance(val, str):
            return "string"
        if isinstance(val, list) and not (binned and len(val) == OPTIMIZED_FIELDS):
            return "waveform"
        if isinstance(val, int | float):
            return "number"
    return "number"


def parse_block(
    name: str,
    block: Any,
    pv_type: PVType,
    processing: str,
    where: str,
) -> ArchiverSeries:
    """One ``{"meta", "data"}`` block as a series; raises ``ArchiverError`` naming ``name``."""
    if not isinstance(block, dict) or not isinstance(block.get("data", []), list):
        raise ArchiverError(f"{where} answered an unexpected JSON shape for '{name}'.")
    meta = block.get("meta") if isinstance(block.get("meta"), dict) else {}
    samples = block.get("data") or []
    binnable = processing.startswith("optimized_")
    meta_labels = enum_labels_of(meta)
    kind: SeriesKind = pv_type.kind or (
        "enum" if meta_labels else _kind_from_values(samples, binnable)
    )
    binned = (
        binnable
        and kind == "number"
        and any(
            isinstance(s, dict) and isinstance(s.get("val"), list) and len(s["val"]) == 5
            for s in samples
        )
    )
    units = str(meta.get("EGU") or pv_type.units or "")
    precision = _precision(meta.get("PREC")) if meta.get("PREC") else pv_type.precision
    if kind == "number" and not binned:
        fast = _plain_numbers(samples)
        if fast is not None:
            t, v, severity, status = fast
            return ArchiverSeries(
                name, t, v, units, precision, _raw_processing(processing), kind="number",
                severity=severity, status=status,
            )  # fmt: skip
    columns = _Columns()
    previous: float | None = None
    try:
        for sample in samples:
            stamp = _stamp(sample)
            raw = sample["val"]
            severity = int(sample.get("severity", 0) or 0)
            status = int(sample.get("status", 0) or 0)
            lost = _gap_time(sample, previous, stamp)
            if lost is not None:
                envelope = (math.nan, math.nan, 0.0) if binned else None
                gap = None if kind in ("string", "waveform") else math.nan
                columns.add(lost, gap, GAP_SEVERITY, GAP_STATUS, envelope)
            value, envelope = _value(raw, kind, binned)
            if severity > INVALID:  # Channel Archiver special codes: no value at all
                value = None if kind in ("string", "waveform") else math.nan
            columns.add(stamp, value, severity, status, envelope)
            previous = stamp
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiverError(
            f"{where} answered samples without secs/val for '{name}' ({exc})."
        ) from exc
    object_kind = kind in ("string", "waveform")
    values = np.empty(len(columns.v), dtype=object)
    if object_kind:
        values[:] = columns.v
    else:
        values = np.asarray(columns.v, dtype=float)
    return ArchiverSeries(
        channel=name,
        timestamps=np.asarray(columns.t, dtype=float),
        values=values,
        units=units,
        precision=precision,
        processing=processing if binned else _raw_processing(processing),
        kind=kind,
        labels=(pv_type.labels or meta_labels) if kind == "enum" else (),
        severity=np.asarray(columns.severity, dtype=np.int32),
        status=np.asarray(columns.status, dtype=np.int32),
        minimum=np.asarray(columns.low, dtype=float) if binned else None,
        maximum=np.asarray(columns.high, dtype=float) if binned else None,
        counts=np.asarray(columns.count, dtype=float) if binned else None,
    )


def _plain_numbers(
    samples: list[Any],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Columns of a block of plain scalar samples in one vectorised pass (a day at 1 Hz in
    ~60 ms instead of ~200 ms); None when any sample needs the careful path (reconnection
    fields, arrays, strings, missing keys)."""
    n = len(samples)
    try:
        if any("fields" in s for s in samples):
            return None
        secs = np.fromiter((s["secs"] for s in samples), dtype=float, count=n)
        nanos = np.fromiter((s.get("nanos", 0) or 0 for s in samples), dtype=float, count=n)
        values = np.fromiter((s["val"] for s in samples), dtype=float, count=n)
        severity = np.fromiter((s.get("severity", 0) or 0 for s in samples), np.int32, n)
        status = np.fromiter((s.get("status", 0) or 0 for s in samples), np.int32, n)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    values[severity > INVALID] = math.nan  # Channel Archiver special codes: no value at all
    return secs + nanos * 1e-9, values, severity, status


def _raw_processing(processing: str) -> str:
    """``optimized_N`` answers raw samples when the range holds fewer than N."""
    return "raw" if processing.startswith("optimized_") else processing


def _value(raw: Any, kind: SeriesKind, binned: bool) -> tuple[Any, Any]:
    """(value, (min, max, count) or None) of one sample's ``val``."""
    if binned:
        if not isinstance(raw, list) or len(raw) != OPTIMIZED_FIELDS:
            raise TypeError("expected an optimized bin [mean, std, min, max, count]")
        mean, _std, low, high, count = (_number(x) for x in raw)
        if count <= 0:
            return math.nan, (math.nan, math.nan, 0.0)
        return mean, (low, high, count)
    if kind == "string":
        return (raw if isinstance(raw, str) else str(raw)), None
    if kind == "waveform":
        return _waveform(raw), None
    if isinstance(raw, list) and len(raw) == 1:  # a one-element array archived as a waveform
        raw = raw[0]
    return _number(raw), None


def collapse_repeats(series: ArchiverSeries) -> ArchiverSeries:
    """Keep only the samples where value, severity or status change (and the last one).

    For enums and strings, whose plot is a step line, this loses nothing that can be seen and
    turns a state scanned at 1 Hz for a week into its handful of transitions.
    """
    n = len(series)
    if n < 3 or series.kind not in ("enum", "string"):
        return series
    values = series.values.tolist()
    sev = series.severity.tolist() if series.severity is not None else [0] * n
    stat = series.status.tolist() if series.status is not None else [0] * n

    def same(a: Any, b: Any) -> bool:
        both_nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
        return both_nan or a == b

    keep = [0]
    for i in range(1, n):
        if not (same(values[i], values[i - 1]) and sev[i] == sev[i - 1] and stat[i] == stat[i - 1]):
            keep.append(i)
    if keep[-1] != n - 1:
        keep.append(n - 1)
    if len(keep) == n:
        return series
    index = np.asarray(keep)
    return ArchiverSeries(
        channel=series.channel,
        timestamps=series.timestamps[index],
        values=series.values[index],
        units=series.units,
        precision=series.precision,
        processing=series.processing,
        kind=series.kind,
        labels=series.labels,
        severity=None if series.severity is None else series.severity[index],
        status=None if series.status is None else series.status[index],
    )


def parse_sample_at(
    name: str, raw: Any, moment: float, pv_type: PVType, where: str
) -> ArchiverSample:
    """One ``getDataAtTime`` entry as an ``ArchiverSample``."""
    if not isinstance(raw, dict):
        raise ArchiverError(f"{where} answered an unexpected JSON shape for '{name}' at a time.")
    try:
        stamp = _stamp(raw)
        kind: SeriesKind = pv_type.kind or _kind_from_values([raw], False)
        value, _ = _value(raw["val"], kind, False)
        severity = int(raw.get("severity", 0) or 0)
        status = int(raw.get("status", 0) or 0)
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiverError(
            f"{where} answered a sample without secs/val for '{name}' ({exc})."
        ) from exc
    if severity > INVALID or (isinstance(value, float) and math.isnan(value)):
        value = None
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return ArchiverSample(
        channel=name,
        moment=moment,
        timestamp=stamp,
        value=value,
        severity=severity,
        status=status,
        units=pv_type.units,
        precision=pv_type.precision,
        kind=kind,
        labels=pv_type.labels if kind == "enum" else (),
    )
