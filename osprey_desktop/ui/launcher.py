"""Decides what a launchable command may do, and does it.

Commands come from capabilities, and through them possibly from an LLM, so nothing in a
command is trusted: http and https URIs open with ``QDesktopServices``, and so do file URIs,
but only to documents: the desktop's default handler *runs* an executable, a ``.desktop``
entry or a script, so a file link to one is refused (its action is disabled, saying why)
and never handed over. ``osprey-desktop://`` URIs are routed inside the app; desktop programs
run only from the ``launchers`` templates in the config, with ``QProcess`` and an argument
list (never a shell of ours). A site's template may itself run a shell (``sh -c "..."``): then
a value put into its script is quoted and one put elsewhere must need no quoting
(``expand_template``). Everything else is refused with an explanation.

Desktop commands are written ``osprey-desktop://launch/<launcher>?channel=NAME`` (or
``channels=A,B``), or as ``command_type: desktop_app`` with ``metadata.launcher`` naming the
template and ``metadata.channel`` / ``metadata.channels`` giving the values.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from PySide6.QtCore import QMimeDatabase, QObject, QProcess, QUrl, Signal
from PySide6.QtGui import QDesktopServices

from osprey_desktop.ui.commands import LaunchableCommand

INTERNAL_SCHEME = "osprey-desktop"
OPENABLE_SCHEMES = ("http", "https", "file")
# A channel value becomes one argv entry: no leading '-' (no option injection), no spaces.
_SAFE_VALUE = re.compile(r"^[A-Za-z0-9_$][A-Za-z0-9_:.\-\[\]<>{}/$#]{0,199}$")
# Names a desktop's default handler may run rather than show (checked with the MIME type too).
PROGRAM_SUFFIXES = frozenset(
    {
        ".desktop", ".appimage", ".run", ".sh", ".bash", ".zsh", ".csh", ".ksh", ".command",
        ".py", ".pyw", ".pl", ".rb", ".jar", ".jnlp", ".exe", ".msi", ".bat", ".cmd", ".com",
        ".ps1", ".vbs",
    }
)  # fmt: skip
PROGRAM_MIME_TYPES = (
    "application/x-executable",  # also the parent of shell, Python, Perl... scripts
    "application/x-sharedlib",
    "application/x-desktop",
    "application/x-shellscript",
    "application/x-ms-dos-executable",
    "application/x-msdownload",
    "application/x-msi",
    "application/java-archive",
    "application/x-java-jnlp-file",
    "application/vnd.appimage",
)
DOCUMENTS_ONLY = (
    "file links open documents only, never programs or scripts; "
    "programs run only from the config's launchers"
)


def parse_internal(uri: str) -> tuple[str, list[str], dict[str, Any]]:
    """``osprey-desktop://route/a/b?x=1&channels=A,B`` -> ("route", ["a", "b"], params)."""
    parts = urlsplit(uri)
    params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    if "channels" in params:
        params["channels"] = [c for c in params["channels"].split(",") if c]
    segments = [unquote(s) for s in parts.path.split("/") if s]
    return parts.netloc.lower(), segments, params


#: Programs that read an argument as shell code (``sh -c "probe {channel}"``): a value put
#: into such a script is quoted, one put anywhere else must need no quoting.
SHELLS = frozenset(
    {"sh", "bash", "dash", "ash", "zsh", "ksh", "mksh", "csh", "tcsh", "fish", "busybox"}
)


#: The option after which a shell reads its script: ``-c``, also combined (``-ec``, ``-lc``).
_SCRIPT_OPTION = re.compile(r"-[a-z]*c[a-z]*")


def is_shell(program: str, declared: bool = False) -> bool:
    """Whether a launcher runs a shell: declared so in the config, or a shell by name."""
    return declared or os.path.basename(str(program)).lower() in SHELLS


def expand_template(
    args: Iterable[str], params: Mapping[str, Any], shell: bool = False
) -> list[str]:
    """Fill ``{channel}`` / ``{channels}`` in each argument; refuse unsafe or missing values.

    ``shell``: the program is a shell, so the argument after ``-c`` is code; a value put into
    it is quoted (``shlex.quote``: ``A>PWNED`` stays one word, never a redirection), and a
    value put into any other argument must be one that needs no quoting, else it is refused.
    """
    channels = params.get("channels") or ([params["channel"]] if params.get("channel") else [])
    if isinstance(channels, str):
        channels = [c for c in channels.split(",") if c]
    channel = params.get("channel") or (channels[0] if channels else None)
    for value in [channel, *channels]:
        if value is not None and not _SAFE_VALUE.match(str(value)):
            raise ValueError(f"'{value}' is not a valid channel name for a command argument")
    args = list(args)
    scripts = {i + 1 for i, arg in enumerate(args) if shell and _SCRIPT_OPTION.fullmatch(arg)}
    out = []
    for index, arg in enumerate(args):
        if "{channel}" in arg and channel is None:
            raise ValueError("the template needs a channel and the command gives none")
        if "{channels}" in arg and not channels:
            raise ValueError("the template needs channels and the command gives none")
        values = [str(c) for c in channels]
        one = str(channel) if channel is not None else ""
        if index in scripts:
            values, one = [shlex.quote(v) for v in values], shlex.quote(one) if one else ""
        elif shell and ("{channel" in arg):
            unsafe = [v for v in [one, *values] if v and shlex.quote(v) != v]
            if unsafe:
                raise ValueError(
                    f"'{unsafe[0]}' has characters a shell reads as code, and this launcher "
                    "runs a shell; put the value into its -c script, where it is quoted"
                )
        arg = arg.replace("{channels}", ",".join(values))
        out.append(arg.replace("{channel}", one))
    return out


