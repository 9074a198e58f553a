"""The write limits database: which channels may be written, within what range and step.

Data in ``resources/limits.yaml`` (or ``control_system.limits_database``): a mapping from a
channel name or fnmatch pattern to ``min``, ``max``, ``max_step`` and ``writable``. An exact
name wins over patterns; otherwise the first matching pattern in file order applies.

Both halves fail closed. Reading the file, anything that is not exactly right (a NaN or
infinite limit, a string or boolean where a number belongs, min above max, an unknown or
misspelt key, a duplicate key, a file that is not UTF-8 YAML or cannot be opened) raises
``LimitsConfigError`` with one line per problem naming the file and the entry: a NaN limit
compares false with everything and would silently switch that limit off. ``check_write``
refuses a non-finite request or current value, and a step limit it cannot check.
"""

from __future__ import annotations

import difflib
import fnmatch
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from osprey_desktop.channels.addresses import channel_key
from osprey_desktop.connectors.base import format_value, to_float

#: The keys of one entry; anything else in an entry is a configuration error.
LIMIT_KEYS: tuple[str, ...] = ("min", "max", "max_step", "writable")


def bare_channel_name(channel: str) -> str:
    """The channel's identity (``channels.addresses.channel_key``): ``X`` for ``ca://X`` or
    ``pva://X``, ``d/f/m/attr`` for any spelling of a Tango attribute."""
    return channel_key(channel)


class LimitsError(Exception):
    """The limits database is missing or malformed; every write is refused until it is fixed."""


@dataclass(frozen=True)
class LimitsProblem:
    """One thing wrong with a limits file: where (file, entry) and what."""

    path: str
    problem: str
    entry: str | None = None

    def __str__(self) -> str:
        where = self.path if self.entry is None else f"{self.path}: entry '{self.entry}'"
        return _one_line(f"{where}: {self.problem}")


class LimitsConfigError(LimitsError):
    """The limits file cannot be used as it is: every write is refused until it is fixed.

    ``str()`` is one line naming the file and, when one entry is at fault, the entry (the
    first problem, plus how many more there are); ``problems`` holds every problem found.
    """

    def __init__(self, problems: Sequence[LimitsProblem]) -> None:
        if not problems:
            raise ValueError("LimitsConfigError needs at least one problem")
        self.problems: tuple[LimitsProblem, ...] = tuple(problems)
        more = len(self.problems) - 1
        text = str(self.problems[0])
        if more:
            text += f" (and {more} more problem{'s' if more > 1 else ''} in the same file)"
        super().__init__(text)

    @property
    def path(self) -> str:
        return self.problems[0].path

    @property
    def entry(self) -> str | None:
        return self.problems[0].entry


_Limit = float | None


