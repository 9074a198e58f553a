"""Plots handled as in the Phoebus Data Browser: cursor readout, time-only wheel, our own menu,
time ranges that ask the archive again, a strip chart filled from the archive, exports to the
documents folder."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent

from osprey_desktop.channels.loading import get_channel_database
from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.ui.plot_dock import PlotDock
from osprey_desktop.ui.stripchart import StripChartDock
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot

pytestmark = pytest.mark.gui

T0 = 1_700_000_000.0


def stepped_plot(qtbot) -> TimeSeriesPlot:
    plot = TimeSeriesPlot("HCM01 and the beam current")
    qtbot.addWidget(plot)
    plot.set_series(
        {
            "SR01C:HCM01:Current:SP": ([T0, T0 + 3600], [1.2, 0.5]),
            "SR:DCCT:Current": ([T0, T0 + 1800, T0 + 3600], [500.123456, 499.5, 500.2]),
        },
        {"SR01C:HCM01:Current:SP": "A", "SR:DCCT:Current": "mA"},
        end=T0 + 7200,
    )
    return plot


def test_the_cursor_reads_every_channel_at_its_time_and_leaving_restores_the_column(qtbot):
    plot = stepped_plot(qtbot)
    plot.set_channel_status("SR:DCCT:Current", "⚠ 3 in alarm", "MINOR")
    shown = plot.show_cursor(T0 + 2000)
    assert shown == {"SR01C:HCM01:Current:SP": "1.2 A", "SR:DCCT:Current": "499.5 mA"}
    assert plot.legend.topLevelItem(1).text(1) == "499.5 mA"
    assert plot.legend.headerItem().text(1).startswith("Value at ")
    assert plot.cursor.line.isVisible()
    assert plot.show_cursor(T0 + 10)["SR:DCCT:Current"] == "500.1 mA"  # 4 significant digits
    plot.show_cursor(None)
    assert plot.legend.topLevelItem(1).text(1) == "⚠ 3 in alarm"
    assert plot.legend.headerItem().text(1) == "Value"
    assert not plot.cursor.line.isVisible()


def test_moving_the_mouse_over_the_plot_moves_the_cursor(qtbot):
    plot = stepped_plot(qtbot)
    plot.resize(800, 400)
    plot.show()
    qtbot.waitExposed(plot)
    box = plot.plot_item.vb
    box.updateAutoRange()
    centre = box.mapViewToScene(QPointF(T0 + 3000, 1.0))
    plot._on_mouse_moved(centre)
    assert abs(plot.cursor.at - (T0 + 3000)) < 60
    assert plot.legend.topLevelItem(0).text(1) == "1.2 A"


def test_the_wheel_over_the_plot_zooms_time_only(qtbot):
    plot = stepped_plot(qtbot)
    plot.resize(800, 400)
    plot.show()
    qtbot.waitExposed(plot)
    box = plot.plot_item.vb
    box.updateAutoRange()
    (x0, x1), (y0, y1) = box.viewRange()
    inside = plot.plot_widget.mapFromScene(box.sceneBoundingRect().center())
    event = QWheelEvent(
        QPointF(inside),
        QPointF(plot.plot_widget.mapToGlobal(inside)),
        QPoint(),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(plot.plot_widget.viewport(), event)
    box.updateAutoRange()
    (a0, a1), (b0, b1) = box.viewRange()
    assert a1 - a0 < x1 - x0  # time zoomed in
    assert box.state["autoRange"][1]  # the values keep their autoscale
    assert not box.state["autoRange"][0]


def test_the_context_menu_is_ours(qtbot):
    plot = stepped_plot(qtbot)
    menu = plot.menu_actions()
    assert [a.text() for a in menu.actions() if a.text()] == [
        "Export CSV…",
        "Save PNG…",
        "Show data table",
        "Add to strip chart",
        "Autoscale",
    ]
    with qtbot.waitSignal(plot.stripchart_requested) as asked:
        next(a for a in menu.actions() if a.text() == "Add to strip chart").trigger()
    assert asked.args[0] == ["SR01C:HCM01:Current:SP", "SR:DCCT:Current"]
    table = plot.show_data_table()
    assert table.model.rowCount() == 5
    assert table.model.rows[0][1:4] == ("SR01C:HCM01:Current:SP", "1.2", "A")
    table.close()


@pytest.fixture
def ring():
    return SimMachine(get_channel_database(None), lag_scale=0.01)


def test_a_time_range_button_asks_the_archive_again(qtbot, qasync_loop, ring):
    archiver = SimulatedArchiverConnector(ring)

    async def factory():
        return archiver

    dock = PlotDock(None, archiver_factory=factory)
    qtbot.addWidget(dock)
    now = time.time()
    view = dock.show_series(
        "beam current", {"SR:DCCT:Current": ([now - 600, now], [500.0, 499.0])}, {}
    )
    bar = view.range_bar
    assert [b.text() for b in bar.span_buttons.values()] == ["10 min", "1 h", "8 h", "24 h"]
    assert not bar.span_buttons["1 h"].isEnabled()  # no range asked before the plot is drawn
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    with qtbot.waitSignal(bar.range_requested):
        qtbot.mouseClick(bar.span_buttons["1 h"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.timeseries.prepared["SR:DCCT:Current"].points > 100, timeout=5000)
    low, high = view.timeseries.plot_item.viewRange()[0]
    assert abs((high - low) - 3600) < 5
    assert bar.apply_button.isEnabled()


def test_an_end_before_the_start_is_refused_in_the_bar(qtbot, qasync_loop):
    dock = PlotDock(None)
    qtbot.addWidget(dock)
    view = dock.show_series("c", {"C": ([T0, T0 + 60], [1.0, 2.0])}, {})
    bar = view.range_bar
    assert "no archive connection" in bar.problem.text()
    bar.end_edit.setDateTime(bar.start_edit.dateTime().addSecs(-60))
    bar.request_edited()
    assert bar.problem.text() == "The end must come after the start."


class NoLive:
    async def subscribe(self, channel, callback):
        raise RuntimeError("no live data in this test")

    async def unsubscribe(self, handle):
        return None


def test_the_strip_chart_starts_filled_from_the_archive_and_its_span_can_change(
    qtbot, qasync_loop, ring
):
    archiver = SimulatedArchiverConnector(ring)

    async def factory():
        return archiver

    async def live():
        return NoLive()

    dock = StripChartDock(["SR:DCCT:Current"], live, archiver_factory=factory)
    qtbot.addWidget(dock)
    dock.start()
    qtbot.waitUntil(lambda: dock.point_counts()["SR:DCCT:Current"] > 100, timeout=5000)
    stamps = [p[0] for p in dock._buffers["SR:DCCT:Current"]]
    assert time.time() - min(stamps) > 500  # ten minutes of history, before any live value
    dock.span.setCurrentIndex(1)  # 1 h
    assert dock.plot.title == "Live, last 1 h"
    qtbot.waitUntil(
        lambda: time.time() - dock._buffers["SR:DCCT:Current"][0][0] > 3000, timeout=5000
    )
    dock._dirty = True
    dock._redraw()
    low, high = dock.plot.plot_item.viewRange()[0]
    assert abs((high - low) - 3600) < 5
    stop = qasync_loop.create_task(dock.stop())
    qtbot.waitUntil(stop.done, timeout=3000)


def test_exports_are_offered_in_the_documents_folder_then_the_last_one(qtbot, tmp_path):
    from osprey_desktop.ui.export_folder import export_folder, remember_export_folder

    first = export_folder()
    assert first != Path.cwd() or Path.cwd() == Path.home()
    remember_export_folder(tmp_path / "plot.csv")
    assert export_folder() == tmp_path
    assert np.isfinite(T0)


def test_the_waterfall_names_only_as_many_bpms_as_fit_its_width(qtbot):
    from osprey_desktop.ui.orbit_plot import OrbitPlot
    from osprey_desktop.ui.plot_frames import orbit_frame

    names = [f"SR{i // 6 + 1:02d}C:BPM{i + 1:02d}:X" for i in range(72)]
    series = {n: ([T0, T0 + 60], [0.1 * (i % 5), 0.2]) for i, n in enumerate(names)}
    plot = OrbitPlot(orbit_frame(names, series, "mm"), "orbit")
    qtbot.addWidget(plot)
    widget = plot.waterfall_widget
    widget.resize(420, 300)
    narrow = plot.fit_name_ticks(widget)
    label = max(widget.fontMetrics().horizontalAdvance(n) for n in ("BPM72", "BPM01"))
    assert len(narrow) * label < widget.width()  # no two names touch
    widget.resize(1400, 300)
    assert len(plot.fit_name_ticks(widget)) > len(narrow)


def test_a_plot_filled_while_hidden_shows_its_data_not_an_empty_seconds_axis(qtbot):
    plot = TimeSeriesPlot("restored")
    qtbot.addWidget(plot)
    plot.set_series({"C": ([T0, T0 + 3600], [1.0, 2.0])}, {"C": "A"})  # never shown yet
    plot.resize(600, 300)
    plot.show()
    qtbot.waitExposed(plot)
    qtbot.waitUntil(lambda: plot.plot_item.vb.viewRange()[0][0] > T0 - 3600, timeout=2000)
    low, high = plot.plot_item.vb.viewRange()[0]
    assert low <= T0 and high >= T0 + 3600


def test_samples_in_alarm_are_marked_under_the_trace_never_over_it(qtbot):
    plot = TimeSeriesPlot("BPM in MINOR")
    qtbot.addWidget(plot)
    t = T0 + np.arange(600.0)
    plot.set_series({"BPM": (t, np.full(600, 1.2))}, {"BPM": "mm"}, severity={"BPM": [1] * 600})
    markers, curve = plot.markers["BPM"], plot.curves["BPM"]
    assert markers.zValue() < curve.zValue()
    assert markers.data["size"].max() < 8  # 600 markers: half size, not a band
