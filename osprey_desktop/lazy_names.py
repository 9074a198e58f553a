"""Names a package exports, imported when first used (PEP 562).

Several packages (connectors, channels, persistence, safety, logbook) name their public
classes in ``__init__`` so callers can write ``from osprey_desktop.safety import AuditLog``; but
importing every module behind those names up front would make importing one small module of
the package (``connectors.base``, ``safety.audit_entries``) load the EPICS client, httpx,
LangGraph and numpy with it, before the window's first paint and in every command-line start.
So a package lists which module defines each name, and this module imports it on first use.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose ``exports`` maps each name to the
    module that defines it. A name, once imported, is kept on the package."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__


__all__ = ["lazy_names"]
