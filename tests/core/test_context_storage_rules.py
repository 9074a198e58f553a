"""The reducer's copying rules, summaries without kept objects, and registry-scoped classes."""

from __future__ import annotations

import gc
import weakref
from typing import Any, ClassVar

from osprey_desktop.context import CapabilityContext, ContextManager
from osprey_desktop.context import base as context_base
from osprey_desktop.context.raw import RawContext
from osprey_desktop.registry import RegistryManager, registry_scope
from osprey_desktop.state import merge_capability_context_data


def containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value`` (itself included)."""
    found = [value] if isinstance(value, dict | list) else []
    children = (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    )
    for child in children:
        found += containers(child)
    return found


def test_merge_into_nothing_shares_no_object_with_new() -> None:
    new = {"PV": {"step1": {"pvs": ["SR:C01"], "meta": {"units": "A"}}}}
    merged = merge_capability_context_data(None, new)
    assert merged == new
    ours = {id(c) for c in containers(merged)}
    assert not ours & {id(c) for c in containers(new)}
    new["PV"]["step1"]["pvs"].append("changed later")
    assert merged["PV"]["step1"]["pvs"] == ["SR:C01"]


def test_merge_shares_untouched_entries_of_existing_and_copies_new_ones() -> None:
    existing = {"PV": {"a": {"v": [1]}, "b": {"v": [2]}}, "OTHER": {"x": {"v": 0}}}
    new = {"PV": {"b": {"v": [3]}}}
    merged = merge_capability_context_data(existing, new)
    assert merged["PV"]["a"] is existing["PV"]["a"]
    assert merged["OTHER"] is existing["OTHER"]
    assert merged["PV"]["b"] == {"v": [3]} and merged["PV"]["b"] is not new["PV"]["b"]
    assert merged["PV"]["b"]["v"] is not new["PV"]["b"]["v"]
    assert existing["PV"]["b"] == {"v": [2]}


def test_entries_handed_back_equal_keep_the_stored_objects() -> None:
    existing = {"PV": {f"k{i}": {"v": i} for i in range(100)}}
    echoed = {"PV": {f"k{i}": {"v": i} for i in range(100)}}  # read back, sent again
    merged = merge_capability_context_data(existing, echoed)
    assert merged["PV"] is existing["PV"]


class Probe(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "SUMMARY_PROBE"
    value: float

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"value": f"context.SUMMARY_PROBE.{key}.value"}


def test_get_summaries_leaves_no_context_object_alive() -> None:
    """Kept objects are what made the collector walk them again and again (140 ms for 10,000
    contexts with the gc on); none may outlive the call."""
    state = {
        "capability_context_data": {"SUMMARY_PROBE": {f"k{i}": {"value": i} for i in range(500)}}
    }
    manager = ContextManager(state)
    refs: list[weakref.ref] = []
    original = Probe.get_summary

    def tracking(self: Probe) -> dict[str, Any]:
        refs.append(weakref.ref(self))
        return original(self)

    Probe.get_summary = tracking  # type: ignore[method-assign]
    try:
        summaries = manager.get_summaries()
    finally:
        Probe.get_summary = original  # type: ignore[method-assign]
    gc.collect()
    assert len(summaries) == 500 and summaries[3] == {"type": "SUMMARY_PROBE", "value": 3.0}
    assert len(refs) == 500 and all(ref() is None for ref in refs)


def test_context_classes_come_from_the_registry_table(restore_context_classes: None) -> None:
    class Scoped(CapabilityContext):
        CONTEXT_TYPE: ClassVar[str] = "ONLY_IN_REGISTRY"
        level: int

        def get_access_details(self, key: str) -> dict[str, Any]:
            return {}

    context_base._CONTEXT_CLASSES.pop("ONLY_IN_REGISTRY")  # known to one registry only
    registry = RegistryManager()
    registry.register_context_class(Scoped)
    state = {"capability_context_data": {"ONLY_IN_REGISTRY": {"k": {"level": 3}}}}

    assert isinstance(ContextManager(state).get_context("ONLY_IN_REGISTRY", "k"), RawContext)
    explicit = ContextManager(state, registry=registry).get_context("ONLY_IN_REGISTRY", "k")
    assert isinstance(explicit, Scoped) and explicit.level == 3
    with registry_scope(registry):
        manager = ContextManager(state)
        assert isinstance(manager.get_context("ONLY_IN_REGISTRY", "k"), Scoped)
        manager.set_context("ONLY_IN_REGISTRY", "k2", Scoped(level=4))
    assert manager.get_raw_data()["ONLY_IN_REGISTRY"]["k2"] == {"level": 4}
