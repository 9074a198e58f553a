"""The audit log keeps every attempt and cannot be rewritten; the CLI prints it."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest

from osprey_desktop.cli import audit as audit_cli
from osprey_desktop.cli import main as cli_main
from osprey_desktop.safety.audit import AuditError, AuditLog, current_operator


@pytest.fixture
def log(tmp_path: Path) -> AuditLog:
    return AuditLog(tmp_path / "nested" / "audit.sqlite")


def test_entries_keep_types_and_come_back_oldest_first(log: AuditLog) -> None:
    first = log.record(
        channel="A:SP",
        outcome="verified",
        requested_value=1.5,
        value_before=1,
        readback_after=1.49,
        thread_id="t",
        approval_id="x",
        message="ok",
    )
    log.record(channel="B:SP", outcome="rejected", requested_value="on")
    log.record(channel="C:SP", outcome="blocked", requested_value=[1, 2])
    entries = log.entries()
    assert [e.channel for e in entries] == ["A:SP", "B:SP", "C:SP"]
    assert entries[0].id == first
    assert (entries[0].value_before, entries[0].requested_value) == (1, 1.5)
    assert entries[1].requested_value == "on" and entries[2].requested_value == [1, 2]
    assert entries[0].operator == current_operator()
    assert [e.channel for e in log.entries(limit=2)] == ["B:SP", "C:SP"]


def test_update_and_delete_are_aborted(log: AuditLog) -> None:
    log.record(channel="A:SP", outcome="verified", requested_value=1.0)
    conn = sqlite3.connect(log.db_path)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("UPDATE audit_log SET outcome = 'rejected'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("DELETE FROM audit_log")
    finally:
        conn.close()
    assert log.entries()[0].outcome == "verified"


def test_unknown_outcome_is_refused(log: AuditLog) -> None:
    with pytest.raises(ValueError, match="intent, blocked, rejected, not_sent"):
        log.record(channel="A:SP", outcome="maybe")  # type: ignore[arg-type]


def test_unusable_file_is_a_clear_error(tmp_path: Path) -> None:
    not_a_db = tmp_path / "audit.sqlite"
    not_a_db.write_text("this is not sqlite" * 100)
    with pytest.raises(AuditError, match="is damaged; keep it for inspection"):
        AuditLog(not_a_db).record(channel="A:SP", outcome="verified")


async def test_async_record_is_stored(log: AuditLog) -> None:
    entry_id = await log.arecord(channel="A:SP", outcome="in_doubt", message="timeout")
    assert log.entries()[-1].id == entry_id


def _args(db: Path | None, limit: int = 50, as_json: bool = False) -> argparse.Namespace:
    return argparse.Namespace(db=str(db) if db else None, limit=limit, json=as_json)


def test_audit_command_prints_a_table(log: AuditLog, capsys) -> None:
    log.record(
        channel="SR01C:HCM01:Current:SP",
        outcome="verified",
        requested_value=1.5,
        value_before=0.0,
        readback_after=1.4987654,
        thread_id="t-9",
        message="Wrote 1.500 A",
    )
    assert audit_cli.run(_args(log.db_path)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == [
        "id",
        "time",
        "operator",
        "thread",
        "channel",
        "before",
        "requested",
        "readback",
        "outcome",
        "approval",
        "message",
    ]
    row = lines[3].split()
    assert row[4:12] == [
        "t-9",
        "SR01C:HCM01:Current:SP",
        "0",
        "1.5",
        "1.49877",
        "verified",
        "-",
        "Wrote",
    ]


def test_audit_json_lists_the_entries_oldest_first_with_their_values(log: AuditLog, capsys) -> None:
    log.record(channel="A:SP", outcome="verified", requested_value=1.5, readback_after=1.49)
    log.record(channel="B:SP", outcome="rejected", requested_value=[1, 2], thread_id="t-2")
    log.record(channel="C:SP", outcome="blocked", requested_value="on")
    assert audit_cli.run(_args(log.db_path, limit=2, as_json=True)) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [e["channel"] for e in printed] == ["B:SP", "C:SP"]
    assert printed[0]["requested_value"] == [1, 2] and printed[0]["thread_id"] == "t-2"
    assert printed[1] == log.entries()[-1].to_dict()


def test_audit_json_without_a_log_is_an_empty_list(tmp_path: Path, capsys) -> None:
    assert cli_main(["audit", "--json", "--db", str(tmp_path / "none.sqlite")]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_audit_command_without_a_log_says_so(tmp_path: Path, capsys) -> None:
    assert audit_cli.run(_args(tmp_path / "none.sqlite")) == 0
    assert "No audit log" in capsys.readouterr().out


def test_audit_command_reads_the_configured_file(isolated_config: Path, capsys) -> None:
    AuditLog(isolated_config / "data" / "audit.sqlite").record(channel="X:SP", outcome="blocked")
    assert cli_main(["audit", "--limit", "5"]) == 0
    assert "X:SP" in capsys.readouterr().out


def test_negative_limit_is_a_usage_error(log: AuditLog, capsys) -> None:
    assert audit_cli.run(_args(log.db_path, limit=-1)) == 2


def _thread_database(path: Path) -> None:
    """A conversation database as ``ask``/``approve`` leave it: WAL mode, checkpoint tables."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        SqliteSaver(conn).setup()
        conn.execute(
            "INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel)"
            " VALUES ('t-1', '', 'c-1', 'task', 0, 'messages')"
        )
        conn.commit()
    finally:
        conn.close()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_audit_of_the_thread_database_is_refused_and_leaves_it_byte_identical(
    isolated_config: Path, tmp_path: Path, capsys
) -> None:
    folder = tmp_path / "threads"
    folder.mkdir()
    threads = folder / "threads.sqlite"
    _thread_database(threads)
    before = _snapshot(folder)
    assert cli_main(["audit", "--db", str(threads)]) == 1
    assert cli_main(["audit", "--json", "--db", str(threads)]) == 1
    err = capsys.readouterr().err
    assert f"{threads} is not an Osprey Desktop audit log (no audit_log table)" in err
    assert f"by default {isolated_config / 'data' / 'audit.sqlite'}" in err
    assert _snapshot(folder) == before  # same files, same bytes: no tables, triggers, -wal
    conn = sqlite3.connect(threads)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert not any(name.startswith("audit_log") for name in tables)