class LimitRule(BaseModel):
    """Limits of one channel or pattern (strict: no NaN, no text or booleans as numbers)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    min: _Limit = Field(default=None, allow_inf_nan=False)
    max: _Limit = Field(default=None, allow_inf_nan=False)
    max_step: _Limit = Field(default=None, allow_inf_nan=False)
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
    """The verdict on one requested write: allowed or not, why, and the limits applied.

    ``config_error`` is set when the write is refused because the write-safety configuration
    itself is broken (the limits file, see ``LimitsConfigError``): the one-line problem, also
    contained in ``violation``. Every write is refused then, whatever the channel.
    """

    allowed: bool
    violation: str | None
    limits: dict[str, Any] = field(default_factory=dict)
    channel: str = ""
    requested_value: Any = None
    current_value: Any = None
    units: str = ""
    config_error: str | None = None

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
            "config_error": self.config_error,
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
        rules = {bare_channel_name(k): v for k, v in rules.items()}  # pva://X is X's rule
        self._exact = {k: v for k, v in rules.items() if not _is_pattern(k)}
        self._patterns = [(k, v) for k, v in rules.items() if _is_pattern(k)]

    def rule_for(self, channel: str) -> tuple[str, LimitRule] | None:
        """(key, rule) that governs ``channel``, or None when it is unlisted.

        ``ca://X`` and ``pva://X`` are the channel X reached by one protocol: X's rule
        governs them (a prefix must never be a way around a limit)."""
        channel = bare_channel_name(channel)
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
        numbers = {"min": rule.min, "max": rule.max, "max_step": rule.max_step}
        broken = [
            f"{k} is {v!r}" for k, v in numbers.items() if v is not None and not math.isfinite(v)
        ]
        if broken:  # only a rule built around validation gets here; refuse, never compare
            return verdict(
                f"The limits of '{channel}' ({key}) are not finite numbers ({', '.join(broken)}); "
                "the write is refused.",
                limits,
            )
        if not rule.writable:
            return verdict(f"'{channel}' is marked read-only in the write limits database.", limits)
        requested = to_float(requested_value)
        numeric_rule = any(v is not None for v in numbers.values())
        if requested is None and isinstance(requested_value, str) and not numeric_rule:
            return verdict(None, limits)  # text (a mode, a message) for a channel listed writable
        if requested is None:
            return verdict(
                f"The requested value {requested_value!r} for '{channel}' is not a finite number; "
                "nothing will be written.",
                limits,
            )
        if current_value is not None and to_float(current_value) is None:
            # NaN compares false with everything: never let it through a limit silently
            return verdict(
                f"The current value of '{channel}' is {current_value!r}, not a finite number, so "
                "the limits cannot be checked against it; the write is refused.",
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


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


# -- reading the file ---------------------------------------------------------------------


def load_limits_database(path: str | Path, allow_unlisted: bool = False) -> LimitsDatabase:
    """Read ``limits.yaml``; anything wrong with it raises ``LimitsConfigError`` naming it."""
    file = Path(path)
    where = str(file)
    raw = _read_yaml(file)
    entries = raw.get("channels") if isinstance(raw, dict) else None
    if not isinstance(entries, dict):
        raise LimitsConfigError(
            [
                LimitsProblem(
                    where,
                    "has no 'channels:' mapping of channel names to limits (see "
                    "resources/limits.yaml for the format)",
                )
            ]
        )
    rules: dict[str, LimitRule] = {}
    problems: list[LimitsProblem] = []
    for key, body in entries.items():
        if isinstance(key, bool) or not isinstance(key, str | int):
            problems.append(
                LimitsProblem(
                    where,
                    f"an entry's key is {_describe(key)}, not a channel name or pattern "
                    "(put the name in quotes)",
                )
            )
            continue
        name = str(key)
        found = _entry_problems(body)
        if found:
            problems.extend(LimitsProblem(where, p, name) for p in found)
            continue
        try:
            rules[name] = LimitRule.model_validate(body)
        except ValidationError as exc:  # a case the checks above missed: still refused
            first = exc.errors()[0]
            field_name = ".".join(str(p) for p in first["loc"]) or "entry"
            problems.append(LimitsProblem(where, f"{field_name}: {first['msg']}", name))
    if problems:
        raise LimitsConfigError(problems)
    return LimitsDatabase(rules, allow_unlisted=allow_unlisted, source=where)


def _read_yaml(file: Path) -> Any:
    where = str(file)

    def fail(problem: str) -> LimitsConfigError:
        return LimitsConfigError([LimitsProblem(where, problem)])

    try:
        data = file.read_bytes()
    except FileNotFoundError as exc:
        raise fail(
            "does not exist (restore it, or set control_system.limits_database to an existing file)"
        ) from exc
    except IsADirectoryError as exc:
        raise fail("is a folder, not a limits file") from exc
    except PermissionError as exc:
        raise fail("cannot be read (permission denied)") from exc
    except OSError as exc:
        raise fail(f"cannot be read ({exc.strerror or exc})") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise fail(
            f"is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); save it as UTF-8"
        ) from exc
    try:
        return yaml.load(text, Loader=_LimitsLoader)  # noqa: S506 - a SafeLoader subclass
    except _DuplicateKey as exc:
        raise fail(
            f"key '{exc.key}' appears twice (lines {exc.first_line} and {exc.line}); "
            "keep one, the second would silently replace the first"
        ) from exc
    except yaml.YAMLError as exc:
        raise fail(f"is not valid YAML ({_yaml_problem(exc)})") from exc
    except RecursionError as exc:
        raise fail("is not valid YAML (nested too deeply)") from exc


def _yaml_problem(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc)
    text = " ".join(str(problem).split())
    if mark is None:
        return text
    return f"line {mark.line + 1}, column {mark.column + 1}: {text}"


class _DuplicateKey(yaml.YAMLError):
    def __init__(self, key: Any, first_line: int, line: int) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key, self.first_line, self.line = key, first_line, line


class _LimitsLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys (PyYAML would keep the last one silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=deep)
            line = key_node.start_mark.line + 1
            try:
                if key in seen:
                    raise _DuplicateKey(key, seen[key], line)
                seen[key] = line
            except TypeError:  # unhashable key: SafeLoader reports it
                continue
        return super().construct_mapping(node, deep=deep)


def _entry_problems(body: Any) -> list[str]:
    """What is wrong with one entry's body, one phrase per problem (empty when it is fine)."""
    if body is None:  # a half-written entry must not mean "writable without limits"
        return ["is empty (give its limits, e.g. {min: -5.0, max: 5.0}, or write {} for none)"]
    if not isinstance(body, Mapping):
        return [
            f"must be a mapping of {', '.join(LIMIT_KEYS)} (e.g. {{min: -5.0, max: 5.0}}), "
            f"not {_describe(body)}"
        ]
    problems: list[str] = []
    for key in body:
        if key not in LIMIT_KEYS:
            problems.append(_unknown_key(key))
    numbers: dict[str, float] = {}
    for name in ("min", "max", "max_step"):
        if name not in body:
            continue
        value = body[name]
        number = _finite_number(value)
        if number is None:
            hint = "; leave the key out for no limit" if value is None else ""
            if isinstance(value, str) and _finite_number_text(value):
                hint = "; write it without quotes, an exponent with a dot and a sign: 1.0e+5"
            problems.append(f"{name} is {_describe(value)} (must be a finite number{hint})")
        else:
            numbers[name] = number
    if "writable" in body and not isinstance(body["writable"], bool):
        problems.append(f"writable is {_describe(body['writable'])} (must be true or false)")
    low, high = numbers.get("min"), numbers.get("max")
    if low is not None and high is not None and low > high:
        problems.append(
            f"min {_describe(body['min'])} is above max {_describe(body['max'])} "
            "(min must not exceed max)"
        )
    step = numbers.get("max_step")
    if step is not None and step <= 0:
        problems.append(f"max_step is {_describe(body['max_step'])} (must be a positive number)")
    return problems


def _finite_number(value: Any) -> float | None:
    """``value`` as a float when it is a real, finite YAML number (not a bool or text)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _unknown_key(key: Any) -> str:
    allowed = ", ".join(LIMIT_KEYS)
    close = difflib.get_close_matches(str(key).lower(), LIMIT_KEYS, n=1, cutoff=0.6)
    if close:
        return f"unknown key '{key}' (did you mean '{close[0]}'? the keys are {allowed})"
    return f"unknown key '{key}' (the keys are {allowed})"


def _describe(value: Any) -> str:
    """A YAML value as the operator wrote it, with its kind when that is the problem."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return f"a list {value!r}"
    if isinstance(value, Mapping):
        return "a mapping"
    return f"a {type(value).__name__} {value!r}"


def _finite_number_text(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False
