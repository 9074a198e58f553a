"""The predicted effect of a write, shown in the approval dialog before it is approved.

A small plot of the predicted orbit change at every BPM (one line per plane, its largest
change marked) under the words *prediction from the ring model*, and the prediction in one
line per plane; without a model, the line that says why there is no prediction. Drawn with
QPainter: the dialog must not wait for the plotting library to load.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from osprey_desktop.prediction import PredictedEffect

PLANE_COLOURS = {"X": QColor("#0072B2"), "Y": QColor("#D55E00")}
PLANE_NAMES = {"X": "horizontal", "Y": "vertical"}


_ROUND_SPANS = sorted(s * 10.0**e for s in (1, 2, 2.5, 5) for e in range(-4, 3))


def _nice_span(peak: float) -> float:
    """A round axis half-span just above ``peak`` (mm)."""
    return next((s for s in _ROUND_SPANS if s >= peak * 1.05), peak * 1.1) if peak > 0 else 0.01


class OrbitChangePlot(QWidget):
    """Predicted orbit change (mm) against BPM number for each plane."""

    def __init__(self, effect: PredictedEffect, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("prediction_plot")
        self.effect = effect
        self.setMinimumHeight(130)
        self.setMinimumWidth(320)
        peak = max((abs(c.peak_mm) for c in effect.planes), default=0.0)
        self.span = _nice_span(peak)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        metrics = painter.fontMetrics()
        left = metrics.horizontalAdvance(f"{-self.span:+.3g} mm") + 10
        top, bottom, right = 6, metrics.height() + 8, 8
        area = QRectF(left, top, self.width() - left - right, self.height() - top - bottom)
        painter.setPen(QPen(QColor("#9e9e9e"), 1))
        painter.drawRect(area)
        zero_y = area.center().y()
        painter.setPen(QPen(QColor("#bdbdbd"), 1, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(area.left(), zero_y), QPointF(area.right(), zero_y))
        painter.setPen(QColor("#424242"))
        for value, y in ((self.span, area.top()), (0.0, zero_y), (-self.span, area.bottom())):
            text = "0" if value == 0 else f"{value:+.3g} mm"
            painter.drawText(
                QRectF(0, y - metrics.height() / 2, left - 6, metrics.height()),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
        count = max((c.delta_mm.size for c in self.effect.planes), default=0)
        painter.drawText(
            QRectF(area.left(), area.bottom() + 2, area.width(), metrics.height()),
            Qt.AlignmentFlag.AlignHCenter,
            f"BPM 1 … {count}" if count else "",
        )
        for change in self.effect.planes:
            n = change.delta_mm.size
            if n == 0:
                continue

            def point(i: int, value: float, n: int = n) -> QPointF:
                x = area.left() + area.width() * (i / max(n - 1, 1))
                return QPointF(x, zero_y - (value / self.span) * area.height() / 2)

            path = QPainterPath(point(0, float(change.delta_mm[0])))
            for i in range(1, n):
                path.lineTo(point(i, float(change.delta_mm[i])))
            colour = PLANE_COLOURS.get(change.plane, QColor("black"))
            painter.setPen(QPen(colour, 1.6))
            painter.drawPath(path)
            peak = point(change.peak_index, change.peak_mm)
            painter.setBrush(colour)
            painter.drawEllipse(peak, 3.5, 3.5)
        painter.end()


class PredictionView(QWidget):
    """The heading, the plot (when there is an orbit change) and the prediction's lines."""

    def __init__(self, effect: PredictedEffect, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("prediction_view")
        self.effect = effect
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        if effect.available:
            legend = "  ".join(
                f'<span style="color:{PLANE_COLOURS[c.plane].name()}">━ '
                f"{PLANE_NAMES.get(c.plane, c.plane)}</span>"
                for c in effect.planes
                if c.plane in PLANE_COLOURS
            )
            heading = f"<b>Predicted effect</b> — <i>{effect.source}</i>"
            self.heading = QLabel(f"{heading}&nbsp;&nbsp;{legend}")
        else:
            self.heading = QLabel("<b>Predicted effect</b>")
        self.heading.setObjectName("prediction_heading")
        layout.addWidget(self.heading)
        self.plot: OrbitChangePlot | None = None
        if effect.planes:
            self.plot = OrbitChangePlot(effect)
            layout.addWidget(self.plot, 1)
        self.lines = QLabel("\n".join(effect.lines()))
        self.lines.setObjectName("prediction_lines")
        self.lines.setWordWrap(True)
        if not effect.available:
            self.lines.setStyleSheet("color: #5d4037;")
        layout.addWidget(self.lines)

    def text(self) -> str:
        return self.lines.text()
