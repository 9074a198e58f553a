"""The plot dock: one tab per figure — time series drawn with pyqtgraph, images as images.

New figures open as new tabs and become current; figures already shown are not redrawn when
the state comes back unchanged after a later step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDockWidget, QLabel, QScrollArea, QTabWidget, QWidget

from osprey_desktop.ui.plot_artifacts import PlotArtifact, artifacts_from_state
from osprey_desktop.ui.timeseries_plot import TimeSeriesPlot

MAX_TABS = 16


class PlotDock(QDockWidget):
    """Tabs of plots and figure images."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Plots", parent)
        self.setObjectName("plot_dock")
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self._close_tab)
        self.setWidget(self.tabs)
        # identity -> tab widget; None once closed, so a closed figure does not reopen
        self._shown: dict[str, QWidget | None] = {}

    def show_state(self, values: Mapping[str, Any]) -> list[str]:
        """Open a tab for every figure not shown yet; returns the new tab titles."""
        return self.show_artifacts(artifacts_from_state(values, self.shown_identities()))

    def shown_identities(self) -> set[str]:
        """Figures shown (or shown and closed): they are not drawn again."""
        return set(self._shown)

    def show_artifacts(self, artifacts: Iterable[PlotArtifact]) -> list[str]:
        opened = []
        for artifact in artifacts:
            if artifact.identity in self._shown:
                continue
            widget = self._build(artifact)
            self._shown[artifact.identity] = widget
            self.tabs.addTab(widget, artifact.title)
            self.tabs.setTabToolTip(self.tabs.indexOf(widget), artifact.path or artifact.title)
            self.tabs.setCurrentWidget(widget)
            opened.append(artifact.title)
        while self.tabs.count() > MAX_TABS:
            self._close_tab(0)
        return opened

    def show_series(
        self,
        title: str,
        series: Mapping[str, tuple[Any, Any]],
        units: Mapping[str, str] | None = None,
    ) -> TimeSeriesPlot:
        """Open a time-series tab directly from ``{channel: (timestamps, values)}``."""
        artifact = PlotArtifact(f"direct|{title}|{len(self._shown)}", title, "timeseries")
        artifact.series = {c: (list(t), list(v)) for c, (t, v) in series.items()}
        artifact.units = dict(units or {})
        self.show_artifacts([artifact])
        return self._shown[artifact.identity]  # type: ignore[return-value]

    def _build(self, artifact: PlotArtifact) -> QWidget:
        if artifact.kind == "timeseries":
            if artifact.problem:
                return self._message(artifact.problem)
            plot = TimeSeriesPlot(artifact.title)
            plot.set_series(artifact.series, artifact.units)
            return plot
        pixmap = QPixmap(artifact.path) if artifact.path else QPixmap()
        if pixmap.isNull():
            return self._message(
                f"Cannot show figure '{artifact.title}': {artifact.path or 'no file'} is missing "
                "or not an image. Run the request again to recreate it."
            )
        label = QLabel()
        label.setPixmap(pixmap)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        area = QScrollArea()
        area.setWidget(label)
        area.setWidgetResizable(True)
        area.setProperty("figure_path", str(Path(artifact.path)))
        return area

    @staticmethod
    def _message(text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setStyleSheet("color: #b71c1c;")
        return label

    def _close_tab(self, index: int) -> None:
        widget = self.tabs.widget(index)
        self.tabs.removeTab(index)
        for identity, shown in self._shown.items():
            if shown is widget:
                self._shown[identity] = None
        if widget is not None:
            widget.deleteLater()

    def current_plot(self) -> QWidget | None:
        return self.tabs.currentWidget()
