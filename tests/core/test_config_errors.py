"""Every way a configuration can be wrong gives one line naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from osprey_desktop.config import ConfigError, build_config, expand_env, load_config


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path | str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message
    return caught.value


def test_unknown_key_is_named_with_its_file_and_a_suggestion(tmp_path):
    user = write(tmp_path / "c.yaml", "execution_control:\n  limits:\n    max_step_retry: 3\n")
    error = load_error(user)
    assert error.key == "execution_control.limits.max_step_retry"
    assert error.file == str(user)
    assert str(error) == (
        f"bad configuration in {user}, at key 'execution_control.limits.max_step_retry': "
        "unknown key; did you mean 'max_step_retries'?"
    )


def test_unknown_top_level_key_lists_the_known_keys(tmp_path):
    user = write(tmp_path / "c.yaml", "flux_capacitor: 1\n")
    message = str(load_error(user))
    assert "'flux_capacitor': unknown key" in message
    assert "known keys here: approval, archiver, channel_finding, control_system" in message


def test_wrong_type_names_the_key_and_the_value(tmp_path):
    user = write(tmp_path / "c.yaml", "execution_control:\n  limits:\n    max_step_retries: lots\n")
    error = load_error(user)
    assert error.key == "execution_control.limits.max_step_retries"
    assert "valid integer" in error.problem
    assert "(got 'lots')" in error.problem
    assert str(user) in str(error)


def test_value_outside_the_choices_lists_the_choices(tmp_path):
    user = write(tmp_path / "c.yaml", "control_system:\n  type: tine\n")
    error = load_error(user)
    assert error.key == "control_system.type"
    assert "'sim', 'epics' or 'tango'" in error.problem


def test_negative_limit_is_refused(tmp_path):
    user = write(tmp_path / "c.yaml", "execution_control:\n  limits:\n    max_step_retries: -1\n")
    error = load_error(user)
    assert error.key == "execution_control.limits.max_step_retries"
    assert "greater than or equal to 0" in error.problem


def test_bad_list_element_is_named_with_its_index(tmp_path):
    user = write(tmp_path / "c.yaml", "launchers:\n  display_tool:\n    args: [-m, {a: 1}]\n")
    assert load_error(user).key == "launchers.display_tool.args[1]"


def test_new_mapping_entry_missing_a_key_names_it_and_counts_the_rest(tmp_path):
    user = write(tmp_path / "c.yaml", "launchers:\n  archiver_viewer:\n    program: firefox\n")
    error = load_error(user)
    assert error.key == "launchers.archiver_viewer.display_name"
    assert error.problem == "required key is missing (and 1 more problem)"
    assert error.file == str(user)


def test_section_replaced_by_a_scalar_is_a_type_error(tmp_path):
    user = write(tmp_path / "c.yaml", "approval: yes\n")
    error = load_error(user)
    assert error.key == "approval"
    assert "valid dictionary" in error.problem


def test_missing_explicit_file_names_the_path_and_the_option(tmp_path):
    missing = tmp_path / "nope.yaml"
    assert str(load_error(missing)) == (
        f"bad configuration in {missing}: file not found (check the path given with --config)"
    )


def test_missing_file_named_by_the_env_var_names_the_variable(tmp_path, monkeypatch):
    missing = tmp_path / "nope.yaml"
    monkeypatch.setenv("OSPREY_DESKTOP_CONFIG", str(missing))
    with pytest.raises(ConfigError, match=r"file not found \(check OSPREY_DESKTOP_CONFIG\)"):
        load_config()


def test_folder_instead_of_a_file_is_refused(tmp_path):
    assert "this is a folder" in str(load_error(tmp_path))


def test_bad_yaml_gives_the_line_number(tmp_path):
    user = write(tmp_path / "c.yaml", "machine:\n  name: ok\n  bad: [unclosed\nnext: 1\n")
    error = load_error(user)
    assert error.line == 4
    assert str(error).startswith(f"bad configuration in {user}, line 4: invalid YAML, column")


def test_key_written_twice_is_refused_with_its_line(tmp_path):
    user = write(tmp_path / "c.yaml", "machine:\n  name: a\n  name: b\n")
    error = load_error(user)
    assert error.line == 3
    assert "key 'name' appears twice" in error.problem


def test_top_level_list_is_refused(tmp_path):
    user = write(tmp_path / "c.yaml", "- a\n- b\n")
    assert "top level must be a mapping of keys, not a list" in str(load_error(user))


def test_unset_env_variable_without_fallback_names_variable_key_and_file(tmp_path, monkeypatch):
    monkeypatch.delenv("OSPREY_TEST_MISSING", raising=False)
    user = write(tmp_path / "c.yaml", "models:\n  chat_model:\n    model: ${OSPREY_TEST_MISSING}\n")
    error = load_error(user)
    assert error.key == "models.chat_model.model"
    assert error.file == str(user)
    assert error.problem == (
        "environment variable OSPREY_TEST_MISSING is not set; "
        "set it or write ${OSPREY_TEST_MISSING:-fallback}"
    )


def test_set_but_empty_variable_without_fallback_expands_to_empty(monkeypatch):
    monkeypatch.setenv("OSPREY_TEST_EMPTY", "")
    assert expand_env({"a": ["x${OSPREY_TEST_EMPTY}y"]}) == {"a": ["xy"]}


def test_error_in_overrides_names_the_overrides():
    with pytest.raises(ConfigError) as caught:
        build_config({"models": {"planner": "oracle"}})
    assert caught.value.file == "<overrides>"
    assert caught.value.key == "models.planner"
