"""The core never loads Qt, the packages keep their floors, and the import-linter contracts
really catch a breach."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
QT_MODULES = ("PySide6", "shiboken6", "qasync", "pyqtgraph")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

IMPORT_ALL_CORE_MODULES = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys
    import osprey_desktop
    failed = []
    for info in pkgutil.walk_packages(osprey_desktop.__path__, "osprey_desktop."):
        if info.name == "osprey_desktop.__main__" or info.name.split(".")[1] == "ui":
            continue
        try:
            importlib.import_module(info.name)
        except Exception as exc:
            failed.append(f"{info.name}: {type(exc).__name__}: {exc}")
    loaded = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))
    print(json.dumps({"loaded": loaded, "failed": failed}))
    """
)


def test_importing_every_core_module_and_the_cli_loads_no_qt():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_CORE_MODULES, *QT_MODULES],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["failed"] == [], "core modules that do not import (so were not checked)"
    assert report["loaded"] == [], "a core module loads Qt; only osprey_desktop.ui may"


def contract_floors() -> list[str]:
    """Every package the real layers contract names (optional ones included), top first."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    layers = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")[
        "layers"
    ]
    return [name.strip(" ()") for layer in layers for name in layer.split("|")]


@pytest.fixture
def fake_project(tmp_path: Path) -> Path:
    """A minimal osprey_desktop tree under our real contracts: one empty package per floor,
    and a window that imports Qt."""
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    files = {f"{floor}/__init__.py": "" for floor in contract_floors()}
    files.update(
        {
            "__init__.py": "",
            "__main__.py": "from osprey_desktop.cli import main\n",
            "config/__init__.py": "import yaml\n",
            "cli/__init__.py": "from osprey_desktop import config\n",
            "cli/run.py": "def run():\n    from osprey_desktop.ui import app\n",
            "ui/__init__.py": "",
            "ui/app.py": "import PySide6.QtWidgets\nimport qasync\nimport pyqtgraph\n",
        }
    )
    for name, text in files.items():
        path = tmp_path / "osprey_desktop" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def lint(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=project,
        env={"PYTHONPATH": str(project), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_contract_allows_the_window_to_import_qt_and_the_cli_to_start_it(fake_project):
    result = lint(fake_project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout
    assert result.stdout.count("KEPT") == 2


@pytest.mark.parametrize(
    ("module", "text", "reported"),
    [
        ("session.py", "import qasync\n", "osprey_desktop.session -> qasync"),
        ("config/bad.py", "from PySide6 import QtCore\n", "osprey_desktop.config.bad -> PySide6"),
        ("graph/__init__.py", "import osprey_desktop.ui.app\n", "-> osprey_desktop.ui.app"),
        ("events.py", "from osprey_desktop.cli import run\n", "osprey_desktop.events ->"),
        ("cli/ask.py", "import pyqtgraph\n", "osprey_desktop.cli.ask -> pyqtgraph"),
    ],
)
def test_contract_breaks_when_qt_or_the_window_leaks_into_other_modules(
    fake_project, module, text, reported
):
    path = fake_project / "osprey_desktop" / module
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    result = lint(fake_project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "BROKEN" in result.stdout
    assert reported in result.stdout


def test_contract_breaks_on_an_indirect_import_through_a_new_helper_package(fake_project):
    helpers = fake_project / "osprey_desktop" / "plotting"
    helpers.mkdir()
    (helpers / "__init__.py").write_text("import pyqtgraph\n")
    (fake_project / "osprey_desktop" / "config" / "__init__.py").write_text(
        "from osprey_desktop import plotting\n"
    )
    result = lint(fake_project)
    assert result.returncode == 1
    assert "osprey_desktop.config -> osprey_desktop.plotting" in result.stdout


def test_layers_break_when_a_floor_imports_one_above_it_inside_a_function(fake_project):
    # the context manager asking the registry directly: the knot the catalog replaced
    (fake_project / "osprey_desktop" / "context" / "manager.py").write_text(
        "def lookup():\n    from osprey_desktop.registry import get_registry\n"
    )
    result = lint(fake_project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Layers: each package imports only the floors below it BROKEN" in result.stdout
    assert "osprey_desktop.context.manager -> osprey_desktop.registry" in result.stdout


def test_layers_allow_importing_any_floor_below(fake_project):
    (fake_project / "osprey_desktop" / "capabilities" / "reader.py").write_text(
        "from osprey_desktop import config, connectors, context, state\n"
    )
    result = lint(fake_project)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_new_top_level_package_must_be_given_its_floor(fake_project):
    (fake_project / "osprey_desktop" / "newfloor").mkdir()
    (fake_project / "osprey_desktop" / "newfloor" / "__init__.py").write_text("")
    result = lint(fake_project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "newfloor" in result.stdout + result.stderr
