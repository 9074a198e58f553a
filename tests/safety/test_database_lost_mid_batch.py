"""The shared PostgreSQL database stops in the middle of a batch, with real processes.

``approve`` carries out a six-channel batch on a PostgreSQL conversation database; the server
is stopped after the first put landed. Every put that left must keep its outcome: what the
database could not take is kept on this computer and written into the audit log when the
server is back. ``approve`` says which writes were sent (exit code 5), not just that the
server cannot be reached.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from osprey_desktop.connectors.sim_state import SimStateFile
from osprey_desktop.safety.audit_spool import SPOOL_NAME, pending
from tests.support.cli_env import cli_environment
from tests.support.postgres import _as_server_user, server_binaries, start_server

REPO = Path(__file__).resolve().parents[2]
BATCH = [f"SR0{(i - 1) // 3 + 1}C:HCM{i:02d}:Current:SP" for i in range(1, 7)]

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


@pytest.fixture
def own_server():
    """A server of this test alone (it is stopped and started again)."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("no PostgreSQL server binaries")
    server = start_server(binaries)
    try:
        yield server, binaries
    finally:
        server.stop()


def _stop(server) -> None:
    os.kill(server.pid, signal.SIGINT)  # fast shutdown; the data folder stays
    deadline = time.monotonic() + 30
    while Path(f"/proc/{server.pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def _start_again(server, binaries) -> None:
    data, log = server.folder / "data", server.folder / "server.log"
    options = f"-h 127.0.0.1 -p {server.port} -k {server.folder / 'sockets'} -c fsync=off"
    subprocess.run(
        _as_server_user(
            [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w"]
            + ["-t", "60", "start"]
        ),
        check=True,
        capture_output=True,
    )
    server.pid = int((data / "postmaster.pid").read_text().split()[0])


def test_a_database_lost_mid_batch_keeps_every_outcome_and_writes_it_back(
    isolated_config, own_server
):
    server, binaries = own_server
    url = server.create_database()
    env = cli_environment(isolated_config)
    ring = SimStateFile(isolated_config / "data" / "sim_machine.json")

    def cli(*args: str) -> list[str]:
        return [sys.executable, "-m", "osprey_desktop", *args, "--db", url]

    asked = subprocess.run(
        cli("ask", "set HCM01 to HCM06 to 0.5 A"), capture_output=True, text=True, cwd=REPO,
        env=env, timeout=120,
    )  # fmt: skip
    assert asked.returncode == 3, asked.stdout + asked.stderr
    thread = re.search(r"thread: (\w+)", asked.stdout + asked.stderr).group(1)
    approve = subprocess.Popen(
        cli("approve", "--thread", thread, "yes"), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while ring.load().get(BATCH[0]) != 0.5:
        assert approve.poll() is None and time.monotonic() < deadline, approve.communicate()
        time.sleep(0.01)
    _stop(server)

    out, err = approve.communicate(timeout=180)

    sent = [c for c in BATCH if ring.load().get(c) == 0.5]
    assert sent, "at least the first put left"
    assert approve.returncode == 5, out + err
    assert "were sent before the database became unreachable" in err, err
    spool = isolated_config / "data" / SPOOL_NAME
    kept = pending(spool)
    assert kept and all(e["thread_id"] == thread for e in kept)

    _start_again(server, binaries)
    checked = subprocess.run(
        cli("verify", "--thread", thread), capture_output=True, text=True, cwd=REPO, env=env,
        timeout=120,
    )  # fmt: skip

    assert checked.returncode in (0, 1), checked.stdout + checked.stderr
    assert pending(spool) == [], "the kept outcomes went into the audit log"
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT channel, outcome FROM osprey_audit_log ORDER BY id").fetchall()
    outcomes = {c for c, o in rows if o not in ("intent", "resolved")}
    resolved = {c for c, o in rows if o == "resolved"}
    assert set(sent) <= outcomes | resolved, (sent, rows)
    assert "not on the machine" not in checked.stdout
