"""A built wheel works wherever pip puts it: ``pip install --user`` and a fresh venv.

The wheel is built from this checkout (``pip wheel``, as a release would be) and installed
without its dependencies; the dependencies come from this test's own environment through a
``.pth`` line, so nothing is downloaded but the build backend (from pip's cache or index).
The console script then runs from an unrelated folder in which a decoy ``resources/`` folder
(also one in the user site-packages) would break the program if it were read instead of the
installed package's.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHIPPED = (
    "config.yaml",
    "channels.yaml",
    "limits.yaml",
    "channel_vocabulary.yaml",
    "osprey-desktop.svg",
)
DECOY_CONFIG = "machine: [this is not the shipped configuration\n"

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    kwargs.setdefault("timeout", 180)
    return subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # one build at a time: setuptools builds in the checkout's own build/ folder, and two test
    # workers building at once collide there ("File exists: build/bdist...")
    lock = tmp_path_factory.getbasetemp().parent / "osprey-wheel.lock"
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        built = _run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
            cwd=out,
        )
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("osprey_desktop-*.whl")
    return path


def _this_environments_site_packages() -> str:
    return sysconfig.get_paths()["purelib"]


def _clean_env(home: Path) -> dict[str, str]:
    """No display, no user config, every XDG folder and HOME under ``home``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "XDG_", "OSPREY_", "PIP_", "VIRTUAL_ENV"))
        and k not in ("DISPLAY", "WAYLAND_DISPLAY")
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "share"),
        XDG_STATE_HOME=str(home / "state"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return env


def _decoy_resources(folder: Path) -> None:
    (folder / "resources").mkdir(parents=True, exist_ok=True)
    (folder / "resources" / "config.yaml").write_text(DECOY_CONFIG)


def _ask_beam_current(script: Path, cwd: Path, env: dict[str, str]) -> dict:
    asked = _run([str(script), "ask", "--json", "read the beam current"], cwd=cwd, env=env)
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["error"] is None
    assert "SR:DCCT:Current" in answer["response"] and " mA" in answer["response"]
    return answer


def test_wheel_ships_the_resources_and_the_license(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for name in SHIPPED:
        assert f"osprey_desktop/resources/{name}" in names
    assert not [n for n in names if n.startswith(("resources/", "share/"))]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))
    )
    assert b"License-Expression: BSD-3-Clause" in metadata


def test_pip_install_user_runs_from_any_folder(wheel, tmp_path):
    user_base = tmp_path / "userbase"
    env = _clean_env(tmp_path / "home")
    env["PYTHONUSERBASE"] = str(user_base)
    # The interpreter this venv was made from: --user means nothing inside a venv. On a
    # Debian python, PEP 668 refuses --user installs; this user base is a throwaway folder.
    base_python = getattr(sys, "_base_executable", sys.executable)
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            base_python,
            "install",
            "--user",
            "--no-deps",
            "--break-system-packages",
            "-q",
            str(wheel),
        ],
        env=env,
    )
    assert installed.returncode == 0, installed.stderr
    user_site = _run(
        [base_python, "-c", "import site; print(site.getusersitepackages())"], env=env
    ).stdout.strip()
    assert user_site.startswith(str(user_base))
    (Path(user_site) / "zz_test_dependencies.pth").write_text(_this_environments_site_packages())
    _decoy_resources(Path(user_site))
    elsewhere = tmp_path / "elsewhere"
    _decoy_resources(elsewhere)

    answer = _ask_beam_current(user_base / "bin" / "osprey-desktop", elsewhere, env)

    where = _run(
        [base_python, "-c", "import osprey_desktop.config as c; print(c.resources_dir())"],
        cwd=elsewhere,
        env=env,
    )
    assert where.stdout.strip() == str(Path(user_site) / "osprey_desktop" / "resources")
    assert answer["thread_id"]


def test_fresh_venv_runs_from_any_folder(wheel, tmp_path):
    venv = tmp_path / "venv"
    env = _clean_env(tmp_path / "home")
    created = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], env=env)
    assert created.returncode == 0, created.stderr
    python = venv / "bin" / "python"
    site_packages = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], env=env
    ).stdout.strip()
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        env=env,
    )
    assert installed.returncode == 0, installed.stderr
    (Path(site_packages) / "zz_test_dependencies.pth").write_text(
        _this_environments_site_packages()
    )
    elsewhere = tmp_path / "elsewhere"
    _decoy_resources(elsewhere)

    _ask_beam_current(venv / "bin" / "osprey-desktop", elsewhere, env)

    version = _run([str(venv / "bin" / "osprey-desktop"), "--version"], cwd=elsewhere, env=env)
    assert version.returncode == 0 and version.stdout.startswith("osprey-desktop ")
    entry = _run(
        [str(venv / "bin" / "osprey-desktop"), "install-desktop-entry"], cwd=elsewhere, env=env
    )
    assert entry.returncode == 0, entry.stderr
    desktop = Path(env["XDG_DATA_HOME"]) / "applications" / "osprey-desktop.desktop"
    assert f"Exec={venv}/bin/osprey-desktop run\n" in desktop.read_text()
