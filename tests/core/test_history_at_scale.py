"""A day of orbit history (72 BPMs x 2,000 points) gives the same context, summary and answer
as the sample-by-sample code it replaced, and merging it shares nothing with the update.

The ``reference_*`` functions are the previous implementations, kept here word for word as
the definition of the expected output: the faster code must match them exactly (``repr``
equality, so -0.0 against 0.0, 1 against 1.0 or True, and None against NaN all count).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from osprey_desktop.answers import compose_answer, plan_answer
from osprey_desktop.capabilities.control_room.contexts import ArchiverDataContext, _fmt
from osprey_desktop.capabilities.respond import answer_plan
from osprey_desktop.connectors.archiver_base import ArchiverData, ArchiverSeries
from osprey_desktop.connectors.base import jsonable
from osprey_desktop.connectors.values import EnumState
from osprey_desktop.state.context_summaries import turn_context_summaries
from osprey_desktop.state.reducers import merge_capability_context_data

NOW = datetime(2026, 11, 24, 14, 2, 55, tzinfo=UTC)
CHANNELS, POINTS = 72, 2000


def reference_jsonable(value: Any) -> Any:
    """``connectors.base.jsonable`` as it was: one call per array element."""
    if isinstance(value, EnumState):
        return str(value)
    if isinstance(value, dict):
        return {str(k): reference_jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [reference_jsonable(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list | tuple):
        return [reference_jsonable(v) for v in value]
    return value


def reference_int_list(codes: np.ndarray | None) -> list[int] | None:
    return None if codes is None else [int(c) for c in codes.tolist()]


def reference_context_fields(data: ArchiverData) -> dict[str, Any]:
    """``ArchiverData.context_fields`` as it was."""
    series = data.series
    return {
        "timestamps": {n: s.timestamps.astype(float).tolist() for n, s in series.items()},
        "time_series_data": {
            n: [reference_jsonable(v) for v in s.values.tolist()] for n, s in series.items()
        },
        "units": {n: s.units for n, s in series.items()},
        "kinds": {n: s.kind for n, s in series.items() if s.kind != "number"},
        "enum_labels": {n: list(s.labels) for n, s in series.items() if s.labels},
        "severity": {
            n: reference_int_list(s.severity) for n, s in series.items() if s.severity is not None
        },
        "status": {
            n: reference_int_list(s.status) for n, s in series.items() if s.status is not None
        },
    }


def reference_channel_stats(context: ArchiverDataContext) -> dict[str, Any]:
    """The ``channels`` part of ``ArchiverDataContext.get_summary`` as it was."""
    from osprey_desktop.capabilities.control_room.contexts import _state_summary

    stats: dict[str, Any] = {}
    for channel, values in context.time_series_data.items():
        numbers = [v for v in values if isinstance(v, int | float) and math.isfinite(v)]
        unit = context.units.get(channel, "")
        if context.kinds.get(channel) in ("enum", "string", "waveform") and values:
            stats[channel] = _state_summary(values, context.enum_labels.get(channel, []))
            continue
        if not numbers:
            stats[channel] = "no data in this range"
            continue
        stats[channel] = {
            "points": len(values),
            "first": _fmt(numbers[0], unit),
            "last": _fmt(numbers[-1], unit),
            "min": _fmt(min(numbers), unit),
            "max": _fmt(max(numbers), unit),
            "mean": _fmt(sum(numbers) / len(numbers), unit),
        }
    return stats


def orbit_history(seed: int = 7) -> ArchiverData:
    """72 horizontal BPMs over a day, 2,000 points each, with the awkward cases mixed in:
    gaps, infinities, a channel without data, signed zeros, float32 values, an outlier,
    alarm codes as int16, as floats and missing."""
    rng = np.random.default_rng(seed)
    start = NOW - timedelta(days=1)
    series: dict[str, ArchiverSeries] = {}
    for i in range(CHANNELS):
        name = f"SR{i // 6 + 1:02d}C:BPM{i + 1:02d}:X"
        stamps = start.timestamp() + np.sort(rng.uniform(0, 86400, POINTS))
        values = 0.05 * rng.standard_normal(POINTS) + 0.01 * i
        values[rng.integers(0, POINTS, 25)] = np.nan  # gaps
        severity = rng.choice(np.array([0, 0, 0, 1, 2], dtype=np.int16), POINTS)
        status = np.where(severity > 0, 4, 0).astype(np.int16)
        if i == 3:
            values[[0, 7, POINTS - 1]] = [np.inf, -np.inf, np.nan]
        elif i == 4:
            values[:] = np.nan  # disconnected all day
        elif i == 5:
            values[:] = 0.0
            values[1::2] = -0.0  # min/max among equal zeros of either sign
        elif i == 6:
            values = values.astype(np.float32)
        elif i == 10:
            values += 1.5  # far from its family
        elif i == 11:
            severity = severity.astype(float)  # an archive that gives codes as floats
        elif i == 12:
            severity = status = None
        series[name] = ArchiverSeries(
            name, stamps, values, units="mm", precision=4, severity=severity, status=status
        )
    return ArchiverData(start, NOW, series)


def mixed_history() -> ArchiverData:
    """One channel of each other kind: enum states, strings, waveforms."""
    stamps = NOW.timestamp() - np.arange(6, 0, -1) * 60.0
    waveforms = np.empty(6, dtype=object)
    waveforms[:] = [np.array([0.1, np.nan]), None, np.arange(3.0), None, np.zeros(2), [1.0]]
    series = {
        "SR:RF:State": ArchiverSeries(
            "SR:RF:State",
            stamps,
            np.array([0.0, 1.0, np.nan, 2.0, 1.0, 1.0]),
            kind="enum",
            labels=("OFF", "ON", "FAULT"),
        ),
        "SR:Mode": ArchiverSeries(
            "SR:Mode",
            stamps,
            np.array(["user", None, "MD", "user", "MD", None], dtype=object),
            kind="string",
        ),
        "SR:Profile": ArchiverSeries("SR:Profile", stamps, waveforms, kind="waveform"),
        "SR:Counter": ArchiverSeries(
            "SR:Counter", stamps, np.arange(6, dtype=np.uint64), severity=np.arange(6) % 2 == 0
        ),
    }
    return ArchiverData(NOW - timedelta(hours=1), NOW, series)


def context_of(data: ArchiverData, **extra: Any) -> ArchiverDataContext:
    return ArchiverDataContext(
        **data.context_fields(), start_date=data.start, end_date=data.end, **extra
    )


@pytest.mark.parametrize("history", [orbit_history, mixed_history], ids=["orbit", "mixed"])
def test_context_fields_are_exactly_the_sample_by_sample_ones(history):
    data = history()
    assert repr(data.context_fields()) == repr(reference_context_fields(data))
    for name, series in data.series.items():
        old = reference_jsonable(series.values)
        assert repr(series.to_dict()["values"]) == repr(old), name


@pytest.mark.parametrize(
    "array",
    [
        np.array([1.5, np.nan, -0.0, np.inf, -np.inf, 2e-300]),
        np.array([1.5, np.nan, 3.25], dtype=np.float32),
        np.array([-3, 0, 7], dtype=np.int16),
        np.array([2**63 + 5], dtype=np.uint64),
        np.array([True, False]),
        np.array([[1.0, np.nan], [np.inf, 2.0]]),
        np.array([np.datetime64("2026-11-24T14:00")]),
        np.array(["a", None, 1.5, np.float64("nan"), np.array([np.nan, 1.0])], dtype=object),
        np.ma.masked_array([1.0, 2.0, np.nan], mask=[False, True, False]),
        np.array([], dtype=float),
    ],
    ids=[
        "float64",
        "float32",
        "int16",
        "uint64",
        "bool",
        "2-d",
        "datetime",
        "object",
        "masked",
        "empty",
    ],
)
def test_jsonable_of_an_array_is_exactly_the_element_by_element_result(array):
    assert repr(jsonable(array)) == repr(reference_jsonable(array))


@pytest.mark.parametrize("history", [orbit_history, mixed_history], ids=["orbit", "mixed"])
def test_history_summary_is_exactly_the_sample_by_sample_one(history):
    context = context_of(history())
    summary = context.get_summary()
    assert repr(summary["channels"]) == repr(reference_channel_stats(context))


def test_summary_of_histories_that_are_not_plain_floats_is_unchanged():
    histories: dict[str, list[Any]] = {
        "ints": [3, 1, None, 2],
        "bools": [True, False, True, None],
        "mixed": [2**60 + 1, 0.5, float("nan"), 1],
        "zeros": [0.0] + [-0.0] * 99 + [0.0],
        "negative zeros first": [-0.0] + [0.0] * 99,
        "empty": [],
    }
    context = ArchiverDataContext(
        timestamps={n: [float(t) for t in range(len(v))] for n, v in histories.items()},
        time_series_data=histories,
        units={"ints": "counts"},
        start_date=NOW - timedelta(hours=1),
        end_date=NOW,
    )
    stats = context.get_summary()["channels"]
    assert repr(stats) == repr(reference_channel_stats(context))
    # among equal zeros, the first one, as Python's min and max pick it
    assert stats["zeros"]["min"] == stats["zeros"]["max"] == "0.0000"
    assert stats["negative zeros first"]["min"] == "-0.0000"


def test_answer_of_a_day_of_orbit_is_the_same_as_when_each_reader_rebuilt_the_context():
    context = context_of(orbit_history())
    state = {
        "capability_context_data": {"ARCHIVER_DATA": {"orbit": context.model_dump(mode="json")}},
        "execution_step_results": {
            "orbit": {"success": True, "context_key": "orbit", "step_index": 0, "timestamp": 0}
        },
        "planning_execution_plan": {"steps": []},
        "execution_start_time": NOW.timestamp() - 3,
    }
    now = NOW.timestamp()
    before = plan_answer(state, turn_context_summaries(state, []), now=now)
    after = answer_plan(state, [])
    assert after.for_planner == before.for_planner
    shown = compose_answer(after, "", state, now=now).to_dict()
    assert shown == compose_answer(before, "", state, now=now).to_dict()
    table = after.tables[0]
    assert table.title.startswith("History of 72 channels") and "need a look" in table.title
    flagged = {row[0].text: row[5].text for row in table.rows}
    assert flagged["SR01C:BPM05:X"].startswith("only gaps: 2000 samples without a value")
    assert "far from the others" in flagged["SR02C:BPM11:X"]


def _containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value`` (itself included)."""
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
    return found


