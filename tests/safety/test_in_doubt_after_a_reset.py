"""A write left in doubt by a connection dropped during the put is found and read back by verify.

Real processes: an IOC whose put handler is slow (``tests/connectors/slow_put_ioc.py``), killed
while ``osprey-desktop approve`` waits for the put to complete, so the approval ends ``done``
with a write *in doubt* (the console is alive and finished; nothing crashed). ``verify`` must
read that write back and record what it found, not say "no write in doubt" (issue 17).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.connectors.slow_put_ioc import SlowPutIocProcess
from tests.support.cli_env import cli_environment

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.ioc, pytest.mark.timeout(240), pytest.mark.slow]

CHANNELS = """\
version: 1
machine: slow put test IOC
channels:
- name: SLOW:SP
  description: Slow test corrector current setpoint
  family: TEST
  device: SLOW
  role: setpoint
  units: A
  precision: 3
  writable: true
  nominal: 0.0
"""
LIMITS = """\
version: 1
channels:
  "SLOW:SP": {min: -5.0, max: 5.0, writable: true}
"""


@pytest.fixture
def site(isolated_config: Path) -> Path:
    (isolated_config / "channels.yaml").write_text(CHANNELS)
    (isolated_config / "limits.yaml").write_text(LIMITS)
    config = isolated_config / "epics.yaml"
    config.write_text(
        "control_system:\n"
        "  type: epics\n"
        f"  channel_database: {isolated_config / 'channels.yaml'}\n"
        f"  limits_database: {isolated_config / 'limits.yaml'}\n"
        "  write_verification: callback\n"
        "  epics:\n"
        "    timeout: 10.0\n"
        "    writes_enabled: true\n"
    )
    return isolated_config


@pytest.fixture
def doomed_ioc() -> Iterator[SlowPutIocProcess]:
    process = SlowPutIocProcess().start()
    try:
        yield process
    finally:
        process.stop()


def command(site: Path, *args: str) -> list[str]:
    """``osprey-desktop`` on the test's site; the thread database for the commands taking one."""
    threads = ["--db", str(site / "threads.sqlite")] if args[0] != "audit" else []
    return [
        sys.executable,
        "-m",
        "osprey_desktop",
        "--config",
        str(site / "epics.yaml"),
        *args,
        *threads,
    ]


def run(site: Path, ioc: SlowPutIocProcess, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**cli_environment(site), **ioc.client_environment}
    return subprocess.run(
        command(site, *args),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
    )


def test_a_write_in_doubt_after_a_dropped_connection_is_read_back_by_verify(site, doomed_ioc):
    asked = run(site, doomed_ioc, "ask", "set SLOW:SP to 1.5 A")
    assert asked.returncode == 3, asked.stdout + asked.stderr
    thread = re.search(r"thread: (\w+)", asked.stdout + asked.stderr).group(1)  # type: ignore[union-attr]

    approve = subprocess.Popen(
        command(site, "approve", "--thread", thread, "yes"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**cli_environment(site), **doomed_ioc.client_environment},
    )
    try:
        doomed_ioc.wait_for_output("PUT-START SLOW:SP", 90.0)
        doomed_ioc.kill()  # the connection drops while the put waits for its completion
        out, err = approve.communicate(timeout=120)
    finally:
        if approve.poll() is None:
            approve.kill()
            approve.wait()
    assert approve.returncode == 5, out + err
    assert "in_doubt" in out or "in doubt" in out, out + err

    # the IOC is back (fresh, at 0 A): verify reads the write in doubt back and records it
    with SlowPutIocProcess() as back:
        verified = run(site, back, "verify", "--thread", thread)
        text = verified.stdout + verified.stderr
        assert "no write in doubt" not in text, text
        assert "SLOW:SP" in text, text
        again = run(site, back, "verify", "--thread", thread)
    assert "no write in doubt" in again.stdout + again.stderr, again.stdout + again.stderr
    audit = run(site, doomed_ioc, "audit", "--json")
    assert '"resolved"' in audit.stdout, audit.stdout + audit.stderr
    print(text)
