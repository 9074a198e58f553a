"""Fixtures for the logbook tests: an Olog service in its own process on 127.0.0.1 (stopped
by its pid), and the shared PostgreSQL server of the persistence tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.persistence.conftest import postgres_server, postgres_url  # noqa: F401

SERVER = Path(__file__).with_name("olog_server.py")


@dataclass
class OlogProcess:
    process: subprocess.Popen[str]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/Olog"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_olog(port: int = 0, user: str = "ops", password: str = "secret") -> OlogProcess:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--port", str(port), "--user", user, "--password", password],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()  # blocks until the server listens (or exits)
    if not line.startswith("PORT "):
        process.kill()
        process.wait()
        raise RuntimeError(f"the Olog test server did not start: {line!r}")
    return OlogProcess(process, int(line.split()[1]))


@pytest.fixture
def olog() -> Iterator[Callable[..., OlogProcess]]:
    """Start Olog servers (``olog(port=...)``); each is stopped by its pid at the end."""
    started: list[OlogProcess] = []

    def _start(**kwargs) -> OlogProcess:
        server = start_olog(**kwargs)
        started.append(server)
        return server

    yield _start
    for server in started:
        server.stop()


# The control-room fixtures: a fresh simulated ring, the real registry and planner, an
# AgentSession on a fresh thread database.
from tests.control_room.conftest import (  # noqa: E402, F401
    connectors,
    fresh_framework,
    machine,
    session,
)
