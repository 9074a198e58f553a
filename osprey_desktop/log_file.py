"""The log file every command and the window append to, for the operator and for support.

``$XDG_STATE_HOME/osprey-desktop/osprey-desktop.log`` (default ``~/.local/state``), rotated at
5 MB with 5 old files kept. INFO and above by default; ``--verbose`` adds Osprey Desktop's own
DEBUG records (other libraries stay at INFO: aiosqlite alone would log every query). Several
processes may append at once (a window and an ``approve`` in a terminal); every line carries
the pid. The terminal keeps its one-line errors: on stderr only CRITICAL records appear (and
the simulated ring's warnings), WARNING and above with ``--verbose``.

A log folder that cannot be written is said once on stderr, and the command runs without a
log file rather than not at all.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from osprey_desktop.config.paths import platform_state_dir

LOG_FILE_NAME = "osprey-desktop.log"
MAX_BYTES = 5 * 1024 * 1024
BACKUP_COUNT = 5
FILE_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"
# Shown on stderr at the default verbosity although only WARNING: why the ring came back at
# its nominal setpoints (a damaged saved state is not an error).
_STDERR_WARNING_LOGGERS = ("osprey_desktop.connectors.sim_state",)

logger = logging.getLogger("osprey_desktop.log_file")


def log_file_path() -> Path:
    return platform_state_dir() / LOG_FILE_NAME


class _TerminalFilter(logging.Filter):
    def __init__(self, verbose: bool) -> None:
        super().__init__()
        self.verbose = verbose

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.CRITICAL:
            return True
        if record.levelno >= logging.WARNING:
            return self.verbose or record.name.startswith(_STDERR_WARNING_LOGGERS)
        return False


def _open_file_handler(path: Path) -> logging.Handler | None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8"
        )
    except OSError as exc:
        reason = exc.strerror or str(exc)
        print(
            f"osprey-desktop: cannot write the log file {path} ({reason}); continuing without "
            "one (set XDG_STATE_HOME to a writable folder to keep a log)",
            file=sys.stderr,
        )
        return None
    handler.setFormatter(logging.Formatter(FILE_FORMAT))
    return handler


@contextmanager
def logging_to_file(*, verbose: bool = False, path: Path | None = None) -> Iterator[Path | None]:
    """Log to the rotating file (and filtered to stderr) while the block runs.

    Yields the log file's path, or None when it could not be opened. The handlers and levels
    it set are removed again afterwards, so calling ``main()`` twice in one process (tests)
    neither doubles lines nor keeps a file open.
    """
    path = path if path is not None else log_file_path()
    root = logging.getLogger()
    ours = logging.getLogger("osprey_desktop")
    saved_levels = (root.level, ours.level)
    handlers: list[logging.Handler] = []
    file_handler = _open_file_handler(path)
    if file_handler is not None:
        handlers.append(file_handler)
    terminal = logging.StreamHandler(sys.stderr)
    terminal.setFormatter(logging.Formatter("osprey-desktop: %(message)s"))
    terminal.addFilter(_TerminalFilter(verbose))
    handlers.append(terminal)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(logging.INFO)
    ours.setLevel(logging.DEBUG if verbose else logging.NOTSET)
    try:
        yield path if file_handler is not None else None
    except Exception:
        logger.exception("stopped by an unexpected error")
        raise
    finally:
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(saved_levels[0])
        ours.setLevel(saved_levels[1])
