"""Fixtures: the hand-made turn graph on a temporary SQLite database, with and without a session."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.infrastructure.gateway import Gateway
from osprey_desktop.persistence import open_checkpointer
from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "threads.sqlite"


@pytest.fixture
async def graph(db_path: Path) -> AsyncIterator[Any]:
    async with open_checkpointer(db_path) as saver:
        yield build_turn_graph(saver)


@pytest.fixture
def gateway() -> Gateway:
    return Gateway()


@pytest.fixture
async def session(db_path: Path) -> AsyncIterator[AgentSession]:
    async with AgentSession.open(db_path=db_path, graph_factory=build_turn_graph) as opened:
        yield opened
