"""A site's launcher that runs a shell cannot be made to run a channel name as shell code.

Real ``sh`` processes started by the launcher: a channel value put into a ``-c`` script is
quoted (``A>PWNED`` is written as text, no file is created by a redirection), and a value put
into another argument of a shell must need no quoting, else it is refused before anything runs.
"""

from __future__ import annotations

import shutil

import pytest

from osprey_desktop.ui.commands import LaunchableCommand
from osprey_desktop.ui.launcher import CommandLauncher, expand_template

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")


@pytest.fixture
def launcher_of(qapp):
    """Builds a launcher over one ``probe`` template; each lives until the test ends."""
    made: list[CommandLauncher] = []

    def build(program: str, args: list[str]) -> CommandLauncher:
        made.append(
            CommandLauncher({"probe": {"display_name": "Probe", "program": program, "args": args}})
        )
        return made[-1]

    yield build
    for launcher in made:
        launcher.stop_all()


def test_a_channel_in_a_shell_script_is_quoted_never_run(qtbot, launcher_of, tmp_path):
    launcher = launcher_of("sh", ["-c", f"cd {tmp_path} && printf %s {{channel}} > seen.txt"])
    command = LaunchableCommand("osprey-desktop://launch/probe?channel=A>PWNED", "Probe")

    with qtbot.waitSignal(launcher.process_finished, timeout=10_000) as done:
        assert launcher.trigger(command) is True

    assert done.args == ["probe", 0]
    assert (tmp_path / "seen.txt").read_text() == "A>PWNED"
    assert not (tmp_path / "PWNED").exists(), "the '>' reached the shell as a redirection"


def test_a_shell_variable_in_a_channel_stays_text(qtbot, launcher_of, tmp_path):
    launcher = launcher_of("/bin/sh", ["-ec", f"printf %s {{channel}} > {tmp_path}/seen.txt"])
    command = LaunchableCommand("osprey-desktop://launch/probe?channel=X${HOME}", "Probe")

    with qtbot.waitSignal(launcher.process_finished, timeout=10_000):
        launcher.trigger(command)

    assert (tmp_path / "seen.txt").read_text() == "X${HOME}"


def test_a_metacharacter_outside_the_script_of_a_shell_is_refused(qtbot, launcher_of):
    launcher = launcher_of("bash", ["-c", 'printf %s "$1"', "probe", "{channel}"])
    command = LaunchableCommand("osprey-desktop://launch/probe?channel=A>PWNED", "Probe")

    with qtbot.waitSignal(launcher.refused) as refused:
        assert launcher.trigger(command) is False

    assert "a shell reads as code" in refused.args[0]
    assert launcher.processes == []


def test_a_program_that_is_no_shell_gets_the_value_as_it_is():
    assert expand_template(["-c", "{channel}"], {"channel": "A>B"}) == ["-c", "A>B"]
    assert expand_template(["-c", "x {channel}"], {"channel": "A>B"}, shell=True) == [
        "-c",
        "x 'A>B'",
    ]
