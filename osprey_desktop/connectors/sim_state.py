"""The simulated ring's setpoints on disk, so a write survives the process that made it.

Each ``osprey-desktop`` command is its own process with its own ``SimMachine``; without this file
an approval written by ``osprey-desktop approve`` would be gone for the next ``ask``. The file
holds the setpoints (``{"setpoints": {name: value}}``) and the recent history of each written
setpoint (``{"history": {name: {"before": value, "changes": [[time, value], ...]}}}``), so the
simulated archive of the next process still knows what a channel held a minute ago ("restore X
to its value from 09:30" on a ring written by another process); everything else the ring
computes.

Decisions:

* **Atomic**: a write goes to a temporary file in the same folder, is flushed to disk, then
  ``os.replace``-d over the old one, so a reader sees the old or the new file, never half of one.
* **Merged per channel**: a save rewrites only the channels that changed, on top of what the
  file holds now (read under an exclusive ``flock`` where the OS has one), so two processes that
  write different channels both keep their change. Same channel: the last writer wins.
* **History is bounded**: each channel keeps its last ``MAX_HISTORY_CHANGES`` changes; older
  ones fold into ``before`` (the value before the first change kept). A file written by an
  older version has no ``history`` entry and is read as before: the ring starts settled.
* **Never fatal**: a missing file is the nominal machine. An unreadable or corrupt file is the
  nominal machine plus one logged warning; it is left as it is (for inspection) until the next
  accepted write replaces it. Entries that are not numbers are skipped the same way.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

try:  # POSIX only; elsewhere two simultaneous saves fall back to last-writer-wins
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

STATE_FORMAT = "osprey-desktop simulated machine setpoints"
STATE_VERSION = 1
STATE_FILE_NAME = "sim_machine.json"
#: Changes kept per channel (a day of a corrector written every few minutes).
MAX_HISTORY_CHANGES = 500


@dataclass(frozen=True)
class SetpointHistory:
    """One channel's saved history: its value before ``changes``, then each (time, value)."""

    before: float
    changes: tuple[tuple[float, float], ...]


class SimStateError(ValueError):
    """The state file exists but cannot be used (unreadable, not JSON, wrong layout)."""


