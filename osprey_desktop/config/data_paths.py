"""The folders and files a configuration names: data, conversations, audit log, exports.

Relative ``file_paths`` entries are read against the data folder (``data_dir`` itself against
the current directory); ``~`` expands everywhere. Called without a configuration, each reads
the process's (``runtime.get_config``).
"""

from __future__ import annotations

import os
from pathlib import Path

from osprey_desktop.config.models import AppConfig
from osprey_desktop.config.paths import DATA_DIR_ENV_VAR, platform_data_dir
from osprey_desktop.config.runtime import get_config


def _config(config: AppConfig | None) -> AppConfig:
    return config if config is not None else get_config()


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
