"""The command line dispatcher: commands, unknown and missing commands, bad configurations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import osprey_desktop
from osprey_desktop import cli
from osprey_desktop.cli import COMMANDS, Command, main
from osprey_desktop.config import get_config
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[1]


def run_cli(*args: str, home: Path, extra_env: dict[str, str] | None = None):
    """``python -m osprey_desktop ARGS`` in a clean environment without a display."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "OSPREY_DESKTOP_CONFIG")
    }
    env.update(XDG_CONFIG_HOME=str(home / "config"), OSPREY_DESKTOP_DATA_DIR=str(home / "data"))
    env.update(extra_env or {})
    return run_osprey([*args], env=env, cwd=REPO, timeout=30)


def test_every_planned_command_is_listed_in_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in ("run", "ask", "approve", "threads", "audit", "demo-ioc", "--config"):
        assert name in out


def test_version_is_the_package_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"osprey-desktop {osprey_desktop.__version__}"


def test_unknown_command_exits_2_with_argparse_message_and_no_traceback(isolated_config):
    result = run_cli("frobnicate", home=isolated_config)
    assert result.returncode == 2
    assert "invalid choice: 'frobnicate'" in result.stderr
    assert "Traceback" not in result.stderr


def test_command_whose_module_is_missing_says_it_is_not_available(monkeypatch, capsys):
    ghost = Command("ghost", "osprey_desktop.cli.ghost_not_built", "a command not in this build")
    monkeypatch.setattr(cli, "COMMANDS", (*COMMANDS, ghost))
    assert main(["ghost", "--anything"]) == 2
    err = capsys.readouterr().err
    assert err == "osprey-desktop: command 'ghost' is not available in this build\n"


def test_broken_import_inside_a_command_module_is_not_reported_as_missing(monkeypatch, tmp_path):
    package = tmp_path / "fakecli"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "broken.py").write_text("import a_dependency_that_is_not_installed\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    broken = Command("broken", "fakecli.broken", "imports a missing dependency")
    monkeypatch.setattr(cli, "COMMANDS", (*COMMANDS, broken))
    with pytest.raises(ModuleNotFoundError, match="a_dependency_that_is_not_installed"):
        main(["broken"])


def test_chosen_command_gets_its_arguments_and_the_loaded_config(monkeypatch, tmp_path, capsys):
    package = tmp_path / "echocli"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "echo.py").write_text(
        "from osprey_desktop.config import get_config\n"
        "def register(subparsers):\n"
        "    p = subparsers.add_parser('echo')\n"
        "    p.add_argument('words', nargs='+')\n"
        "def run(args):\n"
        "    print(' '.join(args.words), get_config().machine.name)\n"
        "    return 3\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    echo = Command("echo", "echocli.echo", "print the words")
    monkeypatch.setattr(cli, "COMMANDS", (*COMMANDS, echo))
    user = tmp_path / "c.yaml"
    user.write_text("machine:\n  name: Booster\n")
    assert main(["echo", "hello", "world", "--config", str(user)]) == 3
    assert capsys.readouterr().out == "hello world Booster\n"
    assert get_config().machine.name == "Booster"


def test_missing_config_file_is_one_line_exit_2_without_traceback(isolated_config, tmp_path):
    missing = tmp_path / "missing.yaml"
    result = run_cli("--config", str(missing), "run", home=isolated_config)
    assert result.returncode == 2
    assert result.stderr == (
        f"osprey-desktop: bad configuration in {missing}: "
        "file not found (check the path given with --config)\n"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("execution_control:\n  limits:\n    max_step_retries: lots\n", "max_step_retries'"),
        ("control_sytem:\n  type: epics\n", "'control_sytem': unknown key"),
        ("machine:\n  name: [unclosed\n", ", line 3: invalid YAML"),
    ],
)
def test_bad_config_after_the_command_is_one_line_naming_file_and_key(
    isolated_config, tmp_path, text, expected
):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    result = run_cli("run", "--config", str(bad), home=isolated_config)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"osprey-desktop: bad configuration in {bad}")
    assert expected in result.stderr


def test_bad_config_from_the_env_var_is_reported_the_same_way(isolated_config, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("approval:\n  global_mode: sometimes\n")
    result = run_cli(home=isolated_config, extra_env={"OSPREY_DESKTOP_CONFIG": str(bad)})
    assert result.returncode == 2
    assert "at key 'approval.global_mode'" in result.stderr
    assert "Traceback" not in result.stderr
