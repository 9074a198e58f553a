"""Where configuration files, resources and the platform folders live on this machine.

Plain paths only: nothing here reads the configuration (``data_paths`` resolves the folders a
configuration names), so the loader can use these without an import cycle.
"""

from __future__ import annotations

import importlib.resources
import os
import sys
from pathlib import Path

from osprey_desktop.config.errors import ConfigError

APP_DIR_NAME = "osprey-desktop"
CONFIG_ENV_VAR = "OSPREY_DESKTOP_CONFIG"
SITE_CONFIG_ENV_VAR = "OSPREY_DESKTOP_SITE_CONFIG"
DATA_DIR_ENV_VAR = "OSPREY_DESKTOP_DATA_DIR"
RESOURCES_PACKAGE = "osprey_desktop.resources"


def resources_dir() -> Path:
    """The shipped data files: the package ``osprey_desktop.resources``.

    Found through the import system, never from the interpreter's prefix or a path relative to
    this file, so ``pip install --user``, pipx, a venv and an editable checkout (where the
    package is the checkout's top-level ``resources/``, see setup.py) all work, and a stray
    ``resources`` folder elsewhere on ``sys.path`` cannot shadow it.
    """
    try:
        files = importlib.resources.files(RESOURCES_PACKAGE)
    except ModuleNotFoundError:
        raise ConfigError(
            f"the shipped resources ({RESOURCES_PACKAGE}) are not installed; install Osprey "
            "Desktop with pip (from a checkout: pip install -e . or ./osprey setup)"
        ) from None
    if not isinstance(files, Path) or not files.is_dir():
        # A zipped install: the YAML files would need extracting, which nothing here does.
        raise ConfigError(
            f"the shipped resources ({RESOURCES_PACKAGE}) are not a folder on disk ({files}); "
            "install Osprey Desktop unzipped (pip, pipx or a venv)"
        )
    return files


def default_config_path() -> Path:
    """The shipped default configuration, read before any user file."""
    return resources_dir() / "config.yaml"


def platform_config_dir() -> Path:
    """The per-user configuration folder (XDG on Linux)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / APP_DIR_NAME


def user_config_path() -> Path:
    """The user configuration file read when neither ``--config`` nor the env var names one."""
    return platform_config_dir() / "config.yaml"


def site_config_path() -> Path | None:
    """The site-wide file under every user's: ``$OSPREY_DESKTOP_SITE_CONFIG``, else
    ``osprey-desktop/config.yaml`` in the first folder of ``$XDG_CONFIG_DIRS`` that has one
    (``/etc/xdg`` when unset); None when there is none."""
    from_env = os.environ.get(SITE_CONFIG_ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    if sys.platform == "win32":
        folders = [os.environ.get("PROGRAMDATA") or "C:/ProgramData"]
    else:
        folders = (os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(os.pathsep)
    for folder in folders:
        candidate = Path(folder) / APP_DIR_NAME / "config.yaml" if folder else None
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def platform_data_dir() -> Path:
    """The per-user data folder (XDG on Linux) used when nothing else names one."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP_DIR_NAME


def platform_state_dir() -> Path:
    """The per-user state folder (XDG on Linux): logs, which may be deleted without loss."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Logs"
    else:
        base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / APP_DIR_NAME


def resolve_resource_file(value: str | None, default_name: str) -> Path:
    """A configured file path, or ``resources/<default_name>`` when the value is null."""
    if not value:
        return resources_dir() / default_name
    return Path(value).expanduser().absolute()
