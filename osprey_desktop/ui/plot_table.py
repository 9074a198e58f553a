"""A plot's samples as a table (the context menu's *Show data table*): a model, not items,
so 20,000 samples open at once."""

from __future__ import annotations

import csv
import io
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QDialog, QHeaderView, QTableView, QVBoxLayout, QWidget

from osprey_desktop.ui.plot_data import PreparedSeries, csv_text

Index = QModelIndex | QPersistentModelIndex


class SampleTableModel(QAbstractTableModel):
    COLUMNS = ("Time (local)", "Channel", "Value", "Units", "Alarm")

    def __init__(self, prepared: list[PreparedSeries], parent: Any = None) -> None:
        super().__init__(parent)
        rows = list(csv.reader(io.StringIO(csv_text(prepared))))[1:]
        # csv columns: time_local, epoch_seconds, channel, value, units, severity
        self.rows = [(r[0], r[2], r[3], r[4], r[5]) for r in rows]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt
        return 0 if parent.isValid() else len(self.COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and index.isValid():
            return self.rows[index.row()][index.column()]
        return None

    def headerData(  # noqa: N802 - Qt override
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.COLUMNS[section]
        return None


class SampleTableDialog(QDialog):
    def __init__(self, title: str, prepared: list[PreparedSeries], parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Data: {title}" if title else "Plot data")
        self.setObjectName("plot_data_table")
        self.model = SampleTableModel(prepared, self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.verticalHeader().setVisible(False)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)
        self.resize(720, 480)
