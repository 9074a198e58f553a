"""One SQL statement's outcome, as the approval ledger's stores return it.

Its own module so the ledger and the PostgreSQL database module both import it without
importing each other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StatementResult:
    rows: list[tuple[Any, ...]]
    rowcount: int


Executor = Callable[[str, tuple[Any, ...]], Awaitable[StatementResult]]
"""Runs one statement in its own transaction: ``(sql, params) -> StatementResult``."""


__all__ = ["Executor", "StatementResult"]
