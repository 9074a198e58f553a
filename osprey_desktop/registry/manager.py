"""``RegistryManager``: capabilities, infrastructure nodes, context classes and connectors.

Built from the framework defaults, the default application modules, the modules named in the
config (``registry.modules``) and the ``osprey_desktop.capabilities`` entry points. A
registration module either defines ``register(registry)`` or lists ``CAPABILITIES`` (and
optionally ``CONTEXT_CLASSES`` and ``CONNECTORS``). A module that fails to import is logged
with the exception and skipped, so the application still starts.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from importlib import metadata
from types import ModuleType
from typing import Any

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.base.nodes import BaseInfrastructureNode

logger = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "osprey_desktop.capabilities"

FRAMEWORK_INFRASTRUCTURE = (
    "osprey_desktop.infrastructure.router_node:RouterNode",
    "osprey_desktop.infrastructure.task_extraction_node:TaskExtractionNode",
    "osprey_desktop.infrastructure.classification_node:ClassificationNode",
    "osprey_desktop.infrastructure.orchestration_node:OrchestrationNode",
    "osprey_desktop.infrastructure.reactive_orchestrator_node:ReactiveOrchestratorNode",
    "osprey_desktop.infrastructure.error_node:ErrorNode",
)
FRAMEWORK_CAPABILITIES = (
    "osprey_desktop.capabilities.respond:RespondCapability",
    "osprey_desktop.capabilities.clarify:ClarifyCapability",
)
DEFAULT_CAPABILITY_MODULES: tuple[str, ...] = ("osprey_desktop.capabilities.control_room",)
"""The application's own registrations, loaded after the framework defaults."""

NodeCallable = Callable[..., Any]


def _load_object(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)


