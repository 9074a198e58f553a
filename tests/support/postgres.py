"""A throw-away PostgreSQL server for the tests: its own cluster in a temporary folder,
listening on 127.0.0.1 only, on a free port, stopped by its pid.

``initdb`` refuses to run as root, so as root the cluster belongs to the ``postgres`` user
(Debian's package creates it) and ``initdb``/``pg_ctl`` run as that user. The unix socket
stays in the temporary folder: nothing is shared with a system cluster.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = (
    "install Debian's postgresql package (apt-get install --no-install-recommends postgresql); "
    "./osprey test installs it"
)
#: Set by ``./osprey test`` once the server binaries are installed: then a server that cannot
#: be started fails the tests instead of skipping them.
REQUIRE_ENV = "OSPREY_REQUIRE_POSTGRES"


def server_binaries() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``: Debian's newest, else the PATH's."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PostgresServer:
    """One running cluster; ``url(dbname)`` names a database on it."""

    folder: Path
    port: int
    pid: int
    user: str = "osprey"

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Fast shutdown by pid (SIGINT), then SIGKILL if it lingers; the folder goes too."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGINT)
        deadline = time.monotonic() + 30
        while _alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _alive(self.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def start_server(binaries: Path) -> PostgresServer:
    """initdb + pg_ctl start on 127.0.0.1:<free port>; raises RuntimeError with the log."""
    folder = Path(tempfile.mkdtemp(prefix="osprey-pg-"))
    data, sockets, log = folder / "data", folder / "sockets", folder / "server.log"
    sockets.mkdir()
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError("running as root but there is no 'postgres' user") from exc
        for path in (folder, sockets):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    try:
        _run(
            _as_server_user(
                [
                    str(binaries / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    "osprey",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ]
            )
        )
        for _attempt in range(3):  # a free port can be taken between the probe and the start
            port = _free_port()
            options = (
                f"-h 127.0.0.1 -p {port} -k {sockets} -c fsync=off -c full_page_writes=off"
                " -c max_connections=100"
            )
            started = subprocess.run(
                _as_server_user(
                    [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options]
                    + ["-w", "-t", "60", "start"]
                ),
                capture_output=True,
                text=True,
                check=False,
            )
            if started.returncode == 0:
                pid = int((data / "postmaster.pid").read_text().split()[0])
                return PostgresServer(folder=folder, port=port, pid=pid)
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()}\n{tail}")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip() or done.stdout}")