class SimStateFile:
    """Load and save the setpoints of one simulated ring in one JSON file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")

    def __repr__(self) -> str:
        return f"SimStateFile({str(self.path)!r})"

    # ----- reading -------------------------------------------------------------------------
    def read(self) -> dict[str, float]:
        """The saved setpoints; ``{}`` when there is no file. Raises ``SimStateError``."""
        data = self._read_data()
        return {} if data is None else self._read_setpoints(data)

    def read_history(self) -> dict[str, SetpointHistory]:
        """Each written channel's saved history; ``{}`` when there is none. Raises
        ``SimStateError`` for an unusable file; a malformed channel entry is skipped."""
        data = self._read_data()
        return {} if data is None else _histories(data.get("history"))

    def _read_data(self) -> dict[str, Any] | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise SimStateError(f"cannot read it ({exc})") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SimStateError(f"it is not valid JSON ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise SimStateError(f"it has no 'format': {STATE_FORMAT!r} entry")
        if data.get("version") != STATE_VERSION:
            raise SimStateError(
                f"its version {data.get('version')!r} is not {STATE_VERSION}, "
                "the one this program reads"
            )
        return data

    def _read_setpoints(self, data: dict[str, Any]) -> dict[str, float]:
        setpoints = data.get("setpoints")
        if not isinstance(setpoints, dict):
            raise SimStateError("its 'setpoints' entry is not a mapping of channel to value")
        out: dict[str, float] = {}
        skipped: list[str] = []
        for name, value in setpoints.items():
            number = _finite(value)
            if number is None:
                skipped.append(f"{name}={value!r}")
            else:
                out[str(name)] = number
        if skipped:
            log.warning(
                "Simulated machine state %s: ignored %d entr%s that are not finite numbers: %s. "
                "Those channels start at their nominal value.",
                self.path,
                len(skipped),
                "y" if len(skipped) == 1 else "ies",
                ", ".join(skipped[:5]) + (" ..." if len(skipped) > 5 else ""),
            )
        return out

    def load(self) -> dict[str, float]:
        """The saved setpoints, or ``{}`` plus one warning when the file cannot be used."""
        try:
            return self.read()
        except SimStateError as exc:
            log.warning(
                "Simulated machine state %s is unusable: %s. Starting the simulated ring at its "
                "nominal setpoints; the file is left as it is until the next accepted write "
                "replaces it (delete it to silence this warning).",
                self.path,
                exc,
            )
            return {}

    def load_history(self) -> dict[str, SetpointHistory]:
        """The saved histories, or ``{}`` when the file cannot be used (``load`` warns)."""
        try:
            return self.read_history()
        except SimStateError:
            return {}

    # ----- writing -------------------------------------------------------------------------
    def update(
        self,
        changes: Mapping[str, float | None],
        replace_all: bool = False,
        written: Mapping[str, tuple[float, float, float]] | None = None,
    ) -> None:
        """Merge ``changes`` into the file (``None`` removes a channel) and write it atomically.

        ``written`` adds one change per channel to its history: (time, value, the value before
        it, used when the file has no history of that channel yet). ``replace_all`` drops
        everything the file held first (a reset). An unusable existing file is replaced. Raises
        ``OSError`` when the folder or the file cannot be written.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._exclusive():
            current: dict[str, float] = {}
            histories: dict[str, SetpointHistory] = {}
            if not replace_all:
                with contextlib.suppress(SimStateError):
                    current = self.read()
                    histories = self.read_history()
            for name, value in changes.items():
                if value is None:
                    current.pop(name, None)
                else:
                    current[name] = float(value)
            for name, (when, value, before) in (written or {}).items():
                histories[name] = _appended(histories.get(name), when, value, before)
            data: dict[str, Any] = {
                "format": STATE_FORMAT,
                "version": STATE_VERSION,
                "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "setpoints": dict(sorted(current.items())),
            }
            if histories:
                data["history"] = {
                    name: {"before": h.before, "changes": [list(c) for c in h.changes]}
                    for name, h in sorted(histories.items())
                }
            self._write_atomically(data)

    def _write_atomically(self, data: dict[str, Any]) -> None:
        fd, tmp = tempfile.mkstemp(
            dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
        )
        try:
            if hasattr(os, "fchmod"):  # mkstemp makes it 0600; this is no secret
                os.fchmod(fd, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
        """Serialise read-merge-write across processes (the lock file stays; it is empty)."""
        if fcntl is None:
            yield
            return
        with open(self.lock_path, "a") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _appended(
    history: SetpointHistory | None, when: float, value: float, before: float
) -> SetpointHistory:
    """``history`` with one more change, in time order, bounded to ``MAX_HISTORY_CHANGES``."""
    start = before if history is None else history.before
    changes = sorted(
        (*(history.changes if history else ()), (float(when), float(value))),
        key=lambda change: change[0],
    )
    while len(changes) > MAX_HISTORY_CHANGES:
        start = changes.pop(0)[1]  # the oldest change becomes the value before the rest
    return SetpointHistory(float(start), tuple(changes))


def _histories(raw: Any) -> dict[str, SetpointHistory]:
    """The ``history`` entry read leniently: a channel whose entry is malformed is left out
    (it then starts settled at its saved setpoint, as files without history do)."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, SetpointHistory] = {}
    for name, entry in raw.items():
        if not isinstance(entry, dict):
            continue
        before, changes = _finite(entry.get("before")), entry.get("changes")
        if before is None or not isinstance(changes, list):
            continue
        pairs: list[tuple[float, float]] = []
        for change in changes:
            if not isinstance(change, list) or len(change) != 2:
                break
            when, value = _finite(change[0]), _finite(change[1])
            if when is None or value is None:
                break
            pairs.append((when, value))
        if len(pairs) != len(changes):
            continue
        ordered = sorted(pairs, key=lambda c: c[0])
        out[str(name)] = SetpointHistory(before, tuple(ordered))
    return out