class RegistryManager:
    """The lookup table every node uses; build one with ``RegistryManager.build()``."""

    def __init__(self, config: Any = None) -> None:
        # the configuration this registry was built from (None: the process-wide one)
        self.config = config
        self._capabilities: dict[str, BaseCapability] = {}
        self._infrastructure: dict[str, NodeCallable] = {}
        self._context_classes: dict[str, type] = {}
        self._connectors: dict[str, Callable[..., Any]] = {}
        self.load_errors: list[str] = []
        self.loaded_modules: list[str] = []

    # -- registration --------------------------------------------------------------------

    def register_capability(self, capability: type[BaseCapability] | BaseCapability) -> None:
        """Add a capability class (decorated with ``@capability_node`` or not)."""
        from osprey_desktop.decorators import capability_node

        cls = capability if isinstance(capability, type) else type(capability)
        if not issubclass(cls, BaseCapability):
            raise TypeError(f"{cls!r} is not a BaseCapability subclass")
        if "langgraph_node" not in cls.__dict__:
            capability_node(cls)
        if cls.name in self._capabilities and type(self._capabilities[cls.name]) is not cls:
            logger.warning(
                "capability %r from %s replaces the one from %s",
                cls.name,
                cls.__module__,
                type(self._capabilities[cls.name]).__module__,
            )
        if cls.name in self._infrastructure:
            raise ValueError(f"capability name {cls.name!r} is taken by an infrastructure node")
        self._capabilities[cls.name] = cls()

    def register_infrastructure_node(self, cls: type[BaseInfrastructureNode]) -> None:
        if "langgraph_node" not in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} needs the @infrastructure_node decorator")
        self._infrastructure[cls.name] = cls.langgraph_node  # type: ignore[attr-defined]

    def register_context_class(self, cls: type) -> None:
        context_type = getattr(cls, "CONTEXT_TYPE", "")
        if not isinstance(context_type, str) or not context_type:
            raise ValueError(f"{cls!r} has no CONTEXT_TYPE; it cannot be registered")
        self._context_classes[context_type] = cls

    def register_connector(self, name: str, factory: Callable[..., Any]) -> None:
        """A connector factory, e.g. ``register_connector("sim", make_sim_connector)``."""
        if not callable(factory):
            raise TypeError(f"connector {name!r}: factory {factory!r} is not callable")
        self._connectors[name] = factory

    # -- lookup ---------------------------------------------------------------------------

    def get_capability(self, name: str) -> BaseCapability | None:
        return self._capabilities.get(name)

    def get_all_capabilities(self) -> list[BaseCapability]:
        return list(self._capabilities.values())

    def get_node(self, name: str) -> NodeCallable | None:
        if name in self._infrastructure:
            return self._infrastructure[name]
        capability = self._capabilities.get(name)
        return type(capability).langgraph_node if capability is not None else None  # type: ignore[attr-defined]

    def get_all_nodes(self) -> dict[str, NodeCallable]:
        """Node name -> LangGraph node callable: infrastructure first, then capabilities."""
        nodes = dict(self._infrastructure)
        for name, capability in self._capabilities.items():
            nodes[name] = type(capability).langgraph_node  # type: ignore[attr-defined]
        return nodes

    def get_context_class(self, context_type: str) -> type | None:
        """This registry's class for ``context_type``, else the one declared by an import."""
        if context_type in self._context_classes:
            return self._context_classes[context_type]
        from osprey_desktop.context.base import get_context_class

        return get_context_class(context_type)

    def is_valid_context_type(self, context_type: str) -> bool:
        return self.get_context_class(context_type) is not None

    def get_connector_factory(self, name: str) -> Callable[..., Any] | None:
        return self._connectors.get(name)

    def get_connector_names(self) -> list[str]:
        return sorted(self._connectors)

    # -- loading --------------------------------------------------------------------------

    def apply_module(self, module: ModuleType | Any) -> None:
        """Run one registration module (``register(registry)`` or its ``CAPABILITIES`` list)."""
        register = getattr(module, "register", None)
        if callable(register):
            register(self)
            return
        capabilities = getattr(module, "CAPABILITIES", None)
        if capabilities is None:
            raise AttributeError(
                f"{getattr(module, '__name__', module)!r} defines neither register(registry) "
                "nor a CAPABILITIES list"
            )
        for context_class in getattr(module, "CONTEXT_CLASSES", ()) or ():
            self.register_context_class(context_class)
        for capability in capabilities:
            self.register_capability(capability)
        for name, factory in (getattr(module, "CONNECTORS", None) or {}).items():
            self.register_connector(name, factory)

    def load_module(self, module_name: str) -> bool:
        """Import and apply ``module_name``; on failure log why, remember it, return False."""
        try:
            module = importlib.import_module(module_name)
            self.apply_module(module)
        except Exception as exc:  # noqa: BLE001 - one bad plug-in must not stop the app
            message = f"capability module {module_name!r} was skipped: {type(exc).__name__}: {exc}"
            logger.warning(message)
            self.load_errors.append(message)
            return False
        self.loaded_modules.append(module_name)
        return True

    def load_entry_points(self, group: str = ENTRY_POINT_GROUP) -> None:
        for entry_point in metadata.entry_points(group=group):
            try:
                target = entry_point.load()
                if callable(target) and not isinstance(target, ModuleType):
                    target(self)
                else:
                    self.apply_module(target)
            except Exception as exc:  # noqa: BLE001
                message = (
                    f"entry point {entry_point.name!r} ({entry_point.value}) was skipped: "
                    f"{type(exc).__name__}: {exc}"
                )
                logger.warning(message)
                self.load_errors.append(message)
                continue
            self.loaded_modules.append(f"entry point {entry_point.name}")

    @classmethod
    def build(
        cls,
        modules: Iterable[str] | None = None,
        *,
        include_defaults: bool = True,
        include_entry_points: bool = True,
        config: Any = None,
    ) -> RegistryManager:
        """The framework nodes plus respond/clarify, then the application registrations.

        ``modules`` defaults to ``registry.modules`` of ``config`` (an ``AppConfig``; default:
        the process-wide configuration), which the registry keeps as ``registry.config``.
        """
        if config is not None:
            from osprey_desktop.config import AppConfig

            if not isinstance(config, AppConfig):
                raise TypeError(
                    f"RegistryManager.build needs an AppConfig, got {type(config).__name__}"
                )
        registry = cls(config)
        for path in FRAMEWORK_INFRASTRUCTURE:
            registry.register_infrastructure_node(_load_object(path))
        for path in FRAMEWORK_CAPABILITIES:
            registry.register_capability(_load_object(path))
        if include_defaults:
            for module_name in DEFAULT_CAPABILITY_MODULES:
                registry.load_module(module_name)
        if modules is None and config is not None:
            modules = list(config.registry.modules or [])
        elif modules is None:
            from osprey_desktop.state.control_settings import config_value

            modules = list(config_value("registry.modules", []) or [])
        for module_name in modules:
            registry.load_module(module_name)
        if include_entry_points:
            registry.load_entry_points()
        return registry


__all__ = [
    "DEFAULT_CAPABILITY_MODULES",
    "ENTRY_POINT_GROUP",
    "FRAMEWORK_CAPABILITIES",
    "FRAMEWORK_INFRASTRUCTURE",
    "RegistryManager",
]
