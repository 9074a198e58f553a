"""Export of a time plot: every point as CSV (in a worker thread) and the plot as PNG (a mixin).

The file dialog is opened with ``open()``, never ``exec()``: the loop keeps running. It offers
the folder of the last export, else the documents folder (``export_folder``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from osprey_desktop.ui.export_folder import export_folder, remember_export_folder
from osprey_desktop.ui.plot_data import PreparedSeries, csv_text


class PlotExport:
    """Export for ``TimeSeriesPlot`` (which owns the signals and attributes used here)."""

    title: str
    prepared: dict[str, PreparedSeries]
    plot_widget: Any
    exported: Any  # Signal(str)
    export_failed: Any  # Signal(str)
    _export_task: asyncio.Task[Any] | None

    def choose_csv_file(self) -> None:
        self._choose_file("Export CSV", "CSV files (*.csv)", ".csv", self.export_csv)

    def choose_png_file(self) -> None:
        self._choose_file("Save plot as PNG", "PNG images (*.png)", ".png", self.save_png)

    def _choose_file(self, caption: str, pattern: str, suffix: str, then: Any) -> None:
        dialog = QFileDialog(self, caption)  # type: ignore[arg-type]
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(pattern)
        dialog.setDefaultSuffix(suffix.lstrip("."))
        dialog.setDirectory(str(export_folder()))
        dialog.selectFile(str(export_folder() / (_file_stem(self.title) + suffix)))
        dialog.fileSelected.connect(
            lambda path: (remember_export_folder(Path(path)), then(Path(path)))
        )
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()  # never exec(): the loop keeps running

    def export_csv(self, path: Path) -> asyncio.Task[Any]:
        """Write every point to ``path`` in a worker thread; report by signal."""
        prepared = list(self.prepared.values())

        async def run() -> None:
            try:
                text = await asyncio.to_thread(csv_text, prepared)
                await asyncio.to_thread(Path(path).write_text, text, encoding="utf-8")
            except Exception as exc:
                self.export_failed.emit(
                    f"Could not write {path}: {exc}. Choose a folder you can write to."
                )
            else:
                self.exported.emit(str(path))

        self._export_task = asyncio.ensure_future(run())
        return self._export_task

    def save_png(self, path: Path) -> bool:
        ok = self.plot_widget.grab().save(str(path), "PNG")
        if ok:
            self.exported.emit(str(path))
        else:
            self.export_failed.emit(f"Could not write {path}. Choose a folder you can write to.")
        return ok


def _file_stem(title: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in title)
    return (keep.strip("_") or "plot")[:60]
