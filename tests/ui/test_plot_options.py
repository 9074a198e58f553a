"""pyqtgraph's "Plot Options" form made on first use (``plot_options.LazyFormPlotItem``): the
plots are built without it, everything pyqtgraph does through it works as on its own
``PlotItem``, and a right click, a saved state or any other use of a widget makes it, with
the values and connections so far."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import SIGNAL, Qt
from PySide6.QtWidgets import QMenu, QWidget

from osprey_desktop.ui.orbit_plot import OrbitPlot
from osprey_desktop.ui.plot_dock import ArchivePlotView, PlotDock
from osprey_desktop.ui.plot_frames import orbit_frame
from osprey_desktop.ui.plot_options import CONNECTIONS, LazyFormPlotItem
from tests.ui.test_plot_views import bpm_state

pytestmark = pytest.mark.gui

T0 = 1_700_000_000.0
SIGNALS = ("toggled(bool)", "valueChanged(int)", "itemClicked(QListWidgetItem*)")


def both() -> tuple[LazyFormPlotItem, pg.PlotItem]:
    return LazyFormPlotItem(), pg.PlotItem()


def curve_modes(item: pg.PlotItem) -> list[tuple]:
    """What the plot item set on its curves and axes through the form."""
    out = []
    for curve in item.curves:
        opts = curve.opts
        out.append(
            (
                opts["downsample"],
                opts["autoDownsample"],
                opts["downsampleMethod"],
                opts["clipToView"],
                tuple(opts["logMode"]),
                opts["fftMode"],
                opts["subtractMeanMode"],
                opts["alphaHint"],
                opts["alphaMode"],
                curve.isVisible(),
            )
        )
    axes = [(item.getAxis(n).grid, item.getAxis(n).logMode) for n in ("left", "bottom")]
    return [*out, *axes]


def test_the_values_held_before_the_form_are_the_forms_own(qapp):
    lazy, plain = both()
    assert not lazy.form_made
    assert lazy.ctrl.state() == plain.stateGroup.state()
    for name in ("downsampleSpin", "maxTracesSpin", "gridAlphaSlider", "alphaSlider"):
        real = getattr(plain.ctrl, name)
        mine = getattr(lazy.ctrl, name)
        assert (mine.minimum(), mine.maximum()) == (real.minimum(), real.maximum()), name
    assert not lazy.form_made


def test_the_plot_item_has_what_pyqtgraphs_has_once_built(qapp):
    lazy, plain = both()
    kept_apart = {"ctrlMenu", "stateGroup"}  # properties here, made with the form
    assert set(vars(plain)) - kept_apart <= set(vars(lazy))
    lazy.make_form()
    for name in ("ctrlMenu", "stateGroup", "ctrl"):
        assert type(getattr(lazy, name)) is type(getattr(plain, name)), name


def test_grid_log_downsampling_and_clip_work_as_on_pyqtgraphs_plot_item_without_the_form(qapp):
    lazy, plain = both()
    for item in (lazy, plain):
        item.showGrid(x=True, y=True, alpha=0.25)
        item.setDownsampling(ds=4, auto=True, mode="subsample")
        item.setDownsampling(mode="mean")  # the radios stay one group
        item.setClipToView(True)
        item.addItem(pg.PlotDataItem([1.0, 2.0, 3.0], [1.0, 10.0, 100.0]))
        item.setLogMode(y=True)
        item.addItem(pg.PlotDataItem([1.0, 2.0], [5.0, 50.0]))
        item.setDownsampling(mode="peak")
        item.setLogMode(x=False, y=False)
    assert curve_modes(lazy) == curve_modes(plain)
    assert lazy.getAxis("left").grid == 63  # 0.25 of 255
    assert lazy.ctrl.state() == plain.stateGroup.state()
    assert not lazy.form_made


def test_a_right_click_makes_the_form_with_the_values_so_far_and_its_widgets_act(qtbot):
    frame = orbit_frame(
        ["A:BPM1:X", "A:BPM2:X"], {"A:BPM1:X": ([T0], [1.0]), "A:BPM2:X": ([T0], [2.0])}
    )
    orbit = OrbitPlot(frame, "orbit")
    qtbot.addWidget(orbit)
    orbit.resize(600, 500)
    orbit.show()
    qtbot.waitExposed(orbit)
    item = orbit.orbit_item
    assert isinstance(item, LazyFormPlotItem) and not item.form_made
    widget = orbit.orbit_widget
    centre = widget.mapFromScene(item.vb.sceneBoundingRect().center())
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.RightButton, pos=centre)
    menu = item.vb.menu
    qtbot.waitUntil(lambda: menu is not None and menu.isVisible(), timeout=3000)
    try:
        options = next(a.menu() for a in menu.actions() if a.text() == "Plot Options")
        titles = [a.text() for a in options.actions()]
        assert titles == ["Transforms", "Downsample", "Average", "Alpha", "Grid", "Points"]
        assert item.form_made
        assert item.ctrl.xGridCheck.isChecked() and item.ctrl.yGridCheck.isChecked()
        assert item.ctrl.gridAlphaSlider.value() == 63
        grid = next(a.menu() for a in options.actions() if a.text() == "Grid")
        assert grid.actions()[0].defaultWidget() is item.ctrl.gridGroup  # the form shown
    finally:
        menu.close()
    item.ctrl.logYCheck.click()  # what the operator ticks in the form acts on the plot
    assert item.getAxis("left").logMode and orbit.curve.opts["logMode"] == [False, True]
    item.ctrl.xGridCheck.click()
    assert item.getAxis("bottom").grid is False and item.getAxis("left").grid == 63


def test_the_made_form_has_pyqtgraphs_connections_and_state(qapp):
    lazy, plain = both()
    for item in (lazy, plain):
        item.showGrid(y=True, alpha=0.5)
        item.setDownsampling(mode="subsample")
    state = lazy.saveState()  # the saved state needs the form: it is made now
    assert lazy.form_made
    assert {k: v for k, v in state.items() if k != "view"} == {
        k: v for k, v in plain.saveState().items() if k != "view"
    }
    for name, real in vars(plain.ctrl).items():
        if not isinstance(real, QWidget):
            continue
        mine = getattr(lazy.ctrl, name)
        for signal in SIGNALS:
            if real.metaObject().indexOfSignal(signal) < 0:
                continue
            wanted = real.receivers(SIGNAL(signal))
            assert mine.receivers(SIGNAL(signal)) == wanted, (name, signal)
    assert {w for w, _, _ in CONNECTIONS} <= set(vars(lazy.ctrl))


def test_a_restored_state_and_a_widget_used_directly_reach_the_plot(qapp):
    lazy, plain = both()
    for item in (lazy, plain):
        item.addItem(pg.PlotDataItem([1.0, 2.0, 3.0], [1.0, 2.0, 4.0]))
    plain.setLogMode(y=True)
    plain.showGrid(x=True)
    lazy.restoreState(plain.saveState())
    assert curve_modes(lazy) == curve_modes(plain)
    other = LazyFormPlotItem()
    other.ctrl.fftCheck.setToolTip("spectrum")  # beyond a value: the real widget's
    assert other.form_made and other.ctrl.fftCheck.toolTip() == "spectrum"


def test_the_averaging_list_and_max_traces_act_before_the_form_is_made(qapp):
    lazy, plain = both()
    for item in (lazy, plain):
        item.ctrl.maxTracesCheck.setChecked(True)
        item.ctrl.maxTracesSpin.setValue(2)
        for offset in range(4):
            item.addItem(pg.PlotDataItem([0.0, 1.0], [offset, offset + 1.0]), params={"run": 1})
    assert curve_modes(lazy) == curve_modes(plain)  # the two newest shown
    assert lazy.ctrl.avgParamList.count() == plain.ctrl.avgParamList.count() == 1
    assert not lazy.form_made
    lazy.make_form()
    assert [lazy.ctrl.avgParamList.item(i).text() for i in range(1)] == ["run"]


def test_closing_a_plot_item_takes_it_apart_once(qapp):
    item = LazyFormPlotItem()
    widget = pg.PlotWidget(plotItem=item)
    widget.close()
    assert item.ctrlMenu is None and item.vb is None
    item.close()  # already shut down: nothing happens


def test_every_plot_of_a_drawn_figure_is_built_without_the_form(qtbot, qasync_loop):
    dock = PlotDock()
    qtbot.addWidget(dock)
    dock.resize(1000, 600)
    dock.show_state(bpm_state(8, 200))
    view = dock.current_view()
    assert isinstance(view, ArchivePlotView)
    qtbot.waitUntil(lambda: view.ready, timeout=10_000)
    items = [w.getPlotItem() for w in view.findChildren(pg.PlotWidget)]
    bars = [orbit.colour_bar for orbit in view.orbits]
    assert len(items) == 3 and len(bars) == 1  # time series, orbit, waterfall; colour bar
    assert all(isinstance(i, LazyFormPlotItem) and not i.form_made for i in [*items, *bars])
    assert view.timeseries is not None and view.timeseries.curves
    # the time plot's right click shows our menu; pyqtgraph's form stays unmade
    plot = view.timeseries
    menu = plot.menu_actions()
    assert isinstance(menu, QMenu) and "Autoscale" in [a.text() for a in menu.actions()]
    menu.deleteLater()
    assert plot.plot_item.getContextMenus(None) is None and not plot.plot_item.form_made


def test_a_plot_item_made_with_pyqtgraphs_arguments_keeps_them(qapp):
    item = LazyFormPlotItem(
        title="beam", labels={"left": "mA"}, bottom=("time", "s"), enableMenu=False, y=[1, 2]
    )
    assert item.titleLabel.text == "beam"
    assert item.getAxis("left").labelText == "mA" and item.getAxis("bottom").labelUnits == "s"
    assert not item.menuEnabled() and not item.vb.menuEnabled()
    assert len(item.curves) == 1 and np.array_equal(item.curves[0].yData, [1, 2])
    assert item.getContextMenus(None) is None and not item.form_made
    item.vb.setMenuEnabled(True)
    assert isinstance(item.vb.getMenu(None), QMenu)
