"""Storage failures of the conversation database: locked, full, damaged and unwritable are told
apart, in one line each, and the command line exits 2 without a traceback.

The damage is real: bytes overwritten in the middle of a database that a real ``ask`` wrote;
the lock is real: another process holding ``BEGIN EXCLUSIVE``; the full disk is SQLite's own
SQLITE_FULL (``max_page_count`` reached), since no test may fill a real disk.
"""

from __future__ import annotations

import errno
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from langgraph.checkpoint.base import empty_checkpoint

from osprey_desktop.persistence import CheckpointDatabaseError, open_checkpointer
from osprey_desktop.persistence.checkpointer import describe_sqlite_error
from tests.support.cli_env import cli_environment, run_cli

REPO = Path(__file__).resolve().parents[2]
PAGE_SIZE = 4096
LOCKER = (
    "import sqlite3, sys\n"
    "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "conn.execute('BEGIN EXCLUSIVE')\n"
    "print('locked', flush=True)\n"
    "sys.stdin.read()\n"  # hold the lock until the test closes our stdin
)

pytestmark = pytest.mark.slow  # starts processes: `./osprey test -m "not slow"` skips it


def _cli(base: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(base, *args)


@pytest.fixture(scope="module")
def turn_database(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database written by a real ``ask``, its thread waiting for an approval."""
    base = tmp_path_factory.mktemp("turn")
    db = base / "threads.sqlite"
    asked = _cli(base, "ask", "--db", str(db), "/planning:on hello there")
    assert asked.returncode == 3, asked.stderr
    thread = re.search(r"thread: (\w+)", asked.stdout)
    assert thread
    return db, thread.group(1)


@pytest.fixture
def database(turn_database: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    original, thread = turn_database
    db = tmp_path / "threads.sqlite"
    shutil.copyfile(original, db)
    return db, thread


def _pages(db: Path, table: str, page_type: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno",
            (table, page_type),
        ).fetchall()
    conn.close()
    return [row[0] for row in rows]


def _overwrite(db: Path, page: int, offset: int, count: int = 16) -> bytes:
    """Overwrite ``count`` bytes at ``offset`` into page ``page``; the damaged file's bytes."""
    with db.open("r+b") as handle:
        handle.seek((page - 1) * PAGE_SIZE + offset)
        handle.write(b"\xde\xad\xbe\xef" * (count // 4))
    return db.read_bytes()


def _assert_one_line(done: subprocess.CompletedProcess[str], command: str) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"osprey-desktop {command}: conversation database ")
    return line


# -- the classifier, on real SQLite errors ------------------------------------------------


def test_sqlite_full_is_a_full_disk(tmp_path):
    conn = sqlite3.connect(tmp_path / "small.sqlite")
    conn.execute("CREATE TABLE t (x BLOB)")
    conn.execute("PRAGMA max_page_count = 3")
    with pytest.raises(sqlite3.Error) as caught:
        for _ in range(10):
            conn.execute("INSERT INTO t VALUES (?)", (b"x" * PAGE_SIZE,))
    conn.close()

    error = describe_sqlite_error(tmp_path / "small.sqlite", caught.value)

    assert error.kind == "full"
    assert "the disk is full (SQLITE_FULL: database or disk is full)" in str(error)
    assert "move it away" not in str(error)


def test_no_space_left_on_the_device_is_a_full_disk(tmp_path):
    error = describe_sqlite_error(tmp_path / "t.sqlite", OSError(errno.ENOSPC, "No space left"))
    assert error.kind == "full" and "the disk is full (ENOSPC" in str(error)


def test_a_lock_held_by_another_connection_is_locked_not_corrupt(tmp_path):
    path = tmp_path / "t.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(path, timeout=0)
    try:
        with pytest.raises(sqlite3.Error) as caught:
            other.execute("SELECT * FROM t").fetchall()
    finally:
        other.close()
        holder.close()

    error = describe_sqlite_error(path, caught.value)

    assert error.kind == "locked"
    assert "locked by another program (SQLITE_BUSY: database is locked); try again" in str(error)
    assert "corrupt" not in error.problem and "damaged" not in error.problem


def test_a_read_only_database_is_a_permission_problem(tmp_path):
    path = tmp_path / "t.sqlite"
    sqlite3.connect(path).close()
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        with pytest.raises(sqlite3.Error) as caught:
            conn.execute("CREATE TABLE t (x)")
    finally:
        conn.close()

    error = describe_sqlite_error(path, caught.value)

    assert error.kind == "permissions" and "SQLITE_READONLY" in str(error)
    assert "check the permissions" in str(error)


async def test_a_checkpoint_write_on_a_full_database_says_the_disk_is_full(tmp_path):
    path = tmp_path / "threads.sqlite"
    async with open_checkpointer(path) as saver:
        (pages,) = await (await saver.conn.execute("PRAGMA page_count")).fetchone()
        await saver.conn.execute(f"PRAGMA max_page_count = {pages}")
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = {"big": "x" * 50_000}
        config = {"configurable": {"thread_id": "t1", "checkpoint_ns": ""}}

        with pytest.raises(CheckpointDatabaseError) as caught:
            await saver.aput(config, checkpoint, {}, {})

    assert caught.value.kind == "full" and str(path) in str(caught.value)


# -- opening: quick_check refuses damaged pages --------------------------------------------


async def test_damaged_pages_are_refused_on_opening_and_left_untouched(database):
    db, _ = database
    leaf = _pages(db, "checkpoints", "leaf")[0]
    damaged = _overwrite(db, leaf, 8)  # the cell pointer array of the table's page

    with pytest.raises(CheckpointDatabaseError) as caught:
        async with open_checkpointer(db):
            pass

    assert caught.value.kind == "damaged"
    assert "damaged (SQLite's quick_check found: " in str(caught.value)
    assert "it was left untouched; move it away" in str(caught.value)
    assert db.read_bytes() == damaged


# -- the command line: one line, exit code 2 --------------------------------------------------


def test_damaged_pages_stop_approve_and_ask_with_exit_code_2(database, tmp_path):
    db, thread = database
    leaf = _pages(db, "checkpoints", "leaf")[0]
    damaged = _overwrite(db, leaf, 8)

    approved = _cli(tmp_path, "approve", "--db", str(db), "--thread", thread, "yes")
    asked = _cli(tmp_path, "ask", "--db", str(db), "hello")

    for done, command in ((approved, "approve"), (asked, "ask")):
        assert done.returncode == 2, done.stderr
        line = _assert_one_line(done, command)
        assert "damaged (SQLite's quick_check found:" in line and "move it away" in line
    assert db.read_bytes() == damaged  # nothing was appended to the damaged file


def test_damaged_checkpoint_data_stops_approve_and_ask_with_exit_code_2(database, tmp_path):
    db, thread = database
    # The middle of the checkpoint's data: SQLite's page structure is intact (quick_check
    # passes), but the saved state can no longer be decoded.
    overflow = _pages(db, "checkpoints", "overflow")[0]
    damaged = _overwrite(db, overflow, PAGE_SIZE // 2, 64)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    conn.close()

    approved = _cli(tmp_path, "approve", "--db", str(db), "--thread", thread, "yes")
    asked = _cli(tmp_path, "ask", "--db", str(db), "--thread", thread, "no")

    for done, command in ((approved, "approve"), (asked, "ask")):
        assert done.returncode == 2, done.stderr
        line = _assert_one_line(done, command)
        assert f"damaged (a saved checkpoint of thread {thread} cannot be read:" in line
        assert "it was left untouched; move it away" in line
    assert db.read_bytes() == damaged


def test_a_database_locked_by_another_process_is_reported_as_locked(database, tmp_path):
    db, thread = database
    locker = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        commands = {
            "approve": ["approve", "--db", str(db), "--thread", thread, "yes"],
            "ask": ["ask", "--db", str(db), "hello"],
        }
        # both wait out the same busy timeout, so they run side by side
        running = {
            name: subprocess.Popen(
                [sys.executable, "-m", "osprey_desktop", *argv],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO,
                env=cli_environment(tmp_path),
            )
            for name, argv in commands.items()
        }
        results = {}
        for name, process in running.items():
            out, err = process.communicate(timeout=90)
            results[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    finally:
        assert locker.stdin is not None
        locker.stdin.close()
        locker.wait(timeout=10)
        locker.stdout.close()

    for name, done in results.items():
        assert done.returncode == 2, done.stderr
        line = _assert_one_line(done, name)
        assert "locked by another program (SQLITE_BUSY: database is locked)" in line
        assert "try again, or close the other program" in line
        assert "damaged" not in line and "corrupt" not in line
    # refused before anything ran: the approval still waits for its answer
    listed = _cli(tmp_path, "threads", "--db", str(db), "--json")
    assert [t["pending_approval"] for t in json.loads(listed.stdout)] == [True]
