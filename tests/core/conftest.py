"""Fixtures shared by the core tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from osprey_desktop.context import base as context_base


@pytest.fixture
def restore_context_classes() -> Iterator[None]:
    """Defining a ``CapabilityContext`` subclass registers it process-wide: forget the classes
    a test defines once it ends, so the next test sees the registry as it was."""
    saved = dict(context_base._CONTEXT_CLASSES)
    yield
    context_base._CONTEXT_CLASSES.clear()
    context_base._CONTEXT_CLASSES.update(saved)


@pytest.fixture
def no_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The context floor as it is without a registry: a registry built by an earlier test in
    this process (its own ARCHIVER_DATA class, say) must not answer this test's lookups."""
    from osprey_desktop import catalog

    monkeypatch.setattr(catalog, "_current", None)
    monkeypatch.setattr(catalog, "_built", None)
