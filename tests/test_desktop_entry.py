"""``install-desktop-entry``: an XDG menu entry and icon under $XDG_DATA_HOME, and back out."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from osprey_desktop.cli import main
from osprey_desktop.cli.desktop_entry import desktop_entry_text, launch_command
from osprey_desktop.config import resources_dir


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    base = tmp_path / "share"
    monkeypatch.setenv("XDG_DATA_HOME", str(base))
    return base


def _entry(base: Path) -> Path:
    return base / "applications" / "osprey-desktop.desktop"


def _icon(base: Path) -> Path:
    return base / "icons" / "hicolor" / "scalable" / "apps" / "osprey-desktop.svg"


def _exec_argv(entry: Path) -> list[str]:
    (line,) = [x for x in entry.read_text().splitlines() if x.startswith("Exec=")]
    # The key's own escapes first (\\ -> \, %% -> %), then the spec's shell-like quoting.
    return shlex.split(line.removeprefix("Exec=").replace("\\\\", "\\").replace("%%", "%"))


def test_install_writes_the_entry_and_the_shipped_icon(data_home, capsys):
    assert main(["install-desktop-entry"]) == 0

    assert _icon(data_home).read_bytes() == (resources_dir() / "osprey-desktop.svg").read_bytes()
    text = _entry(data_home).read_text()
    assert "Name=Osprey Desktop\n" in text and "Icon=osprey-desktop\n" in text
    assert _exec_argv(_entry(data_home))[-1] == "run"
    assert capsys.readouterr().out.splitlines() == [
        f"wrote {_icon(data_home)}",
        f"wrote {_entry(data_home)}",
    ]


def test_installing_twice_changes_nothing(data_home, capsys):
    assert main(["install-desktop-entry"]) == 0
    stamps = [p.stat().st_mtime_ns for p in (_entry(data_home), _icon(data_home))]
    capsys.readouterr()

    assert main(["install-desktop-entry"]) == 0

    assert [p.stat().st_mtime_ns for p in (_entry(data_home), _icon(data_home))] == stamps
    assert capsys.readouterr().out.splitlines() == [
        f"up to date {_icon(data_home)}",
        f"up to date {_entry(data_home)}",
    ]
    assert sorted(p.name for p in _entry(data_home).parent.iterdir()) == ["osprey-desktop.desktop"]


def test_uninstall_removes_both_files_and_says_so_when_there_is_nothing(data_home, capsys):
    assert main(["install-desktop-entry"]) == 0
    capsys.readouterr()

    assert main(["install-desktop-entry", "--uninstall"]) == 0
    assert not _entry(data_home).exists() and not _icon(data_home).exists()
    assert capsys.readouterr().out.splitlines() == [
        f"removed {_entry(data_home)}",
        f"removed {_icon(data_home)}",
    ]
    assert main(["install-desktop-entry", "--uninstall"]) == 0
    assert capsys.readouterr().out == f"no desktop entry to remove under {data_home}\n"


def test_the_entry_starts_this_installation(data_home):
    """The Exec line runs; with --version instead of run it answers without opening a window."""
    assert main(["install-desktop-entry"]) == 0
    argv = _exec_argv(_entry(data_home))
    assert argv[:4] == [sys.executable, "-P", "-m", "osprey_desktop"]  # pytest is no console script

    done = subprocess.run(
        [*argv[:-1], "--version"], capture_output=True, text=True, timeout=60, cwd=data_home
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("osprey-desktop ")


def test_a_console_script_is_preferred_to_the_interpreter(tmp_path):
    script = tmp_path / "bin" / "osprey-desktop"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    assert launch_command(str(script), python="/usr/bin/python3") == [str(script), "run"]
    other = tmp_path / "bin" / "pytest"
    assert launch_command(str(other), python="/usr/bin/python3") == [
        "/usr/bin/python3",
        "-P",
        "-m",
        "osprey_desktop",
        "run",
    ]


def test_paths_with_spaces_and_shell_characters_are_quoted():
    text = desktop_entry_text(["/opt/my apps/py$thon", "-P", "-m", "osprey_desktop", "run"])
    assert 'Exec="/opt/my apps/py\\\\$thon" -P -m osprey_desktop run\n' in text
    assert "TryExec=/opt/my apps/py$thon\n" in text


def test_an_unwritable_data_folder_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "share"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))

    assert main(["install-desktop-entry"]) == 1

    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("osprey-desktop install-desktop-entry: cannot write ")
    assert "set XDG_DATA_HOME to a writable folder" in line


@pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None,
    reason="desktop-file-validate is not installed (Debian package desktop-file-utils)",
)
@pytest.mark.parametrize(
    "command",
    [None, ["/opt/my apps/py$thon", "-P", "-m", "osprey_desktop", "run"]],
    ids=["this-installation", "awkward-path"],
)
def test_desktop_file_validate_accepts_the_entry(data_home, tmp_path, command):
    if command is None:
        assert main(["install-desktop-entry"]) == 0
        entry = _entry(data_home)
    else:
        entry = tmp_path / "osprey-desktop.desktop"
        entry.write_text(desktop_entry_text(command))

    checked = subprocess.run(
        ["desktop-file-validate", str(entry)], capture_output=True, text=True, timeout=30
    )

    assert checked.returncode == 0 and checked.stdout == "", checked.stdout + checked.stderr
