"""``machine.timezone``: null means this computer's zone; a name must be a zone Python knows."""

from __future__ import annotations

from pathlib import Path

import pytest

from osprey_desktop.config import ConfigError, build_config, load_config


def test_the_shipped_default_is_the_computers_zone() -> None:
    assert build_config().machine.timezone is None


def test_a_known_iana_zone_is_accepted(tmp_path: Path) -> None:
    user = tmp_path / "c.yaml"
    user.write_text('machine:\n  timezone: "Europe/Berlin"\n', encoding="utf-8")
    assert load_config(user).machine.timezone == "Europe/Berlin"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "Europe", "utc", "../etc/passwd", ""])
def test_an_unknown_zone_is_a_config_error_naming_the_key(tmp_path: Path, zone: str) -> None:
    user = tmp_path / "c.yaml"
    user.write_text(f'machine:\n  timezone: "{zone}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(user)
    error = caught.value
    assert error.key == "machine.timezone" and error.file == str(user)
    assert "unknown time zone" in error.problem and "Europe/Berlin" in error.problem
    assert f"(got '{zone}')" in error.problem
    assert "\n" not in str(error)
