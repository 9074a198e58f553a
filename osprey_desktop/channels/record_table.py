"""A list's channel records held as columns, each record built when something asks for it.

A kept index (``channels.index_cache``) used to hold 100,000 pydantic ``ChannelRecord``
objects; unpickling them was most of a cold start (a dict per record, then pydantic's
``__setstate__``). ``RecordTable`` pickles as one plain list per field (a field with one value
for every channel is one value), so reading it back makes a few lists of strings, and a
request builds only the records of the channels it looks at (``table[i]``; ``name(i)`` and
``names`` do not build one). A table made from records in memory keeps them as they are.

The database, its shape table and its finders all share one table, so a kept index holds each
channel once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, overload

from osprey_desktop.channels.records import AlarmLimits, ChannelLimits, ChannelRecord

__all__ = ["RecordTable", "record_table"]

_FIELDS = tuple(ChannelRecord.model_fields)
_DEFAULTS = {name: field.default for name, field in ChannelRecord.model_fields.items()}
_NO_LIMITS = ChannelLimits()
_SEP = "\x00"


class RecordTable(Sequence[ChannelRecord]):
    """The records of one list in their order, as columns (see the module's docstring)."""

    def __init__(self, records: Sequence[ChannelRecord]) -> None:
        self._built: list[ChannelRecord | None] = list(records)
        self._names = [record.name for record in self._built]  # type: ignore[union-attr]
        self._columns: dict[str, Any] | None = None
        self._positions: dict[str, int] | None = None

    # ----- the sequence ---------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._names)

    @overload
    def __getitem__(self, index: int) -> ChannelRecord: ...
    @overload
    def __getitem__(self, index: slice) -> list[ChannelRecord]: ...
    def __getitem__(self, index: int | slice) -> ChannelRecord | list[ChannelRecord]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        record = self._built[index]
        if record is None:
            record = self._built[index] = self._build(index)
        return record

    def __iter__(self) -> Iterator[ChannelRecord]:
        for index in range(len(self._names)):
            yield self[index]

    # ----- without building records ---------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Every channel's name, in the list's order (the table's own list: do not change)."""
        return self._names

    def name(self, index: int) -> str:
        return self._names[index]

    def position(self, name: str) -> int | None:
        """Where the channel named exactly ``name`` is, or None."""
        if self._positions is None:
            self._positions = {n: i for i, n in enumerate(self._names)}
        return self._positions.get(name)

    def column(self, field: str) -> list[Any]:
        """One field of every channel (built from the columns when records are not built)."""
        columns = self._columns
        if columns is None or field not in columns:
            return [getattr(self[i], field) for i in range(len(self))]
        return _expand(columns[field], len(self))

    # ----- pickling -------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        if self._columns is None and any(type(r) is not ChannelRecord for r in self._built):
            return {"names": self._names, "records": self._built}  # records of their own kind
        if self._columns is None:
            self._columns = _columns_of(self._built, len(self._names))  # type: ignore[arg-type]
        return {"names": _joined(self._names), "columns": self._columns}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._names = _split(state["names"])
        self._columns = state.get("columns")
        self._built = state.get("records") or [None] * len(self._names)
        self._positions = None

    def _build(self, index: int) -> ChannelRecord:
        assert self._columns is not None  # a record is missing only after unpickling
        values: dict[str, Any] = {"name": self._names[index]}
        for field, column in self._columns.items():
            value = _value(column, index)
            if field == "limits":
                value = _limits(value)
            elif field == "synonyms":
                value = tuple(value)
            values[field] = value
        return ChannelRecord.model_construct(**values)


def record_table(records: Sequence[ChannelRecord]) -> RecordTable:
    """``records`` as a table: the same table when it is one already."""
    return records if isinstance(records, RecordTable) else RecordTable(records)


# A column is ("all", value) when every channel has the same value, ("some", default,
# {index: value}) when few differ from it, else ["each", [value, ...]] (strings kept as one
# text until a record is built).
def _columns_of(records: Sequence[ChannelRecord], count: int) -> dict[str, Any]:
    columns: dict[str, Any] = {}
    for field in _FIELDS:
        if field == "name":
            continue
        values = [getattr(record, field) for record in records]
        if field == "limits":
            values = [None if v == _NO_LIMITS else _limits_tuple(v) for v in values]
        if field == "synonyms":
            values = [tuple(v) for v in values]
        columns[field] = _column(values, count)
    return columns


def _column(values: list[Any], count: int) -> tuple[Any, ...]:
    if not values:
        return ("all", None)
    first = values[0]
    if all(v == first for v in values):
        return ("all", first)
    keys = [_hashable(v) for v in values]
    common, times = Counter(keys).most_common(1)[0]
    if count - times < count // 4:
        default = values[keys.index(common)]
        differing = {i: v for i, (k, v) in enumerate(zip(keys, values, strict=True)) if k != common}
        return ("some", default, differing)
    return ["each", _joined(values)]


def _joined(values: list[Any]) -> Any:
    """Strings as one text (one object to read back, not one per channel), else as they are."""
    if all(type(v) is str for v in values):
        text = _SEP.join(values)
        if text.count(_SEP) == len(values) - 1:
            return (text, len(values))
    return values


def _split(kept: Any) -> list[Any]:
    if isinstance(kept, tuple):
        text, count = kept
        return text.split(_SEP) if count else []
    return kept


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _value(column: tuple[Any, ...], index: int) -> Any:
    kind = column[0]
    if kind == "all":
        return column[1]
    if kind == "some":
        return column[2].get(index, column[1])
    if isinstance(column[1], tuple):  # read back: split once
        column[1] = _split(column[1])
    return column[1][index]


def _expand(column: tuple[Any, ...], count: int) -> list[Any]:
    kind = column[0]
    if kind == "all":
        return [column[1]] * count
    if kind == "some":
        values = [column[1]] * count
        for index, value in column[2].items():
            values[index] = value
        return values
    return list(_split(column[1]))


def _limits_tuple(limits: ChannelLimits) -> tuple[Any, ...]:
    alarm = limits.alarm
    alarm_values = None if alarm is None else (alarm.lolo, alarm.low, alarm.high, alarm.hihi)
    return (limits.display, limits.control, alarm_values)


def _limits(value: tuple[Any, ...] | None) -> ChannelLimits:
    if value is None:
        return _NO_LIMITS
    display, control, alarm = value
    alarm_limits = (
        None
        if alarm is None
        else AlarmLimits.model_construct(lolo=alarm[0], low=alarm[1], high=alarm[2], hihi=alarm[3])
    )
    return ChannelLimits.model_construct(display=display, control=control, alarm=alarm_limits)
