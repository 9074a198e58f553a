"""open_checkpointer: usable files open, doubtful ones are refused and left byte-for-byte intact."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from osprey_desktop.persistence import CheckpointDatabaseError, open_checkpointer
from osprey_desktop.persistence.threads import checkpoint_time


async def _open(path: Path) -> None:
    async with open_checkpointer(path) as saver:
        await saver.setup()


async def test_missing_database_is_created_with_its_folder(tmp_path):
    path = tmp_path / "new" / "deeper" / "threads.sqlite"
    await _open(path)
    with sqlite3.connect(path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert {"checkpoints", "writes"} <= tables


async def test_empty_file_becomes_a_database(tmp_path):
    path = tmp_path / "threads.sqlite"
    path.touch()
    await _open(path)
    assert path.read_bytes().startswith(b"SQLite format 3\x00")


async def test_existing_database_reopens_with_its_threads(tmp_path):
    path = tmp_path / "threads.sqlite"
    await _open(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, checkpoint) "
            "VALUES ('kept', '', 'x', x'00')"
        )
    await _open(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT thread_id FROM checkpoints").fetchall() == [("kept",)]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is my shopping list, not a database\n" * 10, "not a SQLite database"),
        (os.urandom(4096), "not a SQLite database"),
        (b"SQLite format 3\x00" + b"\xff" * 2000, "damaged"),
    ],
)
async def test_corrupt_file_is_refused_and_left_untouched(tmp_path, content, message):
    path = tmp_path / "threads.sqlite"
    path.write_bytes(content)

    with pytest.raises(CheckpointDatabaseError) as caught:
        await _open(path)

    assert message in str(caught.value)
    assert str(path) in str(caught.value)
    assert "left untouched" in str(caught.value)
    assert path.read_bytes() == content


async def test_database_of_another_program_is_refused(tmp_path):
    path = tmp_path / "audit.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE audit (ts REAL, channel TEXT)")
    before = path.read_bytes()

    with pytest.raises(CheckpointDatabaseError, match="another program .*audit"):
        await _open(path)

    assert path.read_bytes() == before


async def test_checkpoints_table_with_foreign_columns_is_refused(tmp_path):
    path = tmp_path / "threads.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE checkpoints (id INTEGER)")

    with pytest.raises(CheckpointDatabaseError, match="lacks columns"):
        await _open(path)


async def test_folder_in_place_of_the_file_is_refused(tmp_path):
    with pytest.raises(CheckpointDatabaseError, match="folder, not a database"):
        await _open(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
async def test_unreadable_file_is_refused(tmp_path):
    path = tmp_path / "threads.sqlite"
    await _open(path)
    path.chmod(0)
    try:
        with pytest.raises(CheckpointDatabaseError, match="not readable"):
            await _open(path)
    finally:
        path.chmod(0o600)


def test_checkpoint_time_reads_langgraph_uuid6_ids():
    from langgraph.checkpoint.base.id import uuid6

    when = checkpoint_time(str(uuid6()))
    assert when is not None and abs(when.timestamp() - __import__("time").time()) < 5
    assert checkpoint_time("not-a-uuid") is None
