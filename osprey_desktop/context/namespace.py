"""``ContextNamespace``: the ``context.TYPE.key`` half of the dot notation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from osprey_desktop.context.context_manager import ContextManager


class ContextNamespace:
    """The contexts of one type: ``ns.key`` reads (rebuilt lazily), ``ns.key = obj`` stores."""

    def __init__(self, context_manager: ContextManager, context_type: str) -> None:
        object.__setattr__(self, "_context_manager", context_manager)
        object.__setattr__(self, "_context_type", context_type)

    def __getattr__(self, key: str) -> Any:
        """Get the context stored under ``key``, rebuilt as its class (or a raw view)."""
        if key.startswith("_"):
            raise AttributeError(key)
        context_obj = self._context_manager.get_context(self._context_type, key)
        if context_obj is None:
            raise AttributeError(
                f"Context '{self._context_type}' has no key '{key}'; available keys: {self._keys()}"
            )
        return context_obj

    def __setattr__(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key`` through ``ContextManager.set_context`` (validated)."""
        if key.startswith("_"):
            raise AttributeError(
                f"cannot set {key!r}: context keys may not start with an underscore"
            )
        self._context_manager.set_context(self._context_type, key, value)

    def __getitem__(self, key: str) -> Any:
        context_obj = self._context_manager.get_context(self._context_type, key)
        if context_obj is None:
            raise KeyError(key)
        return context_obj

    def __setitem__(self, key: str, value: Any) -> None:
        self._context_manager.set_context(self._context_type, key, value)

    def __contains__(self, key: object) -> bool:
        return key in self._context_manager.get_raw_data().get(self._context_type, {})

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __dir__(self) -> list[str]:
        return self._keys()

    def keys(self) -> list[str]:
        return self._keys()

    def _keys(self) -> list[str]:
        return list(self._context_manager.get_raw_data().get(self._context_type, {}))

    def __repr__(self) -> str:
        return f"ContextNamespace({self._context_type!r}, keys={self._keys()})"


__all__ = ["ContextNamespace"]
