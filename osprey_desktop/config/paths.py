"""Where configuration, resources and data live on this machine.

Relative ``file_paths`` entries are read against the data folder (``data_dir`` itself against
the current directory); ``~`` expands everywhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from osprey_desktop.config.models import AppConfig

APP_DIR_NAME = "osprey-desktop"
CONFIG_ENV_VAR = "OSPREY_DESKTOP_CONFIG"
DATA_DIR_ENV_VAR = "OSPREY_DESKTOP_DATA_DIR"

_CHECKOUT_RESOURCES = Path(__file__).resolve().parents[2] / "resources"
_INSTALLED_RESOURCES = Path(sys.prefix) / "share" / APP_DIR_NAME / "resources"


def resources_dir() -> Path:
    """The shipped ``resources/`` folder: the checkout's, else the one a wheel installed."""
    if _CHECKOUT_RESOURCES.is_dir():
        return _CHECKOUT_RESOURCES
    return _INSTALLED_RESOURCES


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
