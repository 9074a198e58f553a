"""The logbook from the command line, each command its own process, as an operator's shell
runs them: ``ask`` waits for the entry's confirmation (exit 3), ``approve`` publishes it, an
Olog service that refuses keeps it local, ``logbook retry`` publishes it later."""

from __future__ import annotations

import json
import re

import pytest

from osprey_desktop.logbook import SqliteLogbook
from tests.support.cli_env import run_cli

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


def thread_of(text: str) -> str:
    match = re.search(r"(?:thread: |--thread )(\w+)", text)
    assert match, f"no thread id in {text!r}"
    return match.group(1)


def test_ask_waits_for_confirmation_approve_publishes_and_retry_sends_it_later(
    isolated_config, olog
):
    server = olog(password="secret")
    config = isolated_config / "olog.yaml"
    config.write_text(
        f"logbook:\n  type: olog\n  olog:\n    url: {server.url}\n    tags: [Orbit]\n",
        encoding="utf-8",
    )
    db = str(isolated_config / "threads.sqlite")
    wrong = {"OLOG_USERNAME": "ops", "OLOG_PASSWORD": "wrong"}

    def cli(*args: str, env: dict[str, str] = wrong):
        return run_cli(isolated_config, "--config", str(config), *args, "--db", db, extra_env=env)

    asked = cli("ask", "make a logbook entry: orbit corrected in sector 3")
    assert asked.returncode == 3, asked.stderr
    assert "Publish this logbook entry to Olog" in asked.stdout
    thread = thread_of(asked.stderr)
    store = SqliteLogbook(db)
    assert [e.status for e in store.entries()] == ["draft"]

    approved = cli("approve", "--thread", thread, "yes")

    assert approved.returncode == 0, approved.stderr
    assert "was not published" in approved.stdout and "401" in approved.stdout
    (kept,) = store.entries()
    assert kept.status == "not_published" and "401" in kept.publish_error
    again = cli("approve", "--thread", thread, "yes")
    assert again.returncode == 4, "one confirmation publishes once"

    retried = cli("logbook", "retry", str(kept.id), env={**wrong, "OLOG_PASSWORD": "secret"})

    assert retried.returncode == 0, retried.stdout + retried.stderr
    shown = json.loads(cli("logbook", "show", str(kept.id), "--json").stdout)
    assert shown["status"] == "published" and shown["remote_id"] == "101"


def test_listing_a_database_without_entries_changes_nothing(isolated_config):
    db = isolated_config / "threads.sqlite"

    listed = run_cli(isolated_config, "logbook", "--db", str(db))

    assert listed.returncode == 0 and "No logbook entries" in listed.stdout
    assert not db.exists()
    missing = run_cli(isolated_config, "logbook", "show", "7", "--db", str(db))
    assert missing.returncode == 2, missing.stdout + missing.stderr
    assert "there is no logbook entry 7" in missing.stderr


def test_events_and_search_print_what_the_logbook_holds(isolated_config, capsys):
    from osprey_desktop.cli import main
    from osprey_desktop.logbook import LogbookEntry

    db = isolated_config / "threads.sqlite"
    store = SqliteLogbook(db)
    entry = store.add(
        LogbookEntry(title="Vacuum", text="gauge 4 spiked", logbook="ops", status="local")
    )
    store.record_event(
        kind="entry",
        what=f"logbook entry {entry.id}: Vacuum",
        outcome="local",
        operator="ops",
        entry_id=entry.id,
    )

    assert main(["logbook", "events", "--json", "--db", str(db)]) == 0
    (event,) = json.loads(capsys.readouterr().out)
    assert (event["kind"], event["outcome"], event["entry_id"]) == ("entry", "local", entry.id)
    assert main(["logbook", "search", "gauge", "--db", str(db)]) == 0
    assert "Vacuum" in capsys.readouterr().out
    assert main(["logbook", "list", "--limit", "-1", "--db", str(db)]) == 2
