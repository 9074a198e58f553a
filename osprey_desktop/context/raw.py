"""Read-only view of stored context data whose class is not available in this process.

A ``context.json`` written by another installation, or by a capability whose module is not
imported, still has to be readable: ``context.TYPE.key.field`` works on this view, as do
``view["field"]``, ``in``, iteration and ``get``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


def _wrap(value: Any) -> Any:
    if isinstance(value, Mapping):
        return AttributeView(value)
    if isinstance(value, list):
        return [_wrap(item) for item in value]
    return value


class AttributeView:
    """Attribute and item access over a JSON-like dict, without copying or changing it.

    A stored field takes precedence over a method of the same name (``view.values`` is the
    field when there is one); item access (``view["values"]``) is always the field.
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", data)

    def __getattribute__(self, name: str) -> Any:
        # Stored fields win over the helper methods: archiver data has a field named "values".
        if not name.startswith("_"):
            data = object.__getattribute__(self, "_data")
            if name in data:
                return _wrap(data[name])
        return object.__getattribute__(self, name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            # private names (and a half-built object during copy/pickle) never reach the data
            raise AttributeError(name)
        raise AttributeError(f"no field {name!r}; available fields: {sorted(map(str, self._data))}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            f"cannot set {name!r}: this is a read-only view of stored context data"
        )

    def __getitem__(self, name: str) -> Any:
        return _wrap(self._data[name])

    def __contains__(self, name: object) -> bool:
        return name in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __dir__(self) -> list[str]:
        return sorted({*map(str, self._data), *super().__dir__()})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AttributeView):
            return self._data == other._data
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> Any:
        return self._data.keys()

    def items(self) -> list[tuple[str, Any]]:
        return [(k, _wrap(v)) for k, v in self._data.items()]

    def values(self) -> list[Any]:
        return [_wrap(v) for v in self._data.values()]

    def get(self, name: str, default: Any = None) -> Any:
        return _wrap(self._data[name]) if name in self._data else default

    def to_dict(self) -> dict[str, Any]:
        """The underlying data as a new plain dict (shallow copy)."""
        return dict(self._data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self._data)!r})"


class RawContext(AttributeView):
    """Stored data of one context whose type has no known ``CapabilityContext`` class.

    ``load_problem`` says why it is raw (no class, or the data did not validate against it).
    """

    __slots__ = ("_context_type", "_problem")

    def __init__(self, context_type: str, data: Mapping[str, Any], problem: str = "") -> None:
        super().__init__(data)
        object.__setattr__(self, "_context_type", context_type)
        object.__setattr__(self, "_problem", problem)

    @property
    def context_type(self) -> str:
        return self._context_type

    @property
    def CONTEXT_TYPE(self) -> str:  # noqa: N802 - mirrors CapabilityContext.CONTEXT_TYPE
        return self._context_type

    @property
    def load_problem(self) -> str:
        return self._problem

    def model_dump(self, mode: str = "python") -> dict[str, Any]:
        """Same call as on a CapabilityContext, so a raw context can be stored back unchanged."""
        return dict(self._data)

    def get_summary(self) -> dict[str, Any]:
        return {"type": self._context_type, **self._data}

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "access_pattern": f"context.{self._context_type}.{key}",
            "fields": sorted(map(str, self._data)),
            "note": self._problem or "raw stored data (no context class loaded)",
        }

    def __repr__(self) -> str:
        return f"RawContext({self._context_type!r}, {dict(self._data)!r})"


__all__ = ["AttributeView", "RawContext"]
