"""The kinds of value a channel holds, the same on every backend: numbers, enums, text, arrays.

EPICS serves five shapes of value and an operator reads each differently:

- a number (``ai``/``ao``, NTScalar double) or an integer (``longin``, NTScalar int);
- an enum (``bi``/``bo``/``mbbi``, NTEnum): read as its state name, ``EnumState("Open", 1)``,
  which compares and prints as the name and converts to its index with ``float()``/``int()``
  (so a strip chart plots the state and a limit check compares indices); written by name
  ("Open", any case) or by index (1, "1");
- text (``stringin``, a CHAR waveform holding a string, NTScalar string);
- an array (``waveform``, NTScalarArray): kept whole as a list, shown as a summary (count,
  min, max, mean, first values) and plotted against its index.

Everything here is plain Python and imports nothing of the connectors; ``base`` builds
``format_value``/``jsonable`` on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

ValueKind = Literal["number", "integer", "enum", "string", "waveform", "other"]

#: How many leading elements of an array an answer shows.
FIRST_VALUES = 5


class EnumState(str):
    """An enum channel's state: compares and prints as its name, converts to its index.

    JSON (``base.jsonable``) keeps the name only; the index is ``enum_index``.
    """

    enum_index: int

    def __new__(cls, name: str, enum_index: int) -> EnumState:
        state = super().__new__(cls, name)
        state.enum_index = int(enum_index)
        return state

    def __float__(self) -> float:
        return float(self.enum_index)

    def __int__(self) -> int:
        return self.enum_index

    def __repr__(self) -> str:
        return f"EnumState({str(self)!r}, {self.enum_index})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (EnumState, (str(self), self.enum_index))


class EnumValueError(ValueError):
    """A value that is none of an enum channel's states; the message lists them."""


def enum_state(states: Sequence[str], index: int) -> EnumState | int:
    """The named state at ``index``, or the bare index when the server names none there."""
    if 0 <= index < len(states) and states[index]:
        return EnumState(states[index], index)
    return index


def resolve_enum(channel: str, value: Any, states: Sequence[str]) -> EnumState:
    """The state a write asks for: a name (exact, then any case), an index, or its digits.

    Raises ``EnumValueError`` naming the channel and its states when nothing matches.
    """
    names = [str(s) for s in states]
    listed = ", ".join(f"{i} {n!r}" for i, n in enumerate(names) if n) or "none"
    if isinstance(value, EnumState) and 0 <= value.enum_index < len(names):
        return EnumState(names[value.enum_index], value.enum_index)
    if isinstance(value, str):
        text = value.strip()
        if text in names:
            return EnumState(text, names.index(text))
        folded = [n.casefold() for n in names]
        if text.casefold() in folded:
            index = folded.index(text.casefold())
            return EnumState(names[index], index)
        if not text.lstrip("+-").isdigit():
            raise EnumValueError(
                f"'{channel}' has no state {value!r}; its states are {listed}. Name one of "
                "them (or give its number)."
            )
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise EnumValueError(
            f"'{channel}' is an enum; {value!r} is neither a state name nor a state number "
            f"(its states are {listed})."
        )
    number = float(value)
    if not number.is_integer() or not 0 <= number < len(names):
        raise EnumValueError(f"'{channel}' has no state number {value!r}; its states are {listed}.")
    index = int(number)
    return EnumState(names[index], index)


def value_kind(value: Any) -> ValueKind:
    """What shape a reading has (see the module)."""
    if isinstance(value, EnumState):
        return "enum"
    if isinstance(value, str | bytes):
        return "string"
    if isinstance(value, bool):
        return "integer"
    if isinstance(value, int | np.integer):
        return "integer"
    if isinstance(value, float | np.floating):
        return "number"
    if isinstance(value, list | tuple | np.ndarray):
        return "waveform"
    return "other"


def waveform_summary(values: Any, first: int = FIRST_VALUES) -> dict[str, Any]:
    """Count, min, max and mean (of the finite numbers) and the first few elements."""
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    numbers = [
        float(v)
        for v in items
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(float(v))
    ]
    summary: dict[str, Any] = {"count": len(items), "first": items[:first]}
    if numbers:
        summary.update(min=min(numbers), max=max(numbers), mean=sum(numbers) / len(numbers))
    return summary


def waveform_points(values: Any) -> tuple[list[int], list[float]]:
    """An array as (index, value) series for a plot; non-numbers become NaN."""
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    out: list[float] = []
    for v in items:
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            out.append(math.nan)
    return list(range(len(out))), out


def to_float(value: Any) -> float | None:
    """A finite float from a scalar reading or a one-element array; None otherwise."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return None
        value = value.reshape(-1)[0]
    if isinstance(value, list | tuple):
        if len(value) != 1:
            return None
        value = value[0]
    if isinstance(value, bool):
        return float(value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def same_value(read: Any, written: Any, number: float | None, tolerance: float) -> bool:
    """Whether a reading shows the written value (within ``tolerance`` for numbers and enums)."""
    if number is not None:
        got = to_float(read)
        return got is not None and abs(got - number) <= tolerance
    if isinstance(written, list | tuple | np.ndarray):
        if not isinstance(read, list | tuple | np.ndarray) or len(read) != len(written):
            return False
        return all(
            same_value(r, w, to_float(w), tolerance) for r, w in zip(read, written, strict=True)
        )
    return str(read) == str(written) if isinstance(written, str) else read == written


__all__ = [
    "FIRST_VALUES",
    "EnumState",
    "EnumValueError",
    "ValueKind",
    "enum_state",
    "resolve_enum",
    "same_value",
    "to_float",
    "value_kind",
    "waveform_points",
    "waveform_summary",
]
