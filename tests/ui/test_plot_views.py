"""Archived plots as the Phoebus Data Browser draws them: legend beside the data, units as
they are, min/max bands, orbit view, big data off the loop, live growth, CSV and PNG export."""

from __future__ import annotations

import csv
import re
import time
from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from osprey_desktop.ui.orbit_plot import OrbitPlot
from osprey_desktop.ui.plot_artifacts import artifacts_from_state
from osprey_desktop.ui.plot_dock import ArchivePlotView, PlotDock, prepare_figure
from osprey_desktop.ui.plot_frames import orbit_frame
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot

pytestmark = pytest.mark.gui

T0 = 1_700_000_000.0


def bpm_state(count: int, points: int, span_s: float = 86_400.0) -> dict:
    """An ARCHIVER_DATA entry for ``count`` BPMs with ``points`` samples each, and its figure."""
    t = np.linspace(T0, T0 + span_s, points)
    names = [f"SR{(i // 6) + 1:02d}C:BPM{i + 1:02d}:X" for i in range(count)]
    stamps = {n: t.tolist() for n in names}
    data = {n: (0.001 * (i + 1) + 1e-4 * np.sin(t / 600.0)).tolist() for i, n in enumerate(names)}
    return {
        "capability_context_data": {
            "ARCHIVER_DATA": {
                "orbit": {
                    "timestamps": stamps,
                    "time_series_data": data,
                    "units": {n: "mm" for n in names},
                }
            }
        },
        "ui_captured_figures": [
            {
                "capability": "archiver_retrieval",
                "figure_path": "",
                "display_name": "Orbit, last 24 h",
                "metadata": {"figure_type": "timeseries", "context_key": "orbit"},
                "created_at": "t1",
            }
        ],
    }


def test_legend_sits_beside_the_data_and_axes_keep_engineering_units(qtbot):
    plot = TimeSeriesPlot("orbit")
    qtbot.addWidget(plot)
    plot.resize(900, 400)
    plot.show()
    t = [T0, T0 + 1, T0 + 2]
    plot.set_series({"SR01C:BPM01:X": (t, [0.001, 0.002, 0.0015])}, {"SR01C:BPM01:X": "mm"})
    qtbot.waitExposed(plot)
    assert plot.plot_item.legend is None  # nothing drawn over the data
    assert plot.legend.isVisible() and plot.legend_names() == ["SR01C:BPM01:X (mm)"]
    legend_left = plot.legend.mapTo(plot, QPoint(0, 0)).x()
    data_right = plot.plot_widget.mapTo(plot, QPoint(0, 0)).x() + plot.plot_widget.width()
    assert legend_left >= data_right
    left = plot.plot_item.getAxis("left")
    left.updateAutoSIPrefix()  # what pyqtgraph runs when the range changes
    label = re.sub(r"<[^>]+>", "", left.labelString()).replace("&nbsp;", " ").strip()
    assert label == "mm"  # not "mm (x0.001)"


def test_binned_data_draws_a_mean_line_and_a_min_max_band(qtbot):
    plot = TimeSeriesPlot()
    qtbot.addWidget(plot)
    t = np.linspace(T0, T0 + 7200, 5000)
    v = np.sin(t / 100.0)
    plot.set_series({"SR:DCCT:Current": (t, v)}, {"SR:DCCT:Current": "mA"})
    assert plot.point_counts() == {"SR:DCCT:Current": 5000}  # every point is kept
    x, y = plot.curves["SR:DCCT:Current"].getOriginalDataset()
    assert len(x) < 1000  # drawn as bins
    low, high = plot.bands["SR:DCCT:Current"].getData()
    assert not plot.bands["SR:DCCT:Current"].path().isEmpty()
    assert np.all(low <= y + 1e-12) and np.all(high >= y - 1e-12)
    assert high.max() == pytest.approx(v.max()) and low.min() == pytest.approx(v.min())
    assert "band = min…max" in plot.info.text()


def test_an_orbit_family_opens_on_the_orbit_view_with_few_time_lines(qtbot, qasync_loop):
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.show_state(bpm_state(12, 300))
    view = dock.current_view()
    assert isinstance(view, ArchivePlotView)
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    orbit = view.views.currentWidget()
    assert isinstance(orbit, OrbitPlot)
    assert len(orbit.current_values()) == 12
    # the newest moment first: BPM i sits near 0.001 * (i + 1) mm
    assert orbit.current_values()[11] == pytest.approx(0.012, abs=2e-4)
    orbit.slider.setValue(0)
    assert orbit.moment_label.text().startswith(time.strftime("%Y-%m-%d", time.localtime(T0)))
    series = view.timeseries
    assert len(series.legend_names()) == 12 and len(series.visible_channels()) == 6
    assert "6 more channels: tick to show" in series.legend_note.text()
    series.legend.topLevelItem(10).setCheckState(0, series.legend.topLevelItem(0).checkState(0))
    assert "SR02C:BPM11:X" in series.visible_channels()


