"""The exit codes a script can rely on: 0 answered, 1 the turn failed, 2 usage or configuration,
3 an approval is pending, 4 the approval was already answered.

The command line runs as its own process, as in an operator's shell or a facility's script; the
mapping from a TurnResult to a code is also checked directly.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.cli.common import (
    EXIT_ALREADY_ANSWERED,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PENDING,
    EXIT_USAGE,
    already_answered_message,
    turn_exit_code,
    turn_failure,
)
from osprey_desktop.session import TurnResult
from tests.support.cli_env import run_cli

pytestmark = pytest.mark.slow  # starts processes: `./osprey test -m "not slow"` skips it

REPO = Path(__file__).resolve().parents[1]


def _cli(base: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(base, *args)


def _thread_id(text: str) -> str:
    match = re.search(r"thread: (\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _unreachable_model_config(tmp_path: Path) -> Path:
    """A chat model nobody serves, with no built-in planner standing in: the turn fails."""
    config = tmp_path / "config.yaml"
    config.write_text(
        "models:\n"
        "  planner: chat_model\n"
        "  chat_model:\n"
        f"    base_url: http://127.0.0.1:{_closed_port()}/v1\n"
        "    fallback_to_builtin: false\n"
    )
    return config


# -- the mapping -----------------------------------------------------------------------------


@dataclass
class _AnsweredTurn(TurnResult):
    """A TurnResult with the ``already_answered`` field the session reports (or will)."""

    already_answered: dict[str, Any] | None = None


ERROR_NODE_STATE = {
    "control_has_error": True,
    "control_error_info": {"node": "task_extraction", "user_message": "the model is down"},
}


def test_each_kind_of_turn_maps_to_its_exit_code():
    assert turn_exit_code(TurnResult("t", response="301.5 mA")) == EXIT_OK
    assert turn_exit_code(TurnResult("t", error="unknown command '/x'")) == EXIT_FAILED
    failed = TurnResult("t", response="**The request could not be completed.**")
    failed.state = ERROR_NODE_STATE
    assert turn_exit_code(failed) == EXIT_FAILED
    assert turn_failure(failed) == "the model is down"
    pending = TurnResult("t", pending_approval={"user_message": "Approve?"})
    assert turn_exit_code(pending) == EXIT_PENDING
    refused_while_pending = TurnResult("t", error="answer yes or no", pending_approval={})
    assert turn_exit_code(refused_while_pending) == EXIT_PENDING
    answered = _AnsweredTurn("t", already_answered={"answer": "approved"})
    assert turn_exit_code(answered) == EXIT_ALREADY_ANSWERED
    assert already_answered_message(answered) == (
        "the approval on thread t was already answered (approved); this answer was not applied"
    )
    # the session's message wins, and 4 wins over the approval it still shows as pending
    refused = _AnsweredTurn(
        "t",
        error="this approval was already rejected by op at 10:02",
        pending_approval={"user_message": "Approve?"},
        already_answered={"answer": "rejected"},
    )
    assert turn_exit_code(refused) == EXIT_ALREADY_ANSWERED
    assert already_answered_message(refused) == "this approval was already rejected by op at 10:02"
    assert turn_exit_code(_AnsweredTurn("t", response="ok")) == EXIT_OK


def test_a_rejected_approval_is_an_answer_not_a_failure():
    rejected = TurnResult("t", response="Step rejected, nothing executed.")
    rejected.state = {"control_is_killed": True, "control_has_error": False}
    assert turn_exit_code(rejected) == EXIT_OK and turn_failure(rejected) is None


# -- the command line ------------------------------------------------------------------------


def test_a_failed_turn_exits_1_with_its_error_set(tmp_path):
    config = str(_unreachable_model_config(tmp_path))
    db = str(tmp_path / "threads.sqlite")

    as_json = _cli(tmp_path, "--config", config, "ask", "--db", db, "--json", "beam current?")
    as_text = _cli(tmp_path, "--config", config, "ask", "--db", db, "beam current?")

    assert as_json.returncode == 1, as_json.stderr
    result = json.loads(as_json.stdout)
    assert result["error"] is not None and "cannot reach the language model" in result["error"]
    assert "The request could not be completed" in result["response"]
    assert as_text.returncode == 1, as_text.stderr
    assert "The request could not be completed" in as_text.stdout  # the error node's report
    (line,) = as_text.stderr.strip().splitlines()
    assert line.startswith("osprey-desktop ask: the turn failed: ")
    assert "cannot reach the language model" in line and "(thread " in line


def test_pending_answered_and_already_answered(tmp_path):
    db = str(tmp_path / "threads.sqlite")

    asked = _cli(tmp_path, "ask", "--db", db, "/planning:on hello there")
    assert asked.returncode == EXIT_PENDING, asked.stderr
    thread = _thread_id(asked.stdout)
    approved = _cli(tmp_path, "approve", "--db", db, "--thread", thread, "yes", "--json")
    assert approved.returncode == EXIT_OK, approved.stderr
    assert json.loads(approved.stdout)["error"] is None
    again = _cli(tmp_path, "approve", "--db", db, "--thread", thread, "no")

    assert again.returncode == EXIT_ALREADY_ANSWERED, again.stderr
    assert again.stdout == ""
    assert f"the approval on thread '{thread}' was already answered" in again.stderr
    assert "this answer was not applied" in again.stderr


def test_usage_errors_and_unknown_threads_exit_2(tmp_path):
    db = str(tmp_path / "threads.sqlite")
    _cli(tmp_path, "ask", "--db", db, "hello")

    bad_answer = _cli(tmp_path, "approve", "--db", db, "--thread", "x", "perhaps")
    no_thread = _cli(tmp_path, "ask", "--db", db, "--thread", "nope", "hello")

    assert bad_answer.returncode == EXIT_USAGE and "answer yes or no" in bad_answer.stderr
    assert no_thread.returncode == EXIT_USAGE and "no thread 'nope'" in no_thread.stderr


def test_help_lists_every_exit_code(tmp_path):
    for argv in ([], ["ask"], ["approve"], ["threads"]):
        shown = _cli(tmp_path, *argv, "--help")
        assert shown.returncode == 0, shown.stderr
        epilog = shown.stdout.split("exit codes:", 1)[1]
        codes = [int(m) for m in re.findall(r"^  (\d)  ", epilog, flags=re.MULTILINE)]
        assert codes == [0, 1, 2, 3, 4, 5], shown.stdout
        assert "already answered" in epilog and "locked, disk full, damaged" in epilog
        assert "was not sent, or its" in epilog
