"""History rows of channels that are not plain numbers: enum states, texts and waveforms.

A mean of enum indices (0.333 for a valve that was open a third of the time) or of a text is
meaningless, and a waveform flattened into one mean hides which element moved. So:

- an **enum** shows its state names: the last state, every state seen with how many samples
  were in it, and how many times it changed;
- a **string** shows its texts the same way;
- a **waveform** shows the last array's summary, the range over every element and sample,
  and a summary per element (its range over time) for the first elements and the one that
  moved most.

Gaps (a sample without a value: disconnected, INVALID, the Channel Archiver's special codes)
are counted and said, never skipped silently. Everything is plain Python over the values of an
ARCHIVER_DATA context.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from osprey_desktop.answers.model import Cell
from osprey_desktop.answers.numbers import decimals_for, format_fixed

#: The kinds these rows are for (``ArchiverDataContext.kinds``).
STATE_KINDS = ("enum", "string", "waveform")
#: Elements of a waveform described one by one in the note (the one that moved most is added).
SHOWN_ELEMENTS = 3
SHOWN_STATES = 4
DASH = "—"


def is_gap(value: Any) -> bool:
    """A sample without a value (None, NaN)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def state_name(value: Any, labels: Sequence[str]) -> str:
    """The label of an enum index (``state 3`` when the archive names none)."""
    try:
        index = int(value)
    except (TypeError, ValueError):
        return str(value)
    if 0 <= index < len(labels) and labels[index]:
        return str(labels[index])
    return f"state {index}"


def gap_note(values: Sequence[Any] | int) -> str:
    """ "2 samples without a value (gap or INVALID)" or "" (``values``: the samples, or the
    number of gaps already counted)."""
    gaps = values if isinstance(values, int) else sum(1 for v in values if is_gap(v))
    if not gaps:
        return ""
    return f"{gaps} sample{'s' if gaps != 1 else ''} without a value (gap or INVALID)"


def state_row(
    channel: str, values: Sequence[Any], kind: str, labels: Sequence[str], unit: str = ""
) -> list[Cell]:
    """The history row of an enum, string or waveform channel (see the module)."""
    present = [v for v in values if not is_gap(v)]
    if not present:
        return [Cell(channel), *(Cell(DASH) for _ in range(4)), Cell(_nothing(values))]
    if kind == "waveform":
        return _waveform_row(channel, values, present, unit)
    shown = [state_name(v, labels) if kind == "enum" else str(v) for v in present]
    counts = Counter(shown)
    changes = sum(1 for a, b in zip(shown, shown[1:], strict=False) if a != b)
    listed = ", ".join(f"{text} ({n})" for text, n in counts.most_common(SHOWN_STATES))
    more = len(counts) - SHOWN_STATES
    if more > 0:
        listed += f", and {more} more"
    word = "states" if kind == "enum" else "texts"
    notes = [f"{word}: {listed}; {changes} change{'s' if changes != 1 else ''}"]
    notes.append(gap_note(values))
    return [
        Cell(channel, hint=f"{len(values)} points ({kind})"),
        Cell(shown[-1]),
        Cell(DASH),
        Cell(DASH),
        Cell(DASH),
        Cell("; ".join(n for n in notes if n)),
    ]


def _numbers(array: Any) -> list[float]:
    out = []
    for item in array if isinstance(array, list | tuple) else [array]:
        try:
            number = float(item)
        except (TypeError, ValueError):
            continue
        if math.isfinite(number):
            out.append(number)
    return out


def element_ranges(arrays: Sequence[Any]) -> list[tuple[float, float] | None]:
    """(min, max) over time of each element of a waveform history (None: never a number)."""
    width = max((len(a) for a in arrays if isinstance(a, list | tuple)), default=0)
    ranges: list[tuple[float, float] | None] = []
    for index in range(width):
        column = [
            float(a[index])
            for a in arrays
            if isinstance(a, list | tuple)
            and index < len(a)
            and isinstance(a[index], int | float)
            and math.isfinite(float(a[index]))
        ]
        ranges.append((min(column), max(column)) if column else None)
    return ranges


def _waveform_row(
    channel: str, values: Sequence[Any], present: Sequence[Any], unit: str
) -> list[Cell]:
    everything = [n for array in present for n in _numbers(array)]
    last = _numbers(present[-1])
    if not everything:  # arrays of text
        return [
            Cell(channel, hint=f"{len(values)} points (waveform)"),
            Cell(f"{len(present[-1]) if isinstance(present[-1], list) else 1} values"),
            *(Cell(DASH) for _ in range(3)),
            Cell(gap_note(values)),
        ]
    places = decimals_for(everything)
    count = len(present[-1]) if isinstance(present[-1], list | tuple) else 1
    last_text = f"{count} values, mean " + (
        format_fixed(sum(last) / len(last), places, unit) if last else DASH
    )
    ranges = element_ranges(present)
    described = [
        f"[{i}] {format_fixed(r[0], places)}–{format_fixed(r[1], places)}"
        for i, r in enumerate(ranges[:SHOWN_ELEMENTS])
        if r is not None
    ]
    spans = [(r[1] - r[0], i) for i, r in enumerate(ranges) if r is not None]
    note = f"per element over {len(present)} samples: " + ", ".join(described)
    if len(ranges) > SHOWN_ELEMENTS:
        note += ", …"
    if spans:
        span, index = max(spans)
        if span > 0:
            low, high = ranges[index] or (0.0, 0.0)
            note += (
                f"; element [{index}] moved most ({format_fixed(low, places)} to "
                f"{format_fixed(high, places, unit)})"
            )
        else:
            note += "; no element changed"
    gaps = gap_note(values)
    return [
        Cell(channel, hint=f"{len(values)} points (waveform of {count})"),
        Cell(last_text),
        Cell(format_fixed(min(everything), places, unit), numeric=True),
        Cell(format_fixed(max(everything), places, unit), numeric=True),
        Cell(format_fixed(sum(everything) / len(everything), places, unit), numeric=True),
        Cell("; ".join(n for n in (note, gaps) if n)),
    ]


def _nothing(values: Sequence[Any]) -> str:
    if not values:
        return "no samples archived in this range"
    return f"only gaps: {gap_note(values)}"


__all__ = [
    "STATE_KINDS",
    "element_ranges",
    "gap_note",
    "is_gap",
    "state_name",
    "state_row",
]
