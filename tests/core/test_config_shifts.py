"""``machine.shifts``: when the facility's shifts start; null asks about "the last shift"."""

from __future__ import annotations

from pathlib import Path

import pytest

from osprey_desktop.config import ConfigError, build_config, load_config


def test_the_built_in_ring_works_three_shifts() -> None:
    assert build_config().machine.shifts == ("07:00", "15:00", "23:00")


def test_a_facility_may_give_none(tmp_path: Path) -> None:
    user = tmp_path / "c.yaml"
    user.write_text("machine:\n  shifts: null\n", encoding="utf-8")
    assert load_config(user).machine.shifts is None


@pytest.mark.parametrize("shifts", ['["7am"]', '["25:00"]', "[]", '["07:00", "15"]'])
def test_a_shift_start_that_is_no_clock_time_is_a_config_error(tmp_path: Path, shifts: str) -> None:
    user = tmp_path / "c.yaml"
    user.write_text(f"machine:\n  shifts: {shifts}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(user)
    assert caught.value.key.startswith("machine.shifts")
