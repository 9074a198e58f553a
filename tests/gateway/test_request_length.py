"""A pasted file is not a request: every client refuses it at once, and nothing is planned."""

from __future__ import annotations

import json

from osprey_desktop.language.request_length import MAX_REQUEST_CHARS
from tests.support.cli_env import run_cli


async def test_the_gateway_refuses_a_request_longer_than_the_limit(gateway, graph) -> None:
    config = {"configurable": {"thread_id": "long"}}
    text = "set HCM01 to 1.5 A " * (MAX_REQUEST_CHARS // 10)

    result = await gateway.process_message(text, graph, config)

    assert not result.runs_graph and result.agent_state is None
    assert f"{len(text):,} characters" in result.error
    assert f"at most {MAX_REQUEST_CHARS:,}" in result.error


async def test_a_request_at_the_limit_is_planned(gateway, graph) -> None:
    config = {"configurable": {"thread_id": "at-limit"}}
    text = ("read the beam current " * MAX_REQUEST_CHARS)[:MAX_REQUEST_CHARS]

    result = await gateway.process_message(text, graph, config)

    assert result.error is None and result.runs_graph


def test_ask_refuses_a_50_kb_request_without_planning_or_writing_it(tmp_path) -> None:
    db = tmp_path / "threads.sqlite"
    text = "set HCM01 to 1.5 A " * 2700  # 51 KB of write requests

    done = run_cli(tmp_path, "ask", "--json", "--db", str(db), text, timeout=60)

    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr
    result = json.loads(done.stdout)
    told = f"{len(text.strip()):,} characters"
    assert told in result["error"] and result.get("pending_approval") is None
    # nothing reached the machine and nothing waits for an answer
    listed = run_cli(tmp_path, "threads", "--db", str(db), "--json", timeout=60)
    assert "pending" not in listed.stdout
