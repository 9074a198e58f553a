"""Fixtures for every test: a process that never reads the developer's own config or data.

Each test gets empty XDG config and data folders and its own ``OSPREY_DESKTOP_DATA_DIR``, and
starts and ends with no process-wide configuration loaded, so one test's ``set_config`` never
leaks into the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.config import AppConfig, build_config, reset_config, set_config


@pytest.fixture(autouse=True)
def isolated_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> Iterator[Path]:
    """Point config and data folders at a fresh temporary home; yields that home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))  # the log file
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))  # kept channel indexes
    monkeypatch.setenv("OSPREY_DESKTOP_DATA_DIR", str(home / "data"))
    monkeypatch.delenv("OSPREY_DESKTOP_CONFIG", raising=False)
    monkeypatch.delenv("OSPREY_DESKTOP_SITE_CONFIG", raising=False)  # no site file leaks in
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(home / "xdg"))
    reset_config()
    yield home
    reset_config()


@pytest.fixture
def configure() -> Callable[..., AppConfig]:
    """Install the shipped defaults with some keys overridden as the process config.

    ``configure({"control_system": {"type": "epics"}})`` returns the validated AppConfig.
    """

    def _configure(overrides: dict[str, Any] | None = None) -> AppConfig:
        config = build_config(overrides)
        set_config(config)
        return config

    return _configure
