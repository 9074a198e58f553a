"""The same plain-English read and write, over EPICS Channel Access against the demo IOC.

The IOC runs as a child process on free loopback ports; each ``osprey-desktop`` command runs
as its own process with ``control_system.type: epics``; caproto's own command-line client
checks what was written.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess
from tests.support.cli_env import run_cli

# The module-scoped `ioc` (one demo IOC child process for this module) and `caproto_get`.
pytest_plugins = ("tests.support.demo_ioc",)
pytestmark = [pytest.mark.ioc, pytest.mark.timeout(180), pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(ioc: DemoIocProcess, isolated_config: Path):
    config = isolated_config / "epics.yaml"
    config.write_text("control_system:\n  type: epics\n  epics:\n    writes_enabled: true\n")
    db = str(isolated_config / "threads.sqlite")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(
            isolated_config,
            "--config",
            str(config),
            *args,
            "--db",
            db,
            extra_env=ioc.client_environment,
        )

    return run


def test_read_the_beam_current_over_epics(cli):
    result = cli("ask", "read the beam current")
    assert result.returncode == 0, result.stderr
    # a sentence ("SR:DCCT:Current: 500.20 mA") or a table row ("| SR:DCCT:Current | ... |")
    assert re.search(r"SR:DCCT:Current(?::| \|[^\n]*\|) \d{3}\.\d\d mA", result.stdout), (
        result.stdout
    )


def test_set_a_corrector_over_epics_is_what_caproto_get_reads_back(cli, caproto_get):
    asked = cli("ask", "set corrector HCM05 to 1.25 A")
    assert asked.returncode == 3, asked.stderr
    assert "`SR02C:HCM05:Current:SP`" in asked.stdout
    thread = re.search(r"thread: (\w+)", asked.stdout).group(1)

    approved = cli("approve", "--thread", thread, "yes")

    assert approved.returncode == 0, approved.stderr
    assert "**verified** — wrote 1.25 A" in approved.stdout and "readback" in approved.stdout
    assert caproto_get("SR02C:HCM05:Current:SP").split() == [
        "SR02C:HCM05:Current:SP",
        "[1.25]",
    ]
