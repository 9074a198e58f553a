"""Histories drawn by what they hold: enums as steps named by their states, texts as a state
track, waveforms against their index, gaps as breaks, samples in alarm in the control-room
colours — in archived plots and in the live strip chart."""

from __future__ import annotations

import csv
import time
from types import SimpleNamespace

import numpy as np
import pytest

from osprey_desktop.connectors.base import ChannelMetadata, ChannelValue
from osprey_desktop.connectors.values import EnumState
from osprey_desktop.ui.orbit_plot import OrbitPlot
from osprey_desktop.ui.plot_dock import ArchivePlotView, PlotDock
from osprey_desktop.ui.stripchart import StripChartDock
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot
from osprey_desktop.ui.values import ALARM_CELL
from tests.ui.history_fixtures import (
    CURRENT,
    RF_MODE,
    RF_STATE,
    RF_STATES,
    SPECTRUM,
    history_state,
    rf_history_entry,
)

pytestmark = pytest.mark.gui

T0 = 1_700_000_000.0


def subpaths(curve) -> int:
    """How many separate runs a drawn line has (a gap starts a new one)."""
    path = curve.curve.getPath()
    moves = [path.elementAt(i).isMoveTo() for i in range(path.elementCount())]
    # pyqtgraph also writes a bare move for each NaN: count the moves a line starts from
    return sum(1 for here, after in zip(moves, moves[1:], strict=False) if here and not after)


def axis_labels(axis) -> list[str]:
    """The tick texts an axis was given (an enum axis names its states)."""
    levels = axis._tickLevels or []  # noqa: SLF001 - pyqtgraph keeps fixed ticks here
    return [text for level in levels for _, text in level]


def open_history(qtbot, entry: dict) -> ArchivePlotView:
    """The figure of ``entry`` once drawn (tests using it run on the qasync loop)."""
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.resize(1000, 500)
    dock.show_state(history_state(entry))
    view = dock.current_view()
    assert isinstance(view, ArchivePlotView)
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    return view


def test_an_enum_history_is_a_step_plot_on_an_axis_named_by_its_states(qtbot, qasync_loop):
    view = open_history(qtbot, rf_history_entry(T0))
    plot = view.timeseries
    x, y = plot.curves[RF_STATE].getOriginalDataset()
    finite = y[np.isfinite(y)]
    assert set(finite.tolist()) == {0.0, 1.0, 2.0, 3.0}  # states, never a mean of indices
    assert np.all(np.diff(x) >= 0) and np.any(np.diff(x) == 0)  # vertical risers: steps
    assert "SR:RF1:State (states, right axis)" in plot.legend_names()
    # the state tracks share the state axis, each over rows of its own, named by its states
    labels = axis_labels(plot.plot_item.getAxis("right"))
    assert labels[:4] == [f"State: {s}" for s in RF_STATES]
    assert {"ModeText: closed loop", "ModeText: parked"} <= set(labels)
    assert plot.plot_item.getAxis("right").labelText == "state"
    assert plot.plot_item.getAxis("left").labelText == "mA"