def not_a_document(path: str) -> str | None:
    """Why the local file ``path`` must not go to the desktop's default handler, or None.

    The default handler runs programs, ``.desktop`` entries and scripts instead of showing
    them, so a file link is for documents only: an executable regular file, a desktop entry,
    a script (``#!``) or anything whose name or MIME type says program is refused, as is
    anything that is neither a regular file nor a folder. A missing file is left to the
    caller (it may appear later). Symbolic links are judged by their name and their target.
    """
    if not os.path.isabs(path):
        return f"'{path}' is not an absolute path; {DOCUMENTS_ONLY}"
    if not os.path.exists(path):
        return None
    real = os.path.realpath(path)
    if os.path.isdir(real):
        return None
    if not os.path.isfile(real):
        return f"{path} is not a regular file (a device, pipe or socket); {DOCUMENTS_ONLY}"
    suffixes = {os.path.splitext(p)[1].lower() for p in (path, real)}
    if ".desktop" in suffixes:
        return f"{path} is a desktop entry, which starts the program it names; {DOCUMENTS_ONLY}"
    if os.access(real, os.X_OK):
        return (
            f"{path} is marked executable; {DOCUMENTS_ONLY} "
            "(if it is a document, remove its execute permission: chmod -x)"
        )
    try:
        with open(real, "rb") as file:
            head = file.read(4)
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror}), so nothing shows it is a document"
    if head.startswith(b"#!"):
        return f"{path} is a script (it starts with #!); {DOCUMENTS_ONLY}"
    if head == b"\x7fELF":
        return f"{path} is a compiled program; {DOCUMENTS_ONLY}"
    mime = QMimeDatabase().mimeTypeForFile(real)
    if suffixes & PROGRAM_SUFFIXES or any(
        mime.name() == kind or mime.inherits(kind) for kind in PROGRAM_MIME_TYPES
    ):
        return f"{path} is a program or script ({mime.comment() or mime.name()}); {DOCUMENTS_ONLY}"
    return None


def find_program(program: str) -> str | None:
    """The executable ``program`` names (absolute, or looked up on PATH), or None."""
    found = shutil.which(program)
    return found if found and os.access(found, os.X_OK) else None


