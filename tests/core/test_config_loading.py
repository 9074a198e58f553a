"""Loading and merging: the shipped defaults, the user file and where it is looked for."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from osprey_desktop.config import (
    AppConfig,
    build_config,
    deep_merge,
    default_config_path,
    load_config,
    user_config_path,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def shipped_defaults() -> dict:
    return yaml.safe_load(default_config_path().read_text(encoding="utf-8"))


def test_shipped_defaults_validate_and_round_trip_every_key():
    config = load_config()
    assert isinstance(config, AppConfig)
    assert config.model_dump(mode="json") == shipped_defaults()


def test_user_file_overrides_one_key_and_keeps_its_siblings(tmp_path):
    user = write(
        tmp_path / "user.yaml",
        "execution_control:\n  limits:\n    max_step_retries: 7\n",
    )
    config = load_config(user)
    defaults = shipped_defaults()["execution_control"]["limits"]
    assert config.execution_control.limits.max_step_retries == 7
    limits = config.execution_control.limits
    assert limits.max_reclassifications == defaults["max_reclassifications"]
    assert config.execution_control.agent_control.orchestration_mode == "plan_first"


def test_user_list_replaces_the_default_list_instead_of_appending(tmp_path):
    user = write(tmp_path / "user.yaml", "launchers:\n  display_tool:\n    args: [a.ui]\n")
    config = load_config(user)
    assert config.launchers["display_tool"].args == ["a.ui"]
    assert config.launchers["display_tool"].program == "pydm"


def test_user_file_can_add_a_mapping_entry(tmp_path):
    user = write(
        tmp_path / "user.yaml",
        "approval:\n  capabilities:\n    archiver_retrieval:\n      enabled: false\n",
    )
    capabilities = load_config(user).approval.capabilities
    assert capabilities["archiver_retrieval"].enabled is False
    assert capabilities["channel_write"].enabled is True


def test_empty_user_file_means_the_defaults(tmp_path):
    user = write(tmp_path / "empty.yaml", "# nothing here\n")
    assert load_config(user) == load_config()


def test_platform_user_file_is_read_from_xdg_config_home(isolated_config):
    path = user_config_path()
    assert path == isolated_config / "config" / "osprey-desktop" / "config.yaml"
    write(path, "machine:\n  name: From XDG\n")
    assert load_config().machine.name == "From XDG"


def test_env_var_file_wins_over_the_platform_file(tmp_path, monkeypatch):
    write(user_config_path(), "machine:\n  name: From XDG\n")
    env_file = write(tmp_path / "env.yaml", "machine:\n  name: From env\n")
    monkeypatch.setenv("OSPREY_DESKTOP_CONFIG", str(env_file))
    assert load_config().machine.name == "From env"


def test_explicit_path_wins_over_the_env_var_file(tmp_path, monkeypatch):
    env_file = write(tmp_path / "env.yaml", "machine:\n  name: From env\n")
    explicit = write(tmp_path / "explicit.yaml", "machine:\n  name: Explicit\n")
    monkeypatch.setenv("OSPREY_DESKTOP_CONFIG", str(env_file))
    assert load_config(explicit).machine.name == "Explicit"
    assert load_config(str(explicit)).machine.name == "Explicit"


def test_env_reference_expands_whole_and_embedded_values(tmp_path, monkeypatch):
    monkeypatch.setenv("OSPREY_TEST_HOST", "10.0.0.5")
    monkeypatch.setenv("OSPREY_TEST_MODEL", "local-llama")
    user = write(
        tmp_path / "user.yaml",
        "models:\n  chat_model:\n"
        '    base_url: "http://${OSPREY_TEST_HOST}:8000/v1"\n'
        "    model: ${OSPREY_TEST_MODEL}\n",
    )
    chat = load_config(user).models.chat_model
    assert chat.base_url == "http://10.0.0.5:8000/v1"
    assert chat.model == "local-llama"


def test_env_fallback_applies_when_unset_or_empty(tmp_path, monkeypatch):
    monkeypatch.delenv("OSPREY_TEST_UNSET", raising=False)
    monkeypatch.setenv("OSPREY_TEST_EMPTY", "")
    user = write(
        tmp_path / "user.yaml",
        "machine:\n  name: ${OSPREY_TEST_UNSET:-Booster}\n"
        "archiver:\n  archiver_appliance:\n    url: ${OSPREY_TEST_EMPTY:-http://aa:17665}\n",
    )
    config = load_config(user)
    assert config.machine.name == "Booster"
    assert config.archiver.archiver_appliance.url == "http://aa:17665"


def test_env_value_is_converted_to_the_type_of_its_key(tmp_path, monkeypatch):
    monkeypatch.setenv("OSPREY_TEST_RETRIES", "4")
    monkeypatch.setenv("OSPREY_TEST_WRITES", "false")
    user = write(
        tmp_path / "user.yaml",
        "execution_control:\n  limits:\n    max_step_retries: ${OSPREY_TEST_RETRIES}\n"
        "control_system:\n  writes_enabled: ${OSPREY_TEST_WRITES}\n",
    )
    config = load_config(user)
    assert config.execution_control.limits.max_step_retries == 4
    assert config.control_system.writes_enabled is False


def test_deep_merge_never_mutates_its_inputs():
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 1}
    override = {"a": {"b": 2}, "e": 3}
    merged = deep_merge(base, override)
    assert merged == {"a": {"b": 2, "c": [1, 2]}, "d": 1, "e": 3}
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 1}
    assert override == {"a": {"b": 2}, "e": 3}


def test_build_config_merges_overrides_and_ignores_the_user_file():
    write(user_config_path(), "machine:\n  name: From XDG\n")
    config = build_config({"control_system": {"type": "epics"}})
    assert config.control_system.type == "epics"
    assert config.machine.name == shipped_defaults()["machine"]["name"]


def test_config_cannot_be_changed_in_place():
    config = load_config()
    with pytest.raises(ValueError):
        config.machine.name = "changed"  # type: ignore[misc]
