"""Statistics of a stepped signal are time-weighted: an archived sample holds until the next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from osprey_desktop.answers.history import channel_stats, history_table, many_channel_stats
from osprey_desktop.capabilities.control_room.contexts import ArchiverDataContext

START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def test_a_setpoint_that_stepped_down_late_averages_near_where_it_sat():
    t0 = START.timestamp()
    # 1.2 A for 110 minutes, then 0.5 A for the last 10 minutes of two hours
    stamps = [t0, t0 + 110 * 60]
    stats = channel_stats([1.2, 0.5], stamps, end=t0 + 120 * 60)
    assert abs(stats["mean"] - (1.2 * 110 + 0.5 * 10) / 120) < 1e-12
    assert channel_stats([1.2, 0.5])["mean"] == 0.85  # the sample mean, without times


def test_a_gap_ends_the_value_before_it():
    t0 = 1000.0
    stats = channel_stats([2.0, None, 4.0], [t0, t0 + 10, t0 + 60], end=t0 + 70)
    # 2.0 held 10 s (then no value for 50 s), 4.0 held 10 s
    assert stats["mean"] == 3.0
    assert stats["points"] == 2


def test_the_history_table_shows_the_time_weighted_mean():
    t0 = START.timestamp()
    context = ArchiverDataContext(
        timestamps={"SR01C:HCM01:Current:SP": [t0, t0 + 110 * 60]},
        time_series_data={"SR01C:HCM01:Current:SP": [1.2, 0.5]},
        units={"SR01C:HCM01:Current:SP": "A"},
        start_date=START,
        end_date=START + timedelta(hours=2),
    )
    row = history_table(context).rows[0]
    assert [c.text for c in row[1:5]] == ["0.500 A", "0.500 A", "1.200 A", "1.142 A"]


def reference_channel_stats(values, timestamps=None, end=None):
    """``channel_stats`` as it was, one channel at a time: the definition of the figures."""
    array = np.asarray(values, dtype=float)
    finite = array[np.isfinite(array)]
    if finite.size == 0:
        return None
    mean = float(finite.mean())
    if timestamps is not None and len(timestamps) == array.size:
        t = np.asarray(timestamps, dtype=float)
        if t.size and np.isfinite(t).all():
            until = np.append(t[1:], max(float(end) if end is not None else t[-1], t[-1]))
            held = np.clip(until - t, 0.0, None)
            ok = np.isfinite(array)
            if float(held[ok].sum()) > 0:
                mean = float((held[ok] * array[ok]).sum() / held[ok].sum())
    return {
        "last": float(finite[-1]),
        "min": float(finite.min()),
        "max": float(finite.max()),
        "mean": mean,
        "points": float(finite.size),
    }


def test_all_channels_at_once_give_each_channel_its_own_figures():
    rng = np.random.default_rng(3)
    series, stamps = {}, {}
    for i in range(40):
        n = int(rng.integers(0, 300))
        t = np.sort(rng.uniform(0, 3600, n)).tolist()
        v: list = (rng.standard_normal(n) + i).tolist()
        for j in rng.integers(0, max(n, 1), 5 if n else 0):
            v[j] = None  # gaps
        if i == 1 and n > 2:
            v[0], v[-1] = float("inf"), float("-inf")
        if i == 2:
            t = t[:-1]  # stamps that do not match: the sample mean
        if i == 3 and n:
            t[n // 2] = float("nan")  # a stamp that cannot be weighed: the sample mean
        if i == 4:
            v = [None] * n  # only gaps
        if i == 5 and n > 1:
            t = [t[0]] * n  # no time held at all: the sample mean
        if i == 6:
            t = None  # no stamps
        series[f"SR{i:02d}:BPM:X"], stamps[f"SR{i:02d}:BPM:X"] = v, t
    found = many_channel_stats(series, stamps, end=3700.0)
    for channel, values in series.items():
        expected = reference_channel_stats(values, stamps[channel], end=3700.0)
        got = found[channel]
        if expected is None:
            assert got is None, channel
            continue
        assert got is not None, channel
        for field in ("last", "min", "max", "points"):
            assert got[field] == expected[field], (channel, field)
        assert got["mean"] == pytest.approx(expected["mean"], rel=1e-12, abs=1e-12), channel
        assert channel_stats(values, stamps[channel], end=3700.0) == got
