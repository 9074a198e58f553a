"""The process registry: ``get_registry()`` builds it once; ``reset_registry()`` for tests.

While a graph built by ``create_graph(registry)`` runs, its nodes see that registry through
``get_registry()`` (a context variable), so two graphs with different registries can coexist.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator

from osprey_desktop.catalog import install_source
from osprey_desktop.registry.manager import (
    DEFAULT_CAPABILITY_MODULES,
    ENTRY_POINT_GROUP,
    RegistryManager,
)

_lock = threading.RLock()
_registry: RegistryManager | None = None
_scoped: contextvars.ContextVar[RegistryManager | None] = contextvars.ContextVar(
    "osprey_desktop_registry", default=None
)


def get_registry() -> RegistryManager:
    """The registry of the running graph, else the process registry (built on first use)."""
    scoped = _scoped.get()
    if scoped is not None:
        return scoped
    global _registry
    with _lock:
        if _registry is None:
            _registry = RegistryManager.build()
        return _registry


def current_registry() -> RegistryManager | None:
    """The registry of the running graph, else the process registry if built; never builds.

    For lookups that must stay cheap and import-free (``ContextManager``'s context classes).
    """
    scoped = _scoped.get()
    return scoped if scoped is not None else _registry


# The floors below the registry (context, approval, clarification) ask through the catalog.
install_source(current_registry, get_registry)


def set_registry(registry: RegistryManager | None) -> None:
    """Replace the process registry (None: rebuild on next use)."""
    global _registry
    with _lock:
        _registry = registry


def reset_registry() -> None:
    """Forget the process registry; the next ``get_registry()`` builds it again."""
    set_registry(None)


@contextlib.contextmanager
def registry_scope(registry: RegistryManager) -> Iterator[RegistryManager]:
    """Make ``registry`` what ``get_registry()`` returns inside the block (this task only)."""
    token = _scoped.set(registry)
    try:
        yield registry
    finally:
        _scoped.reset(token)


__all__ = [
    "DEFAULT_CAPABILITY_MODULES",
    "ENTRY_POINT_GROUP",
    "RegistryManager",
    "current_registry",
    "get_registry",
    "registry_scope",
    "reset_registry",
    "set_registry",
]
