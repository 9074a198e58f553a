"""The write limits database: which channels may be written, within what range and step.

Data in ``resources/limits.yaml`` (or ``control_system.limits_database``): a mapping from a
channel name or fnmatch pattern to ``min``, ``max``, ``max_step`` and ``writable``. An exact
name wins over patterns; otherwise the first matching pattern in file order applies.
``check_write`` fails closed: a non-numeric request, or a step limit that cannot be checked
because the current value is unknown, is refused with the reason.
"""

from __future__ import annotations

import fnmatch
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from osprey_desktop.connectors.base import format_value, to_float


class LimitsError(Exception):
    """The limits database is missing or malformed; every write is refused until it is fixed."""


class LimitRule(BaseModel):
    """Limits of one channel or pattern."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min: float | None = None
    max: float | None = None
    max_step: float | None = None
    writable: bool = True

    @model_validator(mode="after")
    def _consistent(self) -> LimitRule:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        if self.max_step is not None and self.max_step <= 0:
            raise ValueError(f"max_step must be positive, got {self.max_step}")
        return self


@dataclass(frozen=True)
class WriteCheck:
    """The verdict on one requested write: allowed or not, why, and the limits applied."""

    allowed: bool
    violation: str | None
    limits: dict[str, Any] = field(default_factory=dict)
    channel: str = ""
    requested_value: Any = None
    current_value: Any = None
    units: str = ""

    def to_dict(self) -> dict[str, Any]:
        from osprey_desktop.connectors.base import jsonable

        return {
            "channel": self.channel,
            "allowed": self.allowed,
            "violation": self.violation,
            "limits": dict(self.limits),
            "requested_value": jsonable(self.requested_value),
            "current_value": jsonable(self.current_value),
            "units": self.units,
        }


class LimitsDatabase:
    """Channel write limits by exact name or pattern."""

    def __init__(
        self,
        rules: dict[str, LimitRule],
        allow_unlisted: bool = False,
        source: str = "<memory>",
    ) -> None:
        self.source = source
        self.allow_unlisted = allow_unlisted
        self._exact = {k: v for k, v in rules.items() if not _is_pattern(k)}
        self._patterns = [(k, v) for k, v in rules.items() if _is_pattern(k)]

    def rule_for(self, channel: str) -> tuple[str, LimitRule] | None:
        """(key, rule) that governs ``channel``, or None when it is unlisted."""
        if channel in self._exact:
            return channel, self._exact[channel]
        for pattern, rule in self._patterns:
            if fnmatch.fnmatchcase(channel, pattern):
                return pattern, rule
        return None

    def check_write(
        self, channel: str, current_value: Any, requested_value: Any, units: str = ""
    ) -> WriteCheck:
        """Is writing ``requested_value`` to ``channel`` (now at ``current_value``) allowed?"""

        def verdict(violation: str | None, limits: dict[str, Any]) -> WriteCheck:
            return WriteCheck(
                allowed=violation is None,
                violation=violation,
                limits=limits,
                channel=channel,
                requested_value=requested_value,
                current_value=current_value,
                units=units,
            )

        def show(value: float) -> str:
            return format_value(float(value), _precision_for(value), units)

        found = self.rule_for(channel)
        if found is None:
            if self.allow_unlisted:
                return verdict(None, {"listed": False})
            return verdict(
                f"'{channel}' is not in the write limits database ({self.source}), and writes "
                "to unlisted channels are refused. Add it to that file, or set "
                "control_system.allow_unlisted_writes: true in the config file.",
                {"listed": False},
            )
        key, rule = found
        limits = {"rule": key, **rule.model_dump()}
        if not rule.writable:
            return verdict(f"'{channel}' is marked read-only in the write limits database.", limits)
        requested = to_float(requested_value)
        if requested is None:
            return verdict(
                f"The requested value {requested_value!r} for '{channel}' is not a finite number; "
                "nothing will be written.",
                limits,
            )
        if rule.min is not None and requested < rule.min:
            return verdict(
                f"{show(requested)} is below the minimum of {show(rule.min)} for '{channel}' "
                f"(limit min={rule.min:g}).",
                limits,
            )
        if rule.max is not None and requested > rule.max:
            return verdict(
                f"{show(requested)} is above the maximum of {show(rule.max)} for '{channel}' "
                f"(limit max={rule.max:g}).",
                limits,
            )
        if rule.max_step is not None:
            current = to_float(current_value)
            if current is None:
                return verdict(
                    f"The current value of '{channel}' is unknown ({current_value!r}), so the "
                    f"step limit of {show(rule.max_step)} cannot be checked; the write is refused.",
                    limits,
                )
            step = abs(requested - current)
            if step > rule.max_step * (1 + 1e-9):
                return verdict(
                    f"Changing '{channel}' from {show(current)} to {show(requested)} is a step of "
                    f"{show(step)}, more than the maximum step of {show(rule.max_step)} "
                    f"(limit max_step={rule.max_step:g}); make the change in smaller steps.",
                    limits,
                )
        return verdict(None, limits)


def _is_pattern(key: str) -> bool:
    return any(ch in key for ch in "*?[")


def _precision_for(value: float) -> int:
    """Enough decimals to show a limit or value faithfully (499.654 keeps its 3 decimals)."""
    if value == 0 or not math.isfinite(value):
        return 1
    text = f"{abs(value):.9f}".rstrip("0")
    decimals = len(text.split(".")[1]) if "." in text else 0
    return min(max(decimals, 1), 6)


def load_limits_database(path: str | Path, allow_unlisted: bool = False) -> LimitsDatabase:
    """Read ``limits.yaml``; a missing or malformed file raises ``LimitsError`` naming it."""
    file = Path(path)
    try:
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise LimitsError(
            f"The write limits database {file} does not exist; every write is refused. Restore "
            "it, or set control_system.limits_database to an existing file."
        ) from exc
    except (OSError, yaml.YAMLError) as exc:
        raise LimitsError(
            f"The write limits database {file} cannot be read ({exc}); every write is refused."
        ) from exc
    entries = raw.get("channels") if isinstance(raw, dict) else None
    if not isinstance(entries, dict):
        raise LimitsError(
            f"The write limits database {file} has no 'channels:' mapping; every write is "
            "refused. See resources/limits.yaml for the format."
        )
    rules: dict[str, LimitRule] = {}
    for key, body in entries.items():
        try:
            rules[str(key)] = LimitRule.model_validate(body or {})
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "entry"
            raise LimitsError(
                f"The write limits database {file}, entry '{key}': {where}: {first['msg']}; "
                "every write is refused until it is fixed."
            ) from exc
    return LimitsDatabase(rules, allow_unlisted=allow_unlisted, source=str(file))
