"""Statistics of many archived series at once: one 2-D array, a few operations along its rows.

Archive series arrive as Python lists (the context is JSON). Each list is converted once, into
a row of an array padded with NaN, and last, min, max, sums and held-time weights are taken
for every channel together: a day of 72 BPMs is a dozen array operations, not 72 times a
dozen small ones on the window's loop.

Archived samples hold until the next one (the archive stores a change, not a ramp), so the
mean of a stepped signal is weighted by how long each sample held (``held_means``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


def padded_rows(
    rows: Sequence[Sequence[Any]], width: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(array, lengths)``: the rows as floats (None -> NaN), padded with NaN to ``width``
    (default: the longest row's length).

    Raises ``ValueError``/``TypeError`` for a value that is not a number or None."""
    lengths = np.fromiter((len(r) for r in rows), dtype=np.intp, count=len(rows))
    longest = int(lengths.max()) if lengths.size else 0
    width = longest if width is None else max(width, longest)
    if lengths.size and width and (lengths == width).all():
        return np.array(rows, dtype=float).reshape(lengths.size, width), lengths
    out = np.full((lengths.size, width), np.nan)
    for i, row in enumerate(rows):
        if len(row):
            out[i, : len(row)] = np.asarray(row, dtype=float)
    return out, lengths


@dataclass(frozen=True)
class FiniteSummary:
    """Per row: how many finite values, and first, last, min, max and sum of them.

    Rows without a finite value have ``count`` 0 and meaningless figures."""

    count: np.ndarray
    first: np.ndarray
    last: np.ndarray
    low: np.ndarray
    high: np.ndarray
    total: np.ndarray
    finite: np.ndarray  # the mask, (rows, width)

    def mean(self) -> np.ndarray:
        """The sample mean (NaN for a row without finite values)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.count > 0, self.total / np.maximum(self.count, 1), np.nan)


def finite_summary(values: np.ndarray) -> FiniteSummary:
    """First, last, min, max, count and sum of the finite values of each row.

    ``total`` is the sum in sample order, one addition after the other, as Python's ``sum``
    adds floats (``cumsum`` accumulates in order; numpy's ``sum`` adds pairwise), so the
    figures are the ones the sample-by-sample code gave, to the last bit."""
    rows, width = values.shape
    finite = np.isfinite(values)
    if width == 0:
        nothing = np.zeros(rows)
        return FiniteSummary(
            np.zeros(rows, dtype=np.intp), nothing, nothing, nothing, nothing, nothing, finite
        )
    index = np.arange(rows)
    first = values[index, finite.argmax(axis=1)]
    last = values[index, width - 1 - finite[:, ::-1].argmax(axis=1)]
    low = np.where(finite, values, np.inf).min(axis=1)
    high = np.where(finite, values, -np.inf).max(axis=1)
    total = _row_sums(np.where(finite, values, 0.0))
    count = np.count_nonzero(finite, axis=1)
    return FiniteSummary(count, first, last, low, high, total, finite)


def _row_sums(values: np.ndarray) -> np.ndarray:
    """Each row's sum, added in order: the padding (zeros at the end) changes nothing, so a
    channel's figures do not depend on which channels were asked for with it.

    ``+ 0.0``: Python's ``sum`` starts at 0, so a sum of only -0.0 is 0.0 (cumsum keeps -0.0).
    """
    return np.cumsum(values, axis=1)[:, -1] + 0.0


def held_means(
    stamps: np.ndarray,
    values: np.ndarray,
    lengths: np.ndarray,
    end: float | None,
    finite: np.ndarray | None = None,
) -> np.ndarray:
    """Per row, the mean of a stepped signal: each finite sample weighted by how long it held
    (until the next sample; a gap ends it; the last holds until ``end``). NaN where it cannot
    be weighed: stamps missing or not finite, or no time held at all.

    ``stamps`` and ``values`` are padded rows of the same shape; ``lengths`` the samples of
    each row (rows whose stamps do not match their values are given NaN by the caller)."""
    rows, width = values.shape
    if width == 0:
        return np.full(rows, np.nan)
    finite = np.isfinite(values) if finite is None else finite
    valid = np.arange(width) < lengths[:, None]
    stamps_ok = np.where(valid, np.isfinite(stamps), True).all(axis=1) & (lengths > 0)
    index = np.arange(rows)
    last_at = np.maximum(lengths - 1, 0)
    until = np.empty_like(stamps)
    until[:, :-1] = stamps[:, 1:]
    last_stamp = stamps[index, last_at]
    until[index, last_at] = last_stamp if end is None else np.fmax(float(end), last_stamp)
    use = valid & finite
    with np.errstate(invalid="ignore", over="ignore"):
        held = np.clip(until - stamps, 0.0, None)
        weight = _row_sums(np.where(use, held, 0.0))
        weighted = _row_sums(np.where(use, held * values, 0.0))
        good = stamps_ok & (weight > 0)
        return np.where(good, weighted / np.where(good, weight, 1.0), np.nan)


__all__ = ["FiniteSummary", "finite_summary", "held_means", "padded_rows"]
