"""Statistics of a stepped signal are time-weighted: an archived sample holds until the next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from osprey_desktop.answers.history import channel_stats, history_table
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
