"""A tiny laboratory domain for the agent-graph tests: contexts, capabilities, a fake machine.

The capabilities declare keywords/examples/requires/provides like real ones, so the built-in
planner is tested on declared data, not on control-room words.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from osprey_desktop.base.capability import BaseCapability
from osprey_desktop.base.errors import ErrorClassification, ErrorSeverity
from osprey_desktop.context import CapabilityContext
from osprey_desktop.decorators import capability_node
from osprey_desktop.registry import RegistryManager

MACHINE: dict[str, float] = {}
"""Device name -> value: the lab's state, which the write capability changes."""

MACHINE_DEFAULTS = {"pump1": 3.0, "pump2": 4.5, "heater1": 21.5}
CALLS: list[str] = []
"""Capability names in the order they executed (tests assert on it)."""


def reset_lab() -> None:
    MACHINE.clear()
    MACHINE.update(MACHINE_DEFAULTS)
    CALLS.clear()
    FlakyReadCapability.failures_left = 0
    BrokenCapability.message = "sensor bus jammed"


class DeviceList(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "LAB_DEVICES"
    CONTEXT_CATEGORY: ClassVar[str] = "LAB"
    devices: list[str]

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access": f"context.LAB_DEVICES.{key}.devices"}

    def get_summary(self) -> dict[str, Any]:
        return {"type": "Lab devices", "devices": self.devices, "count": len(self.devices)}


class Readings(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "LAB_READINGS"
    CONTEXT_CATEGORY: ClassVar[str] = "LAB"
    values: dict[str, float]
    units: str = "bar"

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access": f"context.LAB_READINGS.{key}.values"}

    def get_summary(self) -> dict[str, Any]:
        return {
            "type": "Lab readings",
            "readings": [
                {"device": d, "value": v, "units": self.units} for d, v in self.values.items()
            ],
        }


class TimeWindow(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "LAB_WINDOW"
    CONTEXT_CATEGORY: ClassVar[str] = "LAB"
    hours: float

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access": f"context.LAB_WINDOW.{key}.hours"}


class History(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "LAB_HISTORY"
    CONTEXT_CATEGORY: ClassVar[str] = "LAB"
    devices: list[str]
    hours: float
    points: int

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access": f"context.LAB_HISTORY.{key}"}


class WriteResult(CapabilityContext):
    CONTEXT_TYPE: ClassVar[str] = "LAB_WRITE"
    CONTEXT_CATEGORY: ClassVar[str] = "LAB"
    device: str
    value: float

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {"access": f"context.LAB_WRITE.{key}"}


def _devices_in(text: str) -> list[str]:
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    found = [d for d in MACHINE if d in words]
    if found:
        return found
    kinds = {re.sub(r"\d+$", "", d) for d in MACHINE}
    wanted = {k for k in kinds if k in words or f"{k}s" in words}
    return [d for d in MACHINE if re.sub(r"\d+$", "", d) in wanted]


@capability_node
class DeviceLookupCapability(BaseCapability):
    name = "device_lookup"
    description = "Find lab devices by name or kind"
    provides = ["LAB_DEVICES"]
    requires: ClassVar[list[Any]] = []
    keywords = ["device", "devices", "find", "lookup", "which"]
    examples = ["find the pump devices", "which heaters are there"]

    async def execute(self) -> dict[str, Any]:
        CALLS.append(self.name)
        devices = _devices_in(self.get_task_objective())
        if not devices:
            raise ValueError(f"no lab device matches {self.get_task_objective()!r}")
        return self.store_output_context(DeviceList(devices=devices))


@capability_node
class DeviceReadCapability(BaseCapability):
    name = "device_read"
    description = "Read the current value of lab devices"
    provides = ["LAB_READINGS"]
    requires: ClassVar[list[Any]] = [("LAB_DEVICES", "single")]
    keywords = ["read", "value", "pressure", "current value"]
    examples = ["read the pump pressure", "what is the value of heater1"]

    async def execute(self) -> dict[str, Any]:
        CALLS.append(self.name)
        (devices,) = self.get_required_contexts()
        return self.store_output_context(Readings(values={d: MACHINE[d] for d in devices.devices}))


@capability_node
class WindowParseCapability(BaseCapability):
    name = "window_parse"
    description = "Understand a time window such as 'last 3 hours'"
    provides = ["LAB_WINDOW"]
    keywords = ["hours", "hour", "since"]
    examples = ["over the last 2 hours"]

    async def execute(self) -> dict[str, Any]:
        CALLS.append(self.name)
        match = re.search(r"(\d+(?:\.\d+)?)\s*hours?", self.get_task_objective())
        hours = float(match.group(1)) if match else 1.0
        return self.store_output_context(TimeWindow(hours=hours))


@capability_node
class HistoryCapability(BaseCapability):
    name = "history_fetch"
    description = "Fetch the recorded history of lab devices"
    provides = ["LAB_HISTORY"]
    requires: ClassVar[list[Any]] = ["LAB_DEVICES", ("LAB_WINDOW", "single")]
    keywords = ["history", "trend", "plot"]
    examples = ["plot the pump history over the last 2 hours"]

    async def execute(self) -> dict[str, Any]:
        CALLS.append(self.name)
        devices, window = self.get_required_contexts()
        names = (
            devices.devices
            if hasattr(devices, "devices")
            else [n for d in devices for n in d.devices]
        )
        return self.store_output_context(
            History(devices=names, hours=window.hours, points=int(window.hours * 60))
        )


@capability_node
class DeviceWriteCapability(BaseCapability):
    name = "device_write"
    description = "Set a lab device to a new value"
    provides = ["LAB_WRITE"]
    requires: ClassVar[list[Any]] = [("LAB_DEVICES", "single")]
    keywords = ["set", "write", "change"]
    examples = ["set pump1 to 5"]
    writes = True
    handles_own_approval = True

    async def execute(self) -> dict[str, Any]:
        (devices,) = self.get_required_contexts()
        match = re.search(r"to\s+(-?\d+(?:\.\d+)?)", self.get_task_objective())
        if not match:
            raise ValueError("no target value: say 'set <device> to <value>'")
        device, value = devices.devices[0], float(match.group(1))
        decision = self.request_approval(
            f"Write **{value}** to `{device}` (now {MACHINE[device]})",
            "channel_write",
            device=device,
            value=value,
        )
        CALLS.append(self.name)
        if not decision.approved:
            return {}
        approved = decision.payload or {}
        MACHINE[approved["device"]] = float(approved["value"])
        return self.store_output_context(
            WriteResult(device=approved["device"], value=float(approved["value"]))
        )


@capability_node
class FlakyReadCapability(BaseCapability):
    """Fails with ConnectionError ``failures_left`` times, then reads a fixed value."""

    name = "flaky_read"
    description = "Read the vacuum gauge over an unreliable link"
    provides = ["LAB_READINGS"]
    keywords = ["vacuum", "gauge"]
    failures_left: ClassVar[int] = 0

    async def execute(self) -> dict[str, Any]:
        CALLS.append(self.name)
        if FlakyReadCapability.failures_left > 0:
            FlakyReadCapability.failures_left -= 1
            raise ConnectionError("gauge link dropped")
        return self.store_output_context(Readings(values={"gauge1": 1.5e-9}, units="mbar"))


@capability_node
class BrokenCapability(BaseCapability):
    name = "calibrate"
    description = "Calibrate the lab sensors"
    keywords = ["calibrate", "calibration"]
    requires: ClassVar[list[Any]] = [("LAB_READINGS", "single")]
    message: ClassVar[str] = "sensor bus jammed"

    async def execute(self) -> dict[str, Any]:
        CALLS.append(self.name)
        raise RuntimeError(BrokenCapability.message)

    @staticmethod
    def classify_error(exc: BaseException, context: dict[str, Any]) -> ErrorClassification:
        return ErrorClassification(
            severity=ErrorSeverity.CRITICAL,
            user_message=f"calibration failed: {exc}",
            metadata={"suggestion": "Power-cycle the sensor bus, then ask again."},
        )


LAB_CAPABILITIES = [
    DeviceLookupCapability,
    DeviceReadCapability,
    WindowParseCapability,
    HistoryCapability,
    DeviceWriteCapability,
    FlakyReadCapability,
    BrokenCapability,
]


def build_lab_registry(*extra: type[BaseCapability]) -> RegistryManager:
    """Framework nodes + the lab capabilities; no application modules, no entry points."""
    registry = RegistryManager.build(modules=[], include_defaults=False, include_entry_points=False)
    for cls in [*LAB_CAPABILITIES, *extra]:
        registry.register_capability(cls)
    return registry
