"""One place that decides whether a write may happen: master switch, limits, fail closed.

``channel_write`` asks ``WritePolicy.evaluate`` twice: before requesting approval (so the
approval payload shows the current value, the limits and any violation) and again right before
writing (the machine may have moved while the operator read the dialog). The decision is
refused whenever it cannot be made: writes switched off, limits file missing or corrupt,
channel unknown or read-only, current value unreadable, value not a number.

A broken limits file never raises here: ``from_config`` keeps the ``LimitsConfigError`` line,
and every check then comes back ``allowed=False`` with ``config_error`` set to that line (the
write path's outcome word is ``blocked``), before any channel is read.

Usage::

    policy = WritePolicy.from_config(writes_enabled=state_agent_control["writes_enabled"])
    check = await policy.evaluate(connector, "SR01C:HCM01:Current:SP", 1.5)
    if not check.allowed: ...   # check.violation says why, check.limits what applied,
                                # check.config_error the broken limits file (else None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from osprey_desktop.connectors.base import (
    ConnectorError,
    ControlSystemConnector,
    to_float,
)
from osprey_desktop.safety.limits import (
    LimitsDatabase,
    LimitsError,
    WriteCheck,
    load_limits_database,
)

if TYPE_CHECKING:
    from osprey_desktop.config import AppConfig


#: The refusal of every write in a read-only process; the same words wherever it is refused.
READ_ONLY_MESSAGE = "read-only: writes are disabled (--read-only / control_system.read_only)"


def writes_disabled_message(
    connector_type: str | None = None, *, switched_off_everywhere: bool = False
) -> str:
    """Why writes are refused when the configured system is not armed, and how to arm it.

    Each system has its own switch (``control_system.<type>.writes_enabled``), so arming the
    simulated ring never arms EPICS; the former single ``control_system.writes_enabled: false``
    disarms them all.
    """
    from osprey_desktop.config import CONFIG_ENV_VAR, user_config_path

    kind = connector_type or "sim"
    where = (
        f"in the config file (--config, ${CONFIG_ENV_VAR}, or {user_config_path()}) and "
        "restart Osprey Desktop."
    )
    if switched_off_everywhere:
        return (
            "Writes to every control system are switched off by "
            "`control_system.writes_enabled: false`. To enable them, remove that key and set "
            f"`control_system.{kind}.writes_enabled: true` {where}"
        )
    default = " (off by default for EPICS)" if kind == "epics" else ""
    return (
        f"Writes to the control system are disabled{default}. To enable them, set "
        f"`control_system.{kind}.writes_enabled: true` {where}"
    )


class WritePolicy:
    """Master switch + limits database + fail-closed reading of the current value."""

    def __init__(
        self,
        writes_enabled: bool,
        limits: LimitsDatabase | None,
        limits_error: str | None = None,
        connector_type: str | None = None,
        *,
        read_only: bool = False,
        switched_off_everywhere: bool = False,
    ) -> None:
        if limits is None and limits_error is None:
            limits_error = "No write limits database is loaded"
        self.read_only = read_only
        self.switched_off_everywhere = switched_off_everywhere
        self.writes_enabled = writes_enabled and not read_only
        self.limits = limits
        self.limits_error = limits_error
        self.connector_type = connector_type

    @classmethod
    def from_config(
        cls, config: AppConfig | None = None, writes_enabled: bool | None = None
    ) -> WritePolicy:
        """Build from the config; ``writes_enabled`` (the thread's copy) may only disarm.

        A thread started while the simulated ring was armed keeps ``writes_enabled: true`` in
        its state; after a switch to EPICS that copy must not arm the machine, so the config's
        arming of the configured system always has the last word.
        """
        from osprey_desktop.config import get_config, resolve_resource_file
        from osprey_desktop.config.posture import read_only_in_effect

        cfg = config if config is not None else get_config()
        cs = cfg.control_system
        enabled = cs.effective_writes_enabled and (writes_enabled is None or bool(writes_enabled))
        flags = {
            "connector_type": cs.type,
            "read_only": cs.read_only or read_only_in_effect(),
            "switched_off_everywhere": cs.writes_enabled is False,
        }
        path = resolve_resource_file(cs.limits_database, "limits.yaml")
        try:
            limits = load_limits_database(path, allow_unlisted=cs.allow_unlisted_writes)
        except LimitsError as exc:
            return cls(enabled, None, str(exc), **flags)
        except Exception as exc:  # a loader that crashes must refuse, never raise or allow
            error = " ".join(f"{path}: cannot be used ({type(exc).__name__}: {exc})".split())
            return cls(enabled, None, error, **flags)
        return cls(enabled, limits, **flags)

    @property
    def config_error(self) -> str | None:
        """The one-line limits-file problem that blocks every write, or None."""
        return self.limits_error if self.limits is None else None

    def check(
        self, channel: str, current_value: Any, requested_value: Any, units: str = ""
    ) -> WriteCheck:
        """The decision for known values (no I/O): read-only, switch, then limits."""
        if self.read_only:
            return self._refuse(channel, READ_ONLY_MESSAGE, current_value, requested_value, units)
        if not self.writes_enabled:
            return self._refuse(
                channel,
                writes_disabled_message(
                    self.connector_type, switched_off_everywhere=self.switched_off_everywhere
                ),
                current_value,
                requested_value,
                units,
            )
        if self.limits is None:
            return self._refuse_by_configuration(channel, current_value, requested_value, units)
        try:
            return self.limits.check_write(channel, current_value, requested_value, units)
        except Exception as exc:  # a check that crashes must refuse, never allow
            return self._refuse(
                channel,
                f"The limits check of '{channel}' failed ({exc}); the write is refused.",
                current_value,
                requested_value,
                units,
            )

    async def evaluate(
        self, connector: ControlSystemConnector, channel: str, requested_value: Any
    ) -> WriteCheck:
        """Read the channel's current value and metadata, then decide; refuses on any doubt."""
        if not self.writes_enabled:
            return self.check(channel, None, requested_value)
        if self.limits is None:  # nothing to decide with: no need to touch the machine
            return self._refuse_by_configuration(channel, None, requested_value)
        try:
            reading = await connector.read_channel(channel)
        except ConnectorError as exc:
            return self._refuse(
                channel,
                f"Cannot read the current value of '{channel}' ({str(exc).rstrip('.')}); "
                "the write is refused.",
                None,
                requested_value,
            )
        units = reading.metadata.units
        if reading.metadata.writable is False:
            return self._refuse(
                channel,
                f"'{channel}' is a read-only channel; nothing can be written to it.",
                reading.value,
                requested_value,
                units,
            )
        states = tuple(getattr(reading.metadata, "enum_strings", None) or ())
        if states and isinstance(requested_value, str) and to_float(requested_value) is None:
            # a state by name ("Open"): the limits apply to its index, as on the wire
            try:
                requested_value = reading.metadata.enum_value(requested_value)
            except ValueError as exc:
                return self._refuse(channel, str(exc), reading.value, requested_value, units)
        if to_float(reading.value) is None and to_float(requested_value) is not None:
            return self._refuse(
                channel,
                f"The current value of '{channel}' ({reading.value!r}) is not a number, so the "
                "limits cannot be checked; the write is refused.",
                reading.value,
                requested_value,
                units,
            )
        if reading.metadata.alarm_severity == "INVALID":
            return self._refuse(
                channel,
                f"'{channel}' reports an INVALID alarm; its value cannot be trusted, so the "
                "write is refused.",
                reading.value,
                requested_value,
                units,
            )
        check = self.check(channel, reading.value, requested_value, units)
        control = reading.metadata.control_limits
        requested = to_float(requested_value)
        if check.allowed and control and requested is not None:
            low, high = control
            if low != high and not low <= requested <= high:
                return self._refuse(
                    channel,
                    f"{_with_units(requested, units)} is outside the control range of "
                    f"'{channel}' ({low:g} to {_with_units(high, units)}).",
                    reading.value,
                    requested_value,
                    units,
                    {**check.limits, "control": [low, high]},
                )
        return check

    def _refuse_by_configuration(
        self, channel: str, current_value: Any, requested_value: Any, units: str = ""
    ) -> WriteCheck:
        error = self.limits_error or "No write limits database is loaded"
        return WriteCheck(
            allowed=False,
            violation=f"{error}; every write is refused until the write limits file is fixed.",
            channel=channel,
            requested_value=requested_value,
            current_value=current_value,
            units=units,
            config_error=error,
        )

    @staticmethod
    def _refuse(
        channel: str,
        violation: str,
        current_value: Any,
        requested_value: Any,
        units: str = "",
        limits: dict[str, Any] | None = None,
    ) -> WriteCheck:
        return WriteCheck(
            allowed=False,
            violation=violation,
            limits=limits or {},
            channel=channel,
            requested_value=requested_value,
            current_value=current_value,
            units=units,
        )


def _with_units(value: float, units: str) -> str:
    return f"{value:g} {units}" if units else f"{value:g}"
