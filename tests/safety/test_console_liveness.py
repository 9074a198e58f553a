"""Two consoles on two hosts sharing one PostgreSQL database: a slow batch stays alive.

Console B runs in its own UTS namespace (``unshare -u``) with its own host name, so console A
(this host) cannot look it up in its process table and must rely on B's heartbeat in the
shared ledger. B carries out an eight-channel batch that takes far longer than four
heartbeats; while it runs, A's ``verify`` must not read the batch back (it would record
"the value sent is not on the machine" for channels B is about to write), and every channel
ends on the machine with its outcome on record.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from osprey_desktop.connectors.sim_state import SimStateFile
from tests.persistence.conftest import postgres_server, postgres_url  # noqa: F401
from tests.support.cli_env import cli_environment

REPO = Path(__file__).resolve().parents[2]
CHANNELS = [f"SR0{(i - 1) // 3 + 1}C:HCM{i:02d}:Current:SP" for i in range(1, 13)]

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


def _other_host_works() -> bool:
    if sys.platform != "linux":
        return False
    probe = subprocess.run(
        ["unshare", "-u", "sh", "-c", "hostname consoleb && hostname"],
        capture_output=True,
        text=True,
        check=False,
    )
    return probe.returncode == 0 and probe.stdout.strip() == "consoleb"


@pytest.fixture
def consoles(isolated_config, postgres_url):  # noqa: F811
    if not _other_host_works():
        pytest.skip("needs 'unshare -u' (root on Linux) to run a console under another host name")
    config = isolated_config / "config" / "osprey-desktop" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("approval:\n  heartbeat_seconds: 0.25\n")
    env = cli_environment(isolated_config)

    def command(*args: str, host: str | None = None) -> list[str]:
        extra = ["--db", postgres_url] if args[0] in ("ask", "approve", "verify") else []
        argv = [sys.executable, "-m", "osprey_desktop", *args, *extra]
        if host is None:
            return argv
        return ["unshare", "-u", "sh", "-c", f'hostname {host} && exec "$@"', "console", *argv]

    def run(*args: str, host: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command(*args, host=host), capture_output=True, text=True, timeout=120, cwd=REPO,
            env=env,
        )  # fmt: skip

    def start(*args: str, host: str | None = None) -> subprocess.Popen[str]:
        return subprocess.Popen(
            command(*args, host=host), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=REPO, env=env,
        )  # fmt: skip

    run.start = start  # type: ignore[attr-defined]
    run.url = postgres_url  # type: ignore[attr-defined]
    run.ring = SimStateFile(isolated_config / "data" / "sim_machine.json")  # type: ignore[attr-defined]
    return run


def _audit(url: str) -> list[tuple[str, str]]:
    with psycopg.connect(url) as conn:
        exists = conn.execute("SELECT to_regclass('osprey_audit_log') IS NOT NULL").fetchone()[0]
        if not exists:
            return []
        rows = conn.execute("SELECT outcome, channel FROM osprey_audit_log ORDER BY id")
        return [(r[0], r[1]) for r in rows.fetchall()]


def _status(url: str) -> str | None:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT status FROM osprey_approvals").fetchone()
    return row[0] if row else None


async def test_a_slow_batch_on_another_host_is_never_read_back_while_it_runs(consoles):
    from osprey_desktop.cli.verify import _verify
    from osprey_desktop.persistence.postgres import conversation_database
    from osprey_desktop.session import AgentSession

    asked = consoles("ask", "set HCM01 to HCM12 to 0.5 A")
    assert asked.returncode == 3, asked.stdout + asked.stderr
    thread = re.search(r"thread: (\w+)", asked.stdout + asked.stderr).group(1)
    assert re.findall(r"to `([^`]+)`", asked.stdout) == CHANNELS, asked.stdout

    batch = consoles.start("approve", "--thread", thread, "yes", host="consoleb")
    deadline = time.monotonic() + 120
    while _status(consoles.url) != "sending" or consoles.ring.load().get(CHANNELS[0]) != 0.5:
        assert batch.poll() is None and time.monotonic() < deadline, batch.communicate()
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)  # six heartbeats: a console without them would look gone by now

    # console A, on this host, checks the thread while B is still sending
    async with AgentSession.open(db_path=conversation_database(consoles.url)) as session:
        busy, findings = await _verify(session, thread)
    still_sending = _status(consoles.url) == "sending"

    out, err = batch.communicate(timeout=120)
    assert batch.returncode == 0, out + err
    assert still_sending, "the check must run while B is sending (make the batch longer)"
    assert findings == [], [f.message for f in findings]
    assert len(busy) == 1 and "being carried out by the console on consoleb" in busy[0], busy
    outcomes = _audit(consoles.url)
    assert [o for o, _ in outcomes if o != "intent"] == ["verified"] * 12, outcomes
    assert all(consoles.ring.load().get(c) == 0.5 for c in CHANNELS)
