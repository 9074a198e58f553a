"""Launchable commands: actions, opening through QDesktopServices, templates, refusals."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from osprey_desktop.ui.commands import CommandActions, LaunchableCommand, commands_from_state
from osprey_desktop.ui.launcher import CommandLauncher, expand_template
from osprey_desktop.ui.process_log import ProcessLogDock

pytestmark = pytest.mark.gui

STATE = {
    "ui_launchable_commands": [
        {
            "capability": "archiver_retrieval",
            "launch_uri": "https://archiver.example/viewer?pv=SR:DCCT",
            "display_name": "Open in archive viewer",
            "command_type": "web_app",
            "metadata": {"context_key": "beam_history"},
            "created_at": "2025-01-01T00:00:00",
        },
        {
            "capability": "x",
            "launch_uri": "https://archiver.example/viewer?pv=SR:DCCT",
            "display_name": "Open in archive viewer",
        },
    ],
    "ui_captured_notebooks": [
        {
            "capability": "analysis",
            "notebook_path": "/tmp/n.ipynb",
            "notebook_link": "http://jupyter/n.ipynb",
            "display_name": "Analysis notebook",
        }
    ],
}


class UrlCatcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def handle(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def https_catcher(qapp):
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("https", catcher, "handle")
    yield catcher
    QDesktopServices.unsetUrlHandler("https")


@pytest.fixture
def launcher(qapp):
    python_template = {
        "display_name": "Echo {channel}",
        "program": sys.executable,
        "args": ["-c", "import sys; print('display for', sys.argv[1])", "{channel}"],
    }
    return CommandLauncher({"echo_tool": python_template}, internal_routes={"stripchart"})


def test_state_records_become_distinct_commands_with_notebooks():
    commands = commands_from_state(STATE)
    assert [c.display_name for c in commands] == ["Open in archive viewer", "Analysis notebook"]
    assert commands[1].kind == "notebook" and commands[1].launch_uri == "http://jupyter/n.ipynb"


def test_actions_show_name_tooltip_and_trigger_opens_the_url(qapp, launcher, https_catcher):
    actions = CommandActions(launcher.trigger)
    actions.set_commands(commands_from_state(STATE))
    action = actions.actions()[0]
    assert action.text() == "Open in archive viewer"
    assert action.toolTip() == "https://archiver.example/viewer?pv=SR:DCCT"
    assert not action.icon().isNull()
    action.trigger()
    assert https_catcher.urls == ["https://archiver.example/viewer?pv=SR:DCCT"]


def test_related_actions_follow_metadata_context_key(qapp, launcher):
    actions = CommandActions(launcher.trigger)
    actions.set_commands(commands_from_state(STATE))
    assert [a.text() for a in actions.related_to("ARCHIVER_DATA", "beam_history")] == [
        "Open in archive viewer"
    ]
    assert [a.text() for a in actions.related_to("X", "other", producer="analysis")] == [
        "Analysis notebook"
    ]


@pytest.mark.parametrize(
    "uri",
    ["javascript:alert(1)", "ssh://host/rm", "smb://share/x", "/bin/sh -c reboot", "ftp://x/y"],
)
def test_other_schemes_are_refused_with_an_explanation(qtbot, launcher, https_catcher, uri):
    with qtbot.waitSignal(launcher.refused) as refused:
        assert launcher.trigger(LaunchableCommand(uri, "Bad")) is False
    assert "only http, https, file and osprey-desktop" in refused.args[0]
    assert https_catcher.urls == []


def test_desktop_command_not_in_config_is_refused(qtbot, launcher):
    command = LaunchableCommand(
        "rm -rf /", "Wipe", command_type="desktop_app", metadata={"launcher": "shell"}
    )
    with qtbot.waitSignal(launcher.refused) as refused:
        assert launcher.trigger(command) is False
    assert "'shell' is not a command template" in refused.args[0]


def test_option_injection_through_a_channel_is_refused(qtbot, launcher):
    command = LaunchableCommand("osprey-desktop://launch/echo_tool?channel=--evil", "Echo")
    with qtbot.waitSignal(launcher.refused) as refused:
        launcher.trigger(command)
    assert "not a valid channel name" in refused.args[0]


def test_configured_template_runs_with_an_argument_list_and_logs(qtbot, launcher):
    log = ProcessLogDock()
    qtbot.addWidget(log)
    launcher.process_started.connect(log.started)
    launcher.process_output.connect(log.output)
    launcher.process_finished.connect(log.finished)
    command = LaunchableCommand("osprey-desktop://launch/echo_tool?channel=SR:DCCT;rm", "Echo")
    with qtbot.waitSignal(launcher.refused):
        launcher.trigger(command)  # ';' is not a channel character
    command = LaunchableCommand("osprey-desktop://launch/echo_tool?channel=SR:DCCT", "Echo")
    with qtbot.waitSignal(launcher.process_finished, timeout=10_000) as done:
        assert launcher.trigger(command) is True
    assert done.args == ["echo_tool", 0]
    assert "echo_tool> display for SR:DCCT" in log.text()
    assert launcher.processes == []


def test_internal_route_is_handled_in_app(qtbot, launcher):
    command = LaunchableCommand("osprey-desktop://stripchart?channels=SR:DCCT,SR:LIFETIME", "Chart")
    with qtbot.waitSignal(launcher.internal_requested) as routed:
        assert launcher.trigger(command)
    assert routed.args == ["stripchart", [], {"channels": ["SR:DCCT", "SR:LIFETIME"]}]
    with qtbot.waitSignal(launcher.refused):
        launcher.trigger(LaunchableCommand("osprey-desktop://format-disk", "Nope"))


def test_missing_program_says_how_to_fix_it(qtbot):
    launcher = CommandLauncher(
        {"display_tool": {"program": "no-such-program-xyz", "args": ["{channel}"]}}
    )
    with qtbot.waitSignal(launcher.refused) as refused:
        launcher.trigger(LaunchableCommand("osprey-desktop://launch/display_tool?channel=A", "D"))
    assert "launchers.display_tool.program" in refused.args[0]


def test_template_expansion_fills_channel_lists():
    assert expand_template(["-m", "CH={channels}"], {"channels": ["A", "B"]}) == ["-m", "CH=A,B"]
    with pytest.raises(ValueError):
        expand_template(["{channel}"], {})


def test_missing_file_is_refused(qtbot, launcher, tmp_path):
    uri = QUrl.fromLocalFile(str(tmp_path / "gone.html")).toString()
    with qtbot.waitSignal(launcher.refused) as refused:
        launcher.trigger(LaunchableCommand(uri, "Report"))
    assert "does not exist" in refused.args[0]


DISPLAY_TOOL = {
    "display_name": "Open display for {channel}",
    "program": "pydm",
    "args": ["-m", "CHANNEL={channel}", "channel_display.ui"],
}


def display_command(channel: str = "SR:DCCT:Current") -> LaunchableCommand:
    return LaunchableCommand(
        f"osprey-desktop://launch/display_tool?channel={channel}",
        f"Open display for {channel}",
        command_type="desktop_app",
    )


def test_command_whose_program_is_not_installed_is_disabled_saying_why(qapp, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty PATH: pydm is certainly missing
    launcher = CommandLauncher({"display_tool": DISPLAY_TOOL})
    actions = CommandActions(launcher.trigger, unavailable=launcher.unavailable_reason)
    actions.set_commands([display_command()])
    action = actions.actions()[0]
    assert not action.isEnabled()
    assert action.toolTip() == (
        "pydm is not installed on this computer (launchers.display_tool.program in the config)."
    )


def test_command_whose_program_is_on_path_is_enabled(qapp, tmp_path, monkeypatch):
    program = tmp_path / "pydm"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    launcher = CommandLauncher({"display_tool": DISPLAY_TOOL})
    actions = CommandActions(launcher.trigger, unavailable=launcher.unavailable_reason)
    actions.set_commands([display_command(), *commands_from_state(STATE)])
    assert [a.isEnabled() for a in actions.actions()] == [True, True, True]
    assert actions.actions()[0].toolTip().startswith("osprey-desktop://launch/display_tool")


def test_command_naming_an_unknown_template_is_disabled_saying_why(qapp, launcher):
    actions = CommandActions(launcher.trigger, unavailable=launcher.unavailable_reason)
    wipe = LaunchableCommand(
        "rm -rf /", "Wipe", command_type="desktop_app", metadata={"launcher": "shell"}
    )
    actions.set_commands([wipe])
    assert not actions.actions()[0].isEnabled()
    assert "'shell' is not a command template" in actions.actions()[0].toolTip()


def test_window_offers_a_missing_program_disabled_in_menu_and_not_in_palette(
    qtbot, qasync_loop, configure, tmp_path, monkeypatch
):
    from osprey_desktop.ui.controller import SessionController
    from osprey_desktop.ui.main_window import MainWindow

    monkeypatch.setenv("PATH", str(tmp_path))
    window = MainWindow(SessionController(), configure())  # shipped launchers: display_tool
    try:
        record = {
            "capability": "channel_read",
            "launch_uri": display_command().launch_uri,
            "display_name": "Open display for SR:DCCT:Current",
            "command_type": "desktop_app",
        }
        window.controller.state_changed.emit(
            {"ui_launchable_commands": [record]}, {"ui_launchable_commands"}
        )
        menu_action = next(
            a for a in window.menus.commands_menu.actions() if a.text() == record["display_name"]
        )
        assert not menu_action.isEnabled()
        assert "pydm is not installed on this computer" in menu_action.toolTip()
        titles = [e.title for e in window.menus.palette_entries()]
        assert record["display_name"] not in titles
    finally:
        window._quitting = True
        window.close()
        window.deleteLater()


@pytest.fixture
def file_catcher(qapp):
    """Stands in for the desktop's default handler of file:// links."""
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "handle")
    yield catcher
    QDesktopServices.unsetUrlHandler("file")


