"""The headless command line end to end: ask, approve in another process, threads, failures.

The approval flow runs each command as its own ``python -m osprey_desktop`` process on one
temporary database, as an operator's shell would; the error paths call ``main()`` in process.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from osprey_desktop.cli import main
from tests.support.cli_process import run_osprey

pytestmark = pytest.mark.slow  # starts processes: `./osprey test -m "not slow"` skips it

REPO = Path(__file__).resolve().parents[1]


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_osprey(args, env={**os.environ, **(env or {})}, cwd=REPO, timeout=90)


def _thread_id(text: str) -> str:
    match = re.search(r"thread: (\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def test_pending_approval_is_answered_by_a_second_process(tmp_path):
    db = str(tmp_path / "threads.sqlite")

    asked = _cli("ask", "--db", db, "/planning:on", "hello", "there")

    assert asked.returncode == 3, asked.stderr
    assert "Approve" in asked.stdout and "hello there" in asked.stdout
    thread = _thread_id(asked.stdout)
    assert f"approve --thread {thread} yes" in asked.stderr
    listed = _cli("threads", "--db", db, "--json")
    (entry,) = json.loads(listed.stdout)
    assert entry["thread_id"] == thread and entry["pending_approval"] is True
    assert entry["title"] == "hello there"

    approved = _cli("approve", "--db", db, "--thread", thread, "yes", "--json")

    assert approved.returncode == 0, approved.stderr
    result = json.loads(approved.stdout)
    assert result["pending_approval"] is None and result["error"] is None
    assert result["response"]
    assert result["plan"]["steps"][-1]["capability"] == "respond"
    again = _cli("threads", "--db", db)
    assert thread in again.stdout and "approval" not in again.stdout.split("\n", 1)[1]


def test_corrupt_database_gets_a_message_and_is_never_overwritten(tmp_path):
    db = tmp_path / "threads.sqlite"
    garbage = b"not a database\x00" * 300
    db.write_bytes(garbage)

    done = _cli("ask", "--db", str(db), "hello")

    assert done.returncode == 2
    assert "not a SQLite database" in done.stderr and str(db) in done.stderr
    assert "Traceback" not in done.stderr
    assert db.read_bytes() == garbage


def test_ask_uses_the_data_folder_by_default(tmp_path):
    data = tmp_path / "data"
    done = _cli("ask", "hello", env={"OSPREY_DESKTOP_DATA_DIR": str(data)})
    assert done.returncode == 0, done.stderr
    assert (data / "threads.sqlite").exists()
    assert _thread_id(done.stderr)


def test_approval_all_asks_before_a_read_in_another_process(tmp_path):
    db = str(tmp_path / "threads.sqlite")

    asked = _cli("ask", "--db", db, "/approval:all read the beam current")

    assert asked.returncode == 3, asked.stderr
    assert "Approve step 1 of" in asked.stdout and "mA" not in asked.stdout
    thread = _thread_id(asked.stdout)
    rejected = _cli("approve", "--db", db, "--thread", thread, "no")
    assert rejected.returncode == 0, rejected.stderr
    assert rejected.stdout.strip() == "Step rejected, nothing executed."


# -- in-process: the same entry point, faster --------------------------------------------


def test_ask_json_holds_response_plan_context_keys_and_commands(tmp_path, capsys):
    code = main(["ask", "--db", str(tmp_path / "t.sqlite"), "--json", "hello"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("thread_id", "response", "plan", "context_keys", "launchable_commands"):
        assert key in out
    assert out["response"] and isinstance(out["context_keys"], list)


def test_other_text_while_pending_is_refused_and_a_rejection_runs_nothing(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")
    assert main(["ask", "--db", db, "/planning:on hello"]) == 3
    thread = _thread_id(capsys.readouterr().out)

    assert main(["ask", "--db", db, "--thread", thread, "what now?"]) == 3
    refused = capsys.readouterr()
    assert "an approval is pending: answer yes or no" in refused.err and "Approve" in refused.out

    assert main(["approve", "--db", db, "--thread", thread, "No."]) == 0
    out = capsys.readouterr().out.lower()
    assert "rejected" in out and "nothing" in out


def test_bare_setting_is_kept_for_the_thread(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")
    assert main(["ask", "--db", db, "/planning:on"]) == 0
    captured = capsys.readouterr()
    assert "planning_mode_enabled=True" in captured.out
    thread = _thread_id(captured.err)

    assert main(["ask", "--db", db, "--thread", thread, "hello"]) == 3
    assert "Approve" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["approve", "--thread", "nope", "yes"], 2, "no thread 'nope'"),
        (["ask", "--thread", "nope", "hello"], 2, "no thread 'nope'"),
        (["threads", "--delete", "nope"], 2, "no thread 'nope'"),
        (["approve", "--thread", "x", "perhaps"], 2, "answer yes or no, not 'perhaps'"),
        (["ask", "/frobnicate"], 1, "unknown command '/frobnicate'"),
    ],
)
def test_bad_requests_get_a_message_and_an_exit_code(tmp_path, capsys, argv, code, message):
    db = str(tmp_path / "t.sqlite")
    main(["ask", "--db", db, "hello"])
    capsys.readouterr()

    assert main([*argv, "--db", db]) == code
    assert message in capsys.readouterr().err


def test_unknown_command_on_a_new_thread_names_no_thread(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")

    assert main(["ask", "--db", db, "/bogus"]) == 1

    err = capsys.readouterr().err
    assert "unknown command '/bogus'" in err and "thread" not in err
    assert main(["threads", "--db", db]) == 0
    assert "no threads yet" in capsys.readouterr().out


def test_unknown_command_on_an_existing_thread_names_it(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")
    main(["ask", "--db", db, "hello"])
    thread = _thread_id(capsys.readouterr().err)

    assert main(["ask", "--db", db, "--thread", thread, "/bogus"]) == 1
    assert f"(thread {thread})" in capsys.readouterr().err


def test_unknown_command_as_json_has_no_thread_id(tmp_path, capsys):
    assert main(["ask", "--db", str(tmp_path / "t.sqlite"), "--json", "/bogus"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["thread_id"] is None and "unknown command" in out["error"]


def test_exit_alone_says_there_is_nothing_to_run(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")

    assert main(["ask", "--db", db, "/exit"]) == 0

    captured = capsys.readouterr()
    assert captured.out.strip() == "nothing to run: /exit ends an interactive session"
    assert "thread" not in captured.err


def test_approve_without_pending_approval_runs_nothing(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")
    main(["ask", "--db", db, "hello"])
    thread = _thread_id(capsys.readouterr().err)

    assert main(["approve", "--db", db, "--thread", thread, "yes"]) == 1
    assert "has no pending approval" in capsys.readouterr().err


def test_threads_without_database_says_so_and_creates_nothing(tmp_path, capsys):
    db = tmp_path / "absent.sqlite"
    assert main(["threads", "--db", str(db)]) == 0
    assert "no threads yet" in capsys.readouterr().out
    assert not db.exists()


def test_threads_delete_removes_the_thread(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite")
    main(["ask", "--db", db, "hello"])
    thread = _thread_id(capsys.readouterr().err)

    assert main(["threads", "--db", db, "--delete", thread]) == 0
    assert main(["threads", "--db", db]) == 0
    deleted, *listing = capsys.readouterr().out.splitlines()
    assert deleted == f"deleted thread {thread}"
    assert listing == ["no threads yet"]


def test_bad_config_is_one_clear_line(tmp_path, capsys):
    config = tmp_path / "config.yaml"
    config.write_text("execution_control:\n  agent_control:\n    orchestration_mode: sideways\n")

    assert main(["--config", str(config), "ask", "hello"]) == 2

    err = capsys.readouterr().err
    assert "orchestration_mode" in err and str(config) in err and "Traceback" not in err
