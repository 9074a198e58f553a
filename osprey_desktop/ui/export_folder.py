"""Where exports are offered: the folder of the last export, else the documents folder.

Never the folder the program was started from (a checkout, or ``/`` for a desktop launcher).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

KEY = "exports/folder"


def export_folder() -> Path:
    """The remembered export folder when it still exists, else Documents (else home)."""
    remembered = QSettings().value(KEY)
    if isinstance(remembered, str) and remembered and Path(remembered).is_dir():
        return Path(remembered)
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if documents and Path(documents).is_dir():
        return Path(documents)
    return Path.home()


def remember_export_folder(path: Path) -> None:
    """Offer the folder of this export next time."""
    QSettings().setValue(KEY, str(Path(path).parent))


__all__ = ["export_folder", "remember_export_folder"]
