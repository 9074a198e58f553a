"""Start and stop the demo IOC as a child process on free loopback ports (tests and benches).

``DemoIocProcess`` picks free ports for the CA server, the repeater and beacons, starts
``python -m osprey_desktop demo-ioc`` with a loopback-only environment, waits for its ready
line, and stops it by process id. ``client_environment`` is what a client in the same test
needs (set it with ``monkeypatch.setenv`` or pass it to ``caproto-get``). The IOC saves its
setpoints in its data folder (``sim_machine.json``); unless ``extra_env`` names
``OSPREY_DESKTOP_DATA_DIR``, it gets a temporary one, removed on ``stop``, so a test or a bench
never writes into the operator's own data folder.
"""

from __future__ import annotations

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
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self._data_dir: str | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    @property
    def data_dir(self) -> Path | None:
        """The temporary data folder of the running IOC (None when ``extra_env`` names one)."""
        return Path(self._data_dir) if self._data_dir else None

    def start(self, timeout: float = 30.0) -> DemoIocProcess:
        env = {**os.environ, **self.client_environment, **self._extra_env}
        env["PYTHONUNBUFFERED"] = "1"
        if DATA_DIR_ENV_VAR not in self._extra_env:
            self._data_dir = tempfile.mkdtemp(prefix="osprey-demo-ioc-")
            env[DATA_DIR_ENV_VAR] = self._data_dir
        cmd = [
            sys.executable,
            "-m",
            "osprey_desktop",
            "demo-ioc",
            "--port",
            str(self.server_port),
            "--rate",
            str(self.rate),
        ]
        root = Path(__file__).resolve().parents[2]
        self.process = subprocess.Popen(
            cmd,
            env=env,
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                rest = self.process.stdout.read()
                self.output.append(rest)
                code = self.process.returncode
                self.stop()
                raise RuntimeError(f"demo IOC exited with code {code}: {''.join(self.output)}")
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                line = self.process.stdout.readline()
                self.output.append(line)
                if READY_MARKER in line:
                    return self
        self.stop()
        raise RuntimeError(f"demo IOC not ready after {timeout:g} s: {''.join(self.output)}")

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
    def _end(proc: subprocess.Popen[str] | None) -> None:
        if proc is None or proc.poll() is not None:
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
