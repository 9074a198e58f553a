"""The one exception a bad configuration raises."""

from __future__ import annotations

from pathlib import Path


class ConfigError(Exception):
    """A configuration file cannot be used.

    ``str(error)`` is one line naming the file and, when known, the dotted key, so the command
    line can print it as is instead of a traceback.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | Path | None = None,
        key: str | None = None,
        line: int | None = None,
    ) -> None:
        self.problem = " ".join(str(problem).split())
        self.file = str(file) if file is not None else None
        self.key = key
        self.line = line
        super().__init__(self._one_line())

    def _one_line(self) -> str:
        where = []
        if self.file:
            where.append(f"in {self.file}")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.key:
            where.append(f"at key '{self.key}'")
        prefix = "bad configuration" + (" " + ", ".join(where) if where else "")
        return f"{prefix}: {self.problem}"
