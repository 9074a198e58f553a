"""The environment a command-line subprocess gets in tests: the test's own folders, no display."""

from __future__ import annotations

import os
from pathlib import Path


def cli_environment(base: Path) -> dict[str, str]:
    """This process's environment without a display or a user config, with data and config
    folders under ``base`` so a subprocess never touches the real ones."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "OSPREY_DESKTOP_CONFIG")
    }
    env.update(
        XDG_CONFIG_HOME=str(base / "config"),
        OSPREY_DESKTOP_DATA_DIR=str(base / "data"),
    )
    return env
