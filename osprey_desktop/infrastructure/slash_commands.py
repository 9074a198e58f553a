"""Slash commands: one registry of ``/name[:option]`` commands, their parsing and their effect.

Commands are leading words of a message (``/planning:on /mode:react find the BPMs``). Setting
commands turn into ``agent_control`` overrides; alone in a message they change the thread's
settings (kept in ``session_state``), in front of a request they apply to that request only.
Action commands (``/help``, ``/exit``) never run a turn.

The same registry serves the Gateway, ``/help`` and any completer a window wants to build, so
a command's name, aliases, options and help live in exactly one place.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

logger = logging.getLogger(__name__)

CAPABILITY_COMMANDS_KEY = "capability_slash_commands"
"""``agent_control`` key of the capability-specific command values (read by capabilities)."""
SESSION_CONTROL_KEY = "agent_control"
"""``session_state`` key holding the thread's persistent ``agent_control`` overrides."""

Kind = Literal["setting", "action", "capability"]
_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]*$")
_ON = ("on", "enabled", "enable", "true", "yes")
_OFF = ("off", "disabled", "disable", "false", "no")


class SlashCommandError(ValueError):
    """A slash command the registry does not know, or an option it does not accept."""


@dataclass(frozen=True)
class SlashCommand:
    """One command: what the operator types, what it accepts and what it changes.

    ``options`` are the canonical values; ``option_aliases`` maps other spellings onto them.
    ``default`` is the value of the bare form (``/planning`` means ``/planning:on``); None makes
    the option mandatory. ``effect`` turns the canonical value into ``agent_control`` overrides.
    A command with no ``options`` accepts any value (capability commands).
    """

    name: str
    help: str
    kind: Kind = "setting"
    options: tuple[str, ...] = ()
    option_aliases: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    default: str | None = None
    effect: Callable[[str | bool], dict[str, Any]] | None = None
    capability: str | None = None

    def syntax(self) -> str:
        if not self.options:
            return f"/{self.name}[:value]" if self.kind != "action" else f"/{self.name}"
        joined = "|".join(self.options)
        return f"/{self.name}[:{joined}]" if self.default is not None else f"/{self.name}:{joined}"

    def resolve(self, raw: str | None) -> str | bool:
        """The canonical option for what was typed, or SlashCommandError naming valid ones."""
        if raw is None or raw == "":
            if self.default is not None:
                return self.default
            if not self.options:
                return True  # bare capability command: a flag
            example = f"/{self.name}:{self.options[0]}"
            raise SlashCommandError(
                f"/{self.name} needs an option: {self._valid()} (e.g. {example})"
            )
        value = raw.strip()
        if not self.options:
            return value
        lowered = value.lower()
        if lowered in self.options:
            return lowered
        if lowered in self.option_aliases:
            return self.option_aliases[lowered]
        raise SlashCommandError(
            f"/{self.name} does not accept '{value}'; valid options: {self._valid()}"
        )

    def _valid(self) -> str:
        return ", ".join(self.options)

    def overrides(self, value: str | bool) -> dict[str, Any]:
        """``agent_control`` overrides for a resolved value (empty for actions)."""
        if self.kind == "capability":
            return {CAPABILITY_COMMANDS_KEY: {self.name: value}}
        return dict(self.effect(value)) if self.effect else {}


@dataclass(frozen=True)
class ParsedSlashCommand:
    command: SlashCommand
    value: str | bool | None
    typed: str

    @property
    def name(self) -> str:
        return self.command.name


class SlashCommandRegistry:
    """Commands by name and alias; the one place ``/help`` and the Gateway read from."""

    def __init__(self, commands: Iterable[SlashCommand] = ()) -> None:
        self._commands: dict[str, SlashCommand] = {}
        self._lookup: dict[str, str] = {}
        for command in commands:
            self.register(command)

    def register(self, command: SlashCommand) -> None:
        names = (command.name, *command.aliases)
        for name in names:
            if not _NAME_RE.match(name):
                raise ValueError(f"slash command name '/{name}' must be lower-case letters/digits")
            if name in self._lookup:
                owner = self._lookup[name]
                raise ValueError(f"slash command '/{name}' is already taken by /{owner}")
        self._commands[command.name] = command
        for name in names:
            self._lookup[name] = command.name

    def get(self, name: str) -> SlashCommand | None:
        key = self._lookup.get(name.lower())
        return self._commands[key] if key else None

    def commands(self) -> list[SlashCommand]:
        return list(self._commands.values())

    def names(self) -> list[str]:
        return [f"/{name}" for name in self._commands]

    def parse(self, text: str) -> tuple[list[ParsedSlashCommand], str]:
        """Split leading ``/commands`` from the request; SlashCommandError on a bad one."""
        words = text.strip().split(maxsplit=1)
        parsed: list[ParsedSlashCommand] = []
        rest = text.strip()
        while words and words[0].startswith("/") and len(words[0]) > 1:
            token = words[0]
            name, _, raw = token[1:].partition(":")
            command = self.get(name)
            if command is None:
                raise SlashCommandError(
                    f"unknown command '{token}'; valid commands: {', '.join(self.names())} "
                    "(type /help for details)"
                )
            value = None if command.kind == "action" and not raw else command.resolve(raw or None)
            parsed.append(ParsedSlashCommand(command=command, value=value, typed=token))
            rest = words[1] if len(words) > 1 else ""
            words = rest.split(maxsplit=1)
        return parsed, rest.strip()

    def help_text(self, name: str | None = None) -> str:
        """Markdown help: every command, or one command in detail."""
        if name:
            command = self.get(name.lstrip("/"))
            if command is None:
                raise SlashCommandError(
                    f"no help for unknown command '/{name.lstrip('/')}'; valid commands: "
                    f"{', '.join(self.names())}"
                )
            aliases = ", ".join(f"/{a}" for a in command.aliases)
            lines = [f"`{command.syntax()}`: {command.help}"]
            if aliases:
                lines.append(f"Also: {aliases}")
            return "\n\n".join(lines)
        lines = [
            "Commands (alone: change this thread's settings; before a request: that request only):",
            "",
        ]
        for command in self._commands.values():
            lines.append(f"- `{command.syntax()}`: {command.help}")
        return "\n".join(lines)


