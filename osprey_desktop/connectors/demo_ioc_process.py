"""Start and stop the demo IOC as a child process on free loopback ports (tests and benches).

``DemoIocProcess`` picks free ports for the CA server, the repeater and beacons, starts
``python -m osprey_desktop demo-ioc`` with a loopback-only environment, waits for its ready
line, and stops it by process id. ``client_environment`` is what a client in the same test
needs (set it with ``monkeypatch.setenv`` or pass it to ``caproto-get``). The IOC saves its
setpoints in its data folder (``sim_machine.json``); unless ``extra_env`` names
``OSPREY_DESKTOP_DATA_DIR``, it gets a temporary one, removed on ``stop``, so a test or a bench
never writes into the operator's own data folder (nor its log file: ``XDG_STATE_HOME`` goes
there too). ``pva_environment`` is the client side of a PV Access server started the same way
(``PvaServerProcess`` in the tests): its UDP search port and loopback only.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from osprey_desktop.config.paths import DATA_DIR_ENV_VAR
from osprey_desktop.connectors.demo_ioc import READY_MARKER, loopback_environment


def free_port() -> int:
    """A port free for both TCP and UDP on 127.0.0.1 (CA uses the same number for both)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp:
            tcp.bind(("127.0.0.1", 0))
            port = tcp.getsockname()[1]
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                try:
                    udp.bind(("127.0.0.1", port))
                except OSError:
                    continue
        return port
    raise RuntimeError("no free loopback port found for the demo IOC")


def pva_environment(server_port: int, broadcast_port: int) -> dict[str, str]:
    """``EPICS_PVA*`` settings of a PV Access server on 127.0.0.1 and of its clients.

    The client searches the server's UDP port (``broadcast_port``), never the network.
    """
    return {
        "EPICS_PVAS_INTF_ADDR_LIST": "127.0.0.1",
        "EPICS_PVAS_SERVER_PORT": str(server_port),
        "EPICS_PVAS_BROADCAST_PORT": str(broadcast_port),
        "EPICS_PVA_ADDR_LIST": f"127.0.0.1:{broadcast_port}",
        "EPICS_PVA_AUTO_ADDR_LIST": "NO",
        "EPICS_PVA_SERVER_PORT": str(server_port),
        "EPICS_PVA_BROADCAST_PORT": str(broadcast_port),
    }


class DemoIocProcess:
    """A demo IOC child process on its own loopback ports."""

    def __init__(self, rate: float = 4.0, extra_env: dict[str, str] | None = None) -> None:
        self.server_port = free_port()
        self.repeater_port = free_port()
        self.beacon_port = free_port()
        self.rate = rate
        self.client_environment = loopback_environment(
            "127.0.0.1", self.server_port, self.repeater_port, self.beacon_port
        )
        self._extra_env = extra_env or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.output: list[str] = []
        self._pending = ""  # output read from the pipe, not yet a whole line
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._data_dir: str | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    @property
    def data_dir(self) -> Path | None:
        """The temporary data folder of the running IOC (None when ``extra_env`` names one)."""
        return Path(self._data_dir) if self._data_dir else None

    def command(self) -> list[str]:
        """The child's command line; a test IOC overrides it (and prints ``READY_MARKER``)."""
        return [
            sys.executable,
            "-m",
            "osprey_desktop",
            "demo-ioc",
            "--port",
            str(self.server_port),
            "--rate",
            str(self.rate),
        ]

    def start(self, timeout: float = 30.0) -> DemoIocProcess:
        env = {**os.environ, **self.client_environment, **self._extra_env}
        env["PYTHONUNBUFFERED"] = "1"
        if DATA_DIR_ENV_VAR not in self._extra_env:
            self._data_dir = tempfile.mkdtemp(prefix="osprey-demo-ioc-")
            env[DATA_DIR_ENV_VAR] = self._data_dir
            if "XDG_STATE_HOME" not in self._extra_env:
                env["XDG_STATE_HOME"] = str(Path(self._data_dir) / "state")
        root = Path(__file__).resolve().parents[2]
        self.process = subprocess.Popen(
            self.command(),
            env=env,
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        try:
            self.wait_for_output(READY_MARKER, timeout)
        except (RuntimeError, TimeoutError):
            self.stop()
            raise
        return self

    def wait_for_output(self, text: str, timeout: float) -> str:
        """Read the child's output until a line containing ``text`` and return that line.

        Raises ``RuntimeError`` when the child exits first, ``TimeoutError`` after ``timeout``
        seconds; both messages carry the output so far. Reads the pipe's file descriptor
        directly: a buffered ``readline`` can hold lines that ``select`` no longer sees.
        """
        proc = self.process
        assert proc is not None and proc.stdout is not None, "start the IOC first"
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            while "\n" in self._pending:
                line, self._pending = self._pending.split("\n", 1)
                self.output.append(line + "\n")
                if text in line:
                    return line
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"demo IOC did not print {text!r} within {timeout:g} s: {''.join(self.output)}"
                )
            ready, _, _ = select.select([fd], [], [], min(0.2, remaining))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if chunk:
                self._pending += self._decoder.decode(chunk)
                continue
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
            self.output.append(self._pending)
            self._pending = ""
            raise RuntimeError(
                f"demo IOC exited with code {proc.returncode}: {''.join(self.output)}"
            )

    def stop(self) -> None:
        """Terminate the child by pid, then kill it if it lingers; remove its temporary data."""
        proc, self.process = self.process, None
        try:
            self._end(proc)
        finally:
            if self._data_dir is not None:
                shutil.rmtree(self._data_dir, ignore_errors=True)
                self._data_dir = None

    @staticmethod
    def _end(proc: subprocess.Popen[bytes] | None) -> None:
        if proc is None:
            return
        if proc.poll() is not None:  # exited, or killed by a test: only the pipe is left
            if proc.stdout is not None:
                proc.stdout.close()
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()

    def __enter__(self) -> DemoIocProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