def file_command(path) -> LaunchableCommand:
    return LaunchableCommand(QUrl.fromLocalFile(str(path)).toString(), f"Open {path.name}")


def executable_file(folder):
    program = folder / "report"
    program.write_bytes(b"\x7fELF\x02\x01\x01")
    program.chmod(0o755)
    return program


def desktop_entry(folder):
    entry = folder / "viewer.desktop"
    entry.write_text("[Desktop Entry]\nType=Application\nName=Viewer\nExec=xterm\n")
    entry.chmod(0o644)  # not executable: the name alone makes it a program for the desktop
    return entry


def shebang_script(folder):
    script = folder / "notes.txt"  # a document's name, a script's content
    script.write_text("#!/bin/sh\nrm -rf ~\n")
    script.chmod(0o644)
    return script


def python_script(folder):
    script = folder / "analysis.py"  # no #!, not executable: the type alone says script
    script.write_text("import os\nos.system('reboot')\n")
    script.chmod(0o644)
    return script


def documents(folder):
    out = []
    for name, data in (
        ("beam.pdf", b"%PDF-1.4\n%%EOF\n"),
        ("orbit.png", b"\x89PNG\r\n\x1a\n"),
        ("shift notes.txt", b"Injection at 14:00.\n"),
    ):
        path = folder / name
        path.write_bytes(data)
        path.chmod(0o644)
        out.append(path)
    return out


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (executable_file, "is marked executable"),
        (desktop_entry, "is a desktop entry"),
        (shebang_script, "is a script (it starts with #!)"),
        (python_script, "is a program or script"),
    ],
)
def test_file_link_to_a_program_is_refused_and_never_opened(
    qtbot, launcher, file_catcher, tmp_path, make, says
):
    command = file_command(make(tmp_path))
    with qtbot.waitSignal(launcher.refused) as refused:
        assert launcher.trigger(command) is False
    assert says in refused.args[0]
    assert "file links open documents only" in refused.args[0]
    assert file_catcher.urls == []