def test_a_one_channel_figure_opens_at_once_and_is_drawn_a_few_loop_turns_later(qtbot, qasync_loop):
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.show_state(bpm_state(1, 50, span_s=60.0))
    view = dock.current_view()
    assert isinstance(view, ArchivePlotView) and "Preparing" in view.status.text()
    assert not view.ready and dock.current_plot() is None  # nothing built in this turn
    with qtbot.waitSignal(view.drawn, timeout=10_000):
        pass
    assert dock.current_plot() is view.timeseries
    assert view.timeseries.point_counts() == {"SR01C:BPM01:X": 50}
    assert view.views.currentWidget() is view.timeseries


def test_each_loop_turn_of_a_figure_makes_at_most_one_plot_or_three_curves(qtbot):
    artifact = artifacts_from_state(bpm_state(12, 300))[0]
    view = ArchivePlotView(artifact)
    qtbot.addWidget(view)
    prepared, frames = prepare_figure(artifact)

    def plots() -> int:  # pyqtgraph plots made so far: each is 10-20 ms on the loop
        made = int(view.timeseries is not None)
        for orbit in view.orbits:
            made += 1 + (orbit.waterfall_widget is not None) + (orbit.colour_bar is not None)
        return made

    def curves() -> int:
        return len(view.timeseries.curves) if view.timeseries is not None else 0

    before = (0, 0)
    for _ in view.build_steps(prepared, frames):
        now = (plots(), curves())
        assert now[0] - before[0] <= 1 and now[1] - before[1] <= 3
        before = now
    assert view.ready and plots() == 4  # time series, orbit, its waterfall and colour scale
    assert curves() == 6  # the family's first six time lines


def test_a_figure_whose_stamps_are_not_numbers_says_so_in_its_tab(qtbot, qasync_loop):
    state = bpm_state(2, 10)
    stamps = state["capability_context_data"]["ARCHIVER_DATA"]["orbit"]["timestamps"]
    stamps["SR01C:BPM01:X"] = ["yesterday"] * 10
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.show_state(state)
    view = dock.current_view()
    qtbot.waitUntil(lambda: view.status.text().startswith("Cannot draw"), timeout=10_000)
    assert "Orbit, last 24 h" in view.status.text() and not view.ready
    assert dock.current_plot() is None and dock.tabs.count() == 1


def test_pyqtgraphs_menu_is_made_at_the_first_right_click_and_the_time_plot_shows_ours(qtbot):
    frame = orbit_frame(
        ["A:BPM1:X", "A:BPM2:X"], {"A:BPM1:X": ([T0], [1.0]), "A:BPM2:X": ([T0], [2.0])}
    )
    orbit = OrbitPlot(frame, "orbit")
    qtbot.addWidget(orbit)
    box = orbit.orbit_item.vb
    assert box.menu is None and box.menuEnabled()  # offered, not made with the plot
    menu = box.getMenu(None)
    assert menu is box.menu and "View All" in [a.text() for a in menu.actions()]
    plot = TimeSeriesPlot("beam")
    qtbot.addWidget(plot)
    plot.resize(600, 300)
    plot.show()
    qtbot.waitExposed(plot)
    centre = plot.plot_widget.mapFromScene(plot.view_box.sceneBoundingRect().center())
    with qtbot.waitSignal(plot.view_box.menu_requested, timeout=3000):
        qtbot.mouseClick(plot.plot_widget.viewport(), Qt.MouseButton.RightButton, pos=centre)
    assert plot.view_box.menu is None  # pyqtgraph's own never made


def test_orbit_frame_keeps_gaps_as_gaps():
    t = [0.0, 1.0, 2.0, 3.0]
    frame = orbit_frame(
        ["A:BPM1:X", "A:BPM2:X"],
        {"A:BPM1:X": (t, [1.0, None, 1.0, 1.0]), "A:BPM2:X": (t, [2.0, 2.0, 2.0, 2.0])},
        "mm",
        rows=4,
    )
    assert np.isnan(frame.values[1, 0]) and frame.values[1, 1] == 2.0
    assert frame.values[3].tolist() == [1.0, 2.0]


def test_a_24_hour_orbit_is_prepared_off_the_event_loop(qtbot, qasync_loop):
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.show_state(bpm_state(72, 2000))
    view = dock.current_view()
    assert isinstance(view, ArchivePlotView) and not view.ready  # the tab is there at once
    assert "Preparing" in view.status.text()
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    orbit = view.views.currentWidget()
    assert isinstance(orbit, OrbitPlot)
    assert orbit.waterfall_widget is not None, "the waterfall follows in a later loop turn"
    assert view.timeseries.point_counts()["SR01C:BPM01:X"] == 2000


