"""A statistic asked of a history, through whole turns on the simulated ring: planned as
history, answered with the statistic first, computed from every archived sample as the
investigation computes it (time-weighted for setpoints), with its provenance; the plot and
the stored history as before."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import numpy as np
import pytest

from osprey_desktop.connectors import get_archiver_connector
from osprey_desktop.context import ContextManager
from osprey_desktop.investigate.series import Signal
from osprey_desktop.investigate.statistics import statistics
from tests.support.turns import steps

HISTORY = ["channel_finding", "time_range_parsing", "archiver_retrieval", "respond"]
_NUMBER = r"(-?\d+(?:\.\d+)?(?:e[-+]\d+)?)"


def history(result) -> object:
    (context,) = ContextManager(result.state).get_all_of_type("ARCHIVER_DATA").values()
    return context


def printed(response: str, label: str) -> str:
    """The number printed after ``label`` in the answer's first line."""
    first = response.splitlines()[0]
    found = re.search(rf"{label} {_NUMBER}", first)
    assert found, first
    return found.group(1)


def half_a_last_place(text: str) -> float:
    """Half a unit in the last printed place: "5.025e-04" -> 5e-08, "0.0296" -> 5e-05."""
    mantissa, _, exponent = text.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - places)


async def archived(channel: str, provenance: dict) -> tuple[np.ndarray, np.ndarray]:
    archiver = await get_archiver_connector()
    data = await archiver.get_data(
        [channel],
        datetime.fromtimestamp(provenance["start"], UTC),
        datetime.fromtimestamp(provenance["end"], UTC),
    )
    series = data.series[channel]
    return np.asarray(series.timestamps, dtype=float), np.asarray(series.values, dtype=float)


async def test_the_standard_deviation_is_numpy_s_on_the_archived_samples(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("std of the beam current over the last hour")
    assert steps(result) == HISTORY, result.response
    assert result.response.startswith(
        "**SR:DCCT:Current over the last hour: standard deviation "
    ), result.response
    context = history(result)
    assert context.asked_statistics == ["std"]
    figures = context.statistics["SR:DCCT:Current"]
    _, values = await archived("SR:DCCT:Current", figures["provenance"])
    shown = printed(result.response, "standard deviation")
    assert abs(float(shown) - np.std(values)) <= half_a_last_place(shown) * (1 + 1e-9)
    assert figures["std"] == pytest.approx(np.std(values), rel=1e-9)
    assert figures["provenance"]["samples"] == values.size
    # the provenance: samples, window and method, under the table of every figure
    assert f"Based on {values.size:,} archived samples of SR:DCCT:Current" in result.response
    assert "every sample weighted equally" in result.response
    assert "| Std dev | Mean | Min | Max | Peak-to-peak | Drift | Samples |" in result.response


async def test_a_setpoint_is_weighted_by_how_long_each_value_held(ring, session) -> None:
    ring("corrector_step")  # HCM14 stepped by +3.5 A two hours ago
    result = await session.submit("standard deviation of the HCM14 setpoint over the last 3 hours")
    assert steps(result) == HISTORY, result.response
    figures = history(result).statistics["SR05C:HCM14:Current:SP"]
    prov = figures["provenance"]
    times, values = await archived("SR05C:HCM14:Current:SP", prov)
    # the value holding at the window's start counts from the start, each until the next
    held = Signal("SR05C:HCM14:Current:SP", times, values, stepped=True).window(
        prov["start"], prov["end"]
    )
    weights = np.diff(np.append(held.times, prov["end"]))
    mean = np.average(held.values, weights=weights)
    weighted_std = float(np.sqrt(np.average((held.values - mean) ** 2, weights=weights)))
    assert figures["std"] == pytest.approx(weighted_std, rel=1e-9)
    assert weighted_std != pytest.approx(float(np.std(held.values)), rel=1e-3)
    shown = printed(result.response, "standard deviation")
    assert abs(float(shown) - weighted_std) <= half_a_last_place(shown) * (1 + 1e-9)
    assert "time-weighted" in result.response
    # the same figures the investigation computes over the same samples
    same = statistics(held, prov["start"], prov["end"])
    assert figures["mean"] == pytest.approx(same.mean) and figures["std"] == pytest.approx(same.std)


async def test_the_asked_statistic_leads_and_the_plot_stays(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("is the vertical tune drifting over the last 4 h")
    assert steps(result) == HISTORY, result.response
    first = result.response.splitlines()[0]
    assert first.startswith("**SR:TUNE:Y over the last 4 h: drift "), first
    assert first.rstrip("*").endswith("/h"), first
    context = history(result)
    assert context.statistics["SR:TUNE:Y"]["provenance"]["samples"] > 10_000
    assert len(context.time_series_data["SR:TUNE:Y"]) <= context.max_points  # kept as before
    figures = result.state.get("ui_captured_figures") or []
    assert any(f.get("metadata", {}).get("figure_type") == "timeseries" for f in figures)
    # what a follow-up and the context browser read: the summary carries the statistics
    summary = context.get_summary()
    assert summary["statistics_asked"] == ["drift"]
    assert summary["channels"]["SR:TUNE:Y"]["drift"].endswith("/h")
    assert summary["facts"][0] == first


async def test_mean_min_and_max_alone_answer_as_the_history_table(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("average lifetime over the last hour")
    assert steps(result) == HISTORY, result.response
    assert result.response.startswith("**History of 1 channel"), result.response
    assert history(result).statistics == {}
    assert "Statistics of" not in result.response


async def test_the_statistic_s_words_name_no_channel(ring, session) -> None:
    ring("vacuum_burst")
    # "std" is no shorthand of "stored" here: the orbit's BPMs, not the stored beam current
    result = await session.submit("std of the horizontal orbit in sector 3 over the last hour")
    assert steps(result) == HISTORY, result.response
    channels = list(history(result).statistics)
    assert len(channels) == 6 and all(re.fullmatch(r"SR03C:BPM\d+:X", c) for c in channels)
    assert result.response.startswith(f"- **{channels[0]} over the last hour: standard deviation")
    assert "… and 3 more channels in the table below" in result.response
