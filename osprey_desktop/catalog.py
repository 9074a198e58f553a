"""What the running graph registered, as seen from the floors below the registry.

The context manager needs a context-type lookup, the approval policy must know whether a
capability named in a plan writes to the machine, and a failing step must know whether a
``clarify`` node exists to ask its question. Those answers live in the registry, which sits
above them (it imports capabilities, which import the context and the approval). Rather than
import upwards, the lower floors ask this module, and the registry installs the source of
answers when it is imported (``osprey_desktop.registry`` calls :func:`install_source`).

With no source installed (a context or approval test that never builds a registry) every
lookup answers "nothing registered": context classes then come from the imported
``CapabilityContext`` subclasses, and an unknown capability is treated as a writer, so the
approval policy fails closed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Catalog(Protocol):
    """The part of a registry the lower floors may consult (``RegistryManager`` has it)."""

    def get_context_class(self, context_type: str) -> type | None: ...

    def get_capability(self, name: str) -> Any | None: ...

    def get_node(self, name: str) -> Any | None: ...


# Two sources, as the registry has two ways to be reached: ``current`` never builds one
# (cheap lookups such as a context class), ``built`` builds the process registry on first use
# (decisions that must not guess, such as whether a capability writes).
_current: Callable[[], Catalog | None] | None = None
_built: Callable[[], Catalog] | None = None


def install_source(
    current: Callable[[], Catalog | None], built: Callable[[], Catalog] | None = None
) -> None:
    """Make ``current()`` (and ``built()``, default: ``current``) the registry lookups."""
    global _current, _built
    _current = current
    _built = built


def current_catalog() -> Catalog | None:
    """The running graph's registry, else the process registry if built; never builds one."""
    return _current() if _current is not None else None


def built_catalog() -> Catalog | None:
    """The running graph's registry, else the process registry (built on first use).

    None only when no registry package was imported in this process.
    """
    if _built is not None:
        return _built()
    return current_catalog()


__all__ = ["Catalog", "built_catalog", "current_catalog", "install_source"]