class CommandLauncher(QObject):
    """Runs one command at a time on request; reports through signals, never raises."""

    refused = Signal(str)  # explanation for the operator
    opened = Signal(str)  # URI handed to the desktop
    internal_requested = Signal(str, object, object)  # route, path segments, params
    process_started = Signal(str, str)  # launcher name, command line for the log
    process_output = Signal(str, str)  # launcher name, text
    process_finished = Signal(str, int)  # launcher name, exit code

    def __init__(
        self,
        launchers: Mapping[str, Any],
        internal_routes: Iterable[str] = (),
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.launchers = dict(launchers)
        self.internal_routes = set(internal_routes)
        self.processes: list[QProcess] = []
        self._partial: dict[QProcess, str] = {}

    def launcher_name(self, command: LaunchableCommand) -> str | None:
        """The ``launchers`` template a command runs, or None when it runs no program."""
        uri = command.launch_uri.strip()
        scheme = urlsplit(uri).scheme.lower()
        if command.command_type == "desktop_app" and scheme != INTERNAL_SCHEME:
            return str(command.metadata.get("launcher") or "")
        if scheme == INTERNAL_SCHEME:
            route, segments, _params = parse_internal(uri)
            if route == "launch":
                return segments[0] if segments else ""
        return None

    def unavailable_reason(self, command: LaunchableCommand) -> str | None:
        """Why ``command`` cannot run on this computer (for a disabled action), or None.

        Only what is known before running: the template exists and its program is installed,
        a file link names a document. Other links and window features are always offered;
        their checks (a missing file too) happen on trigger.
        """
        name = self.launcher_name(command)
        if name is None:
            url = QUrl(command.launch_uri.strip())
            reason = not_a_document(url.toLocalFile()) if url.isLocalFile() else None
            return f"Cannot open: {reason}." if reason else None
        template = self.launchers.get(name)
        if template is None:
            known = ", ".join(sorted(self.launchers)) or "none"
            return (
                f"'{name or '?'}' is not a command template in the config's launchers "
                f"(configured: {known}); only configured programs run."
            )
        program = str(_field(template, "program"))
        if find_program(program) is None:
            return (
                f"{program} is not installed on this computer "
                f"(launchers.{name}.program in the config)."
            )
        return None

    def trigger(self, command: LaunchableCommand) -> bool:
        uri = command.launch_uri.strip()
        scheme = urlsplit(uri).scheme.lower()
        if command.command_type == "desktop_app" and scheme != INTERNAL_SCHEME:
            meta = command.metadata
            return self._launch(str(meta.get("launcher") or ""), meta, command.display_name)
        if scheme in OPENABLE_SCHEMES:
            return self._open(uri, command.display_name)
        if scheme == INTERNAL_SCHEME:
            route, segments, params = parse_internal(uri)
            if route == "launch":
                name = segments[0] if segments else ""
                return self._launch(name, params, command.display_name)
            if route in self.internal_routes:
                self.internal_requested.emit(route, segments, params)
                return True
            known = ", ".join(sorted(self.internal_routes | {"launch"}))
            return self._refuse(
                f"Refused '{command.display_name}': {uri} names no window feature (known: {known})."
            )
        shown = scheme or "no scheme"
        return self._refuse(
            f"Refused '{command.display_name}': {uri} uses {shown}; only http, https, file and "
            "osprey-desktop links open, and programs run only from the config's launchers."
        )

    def _refuse(self, message: str) -> bool:
        self.refused.emit(message)
        return False

    def _open(self, uri: str, name: str) -> bool:
        url = QUrl(uri)
        if url.isLocalFile():
            path = url.toLocalFile()
            reason = not_a_document(path)  # again now: the file may have changed since
            if reason is not None:
                return self._refuse(f"Refused '{name}': {reason}.")
            if not os.path.exists(path):
                return self._refuse(
                    f"Cannot open '{name}': {path} does not exist "
                    "(moved or deleted?). Run the request again to recreate it."
                )
        if not QDesktopServices.openUrl(url):
            return self._refuse(
                f"Cannot open '{name}': no application on this desktop handles {uri}."
            )
        self.opened.emit(uri)
        return True

    def _launch(self, name: str, params: Mapping[str, Any], display: str) -> bool:
        template = self.launchers.get(name)
        if template is None:
            known = ", ".join(sorted(self.launchers)) or "none"
            return self._refuse(
                f"Refused '{display}': '{name or '?'}' is not a command template in the config's "
                f"launchers (configured: {known}); only configured programs run."
            )
        program = str(_field(template, "program"))
        shell = is_shell(program, bool(_field(template, "shell", False)))
        try:
            args = expand_template(_field(template, "args"), params, shell=shell)
        except ValueError as exc:
            return self._refuse(f"Refused '{display}': {exc}.")
        found = find_program(program)
        if found is None:
            return self._refuse(
                f"Cannot run '{display}': program '{program}' is not installed or not on PATH. "
                f"Install it, or point launchers.{name}.program in the config at it."
            )
        process = QProcess(self)
        process.setProgram(found)
        process.setArguments(args)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)
        process.readyReadStandardOutput.connect(lambda: self._read(process, name))
        process.finished.connect(lambda code, _status: self._finished(process, name, code))
        process.errorOccurred.connect(
            lambda error: self.process_output.emit(name, f"[{program}: {error.name}]\n")
        )
        self.processes.append(process)
        process.start()
        self.process_started.emit(name, " ".join([program, *args]))
        return True

    def _read(self, process: QProcess, name: str) -> None:
        """Emit whole lines only; a chunk may end mid-line."""
        data = bytes(process.readAllStandardOutput().data()).decode(errors="replace")
        text = self._partial.pop(process, "") + data
        complete, _, rest = text.rpartition("\n")
        if rest:
            self._partial[process] = rest
        if complete:
            self.process_output.emit(name, complete + "\n")

    def _finished(self, process: QProcess, name: str, code: int) -> None:
        self._read(process, name)
        if process in self._partial:
            self.process_output.emit(name, self._partial.pop(process) + "\n")
        self.process_finished.emit(name, int(code))
        if process in self.processes:
            self.processes.remove(process)
        process.deleteLater()

    def stop_all(self, timeout_ms: int = 2000) -> None:
        """End the programs this window started (and only those) before the app quits."""
        for process in list(self.processes):
            process.terminate()
            if not process.waitForFinished(timeout_ms):
                process.kill()
                process.waitForFinished(timeout_ms)


def _field(template: Any, name: str, *default: Any) -> Any:
    if isinstance(template, Mapping):
        return template.get(name, *default) if default else template[name]
    return getattr(template, name, *default)
