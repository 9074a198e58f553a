"""``osprey-desktop threads`` shows what each thread occupies in the database."""

from __future__ import annotations

import json
from pathlib import Path

from osprey_desktop.cli.threads import format_size
from osprey_desktop.session import AgentSession
from tests.support.cli_env import run_cli


def test_sizes_read_as_an_operator_expects() -> None:
    assert [format_size(v) for v in (None, 812, 14_540, 5_557_452, 3 * 1024**3)] == [
        "-",
        "812 B",
        "14.2 KiB",
        "5.3 MiB",
        "3.0 GiB",
    ]


async def test_threads_command_lists_each_threads_size(tmp_path: Path) -> None:
    db = tmp_path / "threads.sqlite"
    async with AgentSession.open(db_path=db) as session:
        contexts = {
            "READING": {f"r{i}": {"channel": f"SR:BPM{i}", "value": i} for i in range(2_000)}
        }
        await session.graph.aupdate_state(
            session.run_config("big"), {"capability_context_data": contexts}
        )
        await session.graph.aupdate_state(
            session.run_config("small"), {"session_state": {"note": "x"}}
        )
    listed = run_cli(tmp_path, "threads", "--db", str(db), "--json")
    assert listed.returncode == 0, listed.stderr
    sizes = {row["thread_id"]: row["size_bytes"] for row in json.loads(listed.stdout)}
    assert sizes["big"] > 2_000 * 20 > sizes["small"] > 0
    table = run_cli(tmp_path, "threads", "--db", str(db))
    header, *rows = table.stdout.splitlines()
    assert "SIZE" in header
    assert any(row.startswith("big") and "KiB" in row for row in rows)
