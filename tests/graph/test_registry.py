"""The registry: framework defaults, application modules, entry points, failures skipped."""

from __future__ import annotations

import logging
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.registry import (
    DEFAULT_CAPABILITY_MODULES,
    RegistryManager,
    get_registry,
    reset_registry,
)
from tests.graph.lab import build_lab_registry

FRAMEWORK_NODES = {
    "router",
    "task_extraction",
    "classifier",
    "orchestrator",
    "reactive_orchestrator",
    "error",
    "respond",
    "clarify",
}


def bare() -> RegistryManager:
    return RegistryManager.build(modules=[], include_defaults=False, include_entry_points=False)


def test_framework_defaults_give_every_node() -> None:
    registry = bare()
    assert set(registry.get_all_nodes()) == FRAMEWORK_NODES
    assert [c.name for c in registry.get_all_capabilities()] == ["respond", "clarify"]
    assert callable(registry.get_node("router")) and callable(registry.get_node("respond"))
    assert registry.get_node("nope") is None and registry.get_capability("nope") is None


def test_application_capabilities_become_nodes_and_context_types() -> None:
    registry = build_lab_registry()
    assert registry.get_capability("device_read").provides == ["LAB_READINGS"]
    assert registry.get_node("device_read") is registry.get_all_nodes()["device_read"]
    assert registry.is_valid_context_type("LAB_READINGS")
    assert registry.get_context_class("LAB_DEVICES").__name__ == "DeviceList"
    assert not registry.is_valid_context_type("NO_SUCH_TYPE")


