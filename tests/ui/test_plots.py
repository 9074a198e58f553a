"""Plot dock (archiver data, figures) and the live strip chart over the simulated machine."""

from __future__ import annotations

import time

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel

from osprey_desktop.ui.plot_artifacts import artifacts_from_state
from osprey_desktop.ui.plot_dock import PlotDock
from osprey_desktop.ui.stripchart import StripChartDock
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot

pytestmark = pytest.mark.gui

T0 = 1_700_000_000.0
STATE = {
    "capability_context_data": {
        "ARCHIVER_DATA": {
            "beam_history": {
                "timestamps": {
                    "SR:DCCT:Current": [T0, T0 + 60, T0 + 120],
                    "SR:Lifetime": [T0, T0 + 60, T0 + 120],
                },
                "time_series_data": {
                    "SR:DCCT:Current": [500.0, 499.0, None],
                    "SR:Lifetime": [10.0, 9.9, 9.8],
                },
                "units": {"SR:DCCT:Current": "mA", "SR:Lifetime": "h"},
            }
        }
    },
    "ui_captured_figures": [
        {
            "capability": "archiver_retrieval",
            "figure_path": "",
            "display_name": "Beam history",
            "metadata": {"figure_type": "timeseries", "context_key": "beam_history"},
            "created_at": "t1",
        }
    ],
}


def test_archiver_figure_becomes_a_curve_per_channel_with_units(qtbot, qasync_loop):
    dock = PlotDock()
    qtbot.addWidget(dock)
    assert dock.show_state(STATE) == ["Beam history"]
    qtbot.waitUntil(lambda: dock.current_plot() is not None, timeout=10_000)
    plot = dock.current_plot()
    assert isinstance(plot, TimeSeriesPlot)
    assert plot.point_counts() == {"SR:DCCT:Current": 3, "SR:Lifetime": 3}
    assert plot.legend_names() == ["SR:DCCT:Current (mA)", "SR:Lifetime (h, right axis)"]
    assert plot.plot_item.getAxis("left").labelText == "mA"
    assert plot.plot_item.getAxis("right").labelText == "h"
    assert dock.show_state(STATE) == []  # the same figure is not opened twice


def test_a_long_title_never_pushes_the_right_axis_out_of_a_narrow_plot(qtbot):
    plot = TimeSeriesPlot("SR:DCCT:Current, " * 8 + "end")
    qtbot.addWidget(plot)
    t = [T0, T0 + 60, T0 + 120]
    plot.set_series(
        {"SR:DCCT:Current": (t, [500.0, 499.0, 498.0]), "SR:Lifetime": (t, [10.0, 9.9, 9.8])},
        units={"SR:DCCT:Current": "mA", "SR:Lifetime": "h"},
    )
    plot.resize(700, 320)
    plot.show()
    qtbot.waitExposed(plot)
    assert plot.plot_item.getAxis("right").isVisible()
    # the whole plot, right axis included, lies inside the widget that shows it
    qtbot.waitUntil(
        lambda: plot.plot_item.geometry().right() <= plot.plot_widget.width() + 1, timeout=2000
    )
    assert "…" in plot.plot_item.titleLabel.text and plot.title.endswith("end")


def test_missing_archiver_entry_explains_instead_of_crashing(qtbot):
    state = {**STATE, "capability_context_data": {}}
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.show_state(state)
    assert isinstance(dock.current_plot(), QLabel)
    assert "Ask for the history again" in dock.current_plot().text()


def test_image_figure_shows_the_image(qtbot, tmp_path):
    path = tmp_path / "orbit.png"
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    image.save(str(path))
    state = {
        "ui_captured_figures": [
            {"capability": "c", "figure_path": str(path), "display_name": "Orbit", "metadata": {}}
        ]
    }
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.show_state(state)
    label = dock.current_plot().widget()
    assert label.pixmap().width() == 40
    assert artifacts_from_state(state)[0].kind == "image"


def test_stripchart_subscribes_through_the_connector(qtbot, qasync_loop):
    from osprey_desktop.config import get_config
    from osprey_desktop.connectors.factory import get_control_system_connector

    dock = StripChartDock(
        ["SR:DCCT:Current", "NO:SUCH:CHANNEL"],
        lambda: get_control_system_connector(get_config()),
    )
    qtbot.addWidget(dock)
    task = dock.start()
    qtbot.waitUntil(task.done, timeout=5000)
    qtbot.waitUntil(lambda: dock.point_counts()["SR:DCCT:Current"] >= 1, timeout=5000)
    qtbot.waitUntil(lambda: dock.plot.point_counts().get("SR:DCCT:Current", 0) >= 1, timeout=3000)
    assert "mA" in dock.plot.channel_status("SR:DCCT:Current")
    assert dock.plot.channel_status("NO:SUCH:CHANNEL").startswith("DISCONNECTED")
    # the axis is wall-clock time over the last ten minutes, not seconds from zero
    low, high = dock.plot.plot_item.viewRange()[0]
    assert abs(high - time.time()) < 60 and 590 <= high - low <= 610
    stop = qasync_loop.create_task(dock.stop())
    qtbot.waitUntil(stop.done, timeout=3000)

    async def close():
        from osprey_desktop.connectors.factory import close_connectors

        await close_connectors()

    closing = qasync_loop.create_task(close())
    qtbot.waitUntil(closing.done, timeout=3000)