@pytest.mark.parametrize("make", [executable_file, desktop_entry, shebang_script, python_script])
def test_file_link_to_a_program_is_a_disabled_action_saying_why(qapp, launcher, tmp_path, make):
    actions = CommandActions(launcher.trigger, unavailable=launcher.unavailable_reason)
    actions.set_commands([file_command(make(tmp_path))])
    action = actions.actions()[0]
    assert not action.isEnabled()
    assert action.toolTip().startswith("Cannot open: ")
    assert "file links open documents only, never programs or scripts" in action.toolTip()


def test_link_named_like_a_document_but_pointing_at_a_program_is_refused(
    qtbot, launcher, file_catcher, tmp_path
):
    disguised = tmp_path / "manual.pdf"
    disguised.symlink_to(desktop_entry(tmp_path))
    with qtbot.waitSignal(launcher.refused) as refused:
        launcher.trigger(file_command(disguised))
    assert "is a desktop entry" in refused.args[0]
    assert file_catcher.urls == []


def test_file_links_to_documents_are_offered_and_open(qtbot, launcher, file_catcher, tmp_path):
    commands = [file_command(path) for path in documents(tmp_path)]
    actions = CommandActions(launcher.trigger, unavailable=launcher.unavailable_reason)
    actions.set_commands(commands)
    assert [a.isEnabled() for a in actions.actions()] == [True, True, True]
    for action in actions.actions():
        action.trigger()
    assert file_catcher.urls == [c.launch_uri for c in commands]


def test_document_made_executable_after_it_was_offered_is_still_refused(
    qtbot, launcher, file_catcher, tmp_path
):
    document = documents(tmp_path)[0]
    actions = CommandActions(launcher.trigger, unavailable=launcher.unavailable_reason)
    actions.set_commands([file_command(document)])
    assert actions.actions()[0].isEnabled()
    document.chmod(0o755)
    with qtbot.waitSignal(launcher.refused) as refused:
        actions.actions()[0].trigger()
    assert "chmod -x" in refused.args[0]
    assert file_catcher.urls == []
