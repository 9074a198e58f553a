"""Configuration: the shipped defaults, the user file, validation and process-wide access."""

from osprey_desktop.config.data_paths import (
    get_agent_data_dir,
    get_audit_db_path,
    get_checkpoint_db_path,
    get_data_dir,
)
from osprey_desktop.config.errors import ConfigError
from osprey_desktop.config.loader import build_config, deep_merge, expand_env, load_config
from osprey_desktop.config.models import AppConfig
from osprey_desktop.config.paths import (
    CONFIG_ENV_VAR,
    DATA_DIR_ENV_VAR,
    SITE_CONFIG_ENV_VAR,
    default_config_path,
    platform_config_dir,
    platform_data_dir,
    platform_state_dir,
    resolve_resource_file,
    resources_dir,
    site_config_path,
    user_config_path,
)
from osprey_desktop.config.runtime import (
    get_agent_control_defaults,
    get_config,
    get_config_value,
    reset_config,
    set_config,
)

__all__ = [
    "CONFIG_ENV_VAR",
    "DATA_DIR_ENV_VAR",
    "SITE_CONFIG_ENV_VAR",
    "AppConfig",
    "ConfigError",
    "build_config",
    "deep_merge",
    "default_config_path",
    "expand_env",
    "get_agent_control_defaults",
    "get_agent_data_dir",
    "get_audit_db_path",
    "get_checkpoint_db_path",
    "get_config",
    "get_config_value",
    "get_data_dir",
    "load_config",
    "platform_config_dir",
    "platform_data_dir",
    "platform_state_dir",
    "reset_config",
    "resolve_resource_file",
    "resources_dir",
    "set_config",
    "site_config_path",
    "user_config_path",
]
