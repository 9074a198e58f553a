"""Column widths of the docks' tables, fitted when their rows change, not on every resize.

A header in ``ResizeToContents`` mode measures its columns again on every resize of the
view, asking the model (Python) for its cells each time. A dock resized while the window
lays out a new plot then held the loop 25-70 ms waiting for the GIL a worker held (a
channel finding in its thread; ``bench/ui_latency.py``). Fitted once per change of rows, on
a bounded sample of them, the columns cost nothing on a resize.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTableView

#: Rows measured when the columns are fitted (the first ones, which the operator sees).
MEASURED_ROWS = 64


def fit_columns_on_change(table: QTableView, stretch: int) -> None:
    """Columns sized by hand or fitted by ``fit_columns``; ``stretch`` takes the rest."""
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    header.setResizeContentsPrecision(MEASURED_ROWS)
    fit_columns(table)


def fit_columns(table: QTableView) -> None:
    """Every column but the stretched one as wide as its header and first rows."""
    header = table.horizontalHeader()
    for column in range(header.count()):
        if header.sectionResizeMode(column) != QHeaderView.ResizeMode.Stretch:
            table.resizeColumnToContents(column)
