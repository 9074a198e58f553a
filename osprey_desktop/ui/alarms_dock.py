"""The Alarms dock: every channel in alarm or disconnected now, as the Phoebus alarm table
shows them (PV, description, severity, status, value, since; worst first, the severity cell
in the operator-display colours). Live while it is visible: one batched read of the channel
list every ``interval_ms`` (longer for a long list: at most ``READS_PER_SECOND`` reads per
second on average), nothing while hidden. One click on a row opens a live strip
chart of that channel (with its archived past).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QCloseEvent, QColor
from PySide6.QtWidgets import QDockWidget, QLabel, QTableView, QVBoxLayout, QWidget

from osprey_desktop.ui.table_columns import fit_columns, fit_columns_on_change
from osprey_desktop.ui.values import ALARM_CELL

if TYPE_CHECKING:
    # The investigations (numpy, the archiver's base) load at the first refresh, after the
    # window's first paint.
    from osprey_desktop.investigate.alarms import AlarmRow

Factory = Callable[[], Awaitable[Any]]
COLUMNS = ("PV", "Description", "Severity", "Status", "Value", "Since")
#: Reads per second the dock asks of the control system at most, on average.
READS_PER_SECOND = 200
_Index = QModelIndex | QPersistentModelIndex


def _since_text(t: float | None) -> str:
    if t is None:
        return ""
    moment = datetime.fromtimestamp(t)
    fmt = "%H:%M:%S" if moment.date() == datetime.now().date() else "%Y-%m-%d %H:%M:%S"
    return moment.strftime(fmt)


def _value_text(row: AlarmRow) -> str:
    if row.value is None:
        return "—"
    if isinstance(row.value, float):
        return f"{row.value:.6g} {row.units}".strip()
    return f"{row.value} {row.units}".strip()


class AlarmTableModel(QAbstractTableModel):
    """Rows of ``AlarmRow``, worst first; a refresh with the same rows only changes cells."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[AlarmRow] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = 0) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                row.channel,
                row.description,
                row.severity,
                row.status,
                _value_text(row),
                _since_text(row.since),
            )[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            source = "from the archive" if row.since_source == "archive" else "first seen"
            return f"{row.channel}: {row.severity} ({row.status}); since {source}. Click to plot."
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole) and column in (
            2,
            4,
        ):
            colours = ALARM_CELL.get(row.severity)
            if colours:
                which = colours[0] if role == Qt.ItemDataRole.BackgroundRole else colours[1]
                return QBrush(QColor(which))
        return None

    def set_rows(self, rows: list[AlarmRow]) -> None:
        if [r.channel for r in rows] == [r.channel for r in self.rows]:
            self.rows = list(rows)
            if rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(COLUMNS) - 1))
            return
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def channel_at(self, row: int) -> str | None:
        return self.rows[row].channel if 0 <= row < len(self.rows) else None


class AlarmsDock(QDockWidget):
    """What is in alarm now, refreshed while visible."""

    plot_requested = Signal(list)
    refreshed = Signal()

    def __init__(
        self,
        connector_factory: Factory,
        archiver_factory: Factory | None = None,
        interval_ms: int = 2000,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("Alarms", parent)
        self.setObjectName("alarms_dock")
        self._factory = connector_factory
        self._archiver_factory = archiver_factory
        self._since: dict[tuple[str, str], tuple[float, str]] = {}
        self.task: asyncio.Task[None] | None = None
        self.checked = 0
        self.model = AlarmTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        fit_columns_on_change(self.table, stretch=1)
        self.model.modelReset.connect(lambda: fit_columns(self.table))
        self.model.dataChanged.connect(lambda *_: fit_columns(self.table))
        self.table.clicked.connect(self._clicked)
        self.summary = QLabel("Not read yet.")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        self.setWidget(body)
        self.interval_ms = interval_ms
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.refresh)
        self.visibilityChanged.connect(self._visible)

    # ----- live while visible ------------------------------------------------------------
    def _visible(self, visible: bool) -> None:
        if visible:
            self.refresh()
            self.timer.start()
        else:
            self.timer.stop()

    def refresh(self) -> asyncio.Task[None] | None:
        """Start one read of the list (none while the previous one still runs)."""
        if self.task is not None and not self.task.done():
            return self.task
        try:
            self.task = asyncio.ensure_future(self._refresh())
        except RuntimeError:  # no event loop (a plain widget test): nothing to read with
            return None
        return self.task

    async def _refresh(self) -> None:
        from osprey_desktop.investigate.alarms import read_alarms

        try:
            connector = await self._factory()
            database = getattr(connector, "database", None)
            if database is None:
                from osprey_desktop.connectors import get_configured_channel_database

                database = get_configured_channel_database()
            records = {r.name: r for r in database}
            rows, self.checked = await read_alarms(connector, list(records), records)
            rows = await self._with_since(rows)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the dock reports, it never crashes the window
            self.summary.setText(f"Alarms could not be read: {exc}")
            self.refreshed.emit()
            return
        self.model.set_rows(rows)
        # a long list is read less often: at most READS_PER_SECOND channel reads on average
        self.timer.setInterval(max(self.interval_ms, int(1000 * self.checked / READS_PER_SECOND)))
        worst = rows[0].severity if rows else ""
        self.summary.setText(
            f"{len(rows)} of {self.checked} channels in alarm"
            + (f", worst {worst}" if worst else "")
            + f" · read {time.strftime('%H:%M:%S')}"
        )
        self.refreshed.emit()

    async def _with_since(self, rows: list[AlarmRow]) -> list[AlarmRow]:
        """Since when each row is in its severity: the archive's answer the first time a row
        shows up, kept while it stays (the first reading's time without an archive)."""
        fresh = [r for r in rows if (r.channel, r.severity) not in self._since]
        if fresh and self._archiver_factory is not None:
            try:
                archiver = await self._archiver_factory()
            except Exception:  # noqa: BLE001 - no archive: first-seen times
                archiver = None
            from osprey_desktop.investigate.alarms import add_since

            fresh = await add_since(archiver, fresh, lookback_hours=6.0)
        for row in fresh:
            stamp = row.since if row.since is not None else time.time()
            self._since[(row.channel, row.severity)] = (stamp, row.since_source)
        keep = {(r.channel, r.severity) for r in rows}
        self._since = {k: v for k, v in self._since.items() if k in keep}
        out = []
        for row in rows:
            since, source = self._since[(row.channel, row.severity)]
            out.append(replace(row, since=since, since_source=source))
        return out

    def _clicked(self, index: QModelIndex) -> None:
        channel = self.model.channel_at(index.row())
        if channel:
            self.plot_requested.emit([channel])

    async def stop(self) -> None:
        self.timer.stop()
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def closeEvent(self, event: QCloseEvent) -> None:
        self.timer.stop()
        if self.task is not None and not self.task.done():
            self.task.cancel()
        super().closeEvent(event)


__all__ = ["AlarmTableModel", "AlarmsDock", "install_alarms"]


def install_alarms(window: Any) -> AlarmsDock:
    """Add the Alarms dock to the main window, tabbed with the log; a row opens a strip chart.

    It reads the channel list only while it is visible (raised or floating)."""
    connector_factory = window._connector_factory or window._default_connector_factory
    dock = AlarmsDock(connector_factory, window._archiver_factory, parent=window)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.tabifyDockWidget(window.process_log, dock)
    window.process_log.raise_()
    dock.plot_requested.connect(window.open_stripchart)
    window.menus.add_view_toggle(dock)
    return dock
