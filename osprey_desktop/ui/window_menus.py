"""Menus, toolbar and the command palette of the main window.

The Commands menu and the toolbar are rebuilt from ``CommandActions`` whenever the set of
launchable commands changes; the Threads menu from the checkpoint's thread list.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu

from osprey_desktop.ui.command_palette import CommandPalette, PaletteEntry
from osprey_desktop.ui.thread_states import thread_states

MAX_THREADS_IN_MENU = 20
MAX_TOOLBAR_COMMANDS = 3
"""The toolbar shows the latest few commands; all of them are in the menu and the palette."""
MAX_TOOLBAR_TEXT = 32


def short_text(text: str, limit: int = MAX_TOOLBAR_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class MenuWindow(Protocol):
    """What the menus need of the window (the main window; no import of it: no cycle)."""

    controller: Any
    chat: Any
    plan_viewer: Any
    context_browser: Any
    process_log: Any
    toolbar: Any
    stop_action: Any
    command_actions: Any

    def menuBar(self) -> Any: ...  # noqa: N802 - Qt's name
    def addAction(self, action: Any) -> None: ...  # noqa: N802 - Qt's name
    def close(self) -> bool: ...
    def new_thread(self) -> None: ...


class WindowMenus:
    """Builds and refreshes the window's menus; holds no state of the agent."""

    def __init__(self, window: MenuWindow) -> None:
        self.window = window
        self.palette: CommandPalette | None = None
        self._threads_task: asyncio.Task[None] | None = None
        self._closed = False
        self._command_toolbar_actions: list[QAction] = []
        bar = window.menuBar()

        file_menu = bar.addMenu("&File")
        # Actions shared between menus belong to the window: QMenu.clear() deletes its own.
        self.new_thread_action = QAction("New thread", window)
        file_menu.addAction(self.new_thread_action)
        self.new_thread_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_thread_action.triggered.connect(window.new_thread)
        file_menu.addAction(window.context_browser.export_action)
        file_menu.addSeparator()
        self.quit_action = QAction("Quit", window)
        file_menu.addAction(self.quit_action)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(window.close)

        self.threads_menu = bar.addMenu("&Threads")
        self.threads_menu.setToolTipsVisible(True)  # a thread's approval state, in words
        self.threads_menu.addAction(self.new_thread_action)

        self.commands_menu = bar.addMenu("&Commands")
        self.commands_menu.setToolTipsVisible(True)  # a disabled command says why
        self.palette_action = QAction("Command palette…", window)
        self.palette_action.setShortcut(QKeySequence("Ctrl+K"))
        self.palette_action.triggered.connect(self.open_palette)
        window.addAction(self.palette_action)

        self.view_menu = bar.addMenu("&View")
        for dock in (window.plan_viewer, window.context_browser, window.process_log):
            self.add_view_toggle(dock)

        help_menu = bar.addMenu("&Help")
        slash_help = help_menu.addAction("Slash commands")
        slash_help.triggered.connect(lambda: window.controller.submit("/help"))

        toolbar = window.toolbar
        toolbar.addAction(window.stop_action)
        toolbar.addAction(self.palette_action)
        toolbar.addSeparator()
        self.rebuild_commands()
        self.refresh_threads()

    def add_view_toggle(self, dock: QDockWidget) -> None:
        self.view_menu.addAction(dock.toggleViewAction())

    # ----------------------------------------------------------------- commands
    def rebuild_commands(self) -> None:
        actions = self.window.command_actions.actions()
        self.commands_menu.clear()
        self.commands_menu.addAction(self.palette_action)
        self.commands_menu.addSeparator()
        if not actions:
            placeholder = self.commands_menu.addAction("No launchable commands yet")
            placeholder.setEnabled(False)
            placeholder.setToolTip("Commands appear here when a capability registers one.")
        for action in actions:
            self.commands_menu.addAction(action)
        toolbar = self.window.toolbar
        for action in self._command_toolbar_actions:
            toolbar.removeAction(action)
        self._command_toolbar_actions = list(actions)[-MAX_TOOLBAR_COMMANDS:]
        for action in self._command_toolbar_actions:
            action.setIconText(short_text(action.text()))  # the toolbar's label; menus: text
        toolbar.addActions(self._command_toolbar_actions)
        focus = getattr(self.window, "focus_return", None)
        if focus is not None:
            focus.watch(toolbar)

    # ------------------------------------------------------------------ threads
    def refresh_threads(self) -> None:
        if self._closed:
            return
        if self._threads_task is None or self._threads_task.done():
            self._threads_task = asyncio.ensure_future(self._load_threads())

    async def shutdown(self) -> None:
        """No thread listing may outlive the session: wait for the one in flight."""
        self._closed = True
        task = self._threads_task
        if task is not None and not task.done():
            await asyncio.gather(task, return_exceptions=True)

    async def _load_threads(self) -> None:
        controller = self.window.controller
        if controller.session is None:
            return
        try:
            threads = await controller.session.list_threads()
            # the ledger's word on each pending approval, as `osprey-desktop threads` shows it
            states = await thread_states(controller.session, threads[:MAX_THREADS_IN_MENU])
        except Exception as exc:  # the menu is a convenience: a read failure must not surface
            states = []
            self.threads_menu.setToolTip(f"Could not list threads: {exc}")
        menu = self.threads_menu
        menu.clear()
        menu.addAction(self.new_thread_action)
        menu.addSeparator()
        for state in states:
            info = state.info
            action = menu.addAction(f"{state.mark}{info.title} — {info.thread_id}")
            action.setCheckable(True)
            action.setChecked(info.thread_id == controller.thread_id)
            if state.tooltip:
                action.setToolTip(state.tooltip)
            action.triggered.connect(
                lambda _c=False, t=info.thread_id: asyncio.ensure_future(
                    controller.switch_thread(t)
                )
            )

    # ------------------------------------------------------------------ palette
    def palette_entries(self) -> list[PaletteEntry]:
        window = self.window
        entries = [
            PaletteEntry(a.text(), "command", a.trigger, a.toolTip())
            for a in window.command_actions.actions()
            if a.isEnabled()
        ]
        seen: set[str] = {e.title for e in entries}
        for name, help_text in window.controller.slash_commands():
            entries.append(PaletteEntry(name, "slash", _inserter(window, name), help_text))
        for menu in self._top_menus():
            for action in menu.actions():
                text = action.text().replace("&", "")
                if action.isSeparator() or action.menu() or not text or text in seen:
                    continue
                if action is self.palette_action or not action.isEnabled():
                    continue
                seen.add(text)
                entries.append(PaletteEntry(text, "action", action.trigger, action.toolTip()))
        return entries

    def _top_menus(self) -> list[QMenu]:
        return [a.menu() for a in self.window.menuBar().actions() if a.menu() is not None]

    def open_palette(self) -> CommandPalette:
        if self.palette is not None:
            self.palette.close()
        palette = CommandPalette(self.palette_entries(), self.window)
        self.palette = palette
        palette.finished.connect(palette.deleteLater)
        palette.open()
        palette.query.setFocus()
        return palette


def _inserter(window: Any, name: str):
    def insert() -> None:
        window.chat.input.setPlainText(name + " ")
        window.chat.input.setFocus()
        window.chat.input.moveCursor(window.chat.input.textCursor().MoveOperation.End)

    return insert