def _switch(value: str | bool) -> bool:
    return value == "on"


def builtin_commands() -> list[SlashCommand]:
    """The framework's commands; ``/task:off`` and ``/caps:off`` switch a step off (bypass)."""
    on_off = {**dict.fromkeys(_ON, "on"), **dict.fromkeys(_OFF, "off")}
    return [
        SlashCommand(
            name="planning",
            help="ask for approval of each plan before it runs (bare: on)",
            options=("on", "off"),
            option_aliases=on_off,
            default="on",
            effect=lambda v: {"planning_mode_enabled": _switch(v)},
        ),
        SlashCommand(
            name="approval",
            help="which steps need your approval: disabled (none except machine writes, "
            "which always ask), selective (per capability settings) or all (bare: all)",
            options=("disabled", "selective", "all"),
            option_aliases={
                "off": "disabled",
                "false": "disabled",
                "none": "disabled",
                "on": "all",
                "enabled": "all",
                "true": "all",
                "all_capabilities": "all",
            },
            default="all",
            effect=lambda v: {"approval_global_mode": "all_capabilities" if v == "all" else v},
        ),
        SlashCommand(
            name="task",
            help="task extraction: off uses your words as the task as they are",
            options=("on", "off"),
            option_aliases=on_off,
            effect=lambda v: {"task_extraction_bypass_enabled": not _switch(v)},
        ),
        SlashCommand(
            name="caps",
            help="capability selection: off offers every capability to the planner",
            options=("on", "off"),
            option_aliases=on_off,
            aliases=("capabilities",),
            effect=lambda v: {"capability_selection_bypass_enabled": not _switch(v)},
        ),
        SlashCommand(
            name="mode",
            help="orchestration: plan_first (whole plan, then run) or react (one step at a time)",
            options=("plan_first", "react"),
            option_aliases={"plan": "plan_first", "plan-first": "plan_first", "reactive": "react"},
            effect=lambda v: {"orchestration_mode": v},
        ),
        SlashCommand(
            name="help",
            help="list the commands; /help:name explains one",
            kind="action",
            aliases=("h",),
        ),
        SlashCommand(
            name="verify",
            help="read back this thread's writes in doubt and record what they did (sends nothing)",
            kind="action",
        ),
        SlashCommand(name="exit", help="end the session", kind="action", aliases=("quit", "q")),
    ]


def capability_commands(capabilities: Iterable[Any]) -> list[SlashCommand]:
    """Commands declared by capabilities (``slash_commands = {name: help}``)."""
    commands = []
    for capability in capabilities:
        declared = getattr(capability, "slash_commands", None) or {}
        owner = getattr(capability, "name", "") or type(capability).__name__
        for name, help_text in dict(declared).items():
            commands.append(
                SlashCommand(
                    name=str(name).lower(),
                    help=f"{help_text} (capability {owner})",
                    kind="capability",
                    capability=owner,
                )
            )
    return commands


def build_slash_command_registry(capabilities: Iterable[Any] = ()) -> SlashCommandRegistry:
    """Built-ins plus capability commands; a clashing capability command is logged and skipped."""
    registry = SlashCommandRegistry(builtin_commands())
    for command in capability_commands(capabilities):
        try:
            registry.register(command)
        except ValueError as exc:
            logger.warning("capability %s: %s; command skipped", command.capability, exc)
    return registry


def merge_control_overrides(base: Mapping[str, Any], updates: Mapping[str, Any]) -> dict[str, Any]:
    """Overrides on top of ``base``; the capability command values merge one level deeper."""
    merged = dict(base)
    for key, value in updates.items():
        if key == CAPABILITY_COMMANDS_KEY and isinstance(value, Mapping):
            merged[key] = {**(merged.get(key) or {}), **value}
        else:
            merged[key] = value
    return merged


def describe_overrides(overrides: Mapping[str, Any]) -> str:
    """``planning_mode_enabled=True, orchestration_mode=react`` for feedback messages."""
    parts = []
    for key, value in overrides.items():
        if key == CAPABILITY_COMMANDS_KEY and isinstance(value, Mapping):
            parts.extend(f"/{name}={val}" for name, val in value.items())
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


__all__ = [
    "CAPABILITY_COMMANDS_KEY",
    "SESSION_CONTROL_KEY",
    "ParsedSlashCommand",
    "SlashCommand",
    "SlashCommandError",
    "SlashCommandRegistry",
    "build_slash_command_registry",
    "builtin_commands",
    "capability_commands",
    "describe_overrides",
    "merge_control_overrides",
]
