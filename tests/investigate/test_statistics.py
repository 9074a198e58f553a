"""Statistics, comparisons, correlations and events against numpy on known samples."""

from __future__ import annotations

import numpy as np
import pytest

from osprey_desktop.investigate import (
    Signal,
    common_time_base,
    compare,
    correlate,
    find_events,
    statistics,
    what_changed,
)
from osprey_desktop.investigate.statistics import InvestigationError


def sampled(name: str, values: np.ndarray, start: float = 1000.0, step: float = 1.0) -> Signal:
    times = start + step * np.arange(values.size, dtype=float)
    return Signal(name, times, values.astype(float), "mA", 3)


def test_sampled_statistics_match_numpy() -> None:
    rng = np.random.default_rng(3)
    values = 500 + 0.002 * np.arange(3600) + rng.normal(0, 0.1, 3600)
    signal = sampled("I", values)
    stats = statistics(signal, 1000.0, 1000.0 + 3599)
    assert stats.mean == pytest.approx(np.mean(values))
    assert stats.std == pytest.approx(np.std(values))
    assert stats.minimum == np.min(values) and stats.maximum == np.max(values)
    assert stats.peak_to_peak == pytest.approx(np.ptp(values))
    assert stats.drift_per_hour == pytest.approx(0.002 * 3600, rel=0.02)
    assert stats.provenance.samples == 3600


def test_stepped_statistics_weigh_each_value_by_how_long_it_held() -> None:
    # 1 A for 9 minutes, then 10 A for the last minute of a 10-minute window
    signal = Signal("SP", np.array([0.0, 540.0]), np.array([1.0, 10.0]), "A", 3, stepped=True)
    stats = statistics(signal, 0.0, 600.0)
    assert stats.mean == pytest.approx(1.9)
    assert stats.std == pytest.approx(np.sqrt(0.9 * 0.9**2 + 0.1 * 8.1**2))
    # a window opening after the last change sees the value that held
    later = statistics(signal, 560.0, 600.0)
    assert later.mean == pytest.approx(10.0) and later.std == 0.0


def test_empty_window_is_a_clear_error() -> None:
    with pytest.raises(InvestigationError, match="no archived number"):
        statistics(sampled("I", np.ones(10)), 5000.0, 6000.0)


def test_comparison_of_two_windows() -> None:
    values = np.concatenate([np.full(100, 10.0), np.full(100, 12.0)])
    signal = sampled("T", values)
    result = compare(signal, (1000.0, 1099.0), signal, (1100.0, 1199.0), "before", "after")
    assert result.mean_change == pytest.approx(2.0)
    assert result.relative_change == pytest.approx(0.2)


def test_correlation_matches_numpy_and_finds_the_lag() -> None:
    rng = np.random.default_rng(7)
    driver = np.convolve(rng.normal(0, 1, 2000), np.ones(20) / 20, mode="same")
    follower = -np.roll(driver, 15) + rng.normal(0, 0.05, 2000)
    a, b = sampled("P", driver), sampled("I", follower)
    result = correlate(a, b, 1000.0, 2999.0, max_lag_s=60)
    assert result.r == pytest.approx(np.corrcoef(driver, follower)[0, 1])
    assert result.best_lag_s == 15.0
    assert result.r_at_best_lag < -0.95
    assert result.samples == 2000


def test_common_time_base_holds_a_slower_signal() -> None:
    fast = sampled("F", np.arange(100.0))
    slow = sampled("S", np.arange(10.0), step=10.0)
    grid, (f, s) = common_time_base([fast, slow], 1000.0, 1099.0)
    assert grid[1] - grid[0] == 10.0
    assert list(s) == list(np.arange(10.0))
    assert list(f) == list(np.arange(0.0, 100.0, 10.0))


def test_correlation_needs_overlapping_samples() -> None:
    with pytest.raises(InvestigationError):
        correlate(sampled("A", np.ones(5)), sampled("B", np.ones(5), start=9000.0), 0, 1e5)


def test_drops_beyond_a_threshold_are_found_once_each() -> None:
    values = np.full(600, 500.0)
    values[200:] -= 5.0
    values[400:] -= 0.5
    events, provenance = find_events(sampled("I", values), "drop", threshold=1.0)
    assert [e.time for e in events] == [1200.0]
    assert events[0].size == pytest.approx(-5.0)
    assert provenance.samples == 600


def test_spikes_beyond_k_sigma() -> None:
    rng = np.random.default_rng(1)
    values = rng.normal(0, 1, 1000)
    values[[100, 500, 900]] += 20
    events, _ = find_events(sampled("R", values), "spike", k=8)
    assert [e.time for e in events] == [1100.0, 1500.0, 1900.0]


def test_what_changed_ranks_the_channel_that_moved() -> None:
    rng = np.random.default_rng(2)
    quiet = {f"Q{i}": sampled(f"Q{i}", rng.normal(0, 1, 7200)) for i in range(5)}
    moved = rng.normal(0, 1, 7200)
    moved[3600:3700] += 30
    signals = {**quiet, "M": sampled("M", moved)}

    class Write:
        time, channel, value_before, requested_value = 1000.0 + 3550, "HCM1", 0.0, 1.0
        outcome, operator = "verified", "op"

    ranking = what_changed(signals, 1000.0 + 3600, writes=[Write()], before=1200, after=600)
    assert ranking.rows[0].channel == "M"
    assert ranking.rows[0].onset == 1000.0 + 3600
    assert [w.channel for w in ranking.writes] == ["HCM1"]


def test_least_squares_slope_is_polyfits() -> None:
    from osprey_desktop.investigate.statistics import least_squares_slope

    rng = np.random.default_rng(5)
    t = np.sort(rng.uniform(0, 1e5, 500)) + 1.7e9
    v = 3e-4 * t + rng.normal(0, 1, 500)
    assert least_squares_slope(t, v) == pytest.approx(np.polyfit(t - t[0], v, 1)[0], rel=1e-9)


def test_a_channel_archived_on_change_is_read_as_stepped() -> None:
    from datetime import UTC, datetime

    from osprey_desktop.connectors.archiver_base import ArchiverData, ArchiverSeries
    from osprey_desktop.investigate import signals_of

    moment = datetime(2026, 1, 1, tzinfo=UTC)
    on_change = ArchiverSeries("GAP", np.array([0.0, 5.0, 3000.0]), np.array([10.0, 12.0, 11.0]))
    sampled_series = ArchiverSeries("I", np.arange(100.0), np.ones(100))
    data = ArchiverData(moment, moment, {"GAP": on_change, "I": sampled_series})
    signals = signals_of(data, {"I": False})
    assert signals["GAP"].stepped and not signals["I"].stepped
    # 5 s at 10, then 12 until 3000 s: the time-weighted mean is nearly 12
    assert statistics(signals["GAP"], 0.0, 3000.0).mean == pytest.approx((50 + 12 * 2995) / 3000)
