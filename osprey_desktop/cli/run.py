"""``osprey-desktop run``: open the window, or explain how when there is no display."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Mapping

from osprey_desktop.cli.read_only import add_read_only_option
from osprey_desktop.config import get_config

# Qt platform plugins that draw without a window system (no DISPLAY needed).
_HEADLESS_PLATFORMS = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhrdisplay"}
)
_UI_MODULE = "osprey_desktop.ui.app"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "run",
        help="open the Osprey Desktop window (the default)",
        description="Open the Osprey Desktop window. Needs a display: a desktop session, "
        "X forwarding, or a virtual one (xvfb-run -a osprey-desktop run).",
    )
    add_read_only_option(parser)
    return parser


def missing_display_reason(env: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """Why Qt would abort for lack of a display, or None when a window can be shown.

    Qt reads ``QT_QPA_PLATFORM`` as a ';'-separated list of plugins to try, each optionally
    followed by ':options'.
    """
    if platform in ("win32", "darwin"):
        return None
    has_x11 = bool(env.get("DISPLAY"))
    has_wayland = bool(env.get("WAYLAND_DISPLAY"))
    requested = [p.split(":", 1)[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";")]
    requested = [p for p in requested if p]
    if not requested:
        if has_x11 or has_wayland:
            return None
        return "no display found (DISPLAY and WAYLAND_DISPLAY are not set)"
    for name in requested:
        if name in _HEADLESS_PLATFORMS:
            return None
        if name == "xcb" and has_x11:
            return None
        if name.startswith("wayland") and has_wayland:
            return None
    wanted = ";".join(requested)
    return f"QT_QPA_PLATFORM={wanted} but DISPLAY and WAYLAND_DISPLAY do not provide it"


def how_to_run_headless() -> str:
    return (
        "run it under a virtual X server: 'xvfb-run -a osprey-desktop run' "
        "(from a checkout: 'xvfb-run -a ./osprey run'), or log in to a desktop session"
    )


def run(args: argparse.Namespace) -> int:
    reason = missing_display_reason(os.environ)
    if reason is not None:
        print(
            f"osprey-desktop: cannot open the window: {reason}; {how_to_run_headless()}",
            file=sys.stderr,
        )
        return 2
    try:
        # Imported here, not at the top: Qt loads only when a window is really opened.
        ui_app = importlib.import_module(_UI_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name in ("osprey_desktop.ui", _UI_MODULE):
            print(
                "osprey-desktop: the window is not available in this build "
                f"({_UI_MODULE} is missing); the command line commands still work",
                file=sys.stderr,
            )
            return 2
        raise
    return int(ui_app.run_app(get_config()) or 0)
