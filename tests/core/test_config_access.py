"""Process-wide access: get_config, get_config_value, agent-control defaults and paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from osprey_desktop.config import (
    build_config,
    get_agent_control_defaults,
    get_agent_data_dir,
    get_audit_db_path,
    get_checkpoint_db_path,
    get_config,
    get_config_value,
    get_data_dir,
    load_config,
    platform_data_dir,
    reset_config,
    set_config,
)

AGENT_CONTROL_KEYS = {
    "orchestration_mode",
    "planning_mode_enabled",
    "approval_global_mode",
    "approval_capabilities",
    "task_extraction_bypass_enabled",
    "capability_selection_bypass_enabled",
    "max_reclassifications",
    "max_planning_attempts",
    "max_step_retries",
    "max_execution_time_seconds",
    "max_concurrent_classifications",
    "max_react_iterations",
    "writes_enabled",
}


def test_get_config_loads_lazily_once_and_reset_reads_again(tmp_path, monkeypatch):
    user = tmp_path / "c.yaml"
    user.write_text("machine:\n  name: First\n")
    monkeypatch.setenv("OSPREY_DESKTOP_CONFIG", str(user))
    first = get_config()
    assert first.machine.name == "First"
    user.write_text("machine:\n  name: Second\n")
    assert get_config() is first
    reset_config()
    assert get_config().machine.name == "Second"


def test_set_config_replaces_the_process_config(configure):
    config = configure({"machine": {"name": "Linac"}})
    assert get_config() is config
    assert get_config_value("machine.name") == "Linac"


def test_set_config_refuses_something_that_is_not_a_config():
    with pytest.raises(TypeError, match="set_config needs an AppConfig, got dict"):
        set_config({"machine": {}})  # type: ignore[arg-type]


def test_get_config_value_reads_nested_keys_sections_and_mapping_entries(configure):
    configure({"execution_control": {"limits": {"max_step_retries": 9}}})
    assert get_config_value("execution_control.limits.max_step_retries") == 9
    assert get_config_value("approval.capabilities.channel_write.enabled") is True
    assert get_config_value("execution_control.limits") == get_config().execution_control.limits
    assert get_config_value("control_system.channel_database", "x") is None


@pytest.mark.parametrize(
    "path",
    ["nope", "execution_control.nope", "machine.name.upper", "approval.capabilities.missing"],
)
def test_get_config_value_returns_the_default_for_absent_keys(configure, path):
    configure()
    assert get_config_value(path, "fallback") == "fallback"


def test_agent_control_defaults_come_from_the_config(configure):
    configure(
        {
            "execution_control": {
                "agent_control": {"orchestration_mode": "react", "planning_mode_enabled": True},
                "limits": {"max_react_iterations": 3, "max_step_retries": 0},
            },
            "approval": {"global_mode": "all_capabilities"},
        }
    )
    control = get_agent_control_defaults()
    assert set(control) == AGENT_CONTROL_KEYS
    assert control["orchestration_mode"] == "react"
    assert control["planning_mode_enabled"] is True
    assert control["max_react_iterations"] == 3
    assert control["max_step_retries"] == 0
    assert control["approval_global_mode"] == "all_capabilities"
    assert control["approval_capabilities"] == {"channel_write": {"enabled": True}}
    assert json.loads(json.dumps(control)) == control


def test_agent_control_defaults_are_a_fresh_dict_each_time(configure):
    configure()
    first = get_agent_control_defaults()
    first["approval_capabilities"]["channel_write"]["enabled"] = False
    first["max_step_retries"] = 99
    again = get_agent_control_defaults()
    assert again["approval_capabilities"]["channel_write"]["enabled"] is True
    assert again["max_step_retries"] == get_config().execution_control.limits.max_step_retries


@pytest.mark.parametrize(
    ("control_system", "expected"),
    [
        ({"type": "sim"}, True),
        ({"type": "epics"}, False),
        ({"type": "epics", "epics": {"writes_enabled": True}}, True),
        ({"type": "sim", "writes_enabled": False}, False),
        ({"type": "sim", "sim": {"writes_enabled": False}}, False),
        ({"type": "epics", "sim": {"writes_enabled": True}}, False),
    ],
)
def test_writes_are_on_for_sim_and_off_for_epics_unless_set(control_system, expected):
    config = build_config({"control_system": control_system})
    assert get_agent_control_defaults(config)["writes_enabled"] is expected


def test_data_dir_prefers_the_config_then_the_env_var_then_the_platform(tmp_path, monkeypatch):
    monkeypatch.setenv("OSPREY_DESKTOP_DATA_DIR", str(tmp_path / "env"))
    assert get_data_dir(build_config()) == tmp_path / "env"
    configured = build_config({"file_paths": {"data_dir": str(tmp_path / "cfg")}})
    assert get_data_dir(configured) == tmp_path / "cfg"
    monkeypatch.delenv("OSPREY_DESKTOP_DATA_DIR")
    assert get_data_dir(build_config()) == platform_data_dir()


def test_platform_data_dir_follows_xdg_data_home(isolated_config):
    assert platform_data_dir() == isolated_config / "share" / "osprey-desktop"


def test_database_paths_default_inside_the_data_dir(configure, isolated_config):
    configure()
    data = isolated_config / "data"
    assert get_data_dir() == data
    assert get_checkpoint_db_path() == data / "threads.sqlite"
    assert get_audit_db_path() == data / "audit.sqlite"
    assert get_agent_data_dir() == data / "agent_data"
    assert not data.exists()  # path helpers never create anything


def test_relative_paths_are_under_the_data_dir_and_absolute_ones_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    config = build_config(
        {
            "file_paths": {
                "data_dir": "~/osprey",
                "checkpoint_db": "db/threads.sqlite",
                "audit_db": str(tmp_path / "audit.sqlite"),
                "agent_data_dir": "~/exports",
            }
        }
    )
    assert get_data_dir(config) == tmp_path / "home" / "osprey"
    assert get_checkpoint_db_path(config) == tmp_path / "home" / "osprey" / "db" / "threads.sqlite"
    assert get_audit_db_path(config) == tmp_path / "audit.sqlite"
    assert get_agent_data_dir(config) == Path(tmp_path / "home" / "exports")


def test_loaded_config_equals_a_fresh_build_when_no_user_file_exists():
    assert load_config() == build_config()
