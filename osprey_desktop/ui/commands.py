"""Launchable commands as QActions: Commands menu, toolbar and context-item menus.

Commands are plain records in the state (``ui_launchable_commands``, and notebooks from
``ui_captured_notebooks``); this module materialises them as ``QAction``s, one per distinct
command, with the display name, an icon per command type and the URI as tooltip. Triggering
goes through ``CommandLauncher``, which decides what may run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QApplication, QStyle

ICON_FOR_TYPE: dict[str, QStyle.StandardPixmap] = {
    "web_app": QStyle.StandardPixmap.SP_DriveNetIcon,
    "desktop_app": QStyle.StandardPixmap.SP_ComputerIcon,
    "viewer": QStyle.StandardPixmap.SP_FileDialogContentsView,
    "notebook": QStyle.StandardPixmap.SP_FileDialogDetailedView,
    "file": QStyle.StandardPixmap.SP_FileIcon,
    "stripchart": QStyle.StandardPixmap.SP_MediaPlay,
}
DEFAULT_ICON = QStyle.StandardPixmap.SP_CommandLink


@dataclass(frozen=True)
class LaunchableCommand:
    """One entry of ``ui_launchable_commands`` (or a notebook turned into one)."""

    launch_uri: str
    display_name: str
    capability: str = ""
    command_type: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    created_at: str = ""

    @property
    def identity(self) -> tuple[str, str]:
        return (self.launch_uri, self.display_name)

    @property
    def kind(self) -> str:
        """The icon key: the declared type, else one guessed from the URI."""
        if self.command_type:
            return self.command_type
        scheme = urlsplit(self.launch_uri).scheme.lower()
        if scheme in ("http", "https"):
            return "web_app"
        if scheme == "file":
            return "file"
        return ""

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> LaunchableCommand | None:
        uri = record.get("launch_uri")
        if not isinstance(uri, str) or not uri:
            return None
        return cls(
            launch_uri=uri,
            display_name=str(record.get("display_name") or uri),
            capability=str(record.get("capability") or ""),
            command_type=str(record.get("command_type") or ""),
            metadata=dict(record.get("metadata") or {}),
            created_at=str(record.get("created_at") or ""),
        )

    @classmethod
    def from_notebook(cls, record: Mapping[str, Any]) -> LaunchableCommand | None:
        link = record.get("notebook_link") or ""
        if not link and record.get("notebook_path"):
            link = "file://" + str(record["notebook_path"])
        if not link:
            return None
        return cls(
            launch_uri=str(link),
            display_name=str(record.get("display_name") or "Open notebook"),
            capability=str(record.get("capability") or ""),
            command_type="notebook",
            metadata=dict(record.get("metadata") or {}),
            created_at=str(record.get("created_at") or ""),
        )


def commands_from_state(values: Mapping[str, Any]) -> list[LaunchableCommand]:
    """Every launchable command in a state, notebooks included, without duplicates."""
    seen: set[tuple[str, str]] = set()
    out: list[LaunchableCommand] = []
    records: Iterable[LaunchableCommand | None] = [
        *(LaunchableCommand.from_record(r) for r in values.get("ui_launchable_commands") or []),
        *(LaunchableCommand.from_notebook(r) for r in values.get("ui_captured_notebooks") or []),
    ]
    for command in records:
        if command is not None and command.identity not in seen:
            seen.add(command.identity)
            out.append(command)
    return out


def icon_for(kind: str) -> QIcon:
    style = QApplication.style()
    return style.standardIcon(ICON_FOR_TYPE.get(kind, DEFAULT_ICON))


class CommandActions(QObject):
    """Keeps one QAction per command; emits ``changed`` when the set of commands changes."""

    changed = Signal()

    def __init__(
        self,
        trigger: Callable[[LaunchableCommand], None],
        parent: QObject | None = None,
        unavailable: Callable[[LaunchableCommand], str | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._trigger = trigger
        self._unavailable = unavailable  # why a command cannot run here, or None
        self._actions: dict[tuple[str, str], QAction] = {}
        self._commands: dict[tuple[str, str], LaunchableCommand] = {}

    def set_commands(self, commands: Iterable[LaunchableCommand]) -> None:
        commands = list(commands)
        wanted = {c.identity for c in commands}
        if wanted == set(self._actions):
            return
        for identity in list(self._actions):
            if identity not in wanted:
                self._actions.pop(identity).deleteLater()
                self._commands.pop(identity)
        for command in commands:
            if command.identity not in self._actions:
                self._actions[command.identity] = self._make_action(command)
                self._commands[command.identity] = command
        self.changed.emit()

    def _make_action(self, command: LaunchableCommand) -> QAction:
        action = QAction(icon_for(command.kind), command.display_name, self)
        action.setToolTip(command.launch_uri)
        action.setStatusTip(f"{command.display_name}: {command.launch_uri}")
        action.setData(command.launch_uri)
        action.triggered.connect(lambda _checked=False, c=command: self._trigger(c))
        reason = self._unavailable(command) if self._unavailable is not None else None
        if reason:  # a command that cannot run is shown disabled, saying why
            action.setEnabled(False)
            action.setToolTip(reason)
            action.setStatusTip(f"{command.display_name}: {reason}")
        return action

    def actions(self) -> list[QAction]:
        return list(self._actions.values())

    def commands(self) -> list[LaunchableCommand]:
        return list(self._commands.values())

    def action_for(self, command: LaunchableCommand) -> QAction | None:
        return self._actions.get(command.identity)

    def related_to(
        self, context_type: str, context_key: str, producer: str | None = None
    ) -> list[QAction]:
        """Commands about one context entry: named in metadata, or from the step producing it."""
        out = []
        for identity, command in self._commands.items():
            meta = command.metadata
            named = meta.get("context_key") == context_key and meta.get("context_type") in (
                None,
                context_type,
            )
            if named or (producer and command.capability == producer):
                out.append(self._actions[identity])
        return out
