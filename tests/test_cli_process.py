"""The forked command-line runs of the tests behave as fresh ``python -m osprey_desktop`` runs.

``tests.support.cli_process.run_osprey`` forks each run from a server that has imported the
libraries once. These checks compare it with a fresh interpreter, and check that each run has
its own environment and configuration (nothing the server imported decided them) and that a
run past its timeout is killed.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli_env import cli_environment
from tests.support.cli_process import REPO, forking, run_osprey

pytestmark = pytest.mark.slow  # starts interpreters to compare with

KEY = "execution_control.limits.max_react_iterations"


def _fresh(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "osprey_desktop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
        check=False,
    )


def _user_config(home: Path, text: str) -> None:
    path = home / "config" / "osprey-desktop" / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.skipif(not forking(), reason="runs are not forked here (OSPREY_TEST_FORK=0)")
@pytest.mark.parametrize(
    "args",
    [["--help"], ["frobnicate"], ["config", "--json"], ["ask", "--json", "/bogus"]],
    ids=["help", "usage-error", "config", "refused-request"],
)
def test_a_forked_run_prints_and_exits_as_a_fresh_interpreter(tmp_path, args):
    _user_config(tmp_path, "execution_control:\n  limits:\n    max_react_iterations: 7\n")
    env = cli_environment(tmp_path)

    forked = run_osprey(args, env=env)
    fresh = _fresh(args, env)

    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )


def test_each_run_reads_its_own_environment_and_configuration(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    _user_config(first, "execution_control:\n  limits:\n    max_react_iterations: 7\n")
    _user_config(second, "execution_control:\n  limits:\n    max_react_iterations: 9\n")

    shown = {
        home.name: run_osprey(["config"], env=cli_environment(home), cwd=home.parent)
        for home in (first, second, first)
    }

    assert _shown(shown["first"].stdout) == ("7", "(user)")
    assert _shown(shown["second"].stdout) == ("9", "(user)")


def _shown(printed: str) -> tuple[str, ...]:
    """The value and source ``config`` printed for max_react_iterations."""
    (line,) = [x for x in printed.splitlines() if x.startswith(KEY + " ")]
    return tuple(line.split()[1:3])


def test_a_run_past_its_timeout_is_killed(tmp_path):
    with socket.socket() as probe:  # a free loopback port for the IOC that would run forever
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = cli_environment(tmp_path)

    with pytest.raises(subprocess.TimeoutExpired):
        run_osprey(["demo-ioc", "--port", str(port)], env=env, timeout=2)

    with socket.socket() as again:  # the killed IOC no longer holds its port
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))