def test_a_fast_changing_enum_stays_on_its_states_when_binned(qtbot):
    plot = TimeSeriesPlot()
    qtbot.addWidget(plot)
    t = T0 + np.arange(20_000.0)
    states = (np.arange(20_000) // 3 % 2).astype(float)  # flips every 3 s: more than pixels
    plot.set_series(
        {"V:State": (t, states)}, kinds={"V:State": "enum"}, labels={"V:State": ["Closed", "Open"]}
    )
    _, y = plot.curves["V:State"].getOriginalDataset()
    assert len(y) < 4000 and set(y[np.isfinite(y)].tolist()) <= {0.0, 1.0}
    low, high = plot.bands["V:State"].getData()
    assert low.min() == 0.0 and high.max() == 1.0  # the band says both states were visited
    assert axis_labels(plot.plot_item.getAxis("left")) == ["Closed", "Open"]


def test_a_text_history_is_a_state_track_or_says_why_it_is_not_drawn(qtbot, qasync_loop):
    view = open_history(qtbot, rf_history_entry(T0))
    plot = view.timeseries
    assert f"{RF_MODE} (text, right axis)" in plot.legend_names()
    _, y = plot.curves[RF_MODE].getOriginalDataset()
    rows = y[np.isfinite(y)] - plot.state_offset(RF_MODE)
    assert plot.state_offset(RF_MODE) == len(RF_STATES) + 1  # stacked over the enum's rows
    assert set(rows.tolist()) == {0.0, 1.0, 2.0}
    assert set(plot.prepared[RF_MODE].labels) == {"closed loop", "parked", "open loop"}

    many = TimeSeriesPlot()
    qtbot.addWidget(many)
    texts = [f"message {i}" for i in range(40)]
    many.set_series({"IOC:Log": (T0 + np.arange(40.0), texts)}, kinds={"IOC:Log": "string"})
    assert many.legend_names() == ["IOC:Log (text, not drawn)"]
    assert many.channel_status("IOC:Log") == "not drawn"
    assert "40 different texts" in many._row("IOC:Log").toolTip(1)  # noqa: SLF001
    assert "IOC:Log" not in many.visible_channels()


def test_a_gap_breaks_the_line_instead_of_joining_across(qtbot):
    plot = TimeSeriesPlot()
    qtbot.addWidget(plot)
    plot.resize(800, 400)
    plot.show()
    values = [1.0, 2.0, None, None, 3.0, 4.0]
    plot.set_series({"A:Raw": (T0 + np.arange(6.0), values)})
    t = T0 + np.arange(10_000.0)
    binned = np.sin(t / 50.0)
    binned[6000:6003] = np.nan  # three seconds disconnected inside one display bin
    plot.set_series({"A:Binned": (t, binned)})
    qtbot.waitExposed(plot)
    assert subpaths(plot.curves["A:Raw"]) == 2
    assert subpaths(plot.curves["A:Binned"]) == 2
    assert plot.bands["A:Binned"].polygons() == 2  # the min/max band breaks there too


def test_samples_in_alarm_are_marked_in_the_control_room_colours(qtbot, qasync_loop):
    view = open_history(qtbot, rf_history_entry(T0))
    plot = view.timeseries
    colours = {
        spot.brush().color().name(): spot.pos().y() for spot in plot.markers[CURRENT].points()
    }
    minor, major, invalid = (ALARM_CELL[n][0] for n in ("MINOR", "MAJOR", "INVALID"))
    assert {minor, major, invalid} <= set(colours)
    assert colours[minor] < 260.0 and colours[major] < 200.0
    # the legend counts them, coloured by the worst
    assert plot.channel_status(CURRENT).startswith("⚠") and "in alarm" in plot.channel_status(
        CURRENT
    )
    row = plot._row(CURRENT)  # noqa: SLF001
    assert row.background(1).color().name() == invalid
    assert "MINOR" in plot.info.text() and "INVALID" in plot.info.text()


def test_a_waveform_history_opens_on_its_newest_waveform_against_index(qtbot, qasync_loop):
    entry = rf_history_entry(T0)
    view = open_history(qtbot, entry)
    waveform = view.views.currentWidget()
    assert isinstance(waveform, OrbitPlot) and view.waveforms[SPECTRUM] is waveform
    assert waveform.orbit_item.getAxis("bottom").labelText == "element index"
    newest = entry["time_series_data"][SPECTRUM][-1]
    assert waveform.current_values().tolist() == pytest.approx(newest)
    # the disconnected period is a row without values in the waterfall
    gaps = [i for i, row in enumerate(waveform.frame.values) if np.isnan(row).all()]
    assert gaps
    plot = view.timeseries
    assert f"{SPECTRUM} (dB, waveform)" in plot.legend_names()
    assert plot.channel_status(SPECTRUM) == "waveform: see its tab"
    assert SPECTRUM not in plot.visible_channels()


def test_csv_export_names_states_and_alarm_severities(qtbot, qasync_loop, tmp_path):
    plot = TimeSeriesPlot("valve")
    qtbot.addWidget(plot)
    plot.set_series(
        {"V:State": ([T0, T0 + 1, T0 + 2], [0, 1, None])},
        kinds={"V:State": "enum"},
        labels={"V:State": ["Closed", "Open"]},
        severity={"V:State": [0, 2, 3]},
    )
    task = plot.export_csv(tmp_path / "valve.csv")
    qtbot.waitUntil(task.done, timeout=5000)
    rows = list(csv.reader((tmp_path / "valve.csv").open()))
    assert [(r[3], r[5]) for r in rows[1:]] == [("Closed", ""), ("Open", "MAJOR"), ("", "INVALID")]


class FakeConnector:
    """Subscriptions the test feeds by hand."""

    def __init__(self) -> None:
        self.callbacks: dict[str, object] = {}

    async def subscribe(self, channel, callback):
        self.callbacks[channel] = callback
        return channel

    async def unsubscribe(self, sub_id):
        self.callbacks.pop(sub_id, None)


def reading(name: str, value, severity: str = "NO_ALARM", **meta) -> ChannelValue:
    metadata = ChannelMetadata(name=name, alarm_severity=severity, **meta)
    return ChannelValue(name=name, value=value, timestamp=time.time(), metadata=metadata)


def test_the_strip_chart_draws_enums_as_named_steps_and_waveforms_against_index(qtbot, qasync_loop):
    connector = FakeConnector()

    async def factory():
        return connector

    channels = ["SR:RF1:State", "SR:Tune:Spectrum", "SR:DCCT:Current"]
    dock = StripChartDock(channels, factory)
    qtbot.addWidget(dock)
    dock.resize(900, 500)
    dock.show()
    dock.start()
    qtbot.waitUntil(lambda: len(connector.callbacks) == 3, timeout=3000)
    states = ("Off", "Standby", "On", "Fault")
    spectrum = np.sin(np.linspace(0, 3, 64)).tolist()
    for i, state in enumerate([2, 2, 3, 0]):
        connector.callbacks["SR:RF1:State"](
            reading(
                "SR:RF1:State",
                EnumState(states[state], state),
                "MAJOR" if state == 3 else "NO_ALARM",
                enum_strings=states,
            )
        )
        connector.callbacks["SR:DCCT:Current"](reading("SR:DCCT:Current", 300.0 - i, units="mA"))
    connector.callbacks["SR:Tune:Spectrum"](reading("SR:Tune:Spectrum", spectrum, units="dB"))
    plot = dock.plot
    qtbot.waitUntil(lambda: "SR:RF1:State" in plot.curves and dock.waveform_widget, timeout=3000)
    qtbot.waitUntil(lambda: plot.point_counts().get("SR:RF1:State") == 4, timeout=3000)
    _, y = plot.curves["SR:RF1:State"].getOriginalDataset()
    assert set(y[np.isfinite(y)].tolist()) == {0.0, 2.0, 3.0}  # indices, drawn as steps
    # the first channel takes the left axis, the current (mA) the right one
    assert axis_labels(plot.plot_item.getAxis("left")) == list(states)
    assert plot.plot_item.getAxis("right").labelText == "mA"
    assert plot.legend_names()[0] == "SR:RF1:State (states)"
    assert plot.channel_status("SR:RF1:State") == "Off"
    assert [s.brush().color().name() for s in plot.markers["SR:RF1:State"].points()] == [
        ALARM_CELL["MAJOR"][0]
    ]
    x, wave = dock.waveform_curves["SR:Tune:Spectrum"].getData()
    assert x.tolist() == list(range(64)) and wave.tolist() == pytest.approx(spectrum)
    assert plot.channel_status("SR:Tune:Spectrum").startswith("64 elements")
    assert dock.waveform_widget.getPlotItem().getAxis("left").labelText == "dB"
    # both plots have their grid, and neither made pyqtgraph's options form (plot_options)
    for item in (plot.plot_item, dock.waveform_widget.getPlotItem()):
        assert item.getAxis("left").grid == 63 and not item.form_made
    stop = qasync_loop.create_task(dock.stop())
    qtbot.waitUntil(stop.done, timeout=3000)


def test_an_archived_enum_plot_keeps_its_steps_when_it_grows_live(qtbot, qasync_loop):
    connector = FakeConnector()

    async def factory():
        return connector

    dock = PlotDock(factory)
    qtbot.addWidget(dock)
    entry = {
        "timestamps": {"V:State": [T0, T0 + 10]},
        "time_series_data": {"V:State": [0, 1]},
        "units": {"V:State": ""},
        "kinds": {"V:State": "enum"},
        "enum_labels": {"V:State": ["Closed", "Open"]},
    }
    dock.show_state(history_state(entry))
    view = dock.current_view()
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    plot = view.timeseries
    plot.live_button.click()
    qtbot.waitUntil(lambda: "V:State" in connector.callbacks, timeout=3000)
    connector.callbacks["V:State"](
        SimpleNamespace(
            value=EnumState("Closed", 0), timestamp=T0 + 20, units="", alarm_severity="MINOR"
        )
    )
    plot.flush_points()
    x, y = plot.curves["V:State"].getOriginalDataset()
    assert y.tolist() == [0.0, 0.0, 1.0, 1.0, 0.0, 0.0] and x[-1] == T0 + 20
    assert [s.brush().color().name() for s in plot.markers["V:State"].points()] == [
        ALARM_CELL["MINOR"][0]
    ]
    assert axis_labels(plot.plot_item.getAxis("left")) == ["Closed", "Open"]
    plot.live_button.click()
    qtbot.waitUntil(lambda: not connector.callbacks, timeout=3000)
