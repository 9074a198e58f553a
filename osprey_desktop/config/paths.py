"""Where configuration, resources and data live on this machine.

Relative ``file_paths`` entries are read against the data folder (``data_dir`` itself against
the current directory); ``~`` expands everywhere.
"""

from __future__ import annotations

import importlib.resources
import os
import sys
from pathlib import Path

from osprey_desktop.config.errors import ConfigError
from osprey_desktop.config.models import AppConfig

APP_DIR_NAME = "osprey-desktop"
CONFIG_ENV_VAR = "OSPREY_DESKTOP_CONFIG"
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


def _config(config: AppConfig | None) -> AppConfig:
    if config is not None:
        return config
    from osprey_desktop.config.runtime import get_config

    return get_config()


def get_data_dir(config: AppConfig | None = None) -> Path:
    """``file_paths.data_dir``, else ``$OSPREY_DESKTOP_DATA_DIR``, else the platform folder.

    Pure: nothing is created; callers make the folders they write into.
    """
    configured = _config(config).file_paths.data_dir
    if configured:
        return Path(configured).expanduser().absolute()
    from_env = os.environ.get(DATA_DIR_ENV_VAR)
    if from_env:
        return Path(from_env).expanduser().absolute()
    return platform_data_dir()


def _under_data_dir(value: str | None, default_name: str, config: AppConfig | None) -> Path:
    cfg = _config(config)
    if not value:
        return get_data_dir(cfg) / default_name
    path = Path(value).expanduser()
    return path if path.is_absolute() else get_data_dir(cfg) / path


def get_checkpoint_db_path(config: AppConfig | None = None) -> Path:
    """SQLite file of the LangGraph checkpointer (conversation threads)."""
    cfg = _config(config)
    return _under_data_dir(cfg.file_paths.checkpoint_db, "threads.sqlite", cfg)


def get_audit_db_path(config: AppConfig | None = None) -> Path:
    """SQLite file of the write audit log."""
    cfg = _config(config)
    return _under_data_dir(cfg.file_paths.audit_db, "audit.sqlite", cfg)


def get_agent_data_dir(config: AppConfig | None = None) -> Path:
    """Folder for context.json exports and figures."""
    cfg = _config(config)
    return _under_data_dir(cfg.file_paths.agent_data_dir, "agent_data", cfg)


def resolve_resource_file(value: str | None, default_name: str) -> Path:
    """A configured file path, or ``resources/<default_name>`` when the value is null."""
    if not value:
        return resources_dir() / default_name
    return Path(value).expanduser().absolute()