def write_module(tmp_path: Path, name: str, body: str, monkeypatch) -> str:
    (tmp_path / f"{name}.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)
    return name


CAPABILITY_SOURCE = textwrap.dedent("""
    from osprey_desktop.base.capability import BaseCapability

    class Echo(BaseCapability):
        name = "echo"
        description = "Repeat the request"
        keywords = ["echo"]

        async def execute(self):
            return {}
""")


def test_module_with_capabilities_list_is_loaded(tmp_path, monkeypatch) -> None:
    module = write_module(
        tmp_path,
        "plugin_list",
        CAPABILITY_SOURCE + "\nCAPABILITIES = [Echo]\n"
        "CONNECTORS = {'fake': lambda config: 'connector'}\n",
        monkeypatch,
    )
    registry = RegistryManager.build(
        modules=[module], include_defaults=False, include_entry_points=False
    )
    assert registry.get_capability("echo") is not None
    assert callable(registry.get_node("echo"))  # decorated on registration
    assert registry.get_connector_factory("fake")(None) == "connector"
    assert module in registry.loaded_modules


def test_module_with_register_function_is_loaded(tmp_path, monkeypatch) -> None:
    register = textwrap.dedent("""
        def register(registry):
            registry.register_capability(Echo)
            registry.register_connector("echo_link", lambda config: config)
    """)
    module = write_module(tmp_path, "plugin_register", CAPABILITY_SOURCE + register, monkeypatch)
    registry = RegistryManager.build(
        modules=[module], include_defaults=False, include_entry_points=False
    )
    assert registry.get_capability("echo") is not None
    assert registry.get_connector_names() == ["echo_link"]


def test_module_from_config_is_loaded(tmp_path, monkeypatch, configure) -> None:
    module = write_module(
        tmp_path, "plugin_cfg", CAPABILITY_SOURCE + "\nCAPABILITIES = [Echo]\n", monkeypatch
    )
    configure({"registry": {"modules": [module]}})
    reset_registry()
    assert get_registry().get_capability("echo") is not None


def test_broken_module_is_reported_and_skipped(tmp_path, monkeypatch, caplog) -> None:
    module = write_module(
        tmp_path, "plugin_broken", "raise RuntimeError('half-written plugin')\n", monkeypatch
    )
    with caplog.at_level(logging.WARNING):
        registry = RegistryManager.build(
            modules=[module, "no_such_plugin_module"],
            include_defaults=False,
            include_entry_points=False,
        )
    assert set(registry.get_all_nodes()) == FRAMEWORK_NODES
    assert any("plugin_broken" in e and "half-written plugin" in e for e in registry.load_errors)
    assert any(
        "no_such_plugin_module" in e and "ModuleNotFoundError" in e for e in registry.load_errors
    )
    assert "plugin_broken" in caplog.text and "was skipped" in caplog.text


def test_module_without_registrations_is_reported(tmp_path, monkeypatch) -> None:
    module = write_module(tmp_path, "plugin_empty", "X = 1\n", monkeypatch)
    registry = RegistryManager.build(
        modules=[module], include_defaults=False, include_entry_points=False
    )
    assert "neither register(registry) nor a CAPABILITIES list" in registry.load_errors[0]


def test_default_application_modules_are_data() -> None:
    assert "osprey_desktop.capabilities.control_room" in DEFAULT_CAPABILITY_MODULES
    registry = RegistryManager.build(modules=[], include_entry_points=False)
    loaded = "osprey_desktop.capabilities.control_room" in registry.loaded_modules
    assert loaded or any("control_room" in e for e in registry.load_errors)


def test_entry_points_are_loaded(monkeypatch) -> None:
    from importlib import metadata

    class FakeEntryPoint:
        name = "lab"
        value = "tests.graph.lab:register"

        def load(self) -> Any:
            from tests.graph import lab

            return lambda registry: [registry.register_capability(c) for c in lab.LAB_CAPABILITIES]

    def entry_points(group: str) -> list[Any]:
        return [FakeEntryPoint()] if group == "osprey_desktop.capabilities" else []

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    registry = RegistryManager.build(modules=[], include_defaults=False)
    assert registry.get_capability("device_read") is not None
    assert "entry point lab" in registry.loaded_modules


def test_reset_registry_builds_a_new_one() -> None:
    first = get_registry()
    assert get_registry() is first
    reset_registry()
    assert get_registry() is not first


@pytest.mark.parametrize(
    ("attrs", "error", "words"),
    [
        ({"name": "Bad Name"}, ValueError, "lower-case identifier"),
        ({"name": "router"}, ValueError, "reserved"),
        ({"name": "ok_name", "description": ""}, ValueError, "description"),
        ({"requires": "CHANNELS"}, TypeError, "requires must be a list"),
        ({"requires": [("CHANNELS", "several")]}, ValueError, "'single' or 'multiple'"),
        ({"requires": [("CHANNELS",)]}, ValueError, "(context_type, 'single'|'multiple')"),
        ({"requires": [42]}, TypeError, "must be a string"),
        ({"requires": ["A", ("A", "single")]}, ValueError, "twice"),
        ({"provides": "CHANNELS"}, TypeError, "provides must be a list"),
        ({"keywords": ["ok", ""]}, TypeError, "keywords must be a list"),
    ],
)
def test_capability_declarations_are_validated(
    attrs: dict[str, Any], error: type, words: str
) -> None:
    body = {"description": "something", **attrs}
    with pytest.raises(error, match="BadCapability") as info:
        type("BadCapability", (BaseCapability,), body)
    assert words in str(info.value)


def test_required_contexts_unpack_in_requires_order() -> None:
    from tests.graph.lab import DeviceList, HistoryCapability, TimeWindow

    state = {
        "capability_context_data": {
            "LAB_DEVICES": {"d1": DeviceList(devices=["pump1"]).model_dump()},
            "LAB_WINDOW": {"w1": TimeWindow(hours=2).model_dump()},
        }
    }
    step = {"context_key": "h1", "inputs": [{"LAB_WINDOW": "w1"}, {"LAB_DEVICES": "d1"}]}
    devices, window = HistoryCapability(state, step).get_required_contexts()
    assert devices.devices == ["pump1"] and window.hours == 2


def test_missing_required_context_names_the_step() -> None:
    from osprey_desktop.base.capability import MissingInputContextError
    from tests.graph.lab import DeviceReadCapability

    capability = DeviceReadCapability(
        {"capability_context_data": {}}, {"context_key": "r1", "inputs": []}
    )
    with pytest.raises(MissingInputContextError, match="device_read could not get its inputs"):
        capability.get_required_contexts()
