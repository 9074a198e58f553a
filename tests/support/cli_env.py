"""The environment a command-line subprocess gets in tests: the test's own folders, no display."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from tests.support.cli_process import REPO, run_osprey


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


def run_cli(
    base: Path, *args: str, timeout: float = 90, extra_env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m osprey_desktop ARGS`` in the environment of ``cli_environment(base)``, plus
    ``extra_env`` (an IOC's address list, say); a process of its own, forked from the
    preloaded fork server (``tests.support.cli_process``)."""
    env = cli_environment(base)
    env.update(extra_env or {})
    return run_osprey(args, env=env, cwd=REPO, timeout=timeout)
