"""Shared fixture: the shipped channel list, loaded once."""

from __future__ import annotations

import pytest

from osprey_desktop.channels import ChannelDatabase, load_channel_database
from osprey_desktop.config import resources_dir

_DB: ChannelDatabase | None = None


@pytest.fixture
def database() -> ChannelDatabase:
    global _DB
    if _DB is None:
        _DB = load_channel_database(resources_dir() / "channels.yaml")
    return _DB


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch) -> None:
    """Each test keeps its lists' cached copies and indexes in a folder of its own."""
    monkeypatch.setenv("OSPREY_DESKTOP_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