def test_a_deferred_orbit_shows_its_positions_first_and_the_waterfall_when_asked(qtbot):
    t = [float(T0 + i) for i in range(5)]
    frame = orbit_frame(
        ["A:BPM1:X", "A:BPM2:X"],
        {"A:BPM1:X": (t, [1.0] * 5), "A:BPM2:X": (t, [2.0] * 5)},
        "mm",
        rows=5,
    )
    plot = OrbitPlot(frame, "orbit", deferred=True)
    qtbot.addWidget(plot)
    assert plot.waterfall_widget is None and plot.current_values().tolist() == [1.0, 2.0]
    plot.slider.setValue(0)  # the moment moves without a waterfall to mark
    plot.add_waterfall()
    assert plot.waterfall_widget is not None
    assert plot.marker.value() == pytest.approx(t[0])


def test_export_csv_writes_every_point_and_png_writes_an_image(qtbot, qasync_loop, tmp_path):
    plot = TimeSeriesPlot("beam")
    qtbot.addWidget(plot)
    plot.resize(600, 300)
    t = np.linspace(T0, T0 + 100, 3000)
    plot.set_series({"SR:DCCT:Current": (t, np.full(t.size, 500.0))}, {"SR:DCCT:Current": "mA"})
    saved = []
    plot.exported.connect(saved.append)
    task = plot.export_csv(tmp_path / "beam.csv")
    qtbot.waitUntil(task.done, timeout=5000)
    rows = list(csv.reader((tmp_path / "beam.csv").open()))
    assert rows[0] == ["time_local", "epoch_seconds", "channel", "value", "units", "severity"]
    assert len(rows) == 3001 and rows[1][2:] == ["SR:DCCT:Current", "500.0", "mA", ""]
    assert plot.save_png(tmp_path / "beam.png")
    assert (tmp_path / "beam.png").read_bytes()[:4] == b"\x89PNG"
    assert saved == [str(tmp_path / "beam.csv"), str(tmp_path / "beam.png")]


def test_export_to_a_folder_that_cannot_be_written_says_so(qtbot, qasync_loop, tmp_path):
    plot = TimeSeriesPlot("beam")
    qtbot.addWidget(plot)
    plot.set_series({"A": ([T0], [1.0])})
    failed = []
    plot.export_failed.connect(failed.append)
    task = plot.export_csv(tmp_path / "missing" / "beam.csv")
    qtbot.waitUntil(task.done, timeout=5000)
    assert failed and "Could not write" in failed[0] and "missing" in failed[0]


class FakeConnector:
    """Subscriptions the test feeds by hand."""

    def __init__(self) -> None:
        self.callbacks: dict[str, object] = {}

    async def subscribe(self, channel, callback):
        self.callbacks[channel] = callback
        return channel

    async def unsubscribe(self, sub_id):
        self.callbacks.pop(sub_id, None)


def test_an_archived_plot_keeps_growing_live(qtbot, qasync_loop):
    connector = FakeConnector()

    async def factory():
        return connector

    dock = PlotDock(factory)
    qtbot.addWidget(dock)
    state = bpm_state(1, 50, span_s=60.0)
    dock.show_state(state)
    view = dock.current_view()
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    plot = view.timeseries
    plot.live_button.click()
    qtbot.waitUntil(lambda: "SR01C:BPM01:X" in connector.callbacks, timeout=3000)
    now = time.time()
    for i in range(3):
        connector.callbacks["SR01C:BPM01:X"](
            SimpleNamespace(value=0.5 + i, timestamp=now + i, units="mm")
        )
    plot.flush_points()
    assert plot.point_counts()["SR01C:BPM01:X"] == 53
    x, _ = plot.curves["SR01C:BPM01:X"].getOriginalDataset()
    assert x[-1] == pytest.approx(now + 2)
    plot.live_button.click()
    qtbot.waitUntil(lambda: not connector.callbacks, timeout=3000)  # unsubscribed


def test_an_orbit_view_paints_its_orbit_one_loop_turn_before_its_waterfall(qtbot, qapp):
    """Both plots' axes painted in one pass held the loop 40-75 ms."""
    from PySide6.QtCore import QEvent, QObject

    artifact = artifacts_from_state(bpm_state(12, 300))[0]
    view = ArchivePlotView(artifact)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    prepared, frames = prepare_figure(artifact)
    painted: list[str] = []

    class PaintSpy(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint:
                painted.append(watched.objectName())
            return False

    spy = PaintSpy()
    watched = False
    passes: list[set[str]] = []  # what each pass of the event loop painted
    for _ in view.build_steps(prepared, frames):
        orbit = view.orbits[0] if view.orbits else None
        if not watched and orbit is not None and orbit.waterfall_widget is not None:
            for name, plot in (
                ("orbit", orbit.orbit_widget),
                ("waterfall", orbit.waterfall_widget),
            ):
                plot.viewport().setObjectName(name)
                plot.viewport().installEventFilter(spy)
            watched = True
        painted.clear()
        qapp.processEvents()
        passes.append(set(painted))
    painted.clear()
    qapp.processEvents()
    passes.append(set(painted))
    shown = [p for p in passes if p]
    assert shown[0] == {"orbit"} and "waterfall" in shown[1]
    assert view.ready and view.views.currentWidget() is view.orbits[0]
