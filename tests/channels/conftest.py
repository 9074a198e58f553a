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
