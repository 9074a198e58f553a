"""A package's exported names are imported on first use, and only then."""

from __future__ import annotations

import subprocess
import sys

import pytest

import osprey_desktop.safety as safety


def test_an_unknown_name_is_an_attribute_error_naming_the_package() -> None:
    with pytest.raises(AttributeError, match="'osprey_desktop.safety' has no attribute 'Nope'"):
        _ = safety.Nope  # type: ignore[attr-defined]


def test_a_name_is_the_defining_module_s_object_and_is_kept_on_the_package() -> None:
    from osprey_desktop.safety.audit import AuditLog

    assert safety.AuditLog is AuditLog
    assert vars(safety)["AuditLog"] is AuditLog
    assert "AuditLog" in dir(safety)


def test_importing_the_package_imports_none_of_its_modules() -> None:
    code = (
        "import sys, osprey_desktop.safety\n"
        "print(sorted(m for m in sys.modules if m.startswith('osprey_desktop.safety.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
