"""``osprey-desktop channels``: check a list read from a service, a reader that stops early,
and the aliases learned from answered questions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from osprey_desktop.channels.aliases import AliasStore
from osprey_desktop.cli import main
from tests.channels.services import Services, cf_channel, serve
from tests.support.cli_env import cli_environment

REPO = Path(__file__).resolve().parents[2]


def test_check_reads_a_channelfinder_list(capsys) -> None:
    services = Services(channels=[cf_channel("SR:BPM1:X", recordType="ai", recordDesc="x pos")])
    with serve(services) as base:
        code = main(["channels", "check", f"channelfinder+{base}/ChannelFinder", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (summary["format"], summary["channels"]) == ("channelfinder", 1)


def test_check_whose_reader_stops_early_ends_quietly(tmp_path: Path) -> None:
    """``channels check LIST | head``: the reader closes the pipe before the summary is out."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "osprey_desktop",
            "channels",
            "check",
            "--json",
            str(REPO / "resources" / "channels.yaml"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=cli_environment(tmp_path),
    )
    process.stdout.close()  # the reader is gone before the first line
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr.decode()
    assert b"BrokenPipeError" not in stderr and b"Traceback" not in stderr


def test_aliases_are_listed_and_removed(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("OSPREY_DESKTOP_CHANNEL_ALIASES", str(tmp_path / "aliases.yaml"))
    store = AliasStore.default()
    store.add("Main Quad current", ["SR:QF:01:RB"], "list.json")
    assert main(["channels", "aliases", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["aliases"]
    assert [(a["phrase"], a["channels"]) for a in listed] == [
        ("main quad current", ["SR:QF:01:RB"])
    ]
    assert main(["channels", "aliases", "--remove", "main quad  CURRENT"]) == 0
    assert store.entries() == []
    assert main(["channels", "aliases", "--remove", "main quad current"]) != 0
    assert "no alias" in capsys.readouterr().err
