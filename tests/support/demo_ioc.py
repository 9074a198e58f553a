"""The demo IOC as a test fixture, and caproto's own client to check what it serves.

A test module asks for them with ``pytest_plugins = ("tests.support.demo_ioc",)`` (and does not
import this module, so pytest can load it as a plugin): each module using ``ioc`` gets one IOC
child process on free loopback ports, stopped by its pid when the module ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess

CAPROTO_GET = Path(sys.executable).with_name("caproto-get")


@pytest.fixture(scope="module")
def ioc() -> Iterator[DemoIocProcess]:
    process = DemoIocProcess(rate=5.0).start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def caproto_get(ioc: DemoIocProcess) -> Callable[[str], str]:
    """``caproto_get(name)``: what caproto's own client prints for ``name`` on this IOC, an
    independent check of the served value."""

    def get(name: str) -> str:
        done = subprocess.run(
            [str(CAPROTO_GET), "--no-repeater", "--timeout", "5", name],
            env={**os.environ, **ioc.client_environment},
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return get
