"""``osprey-desktop install-desktop-entry``: a menu entry and an icon for this user.

Writes ``$XDG_DATA_HOME/applications/osprey-desktop.desktop`` and
``$XDG_DATA_HOME/icons/hicolor/scalable/apps/osprey-desktop.svg`` (``XDG_DATA_HOME`` defaults to
``~/.local/share``), so the desktop's application menu starts the window of *this*
installation. Running it again changes nothing unless the installation moved; ``--uninstall``
removes both files. Nothing outside those two files is touched, and no root rights are needed.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from osprey_desktop.cli.common import EXIT_FAILED, PROG, fail

APP_ID = "osprey-desktop"
ICON_RESOURCE = "osprey-desktop.svg"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "install-desktop-entry",
        help="add Osprey Desktop to this user's application menu (or remove it)",
        description="Write an XDG desktop entry and an icon under $XDG_DATA_HOME "
        "(default ~/.local/share): applications/osprey-desktop.desktop and "
        "icons/hicolor/scalable/apps/osprey-desktop.svg. Idempotent.",
    )
    parser.add_argument(
        "--uninstall", action="store_true", help="remove the desktop entry and the icon"
    )
    return parser


@dataclass(frozen=True)
class DesktopFiles:
    entry: Path
    icon: Path


def data_home(env: os._Environ[str] | dict[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    value = env.get("XDG_DATA_HOME", "")
    # The spec: a relative path is invalid and is to be ignored.
    if value and Path(value).is_absolute():
        return Path(value)
    return Path.home() / ".local" / "share"


def desktop_files(base: Path) -> DesktopFiles:
    return DesktopFiles(
        entry=base / "applications" / f"{APP_ID}.desktop",
        icon=base / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
    )


def _quote_exec_argument(argument: str) -> str:
    """Quote one Exec argument as the Desktop Entry spec asks (then escape for the key)."""
    reserved = set(" \t\n\"'\\><~|&;$*?#()`")
    quoted = argument
    if any(ch in reserved for ch in argument):
        inner = "".join("\\" + ch if ch in '"`$\\' else ch for ch in argument)
        quoted = f'"{inner}"'
    # A string value's own escapes: a backslash is written twice; '%' introduces field codes.
    return quoted.replace("\\", "\\\\").replace("%", "%%")


def launch_command(argv0: str | None = None, python: str | None = None) -> list[str]:
    """How the menu starts the window: this console script, else this interpreter.

    ``-P`` keeps the folder the menu starts in (the home folder) off ``sys.path``, so a
    folder named ``osprey_desktop`` there cannot stand in for the installed package.
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    script = Path(argv0)
    if script.name == PROG and script.is_file() and os.access(script, os.X_OK):
        return [str(script.absolute()), "run"]
    return [python or sys.executable, "-P", "-m", "osprey_desktop", "run"]


def desktop_entry_text(command: list[str]) -> str:
    exec_line = " ".join(_quote_exec_argument(part) for part in command)
    try_exec = command[0].replace("\\", "\\\\")  # a plain string value: only \\ escaped
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Version=1.4\n"
        "Name=Osprey Desktop\n"
        "GenericName=Control-room assistant\n"
        "Comment=Ask for readings, plots and approved writes on the accelerator\n"
        f"TryExec={try_exec}\n"
        f"Exec={exec_line}\n"
        f"Icon={APP_ID}\n"
        "Terminal=false\n"
        "Categories=Science;Physics;Engineering;\n"
        "Keywords=accelerator;EPICS;control room;operator;beamline;\n"
        "StartupNotify=true\n"
    )


def icon_svg() -> bytes:
    from osprey_desktop.config import resources_dir

    return (resources_dir() / ICON_RESOURCE).read_bytes()


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data)
    partial.replace(path)  # a menu that reads it meanwhile sees the old file or the new one
    return True


def install(base: Path, command: list[str]) -> list[tuple[Path, bool]]:
    """Write both files; returns each path and whether it changed."""
    files = desktop_files(base)
    return [
        (files.icon, _write_if_changed(files.icon, icon_svg())),
        (files.entry, _write_if_changed(files.entry, desktop_entry_text(command).encode())),
    ]


def uninstall(base: Path) -> list[Path]:
    """Remove both files; returns those that were there."""
    removed = []
    for path in (desktop_files(base).entry, desktop_files(base).icon):
        if path.is_file():
            path.unlink()
            removed.append(path)
    return removed


def run(args: argparse.Namespace) -> int:
    base = data_home()
    try:
        if args.uninstall:
            removed = uninstall(base)
            for path in removed:
                print(f"removed {path}")
            if not removed:
                print(f"no desktop entry to remove under {base}")
            return 0
        for path, changed in install(base, launch_command()):
            print(f"{'wrote' if changed else 'up to date'} {path}")
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return fail(
            "install-desktop-entry",
            f"cannot write{where}: {exc.strerror or exc}; set XDG_DATA_HOME to a writable "
            "folder or fix its permissions",
            EXIT_FAILED,
        )
    return 0
