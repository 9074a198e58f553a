"""``CapabilityContext``: the typed results capabilities exchange, and the class-by-type table.

A context is stored in the state as ``model_dump(mode="json")`` and rebuilt with
``model_validate``. Every subclass that declares a ``CONTEXT_TYPE`` is recorded when its class
statement runs, so validation and reconstruction know every context class that was imported.
"""

from __future__ import annotations

import logging
import threading
from abc import abstractmethod
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

logger = logging.getLogger(__name__)

_CONTEXT_CLASSES: dict[str, type[CapabilityContext]] = {}
_lock = threading.Lock()


class CapabilityContext(BaseModel):
    """Base class of every context object; subclasses set ``CONTEXT_TYPE`` and ``CONTEXT_CATEGORY``.

    Fields must be JSON-compatible (datetimes become ISO strings in the stored form); values
    are validated on construction and on assignment.
    """

    model_config = ConfigDict(
        arbitrary_types_allowed=False,
        populate_by_name=True,
        use_enum_values=True,
        validate_assignment=True,
    )

    CONTEXT_TYPE: ClassVar[str] = ""
    CONTEXT_CATEGORY: ClassVar[str] = ""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        # Only a class that declares its own type is registered: a subclass inheriting a
        # parent's CONTEXT_TYPE (or a pydantic generic parametrisation) must not replace it.
        if "CONTEXT_TYPE" in cls.__dict__:
            _register(cls)

    @property
    def context_type(self) -> str:
        """The type this object is stored under (its class's ``CONTEXT_TYPE``)."""
        return self.CONTEXT_TYPE

    @abstractmethod
    def get_access_details(self, key: str) -> dict[str, Any]:
        """How code (or the LLM) reaches this data, e.g. ``context.TYPE.key.field``."""

    def get_summary(self) -> dict[str, Any]:
        """A short, human- and LLM-readable digest; override to keep large data out of prompts.

        The default is the type plus the stored fields, which suits small contexts.
        """
        return {"type": self.CONTEXT_TYPE, **self.model_dump(mode="json")}


def _register(cls: type[CapabilityContext]) -> None:
    context_type = cls.__dict__["CONTEXT_TYPE"]
    if not isinstance(context_type, str):
        raise TypeError(
            f"{cls.__qualname__}.CONTEXT_TYPE must be a string, got {type(context_type).__name__}"
        )
    if not context_type:
        return  # an intermediate base class that leaves the type to its subclasses
    if "." in context_type or context_type.strip() != context_type:
        raise ValueError(
            f"{cls.__qualname__}.CONTEXT_TYPE {context_type!r} may not contain dots or "
            "surrounding spaces: it is used as 'TYPE.key' and as context.TYPE"
        )
    with _lock:
        previous = _CONTEXT_CLASSES.get(context_type)
        if previous is not None and _qualified_name(previous) != _qualified_name(cls):
            logger.warning(
                "Context type %r was declared by %s and is now declared by %s; the latter wins",
                context_type,
                _qualified_name(previous),
                _qualified_name(cls),
            )
        _CONTEXT_CLASSES[context_type] = cls


def _qualified_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def get_context_class(context_type: str) -> type[CapabilityContext] | None:
    """The class that declared ``context_type``, or None when none has been imported."""
    return _CONTEXT_CLASSES.get(context_type)


def get_context_types() -> list[str]:
    """Every known context type, sorted (for messages and for the registry)."""
    with _lock:
        return sorted(_CONTEXT_CLASSES)


def get_context_classes() -> dict[str, type[CapabilityContext]]:
    """A snapshot of the type-to-class table."""
    with _lock:
        return dict(_CONTEXT_CLASSES)


__all__ = [
    "CapabilityContext",
    "get_context_class",
    "get_context_classes",
    "get_context_types",
]