def test_merging_a_day_of_orbit_shares_no_mutable_object_with_the_update():
    stored = context_of(orbit_history()).model_dump(mode="json")
    stored["nested"] = [[1.0, 2.0], {"a": [3.0]}, bytearray(b"x")]
    new = {"ARCHIVER_DATA": {"orbit": stored}}
    merged = merge_capability_context_data({}, new)
    entry = merged["ARCHIVER_DATA"]["orbit"]
    assert entry == stored
    ours = {id(c) for c in _containers(new)}
    assert not ours & {id(c) for c in _containers(merged)}
    assert entry["nested"][2] is not stored["nested"][2]  # not JSON: deep-copied
    # changing what was passed in leaves the merged state as it was
    channel = "SR01C:BPM01:X"
    first = entry["time_series_data"][channel][0]
    stored["time_series_data"][channel][0] = 99.0
    stored["severity"][channel].append(3)
    stored["nested"][0].append(5.0)
    stored["nested"][2][0] = ord("y")
    assert entry["time_series_data"][channel][0] == first
    assert len(entry["severity"][channel]) == POINTS
    assert entry["nested"][0] == [1.0, 2.0] and entry["nested"][2] == bytearray(b"x")


def test_a_flat_list_holding_a_mutable_item_is_still_copied_item_by_item():
    class Tag(str):
        """A str subclass: not a plain atom, so it goes through deepcopy."""

    inner = [1.0]
    new = {"T": {"k": {"values": [0.5, None, "a", inner, Tag("x")]}}}
    merged = merge_capability_context_data(None, new)
    values = merged["T"]["k"]["values"]
    assert values == [0.5, None, "a", [1.0], "x"]
    assert values is not new["T"]["k"]["values"] and values[3] is not inner
    inner.append(2.0)
    assert values[3] == [1.0]
