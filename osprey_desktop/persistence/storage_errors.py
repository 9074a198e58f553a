"""The one error every storage failure of the conversation database becomes.

Shared by the SQLite checkpointer, the PostgreSQL one and the chunk stores, which import it
from here rather than from each other (no import cycle between them).
"""

from __future__ import annotations

from pathlib import Path

WHAT_NEXT = "it was left untouched; move it away or pass --db with another file"


class CheckpointDatabaseError(Exception):
    """The conversation database cannot be used; ``str()`` says which file and what to do.

    ``kind`` is one of ``locked``, ``full``, ``damaged``, ``permissions``, ``io``,
    ``unreachable`` (a PostgreSQL server) or ``unusable`` (anything else: a folder, another
    program's database...).
    """

    def __init__(self, path: Path | str, problem: str, kind: str = "unusable") -> None:
        # a PostgreSQL database is named by its URL (without password), which Path would fold
        self.path: Path | str = path if "://" in str(path) else Path(path)
        self.problem = problem
        self.kind = kind
        super().__init__(f"conversation database {self.path}: {problem}")


def damaged_row_error(
    path: Path | str, exc: BaseException, thread_id: str | None = None
) -> CheckpointDatabaseError:
    """A saved checkpoint that SQLite returned but that cannot be decoded: damaged data."""
    what = f"a saved checkpoint of thread {thread_id}" if thread_id else "a saved checkpoint"
    first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return CheckpointDatabaseError(
        path,
        f"damaged ({what} cannot be read: {type(exc).__name__}: {first_line}); {WHAT_NEXT}",
        "damaged",
    )


__all__ = ["WHAT_NEXT", "CheckpointDatabaseError", "damaged_row_error"]
