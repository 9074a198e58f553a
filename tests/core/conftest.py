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
