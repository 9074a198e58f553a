"""Numbers as an operator display writes them: the channel's precision, one format per column.

A display with ``PREC=3`` shows ``-0.001 A``, never ``-9.274e-04 A`` next to ``0.000 A``; a
number whose precision is unknown gets the decimals its magnitude needs, and a row of
statistics (last, min, max, mean) shares one number of decimals so it reads as a column.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from osprey_desktop.connectors.base import format_value


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def decimals_for(values: Iterable[float], significant: int = 4) -> int | None:
    """Decimals that show ``significant`` digits of the largest magnitude; None when the
    numbers need an exponent (all tiny or huge)."""
    finite = [abs(float(v)) for v in values if is_number(v) and math.isfinite(v)]
    largest = max(finite, default=0.0)
    if largest == 0.0:
        return 3
    if largest >= 1e7 or largest < 1e-4:
        return None
    digits = math.floor(math.log10(largest)) + 1
    return max(0, min(9, significant - digits))


def format_fixed(value: Any, decimals: int | None, units: str = "") -> str:
    """``value`` with ``decimals`` (None: scientific), units appended; non-numbers as text."""
    if not is_number(value):
        text = "—" if value is None else str(value)
    elif not math.isfinite(float(value)):
        text = "NaN" if math.isnan(float(value)) else ("∞" if value > 0 else "-∞")
    elif decimals is None:
        text = f"{float(value):.3e}"
    else:
        text = f"{float(value):.{decimals}f}"
        if text.startswith("-") and float(text) == 0.0:
            text = text[1:]  # "-0.000" reads as a sign error
    return f"{text} {units}".strip() if units and text not in ("—",) else text


def significant(value: float | None, digits: int = 4) -> str:
    """A computed figure (a mean, a standard deviation, a drift) to ``digits`` significant
    digits, scientific for tiny or huge values (pressures); "—" when there is none."""
    if value is None or not math.isfinite(value):
        return "—"
    if value == 0:
        return "0"
    if abs(value) < 1e-3 or abs(value) >= 1e6:
        return f"{value:.{digits - 1}e}"
    return f"{value:.{digits}g}" if abs(value) >= 1 else f"{value:.{digits}f}".rstrip("0")


def format_reading(value: Any, precision: int | None, units: str = "") -> str:
    """A live reading: the channel's own precision when it has one; an array as its summary
    ("16 values, min 0.50, max 8.00, mean 4.25 mm; first 0.50, 1.00, …")."""
    if isinstance(value, list | tuple):
        places = precision if precision is not None else _array_decimals(value)
        return format_value(list(value), places, units)
    if precision is not None and is_number(value):
        decimals = max(0, min(12, int(precision)))
        number = abs(float(value))
        # orders of magnitude below what the precision shows (a vacuum pressure of 2.3e-09
        # Torr at 2 decimals) is a value, not noise around zero: shown with its exponent
        tiny = number != 0.0 and number < 10.0 ** -(decimals + 3)
        if math.isfinite(number) and (tiny or number >= 1e7):
            return format_fixed(value, None, units)
        return format_fixed(value, decimals, units)
    if is_number(value) and not isinstance(value, int):
        return format_fixed(value, decimals_for([value]), units)
    return format_fixed(value, 0, units)


def _array_decimals(values: Any) -> int | None:
    numbers = [float(v) for v in values if is_number(v) and math.isfinite(float(v))]
    return decimals_for(numbers) if numbers else None


def format_age(seconds: float) -> str:
    """How old a reading was when answered: 0.4 s, 12 s, 3 min, 2 h, 3 d."""
    seconds = max(0.0, float(seconds))
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} d"


__all__ = [
    "decimals_for",
    "format_age",
    "format_fixed",
    "format_reading",
    "is_number",
    "significant",
]
