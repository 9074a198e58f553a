"""The time range of an archived plot, as the Data Browser offers it: 10 min, 1 h, 8 h, 24 h
(each ending now) and an editable start and end; choosing one asks the archive again.

``series_of_archive`` turns the archive's answer into what ``prepare_series`` takes (binned
series keep their min/max envelope, so they stay lines with a band).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QDateTime, Signal
from PySide6.QtWidgets import QDateTimeEdit, QHBoxLayout, QLabel, QPushButton, QWidget

SPANS = (("10 min", 600.0), ("1 h", 3600.0), ("8 h", 8 * 3600.0), ("24 h", 86400.0))
FORMAT = "yyyy-MM-dd HH:mm:ss"


class RangeBar(QWidget):
    """Span buttons and start/end fields; ``range_requested(start, end)`` in epoch seconds."""

    range_requested = Signal(float, float)

    def __init__(self, start: float, end: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("range_bar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.span_buttons: dict[str, QPushButton] = {}
        for label, seconds in SPANS:
            button = QPushButton(label)
            button.setToolTip(f"Ask the archive for the last {label}, ending now")
            button.clicked.connect(lambda _=False, s=seconds: self.request_span(s))
            button.setMaximumWidth(button.fontMetrics().horizontalAdvance(label) + 24)
            self.span_buttons[label] = button
            layout.addWidget(button)
        self.start_edit = self._edit(start)
        self.end_edit = self._edit(end)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Ask the archive for the range from start to end")
        self.apply_button.clicked.connect(self.request_edited)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #b71c1c;")
        layout.addSpacing(8)
        layout.addWidget(QLabel("from"))
        layout.addWidget(self.start_edit)
        layout.addWidget(QLabel("to"))
        layout.addWidget(self.end_edit)
        layout.addWidget(self.apply_button)
        layout.addWidget(self.problem, 1)

    @staticmethod
    def _edit(epoch: float) -> QDateTimeEdit:
        edit = QDateTimeEdit(QDateTime.fromSecsSinceEpoch(int(epoch)))
        edit.setDisplayFormat(FORMAT)
        edit.setCalendarPopup(True)
        return edit

    def show_range(self, start: float, end: float) -> None:
        self.start_edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(start)))
        self.end_edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(end)))

    def request_span(self, seconds: float, now: float | None = None) -> None:
        end = time.time() if now is None else now
        self.show_range(end - seconds, end)
        self.problem.clear()
        self.range_requested.emit(end - seconds, end)

    def request_edited(self) -> None:
        start = float(self.start_edit.dateTime().toSecsSinceEpoch())
        end = float(self.end_edit.dateTime().toSecsSinceEpoch())
        if end <= start:
            self.problem.setText("The end must come after the start.")
            return
        self.problem.clear()
        self.range_requested.emit(start, end)

    def set_busy(self, busy: bool, problem: str = "") -> None:
        for widget in (*self.span_buttons.values(), self.apply_button):
            widget.setEnabled(not busy)
        self.problem.setText(problem)


def series_of_archive(data: Any, channels: Sequence[str]) -> dict[str, Any]:
    """``prepare_series`` arguments from an ``ArchiverData`` (only ``channels``)."""
    series, units, envelopes, kinds, labels, severity = {}, {}, {}, {}, {}, {}
    for channel in channels:
        found = data.series.get(channel)
        if found is None:
            continue
        series[channel] = (found.timestamps, found.values)
        units[channel] = found.units
        if found.minimum is not None and found.maximum is not None:
            envelopes[channel] = (found.minimum, found.maximum)
        if found.kind != "number":
            kinds[channel] = found.kind
        if found.labels:
            labels[channel] = list(found.labels)
        if found.severity is not None:
            severity[channel] = found.severity
    end = data.end.timestamp() if isinstance(data.end, datetime) else None
    return {
        "series": series,
        "units": units,
        "envelopes": envelopes,
        "kinds": kinds,
        "labels": labels,
        "severity": severity,
        "end": end,
    }


__all__ = ["SPANS", "RangeBar", "series_of_archive"]
