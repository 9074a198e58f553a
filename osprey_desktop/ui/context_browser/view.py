"""The context browser dock: filter box, tree, detail pane, copy and export.

Takes its model and describer as constructor arguments (views take their model). Export
writes through the core's ``save_context_to_file`` in a worker thread so a large context
never stalls the window.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QSplitter,
    QTextBrowser,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from osprey_desktop.ui.context_browser.describe import ContextDescriber, to_json
from osprey_desktop.ui.context_browser.model import (
    PATH_ROLE,
    SEARCH_ROLE,
    VALUE_ROLE,
    ContextTreeModel,
)

ActionsForKey = Callable[[str, str], list[QAction]]


class ContextFilterProxy(QSortFilterProxyModel):
    """Keeps a row when its name, its value or anything inside its value contains the text
    (case-insensitive), and the rows above it (recursive filtering)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self._needle = ""

    def set_needle(self, text: str) -> None:
        self.beginFilterChange()  # Qt 6.9+: invalidateFilter() is deprecated
        self._needle = text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:  # noqa: N802 - Qt
        if not self._needle:
            return True
        index = self.sourceModel().index(row, 0, parent)
        text = index.data(SEARCH_ROLE)
        return isinstance(text, str) and self._needle in text


class ContextBrowserDock(QDockWidget):
    """Shows ``capability_context_data`` as a tree that keeps its shape across updates."""

    exported = Signal(str)
    export_failed = Signal(str)

    def __init__(
        self,
        model: ContextTreeModel,
        describer: ContextDescriber,
        actions_for_key: ActionsForKey | None = None,
        export_folder: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("Context", parent)
        self.setObjectName("context_browser")
        self.model = model
        self.describer = describer
        self._actions_for_key = actions_for_key
        self._export_folder = export_folder
        self._export_task: asyncio.Task[Any] | None = None
        model.set_key_describer(describer.tooltip)
        model.set_row_namer(describer.display_name)

        self.proxy = ContextFilterProxy(self)
        self.proxy.setSourceModel(model)

        self.filter_edit = QLineEdit(placeholderText="Filter types, keys, fields, values…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.set_filter)

        self.tree = QTreeView()
        self.tree.setModel(self.proxy)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._show_menu)
        self.tree.header().resizeSection(0, 220)
        self.tree.selectionModel().currentChanged.connect(self._show_details)

        self.detail = QTextBrowser()
        self.detail.setOpenExternalLinks(False)
        self.detail.setPlaceholderText("Select an entry to see its summary and access details.")

        self.copy_action = QAction("Copy value", self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.copy_action.triggered.connect(self.copy_current_value)
        self.tree.addAction(self.copy_action)
        self.export_action = QAction("Export context.json…", self)
        self.export_action.triggered.connect(self.choose_export_folder)

        buttons = QHBoxLayout()
        buttons.addWidget(self.filter_edit, 1)
        for action in (self.copy_action, self.export_action):
            button = QToolButton()
            button.setDefaultAction(action)
            buttons.addWidget(button)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(buttons)
        layout.addWidget(splitter)
        self.setWidget(body)

    # -------------------------------------------------------------- filtering
    def set_filter(self, text: str) -> None:
        """Show the entries whose names or values contain ``text`` (a channel name inside a
        table of values too); rows down to the field level are loaded so they can match."""
        if text:
            self.model.load_to_depth(3)
        self.proxy.set_needle(text)
        if text:
            self.tree.expandToDepth(1)

    # --------------------------------------------------------------- selection
    def current_source_index(self) -> QModelIndex:
        return self.proxy.mapToSource(self.tree.currentIndex())

    def select_path(self, path: list[Any] | tuple[Any, ...]) -> bool:
        source = self.model.index_for_path(path)
        if not source.isValid():
            return False
        index = self.proxy.mapFromSource(source)
        self.tree.scrollTo(index)
        self.tree.setCurrentIndex(index)
        return True

    def copy_current_value(self) -> str | None:
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        value = index.data(VALUE_ROLE)
        text = value if isinstance(value, str) else to_json(value, limit=10_000_000)
        QGuiApplication.clipboard().setText(text)
        return text

    def _show_details(self, current: QModelIndex, _previous: QModelIndex = QModelIndex()) -> None:
        if not current.isValid():
            self.detail.clear()
            return
        path = current.data(PATH_ROLE)
        parts = []
        if len(path) >= 2:
            parts.append(self.describer.details_markdown(str(path[0]), str(path[1])))
        if len(path) != 2:
            named = [self.describer.display_name(tuple(path[: i + 1])) for i in range(len(path))]
            where = " › ".join(n or str(p) for n, p in zip(named, path, strict=True))
            parts.append(f"**{where}**\n\n```json\n{to_json(current.data(VALUE_ROLE))}\n```")
        self.detail.setMarkdown("\n\n".join(parts))

    def _show_menu(self, pos) -> None:
        index = self.tree.indexAt(pos)
        menu = QMenu(self)
        menu.setToolTipsVisible(True)  # a disabled command says why
        menu.addAction(self.copy_action)
        path = index.data(PATH_ROLE) if index.isValid() else ()
        if self._actions_for_key is not None and path and len(path) >= 2:
            related = self._actions_for_key(str(path[0]), str(path[1]))
            if related:
                menu.addSection("Commands")
                for action in related:
                    menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.export_action)
        menu.popup(self.tree.viewport().mapToGlobal(pos))

    def related_actions(self, path: tuple[Any, ...]) -> list[QAction]:
        """The launchable commands offered in the context menu of the entry at ``path``."""
        if self._actions_for_key is None or len(path) < 2:
            return []
        return self._actions_for_key(str(path[0]), str(path[1]))

    # ------------------------------------------------------------------ export
    def choose_export_folder(self) -> None:
        """Ask for a folder without a nested event loop (``open()``), then export there."""
        dialog = QFileDialog(self, "Export context.json to folder")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        from osprey_desktop.ui.export_folder import export_folder, remember_export_folder

        # the configured folder (file_paths.agent_data_dir) when set, else the last export's
        dialog.setDirectory(str(self._export_folder or export_folder()))
        dialog.fileSelected.connect(
            lambda folder: (
                remember_export_folder(Path(folder) / "context.json"),
                self.export_to(Path(folder)),
            )
        )
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def export_to(self, folder: Path) -> asyncio.Task[Any]:
        """Write ``context.json`` into ``folder`` in a worker thread; report by signal."""

        async def run() -> None:
            try:
                path = await asyncio.to_thread(self.describer.export, folder)
            except Exception as exc:
                self.export_failed.emit(
                    f"Could not write context.json to {folder}: {exc}. "
                    "Choose a folder you can write to and export again."
                )
            else:
                self.exported.emit(str(path))

        self._export_task = asyncio.ensure_future(run())
        return self._export_task