def test_reading_an_existing_audit_log_does_not_change_it(log: AuditLog) -> None:
    log.record(channel="A:SP", outcome="verified", requested_value=1.0)
    before = _snapshot(log.db_path.parent)
    assert [e.channel for e in AuditLog(log.db_path).entries()] == ["A:SP"]
    assert _snapshot(log.db_path.parent) == before


def test_audit_of_a_missing_file_does_not_create_it(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "absent" / "audit.sqlite"
    assert audit_cli.run(_args(missing)) == 0
    assert f"No audit log at {missing} yet" in capsys.readouterr().out
    assert AuditLog(missing).entries() == []
    assert not missing.exists() and not missing.parent.exists()


def test_audit_of_a_corrupt_file_is_a_clear_error(tmp_path: Path, capsys) -> None:
    corrupt = tmp_path / "audit.sqlite"
    corrupt.write_bytes(b"this is not sqlite" * 100)
    before = corrupt.read_bytes()
    assert audit_cli.run(_args(corrupt)) == 1
    err = capsys.readouterr().err
    assert f"{corrupt} cannot be read as an SQLite database" in err
    assert "not an Osprey Desktop audit log, or it is damaged" in err
    assert "Traceback" not in err
    assert corrupt.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.sqlite"]


def test_record_still_creates_the_log_that_reading_then_accepts(tmp_path: Path) -> None:
    path = tmp_path / "new" / "audit.sqlite"
    assert AuditLog(path).entries() == []
    AuditLog(path).record(channel="A:SP", outcome="blocked")
    assert [e.outcome for e in AuditLog(path).entries()] == ["blocked"]


def test_audit_of_a_folder_names_the_folder(tmp_path: Path, capsys) -> None:
    assert audit_cli.run(_args(tmp_path)) == 1
    assert f"{tmp_path} is a folder, not an audit log file" in capsys.readouterr().err
