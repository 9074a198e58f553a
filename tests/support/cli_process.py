"""Run ``osprey-desktop`` as a real child process without paying Python's start-up each time.

A test of the command line wants what an operator's shell gets: a process of its own, with its
own environment, working folder, stdout, stderr and exit code, and no state left over from an
earlier command. Starting ``python -m osprey_desktop`` gives that but costs 1.5-4 s a run, almost
all of it importing LangGraph, LangChain, pydantic and numpy, and the suite runs the command line
a few hundred times.

So each pytest process keeps one *fork server* (``multiprocessing``'s forkserver start method):
a fresh interpreter, started once, that imports those libraries and the command line's modules
(``PRELOAD``) and nothing else: no configuration is loaded, no registry built, no event loop or
thread started. Every run is a ``fork()`` of it: a new process with its own pid, which sets the
environment, working folder and standard streams it was given and calls the same ``main()`` as
``python -m osprey_desktop``, then exits the way the interpreter would (at-exit handlers,
flushed streams, the exit code; a traceback and code 1 for an uncaught exception).

What a forked run cannot show: import-time behaviour (which modules a command imports, how long
start-up takes) and anything about the interpreter's own start. Tests of those, and tests that
signal or kill a command mid-run, start ``sys.executable`` themselves. ``OSPREY_TEST_FORK=0``
makes every run a fresh interpreter (to compare, or to rule the fork server out).

The fork server listens on a Unix socket in a private temporary folder (no network) and ends
when the pytest process that started it ends.
"""

from __future__ import annotations

import contextlib
import io
import locale
import multiprocessing
import multiprocessing.forkserver
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORK_ENV_VAR = "OSPREY_TEST_FORK"

PRELOAD = (
    "numpy",
    "langgraph.graph",
    "langgraph.checkpoint.sqlite.aio",
    "osprey_desktop.cli",
    "osprey_desktop.cli.common",
    "osprey_desktop.session",
    "osprey_desktop.graph",
    "osprey_desktop.registry",
    "osprey_desktop.capabilities.control_room",
)
"""What every command that runs a turn imports: the cost each run would pay again. Importing
them sets no process state that a run could see (checked by ``tests/test_cli_process.py``)."""

_context: multiprocessing.context.BaseContext | None = None


def forking() -> bool:
    """Runs are forked unless ``OSPREY_TEST_FORK=0`` (or the platform has no fork server)."""
    if os.environ.get(FORK_ENV_VAR, "1") == "0":
        return False
    return "forkserver" in multiprocessing.get_all_start_methods()


def _fork_context() -> multiprocessing.context.BaseContext:
    """The fork server's context; its first use starts the server (a few seconds, once)."""
    global _context
    if _context is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOAD))
        _context = context
    multiprocessing.forkserver.ensure_running()
    return _context


def run_osprey(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: str | Path = REPO,
    timeout: float = 90,
) -> subprocess.CompletedProcess[str]:
    """``python -m osprey_desktop ARGS`` with exactly ``env`` and ``cwd``, as
    ``subprocess.run(..., capture_output=True, text=True, check=False)`` would return it
    (``subprocess.TimeoutExpired`` after ``timeout`` seconds, the process killed)."""
    command = [sys.executable, "-m", "osprey_desktop", *args]
    if not forking():
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
            env=dict(env),
            check=False,
        )
    context = _fork_context()  # before the clock starts: the server's own start is not the run's
    with tempfile.TemporaryDirectory(prefix="osprey-run-") as folder:
        out, err = Path(folder) / "stdout", Path(folder) / "stderr"
        child = context.Process(
            target=_run_in_child,
            args=(list(args), dict(env), str(cwd), str(out), str(err)),
            name="osprey-desktop",
        )
        child.start()
        child.join(timeout)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired(command, timeout, _text(out), _text(err))
        return subprocess.CompletedProcess(command, child.exitcode, _text(out), _text(err))


def _text(path: Path) -> str:
    """What ``subprocess.run(text=True)`` makes of a stream: locale encoding, ``\\n`` lines."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


# -- in the forked child ----------------------------------------------------------------------


def _run_in_child(argv: list[str], env: dict[str, str], cwd: str, out: str, err: str) -> None:
    """Become ``python -m osprey_desktop ARGV`` and never return (``os._exit``)."""
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    time.tzset()  # TZ may differ from the fork server's
    _standard_streams(out, err, env)
    import osprey_desktop.__main__ as entry

    sys.argv = [entry.__file__, *argv]
    code = 1
    try:
        from osprey_desktop.cli import main

        raise SystemExit(main(argv))
    except SystemExit as exc:
        code = _exit_status(exc.code)
    except KeyboardInterrupt:
        _finish_like_the_interpreter()
        import signal
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)  # the interpreter's status for an uncaught Ctrl+C
    except BaseException:  # noqa: BLE001 - the interpreter prints it and exits 1
        import traceback

        traceback.print_exc()
        code = 1
    _finish_like_the_interpreter()
    os._exit(code)


def _standard_streams(out: str, err: str, env: Mapping[str, str]) -> None:
    """stdin from /dev/null, stdout and stderr into the files, wrapped as the interpreter
    would at start-up for that environment (encoding, stderr's backslashreplace)."""
    for fd, path, flags in (
        (0, os.devnull, os.O_RDONLY),
        (1, out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    ):
        opened = os.open(path, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    encoding = (env.get("PYTHONIOENCODING") or "").split(":")[0] or locale.getpreferredencoding(
        False
    )
    unbuffered = bool(env.get("PYTHONUNBUFFERED"))
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding=encoding)
    sys.stdout = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False), encoding=encoding, write_through=unbuffered
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False),
        encoding=encoding,
        errors="backslashreplace",
        write_through=True,
    )
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _exit_status(code: object) -> int:
    """The interpreter's exit status for ``SystemExit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _finish_like_the_interpreter() -> None:
    """What the interpreter does before it exits: wait for non-daemon threads, run the at-exit
    handlers (logging's flush among them), flush the standard streams."""
    import atexit
    import threading

    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a stream the command closed
            stream.flush()
