"""The limits database: ranges, steps, patterns, and refusing when in doubt."""

from __future__ import annotations

from pathlib import Path

import pytest

from osprey_desktop.config import resources_dir
from osprey_desktop.safety.limits import (
    LimitRule,
    LimitsDatabase,
    LimitsError,
    load_limits_database,
)

HCM = "SR01C:HCM01:Current:SP"


@pytest.fixture
def limits() -> LimitsDatabase:
    return load_limits_database(resources_dir() / "limits.yaml")


def test_write_within_range_and_step_is_allowed(limits: LimitsDatabase) -> None:
    check = limits.check_write(HCM, 0.5, 1.5, units="A")
    assert check.allowed and check.violation is None
    assert check.limits == {
        "rule": "SR*C:HCM*:Current:SP",
        "min": -5.0,
        "max": 5.0,
        "max_step": 2.0,
        "writable": True,
    }


def test_value_above_max_is_refused_naming_the_limit(limits: LimitsDatabase) -> None:
    check = limits.check_write(HCM, 4.0, 5.5, units="A")
    assert not check.allowed
    assert "above the maximum of 5.0 A" in check.violation and "max=5" in check.violation


def test_value_below_min_is_refused_naming_the_limit(limits: LimitsDatabase) -> None:
    check = limits.check_write(HCM, -4.0, -5.01, units="A")
    assert not check.allowed and "below the minimum" in check.violation


def test_step_larger_than_max_step_is_refused(limits: LimitsDatabase) -> None:
    check = limits.check_write(HCM, 0.0, 2.5, units="A")
    assert not check.allowed
    assert "step of 2.5 A" in check.violation and "max_step=2" in check.violation


def test_step_exactly_at_the_limit_is_allowed(limits: LimitsDatabase) -> None:
    assert limits.check_write(HCM, 0.1, 2.1).allowed


@pytest.mark.parametrize("current", [None, "n/a", float("nan")])
def test_unknown_current_value_fails_closed_when_a_step_limit_applies(
    limits: LimitsDatabase, current: object
) -> None:
    check = limits.check_write(HCM, current, 1.0)
    assert not check.allowed and "cannot be checked" in check.violation


@pytest.mark.parametrize("requested", ["abc", None, float("inf"), [1.0, 2.0]])
def test_non_numeric_request_is_refused(limits: LimitsDatabase, requested: object) -> None:
    check = limits.check_write(HCM, 0.0, requested)
    assert not check.allowed and "not a finite number" in check.violation


def test_rf_frequency_keeps_its_decimals_in_the_message(limits: LimitsDatabase) -> None:
    check = limits.check_write("SR:RF:Frequency:SP", 499.654, 499.656, units="MHz")
    assert "from 499.654 MHz to 499.656 MHz" in check.violation


def test_readbacks_are_marked_read_only(limits: LimitsDatabase) -> None:
    check = limits.check_write("SR01C:HCM01:Current:RB", 0.0, 1.0)
    assert not check.allowed and "read-only" in check.violation


def test_unlisted_channel_is_refused_unless_allowed() -> None:
    strict = LimitsDatabase({"A:*": LimitRule(min=0, max=1)}, source="limits.yaml")
    refused = strict.check_write("B:SP", 0.0, 0.5)
    assert not refused.allowed
    assert "not in the write limits database" in refused.violation
    assert "allow_unlisted_writes: true" in refused.violation
    lenient = LimitsDatabase({"A:*": LimitRule(min=0, max=1)}, allow_unlisted=True)
    assert lenient.check_write("B:SP", 0.0, 0.5).allowed


def test_exact_name_wins_over_patterns_and_first_pattern_wins() -> None:
    db = LimitsDatabase(
        {
            "A:*": LimitRule(max=1.0),
            "A:X": LimitRule(max=10.0),
            "A:X*": LimitRule(max=100.0),
        }
    )
    assert db.rule_for("A:X")[0] == "A:X"
    assert db.rule_for("A:XY")[0] == "A:*"
    assert db.rule_for("B:X") is None


def _limits_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "limits.yaml"
    path.write_text(body)
    return path


def test_missing_file_is_an_error_that_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(LimitsError) as caught:
        load_limits_database(missing)
    assert str(caught.value) == (
        f"{missing}: does not exist (restore it, or set control_system.limits_database to an "
        "existing file)"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("channels: [unclosed", "is not valid YAML"),
        ("something: else\n", "no 'channels:' mapping"),
        ("channels:\n  A:B: {min: 2, max: 1}\n", "min 2 is above max 1"),
        ("channels:\n  A:B: {max_step: -1}\n", "max_step is -1 \\(must be a positive number"),
        ("channels:\n  A:B: {maximum: 3}\n", "entry 'A:B': unknown key 'maximum'"),
    ],
)
def test_corrupt_file_is_an_error_that_says_writes_are_refused(
    tmp_path: Path, body: str, message: str
) -> None:
    with pytest.raises(LimitsError, match=message):
        load_limits_database(_limits_file(tmp_path, body))


@pytest.mark.parametrize("prefix", ["ca://", "pva://", "PVA://"])
def test_a_protocol_prefix_is_governed_by_the_channels_own_rule(prefix: str) -> None:
    lenient = LimitsDatabase({"A:SP": LimitRule(min=0, max=1)}, allow_unlisted=True)

    check = lenient.check_write(f"{prefix}A:SP", 0.5, 5.0)

    assert not check.allowed and "maximum" in (check.violation or "")
