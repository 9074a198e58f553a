"""Capability contexts: typed results stored as JSON-able dicts in the agent state."""

from osprey_desktop.context.base import (
    CapabilityContext,
    get_context_class,
    get_context_classes,
    get_context_types,
)
from osprey_desktop.context.context_manager import ContextManager
from osprey_desktop.context.loader import load_context
from osprey_desktop.context.namespace import ContextNamespace
from osprey_desktop.context.raw import AttributeView, RawContext

__all__ = [
    "AttributeView",
    "CapabilityContext",
    "ContextManager",
    "ContextNamespace",
    "RawContext",
    "get_context_class",
    "get_context_classes",
    "get_context_types",
    "load_context",
]
