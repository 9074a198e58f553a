"""Start and stop the demo IOC as a child process on free loopback ports (tests and benches).

``DemoIocProcess`` picks free ports for the CA server, the repeater and beacons, starts
``python -m osprey_desktop demo-ioc`` with a loopback-only environment, waits for its ready
line, and stops it by process id. ``client_environment`` is what a client in the same test
needs (set it with ``monkeypatch.setenv`` or pass it to ``caproto-get``).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

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

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self, timeout: float = 30.0) -> DemoIocProcess:
        env = {**os.environ, **self.client_environment, **self._extra_env}
        env["PYTHONUNBUFFERED"] = "1"
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
                raise RuntimeError(
                    f"demo IOC exited with code {self.process.returncode}: {''.join(self.output)}"
                )
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                line = self.process.stdout.readline()
                self.output.append(line)
                if READY_MARKER in line:
                    return self
        self.stop()
        raise RuntimeError(f"demo IOC not ready after {timeout:g} s: {''.join(self.output)}")

    def stop(self) -> None:
        """Terminate the child by pid, then kill it if it lingers."""
        proc, self.process = self.process, None
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
