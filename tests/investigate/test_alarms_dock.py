"""The Alarms dock: lists what is in alarm (never what is OK), worst first, in the alarm
colours; live while visible; one click plots a row; it is in the window and fits a small
screen. And the investigations in the real window: the dump question answers and plots."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
qasync = pytest.importorskip("qasync")

from PySide6.QtCore import Qt  # noqa: E402

from osprey_desktop.connectors.base import ChannelAccessError  # noqa: E402
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector  # noqa: E402
from osprey_desktop.ui.alarms_dock import AlarmsDock  # noqa: E402
from osprey_desktop.ui.values import ALARM_CELL  # noqa: E402
from tests.investigate.scenario_support import scenario_machine  # noqa: E402


@pytest.fixture
def qasync_loop(qapp, qtbot) -> Iterator[asyncio.AbstractEventLoop]:
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=5000)
        loop._QEventLoop__is_running = False  # noqa: SLF001
        asyncio.events._set_running_loop(None)
        with contextlib.suppress(RuntimeError, TypeError):
            qapp.aboutToQuit.disconnect(loop._after_run_forever)
        loop._after_run_forever()
        loop.close()
        asyncio.set_event_loop(None)


class FlakyConnector(SimulatedControlSystemConnector):
    """The ring, with one channel that cannot be reached."""

    def __init__(self, machine, dead: str) -> None:
        super().__init__(machine)
        self.dead = dead
        self.batches: list[int] = []

    async def read_multiple_channels(self, names, timeout=None):
        self.batches.append(len(names))
        out = await super().read_multiple_channels(names, timeout)
        if self.dead in out:
            out[self.dead] = ChannelAccessError(self.dead, f"'{self.dead}' did not answer in 2 s")
        return out


@pytest.fixture
def dock(qtbot, qasync_loop):
    machine = scenario_machine("corrector_step")
    connector = FlakyConnector(machine, "SR:TUNE:Y")

    async def factory():
        if not connector.connected:
            await connector.connect()
        return connector

    widget = AlarmsDock(factory, interval_ms=100)
    qtbot.addWidget(widget)
    widget.connector = connector
    widget.machine = machine
    yield widget
    widget.timer.stop()


def test_lists_only_channels_in_alarm_worst_first(qtbot, dock) -> None:
    with qtbot.waitSignal(dock.refreshed, timeout=10_000):
        dock.show()
    rows = dock.model.rows
    assert rows[0].channel == "SR:TUNE:Y" and rows[0].severity == "DISCONNECTED"
    for row in rows[1:]:
        assert dock.machine.read(row.channel).alarm_severity == row.severity != "NO_ALARM"
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks, reverse=True)
    assert len(rows) > 2
    assert f"{len(rows)} of {dock.checked} channels in alarm" in dock.summary.text()
    # batched: the whole list in a few reads, not one request per channel
    # (and the channel that did not answer asked once more, alone)
    assert dock.connector.batches == [200, 200, dock.checked - 400, 1]
    index = dock.model.index(1, 2)
    colour = dock.model.data(index, 8)  # BackgroundRole
    assert colour.color().name() == ALARM_CELL[rows[1].severity][0]


def test_live_while_visible_and_quiet_while_hidden(qtbot, dock) -> None:
    with qtbot.waitSignal(dock.refreshed, timeout=10_000):
        dock.show()
    # 430 channels at most 200 reads a second: one read of the list every 2.15 s
    assert dock.timer.interval() == 1000 * dock.checked // 200
    dock.timer.setInterval(100)
    with qtbot.waitSignal(dock.refreshed, timeout=10_000):
        pass  # the timer reads again
    dock.hide()
    assert not dock.timer.isActive()


def test_a_click_plots_the_row(qtbot, dock) -> None:
    with qtbot.waitSignal(dock.refreshed, timeout=10_000):
        dock.show()
    rect = dock.table.visualRect(dock.model.index(1, 0))
    with qtbot.waitSignal(dock.plot_requested) as plotted:
        qtbot.mouseClick(dock.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert plotted.args == [[dock.model.rows[1].channel]]


def test_renders_and_fits_a_small_screen(qtbot, dock) -> None:
    with qtbot.waitSignal(dock.refreshed, timeout=10_000):
        dock.show()
    assert not dock.grab().isNull()
    hint = dock.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 800


def test_a_failed_read_is_said_in_the_dock(qtbot, qasync_loop) -> None:
    async def broken():
        raise ConnectionError("control system unreachable")

    widget = AlarmsDock(broken, interval_ms=100)
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.refreshed, timeout=5000):
        widget.show()
    assert "could not be read: control system unreachable" in widget.summary.text()
    widget.timer.stop()


@pytest.fixture
def run_async(qtbot, qasync_loop):
    def run(coro, timeout: int = 15_000):
        task = qasync_loop.create_task(coro)
        qtbot.waitUntil(task.done, timeout=timeout)
        return task.result()

    return run


@pytest.fixture
def qt_settings(tmp_path_factory) -> None:
    from PySide6.QtCore import QSettings

    folder = tmp_path_factory.mktemp("qsettings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))


def test_the_window_has_the_alarms_dock_and_a_row_opens_a_strip_chart(
    qtbot, run_async, tmp_path, configure, qt_settings
) -> None:
    from osprey_desktop.connectors import close_connectors
    from osprey_desktop.connectors.factory import reset_sim_machines, set_sim_machine
    from tests.ui.conftest import WindowHarness

    reset_sim_machines()
    set_sim_machine(scenario_machine("corrector_step"))
    harness = WindowHarness(qtbot, run_async, tmp_path / "threads.sqlite", configure)
    try:
        window = harness.open()
        dock = window.alarms
        assert dock.toggleViewAction() in window.menus.view_menu.actions()
        assert not dock.timer.isActive()  # tabbed behind the log: not read
        with qtbot.waitSignal(dock.refreshed, timeout=10_000):
            dock.raise_()
        assert dock.model.rows
        rect = dock.table.visualRect(dock.model.index(0, 0))
        qtbot.mouseClick(dock.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.waitUntil(lambda: bool(window.stripcharts), timeout=5000)
        assert window.stripcharts[0].key
    finally:
        harness.close_all()
        run_async(close_connectors())
        reset_sim_machines()


def test_the_dump_investigation_in_the_window_answers_and_plots(
    qtbot, run_async, tmp_path, configure, qt_settings
) -> None:
    from zoneinfo import ZoneInfo

    from osprey_desktop.connectors import close_connectors, get_configured_channel_database
    from osprey_desktop.connectors.factory import reset_sim_machines, set_sim_machine
    from osprey_desktop.connectors.sim_machine import SimMachine
    from osprey_desktop.connectors.sim_scenario_engine import ScenarioEngine
    from tests.investigate.conftest import late_morning_zone
    from tests.ui.conftest import WindowHarness

    zone = late_morning_zone()
    reset_sim_machines()
    configure({"machine": {"timezone": zone}})
    engine = ScenarioEngine.named("rf_trip", ZoneInfo(zone))
    set_sim_machine(SimMachine(get_configured_channel_database(), scenario=engine))
    harness = WindowHarness(qtbot, run_async, tmp_path / "threads.sqlite", configure)
    try:
        window = harness.open(use_real_graph=True, overrides={"machine": {"timezone": zone}})
        harness.send(
            window, "The beam dumped this morning. Figure out what happened and plot the data."
        )
        harness.wait_idle(window, timeout=30_000)
        values = window.controller.live.values["capability_context_data"]
        assert "INVESTIGATION" in values and "ARCHIVER_DATA" in values
        qtbot.waitUntil(lambda: window.plot_dock is not None, timeout=10_000)
        qtbot.waitUntil(lambda: window.plot_dock.current_plot() is not None, timeout=10_000)
        plot = window.plot_dock.current_plot()
        qtbot.waitUntil(lambda: bool(plot.point_counts()), timeout=10_000)
        assert "SR:DCCT:Current" in plot.point_counts()
    finally:
        harness.close_all()
        run_async(close_connectors())
        reset_sim_machines()
