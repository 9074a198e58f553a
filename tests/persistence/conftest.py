"""A PostgreSQL server for the shared-console tests: started once per session on loopback."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.postgres import (
    INSTALL_HINT,
    REQUIRE_ENV,
    PostgresServer,
    server_binaries,
    start_server,
)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One cluster in a temporary folder on 127.0.0.1, stopped by its pid after the session.

    Skipped, with the reason, only when the server binaries are not installed and the run
    did not promise them (``./osprey test`` installs them and sets ``OSPREY_REQUIRE_POSTGRES``).
    """
    binaries = server_binaries()
    if binaries is None:
        message = f"no PostgreSQL server binaries (initdb, pg_ctl): {INSTALL_HINT}"
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(message)
        pytest.skip(message)
    server = start_server(binaries)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh empty database on the session's server, dropped after the test."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)
