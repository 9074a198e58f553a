"""The Activity dock: every write, refusal, rejected approval, logbook entry and undo of this
console (on a shared PostgreSQL database: of every console), newest first, filterable.

Rows come from the durable records (``logbook.activity.ActivityLog``), so the list is the same
after a restart. A refresh adds the new rows at the top (row inserts, no reset); double-click
(or Enter on) a row to open its thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.table_columns import fit_columns, fit_columns_on_change

if TYPE_CHECKING:
    # The logbook's records pull in the audit log, the connectors' base and numpy: imported
    # when the session opens (set_source), not before the window's first paint.
    from osprey_desktop.logbook.activity import ActivityLog, ActivityRow

log = logging.getLogger(__name__)

#: The link route an answer uses to name a thread (``osprey-desktop://thread/ID``).
THREAD_ROUTE = "thread"
#: How often a visible dock reads the records again (other consoles' activity).
REFRESH_INTERVAL_MS = 30_000
COLUMNS = ("Time", "Kind", "Operator", "What", "Outcome", "Thread")
_KIND_COLOURS = {
    "refusal": QColor("#c62828"),
    "rejected": QColor("#6d4c41"),
    "undo": QColor("#1565c0"),
    "logbook": QColor("#2e7d32"),
}
AnyIndex = QModelIndex | QPersistentModelIndex


class ActivityTableModel(QAbstractTableModel):
    """Rows of activity, newest first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[ActivityRow] = []

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            from osprey_desktop.logbook.history import clock  # loaded with the rows' source

            return (
                clock(row.time, with_date=True),
                row.kind,
                row.operator,
                row.what.replace("`", ""),
                row.outcome,
                row.thread_id or "",
            )[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            thread = f"\nDouble-click to open thread {row.thread_id}" if row.thread_id else ""
            return f"{row.what.replace('`', '')}\n({row.source}){thread}"
        if role == Qt.ItemDataRole.ForegroundRole:
            return _KIND_COLOURS.get(row.kind)
        if role == Qt.ItemDataRole.UserRole:
            return row
        return None

    def set_rows(self, rows: Sequence[ActivityRow]) -> None:
        """Show ``rows``: new ones at the top are inserted; anything else resets the model."""
        rows = list(rows)
        old = self.rows
        new_count = len(rows) - len(old)
        if old and new_count >= 0 and rows[new_count:] == old:
            if new_count:
                self.beginInsertRows(QModelIndex(), 0, new_count - 1)
                self.rows = rows
                self.endInsertRows()
            return
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()


class ActivityFilter(QSortFilterProxyModel):
    """Rows of the chosen kind whose words contain every word typed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kinds: set[str] | None = None
        self.text = ""

    def set_filter(self, kinds: set[str] | None, text: str) -> None:
        self.beginFilterChange()  # Qt 6.9+: invalidateFilter() is deprecated
        self.kinds, self.text = kinds, text
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        row = model.data(model.index(source_row, 0, source_parent), Qt.ItemDataRole.UserRole)
        return row is not None and row.matches(self.kinds, self.text)


class ActivityDock(QDockWidget):
    """The activity of the consoles; ``thread_requested`` asks the window to open a thread."""

    thread_requested = Signal(str)
    refreshed = Signal(int)  # how many rows are shown after a refresh

    def __init__(self, source: ActivityLog | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Activity", parent)
        self.setObjectName("activity_dock")
        self.source = source
        self.model = ActivityTableModel(self)
        self.proxy = ActivityFilter(self)
        self.proxy.setSourceModel(self.model)
        self.kind = QComboBox()
        self.kind.setObjectName("activity_kind")
        self.kind.addItem("Everything", None)
        self.search = QLineEdit()
        self.search.setObjectName("activity_search")
        self.search.setPlaceholderText("Filter: channel, operator, outcome…")
        self.search.setClearButtonEnabled(True)
        self.note = QLabel()
        self.note.setObjectName("activity_note")
        self.note.setWordWrap(True)
        self.retry_button = QPushButton("Retry publishing")
        self.retry_button.setObjectName("activity_retry")
        self.retry_button.setEnabled(False)
        self.retry_button.setToolTip("Select a logbook entry that was not published")
        self.retry_button.clicked.connect(self.retry_selected)
        self.table = QTableView()
        self.table.setObjectName("activity_table")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        fit_columns_on_change(self.table, stretch=3)
        self.model.modelReset.connect(lambda: fit_columns(self.table))
        self.model.rowsInserted.connect(lambda *_: fit_columns(self.table))
        self.table.activated.connect(self._open)
        top = QHBoxLayout()
        top.addWidget(self.kind)
        top.addWidget(self.search, 1)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.note, 1)
        bottom.addWidget(self.retry_button)
        layout.addLayout(bottom)
        self.setWidget(body)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._offer_retry())
        self.kind.currentIndexChanged.connect(self._filter)
        self.search.textChanged.connect(self._filter)
        self._task: asyncio.Task[None] | None = None
        self._show_note()
        if source is not None:
            self._add_kinds()

    def set_source(self, source: ActivityLog) -> None:
        self.source = source
        self._add_kinds()

    def _add_kinds(self) -> None:
        """The kinds to filter by, once there is a source to have rows of them."""
        from osprey_desktop.logbook.activity import KINDS

        for kind in KINDS:
            if self.kind.findData(kind) < 0:
                self.kind.addItem(kind.capitalize(), kind)

    def shown_rows(self) -> list[ActivityRow]:
        return [
            self.proxy.data(self.proxy.index(r, 0), Qt.ItemDataRole.UserRole)
            for r in range(self.proxy.rowCount())
        ]

    def refresh(self) -> asyncio.Task[None] | None:
        """Read the records again (off the loop); at most one refresh runs at a time."""
        if self.source is None:
            return None
        if self._task is not None and not self._task.done():
            return self._task
        self._task = asyncio.ensure_future(self._load())
        return self._task

    async def _load(self, keep_note: bool = False) -> None:
        assert self.source is not None
        try:
            rows = await self.source.rows()
        except Exception as exc:  # noqa: BLE001 - shown in the dock; the window keeps working
            log.exception("could not read the activity")
            self.note.setText(f"⚠ The activity cannot be read: {exc}")
            return
        self.model.set_rows(rows)
        if not keep_note:
            self._show_note()
        self._offer_retry()
        self.refreshed.emit(self.proxy.rowCount())

    def _filter(self) -> None:
        kind = self.kind.currentData()
        self.proxy.set_filter({kind} if kind else None, self.search.text())
        self._show_note()

    def _show_note(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        if total == 0:
            self.note.setText("No writes, refusals, logbook entries or undos yet.")
        elif shown == total:
            self.note.setText(f"{total} rows, newest first. Double-click a row to open its thread.")
        else:
            self.note.setText(f"{shown} of {total} rows match the filter.")

    def selected_row(self) -> ActivityRow | None:
        index = self.table.currentIndex()
        return self.proxy.data(index, Qt.ItemDataRole.UserRole) if index.isValid() else None

    def _offer_retry(self) -> None:
        row = self.selected_row()
        can = (
            row is not None
            and row.kind == "logbook"
            and row.outcome == "not_published"
            and row.entry_id is not None
        )
        self.retry_button.setEnabled(bool(can) and self.source is not None)
        if can:
            self.retry_button.setToolTip(f"Send logbook entry {row.entry_id} to Olog again")

    def retry_selected(self) -> asyncio.Task[None] | None:
        """Publish the selected not-published entry again; the note says how it went."""
        row = self.selected_row()
        if row is None or row.entry_id is None or self.source is None:
            return None
        self.retry_button.setEnabled(False)
        return asyncio.ensure_future(self._retry(row.entry_id))

    async def _retry(self, entry_id: int) -> None:
        from osprey_desktop.config import get_config

        assert self.source is not None
        try:
            entry = await self.source.retry(entry_id, get_config())
        except Exception as exc:  # noqa: BLE001 - said in the dock; nothing else depends on it
            self.note.setText(f"⚠ Logbook entry {entry_id}: {exc}")
            return
        if entry.status == "published":
            self.note.setText(f"Logbook entry {entry_id} published (Olog {entry.remote_id}).")
        else:
            self.note.setText(
                f"⚠ Logbook entry {entry_id} is still not published: {entry.publish_error}"
            )
        await self._load(keep_note=True)

    def _open(self, index: QModelIndex) -> None:
        row = self.proxy.data(index, Qt.ItemDataRole.UserRole)
        if row is not None and row.thread_id:
            self.thread_requested.emit(row.thread_id)


def transcript_menu(transcript: Any, log_this: QAction) -> QMenu:
    """The chat's own context menu (copy, select all) with "Log this…" below it."""
    menu = transcript.createStandardContextMenu()
    menu.addSeparator()
    menu.addAction(log_this)
    return menu


def _popup(menu: QMenu, transcript: Any, pos: Any) -> None:
    menu.aboutToHide.connect(menu.deleteLater)
    menu.popup(transcript.viewport().mapToGlobal(pos))  # a scroll area's pos: the viewport's


def install_activity(window: Any) -> ActivityDock:
    """Add the Activity dock, a Logbook menu ("Log this", Ctrl+L) and "Log this…" in the chat's
    context menu to the main window.

    The dock reads the session's records once it is open, again after every turn and every
    30 s while it is shown, and opens the thread of a row in the window.
    """
    from PySide6.QtCore import Qt as _Qt

    controller = window.controller
    dock = ActivityDock(parent=window)
    window.addDockWidget(_Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.tabifyDockWidget(window.process_log, dock)

    def attach() -> None:
        session = getattr(controller, "session", None)
        if session is not None:
            from osprey_desktop.logbook.activity import ActivityLog

            dock.set_source(ActivityLog.for_checkpointer(session.checkpointer))
            dock.refresh()

    controller.ready.connect(attach)
    controller.turn_finished.connect(lambda _result: dock.refresh())
    # other consoles' writes and entries (a shared database) show without a turn here
    timer = QTimer(dock)
    timer.setInterval(REFRESH_INTERVAL_MS)
    timer.timeout.connect(lambda: dock.refresh() if dock.isVisible() else None)
    timer.start()
    dock.thread_requested.connect(
        lambda thread_id: asyncio.ensure_future(controller.switch_thread(thread_id))
    )
    # "osprey-desktop://thread/ID" in an answer (a history search names its threads) opens it
    window.launcher.internal_routes.add(THREAD_ROUTE)
    window.launcher.internal_requested.connect(
        lambda route, segments, _params: (
            dock.thread_requested.emit(str(segments[0]))
            if route == THREAD_ROUTE and segments
            else None
        )
    )
    log_this = QAction("Log this…", window)
    log_this.setObjectName("log_this_action")
    log_this.setToolTip(
        "Make a logbook entry of this thread (its values, writes and plots); you confirm it first"
    )
    log_this.setShortcut("Ctrl+L")
    log_this.triggered.connect(lambda: controller.submit("log this"))
    bar = window.menuBar()
    menu = QMenu("&Logbook", bar)
    menu.setObjectName("logbook_menu")
    help_menu = next(
        (a for a in bar.actions() if a.text().replace("&", "").lower() == "help"), None
    )
    if help_menu is not None:
        bar.insertMenu(help_menu, menu)  # Help stays last
    else:
        bar.addMenu(menu)
    menu.addAction(log_this)
    menu.addAction(dock.toggleViewAction())
    window.log_this_action = log_this
    transcript = window.chat.transcript
    transcript.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    transcript.customContextMenuRequested.connect(
        lambda pos: _popup(transcript_menu(transcript, log_this), transcript, pos)
    )
    if getattr(controller, "session", None) is not None:
        attach()
    return dock


__all__ = [
    "ActivityDock",
    "ActivityFilter",
    "ActivityTableModel",
    "install_activity",
    "transcript_menu",
]
