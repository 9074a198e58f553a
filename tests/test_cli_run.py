"""``osprey-desktop run``: the display check and the hand-over to the window."""

from __future__ import annotations

import argparse
import sys
import types

import pytest

from osprey_desktop.cli import main
from osprey_desktop.cli import run as run_command
from osprey_desktop.cli.run import missing_display_reason


@pytest.mark.parametrize(
    "env",
    [
        {"DISPLAY": ":0"},
        {"WAYLAND_DISPLAY": "wayland-0"},
        {"QT_QPA_PLATFORM": "offscreen"},
        {"QT_QPA_PLATFORM": "minimal"},
        {"QT_QPA_PLATFORM": "offscreen:fontengine=freetype"},
        {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":99"},
        {"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":1"},
    ],
)
def test_a_usable_display_or_headless_platform_is_accepted(env):
    assert missing_display_reason(env, platform="linux") is None


@pytest.mark.parametrize(
    ("env", "reason"),
    [
        ({}, "no display found (DISPLAY and WAYLAND_DISPLAY are not set)"),
        ({"DISPLAY": ""}, "no display found"),
        ({"QT_QPA_PLATFORM": "xcb"}, "QT_QPA_PLATFORM=xcb but DISPLAY"),
        ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, "QT_QPA_PLATFORM=wayland but"),
    ],
)
def test_no_display_is_detected_before_qt_would_abort(env, reason):
    assert reason in missing_display_reason(env, platform="linux")


def test_macos_and_windows_always_have_a_display():
    assert missing_display_reason({}, platform="darwin") is None
    assert missing_display_reason({}, platform="win32") is None


def test_run_without_display_explains_xvfb_and_exits_2(monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot open the window: no display found" in err
    assert "xvfb-run -a osprey-desktop run" in err


def test_no_command_means_run(monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main([]) == 2
    assert "cannot open the window" in capsys.readouterr().err


def test_run_without_the_window_package_says_the_window_is_not_available(monkeypatch, capsys):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setitem(sys.modules, "osprey_desktop.ui.app", None)  # import now fails
    assert main(["run"]) == 2
    assert "the window is not available in this build" in capsys.readouterr().err


def test_run_hands_the_loaded_config_to_the_window_and_returns_its_code(
    monkeypatch, configure, tmp_path
):
    received = []
    fake_app = types.ModuleType("osprey_desktop.ui.app")
    fake_app.run_app = lambda config: received.append(config) or 7
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setitem(sys.modules, "osprey_desktop.ui.app", fake_app)
    user = tmp_path / "c.yaml"
    user.write_text("machine:\n  name: Booster\n")
    assert main(["--config", str(user), "run"]) == 7
    assert [c.machine.name for c in received] == ["Booster"]


def test_run_registers_a_parser_named_run():
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers(dest="command")
    run_command.register(subparsers)
    assert parser.parse_args(["run"]).command == "run"
