"""Archived samples hold until the next one: a stepped setpoint is drawn as a step, not a ramp;
only averages (archive bins, display bins) are drawn as lines between points."""

from __future__ import annotations

import numpy as np
import pytest

from osprey_desktop.ui.plot_data import prepare_series

pytestmark = pytest.mark.gui

T0 = 1_700_000_000.0


def test_a_setpoint_that_stepped_is_drawn_as_a_step_held_to_the_end():
    (item,) = prepare_series(
        {"HCM01:SP": ([T0, T0 + 3600], [1.2, 0.5])}, {"HCM01:SP": "A"}, end=T0 + 7200
    )
    assert item.held
    assert item.t.tolist() == [T0, T0 + 3600, T0 + 3600, T0 + 7200]
    assert item.v.tolist() == [1.2, 1.2, 0.5, 0.5]
    # halfway through the first hour the drawn value is still 1.2 A (a ramp would say 0.85)
    assert np.interp(T0 + 1800, item.t, item.v) == 1.2
    assert item.raw_v.tolist() == [1.2, 0.5]  # CSV export keeps the samples


def test_a_gap_breaks_the_step_and_the_value_after_it_holds():
    (item,) = prepare_series({"C": ([T0, T0 + 10, T0 + 20], [1.0, None, 3.0])}, end=T0 + 30)
    assert item.t.tolist() == [T0, T0 + 10, T0 + 10, T0 + 20, T0 + 20, T0 + 30]
    assert np.isnan(item.v[2]) and np.isnan(item.v[3])
    assert item.v[-1] == 3.0


def test_archive_bins_with_an_envelope_stay_lines():
    t = [T0, T0 + 60, T0 + 120]
    (item,) = prepare_series(
        {"C": (t, [1.0, 2.0, 3.0])}, envelopes={"C": ([0.5, 1.5, 2.5], [1.5, 2.5, 3.5])}
    )
    assert not item.held
    assert item.t.tolist() == t
    assert "interpolated" in item.note


def test_the_plot_draws_the_step_it_was_given(qtbot):
    from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot

    plot = TimeSeriesPlot("setpoint")
    qtbot.addWidget(plot)
    plot.set_series({"HCM01:SP": ([T0, T0 + 3600], [1.2, 0.5])}, {"HCM01:SP": "A"}, end=T0 + 7200)
    x, y = plot.curves["HCM01:SP"].getData()
    assert list(x) == [T0, T0 + 3600, T0 + 3600, T0 + 7200]
    assert list(y) == [1.2, 1.2, 0.5, 0.5]
    assert "steps" in plot.legend.topLevelItem(0).toolTip(0)
