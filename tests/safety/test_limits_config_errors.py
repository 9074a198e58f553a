"""A broken limits file is a configuration error naming file and entry, and blocks every write.

Found by testing: a NaN limit compared false with everything, so a 9.5 A write against ±5 A
limits was offered for approval; a non-UTF-8 file raised a codec error instead of a refusal.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from osprey_desktop.channels import load_channel_database
from osprey_desktop.config import resources_dir
from osprey_desktop.connectors.base import ChannelMetadata, ChannelValue
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.safety import write_policy
from osprey_desktop.safety.limits import (
    LimitRule,
    LimitsConfigError,
    LimitsDatabase,
    LimitsError,
    load_limits_database,
)
from osprey_desktop.safety.write_policy import WritePolicy

HCM = "SR01C:HCM01:Current:SP"
SHIPPED = (resources_dir() / "limits.yaml").read_text(encoding="utf-8")


def entry(body: str) -> str:
    """A limits file whose only entry is HCM01 with the given flow mapping (or value)."""
    return f'version: 1\nchannels:\n  "{HCM}": {body}\n'


#: (file body, the problem after "<file>: entry 'HCM': ")
ENTRY_PROBLEMS = [
    ("{min: -5.0, max: .nan}", "max is nan (must be a finite number)"),
    ("{min: -5.0, max: .NaN, max_step: 2.0}", "max is nan (must be a finite number)"),
    ("{min: -5.0, max: .inf}", "max is inf (must be a finite number)"),
    ("{min: -.inf, max: 5.0}", "min is -inf (must be a finite number)"),
    ("{min: -5.0, max: 5.0, max_step: .nan}", "max_step is nan (must be a finite number)"),
    ("{min: -5.0, max: 1.0e+400}", "max is inf (must be a finite number)"),
    # plain `nan` and `inf` are text in YAML, not numbers
    ("{min: -5.0, max: nan}", "max is the text 'nan' (must be a finite number)"),
    ("{min: -5.0, max: inf}", "max is the text 'inf' (must be a finite number)"),
    (
        '{min: -5.0, max: "5.0"}',
        "max is the text '5.0' (must be a finite number; write it without quotes, an exponent "
        "with a dot and a sign: 1.0e+5)",
    ),
    (
        "{min: -5.0, max: 1e5}",
        "max is the text '1e5' (must be a finite number; write it without quotes, an exponent "
        "with a dot and a sign: 1.0e+5)",
    ),
    ("{min: -5.0, max: five}", "max is the text 'five' (must be a finite number)"),
    ("{min: -5.0, max: [1.0, 2.0]}", "max is a list [1.0, 2.0] (must be a finite number)"),
    ("{min: -5.0, max: true}", "max is true (must be a finite number)"),
    (
        "{min: -5.0, max: }",
        "max is empty (must be a finite number; leave the key out for no limit)",
    ),
    ("{min: -5.0, writable: 'yes'}", "writable is the text 'yes' (must be true or false)"),
    ("{min: 5.0, max: -5.0}", "min 5.0 is above max -5.0 (min must not exceed max)"),
    ("{max_step: -1.0}", "max_step is -1.0 (must be a positive number)"),
    ("{max_step: 0}", "max_step is 0 (must be a positive number)"),
    (
        "{min: -5.0, maxx: 5.0}",
        "unknown key 'maxx' (did you mean 'max'? the keys are min, max, max_step, writable)",
    ),
    (
        "{min: -5.0, max: 5.0, Max_Step: 2.0}",
        "unknown key 'Max_Step' (did you mean 'max_step'? the keys are min, max, max_step, "
        "writable)",
    ),
    (
        "{writeable: false}",
        "unknown key 'writeable' (did you mean 'writable'? the keys are min, max, max_step, "
        "writable)",
    ),
    ("{comment: hi}", "unknown key 'comment' (the keys are min, max, max_step, writable)"),
    (
        "5.0",
        "must be a mapping of min, max, max_step, writable (e.g. {min: -5.0, max: 5.0}), not 5.0",
    ),
    (
        "[-5.0, 5.0]",
        "must be a mapping of min, max, max_step, writable (e.g. {min: -5.0, max: 5.0}), "
        "not a list [-5.0, 5.0]",
    ),
    ("", "is empty (give its limits, e.g. {min: -5.0, max: 5.0}, or write {} for none)"),
]


@pytest.fixture(scope="module")
def database():
    return load_channel_database(resources_dir() / "channels.yaml")


@pytest.fixture
async def connector(database):
    conn = SimulatedControlSystemConnector(SimMachine(database, lag_scale=0.05))
    await conn.connect()
    yield conn
    await conn.disconnect()


def limits_file(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "limits.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def config_error(path: Path) -> LimitsConfigError:
    with pytest.raises(LimitsConfigError) as caught:
        load_limits_database(path)
    return caught.value


async def assert_every_write_is_blocked(configure, connector, path: Path, message: str) -> None:
    """A write the shipped limits allow is refused, before approval, with the file's problem."""
    policy = WritePolicy.from_config(configure({"control_system": {"limits_database": str(path)}}))
    assert policy.config_error == message
    for value in (1.5, 9.5):
        check = await policy.evaluate(connector, HCM, value)
        assert not check.allowed
        assert check.config_error == message
        assert check.violation == (
            f"{message}; every write is refused until the write limits file is fixed."
        )
        assert check.to_dict()["config_error"] == message
    assert policy.check(HCM, 0.0, 1.5).config_error == message
    assert (await connector.read_channel(HCM)).value == 0.0


async def test_the_write_used_below_is_allowed_with_the_shipped_limits(
    configure, connector, tmp_path: Path
) -> None:
    path = limits_file(tmp_path, SHIPPED)
    policy = WritePolicy.from_config(configure({"control_system": {"limits_database": str(path)}}))
    check = await policy.evaluate(connector, HCM, 1.5)
    assert check.allowed and check.config_error is None and policy.config_error is None


@pytest.mark.parametrize(("body", "problem"), ENTRY_PROBLEMS)
async def test_a_bad_entry_names_file_and_entry_and_blocks_every_write(
    configure, connector, tmp_path: Path, body: str, problem: str
) -> None:
    path = limits_file(tmp_path, entry(body))
    error = config_error(path)
    message = f"{path}: entry '{HCM}': {problem}"
    assert str(error) == message and "\n" not in message
    assert (error.path, error.entry) == (str(path), HCM)
    await assert_every_write_is_blocked(configure, connector, path, message)


def file_problems(tmp_path: Path) -> list[tuple[Path, str]]:
    """(path, the problem after "<file>: ") for files that cannot be read as limits at all."""
    not_utf8 = limits_file(tmp_path, entry("{min: -5.0, max: 5.0}").encode() + b"# \xff\xfe\n")
    folder = tmp_path / "limits_folder.yaml"
    folder.mkdir()
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("channels:\n  A:B: {min: 1\n  C:D: 2\n", encoding="utf-8")
    no_channels = tmp_path / "list.yaml"
    no_channels.write_text(f"- {HCM}\n", encoding="utf-8")
    duplicate = tmp_path / "duplicate.yaml"
    duplicate.write_text(
        f'channels:\n  "{HCM}": {{max: 5.0}}\n  "{HCM}": {{max: 50.0}}\n', encoding="utf-8"
    )
    duplicate_key = tmp_path / "duplicate_key.yaml"
    duplicate_key.write_text(f'channels:\n  "{HCM}": {{max: 5.0, max: 50.0}}\n', encoding="utf-8")
    return [
        (not_utf8, "is not UTF-8 text (byte 0xff on line 4); save it as UTF-8"),
        (folder, "is a folder, not a limits file"),
        (
            bad_yaml,
            "is not valid YAML (line 3, column 6: expected ',' or '}', but got ':')",
        ),
        (
            no_channels,
            "has no 'channels:' mapping of channel names to limits (see resources/limits.yaml "
            "for the format)",
        ),
        (
            duplicate,
            f"key '{HCM}' appears twice (lines 2 and 3); keep one, the second would silently "
            "replace the first",
        ),
        (
            duplicate_key,
            "key 'max' appears twice (lines 2 and 2); keep one, the second would silently "
            "replace the first",
        ),
        (
            tmp_path / "gone.yaml",
            "does not exist (restore it, or set control_system.limits_database to an existing "
            "file)",
        ),
    ]


async def test_an_unreadable_file_names_itself_and_blocks_every_write(
    configure, connector, tmp_path: Path
) -> None:
    for path, problem in file_problems(tmp_path):
        error = config_error(path)
        message = f"{path}: {problem}"
        assert str(error) == message and error.entry is None
        await assert_every_write_is_blocked(configure, connector, path, message)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
async def test_a_file_without_read_permission_blocks_every_write(
    configure, connector, tmp_path: Path
) -> None:
    path = limits_file(tmp_path, SHIPPED)
    path.chmod(0)
    try:
        message = f"{path}: cannot be read (permission denied)"
        assert str(config_error(path)) == message
        await assert_every_write_is_blocked(configure, connector, path, message)
    finally:
        path.chmod(0o600)


def test_every_problem_is_listed_and_the_message_counts_the_rest(tmp_path: Path) -> None:
    path = limits_file(
        tmp_path,
        f'channels:\n  "{HCM}": {{min: "x", max: .nan}}\n  "A:SP": 3\n  ~: {{}}\n'
        '  "B:SP": {min: -1.0, max: 1.0}\n',
    )
    error = config_error(path)
    assert [str(p) for p in error.problems] == [
        f"{path}: entry '{HCM}': min is the text 'x' (must be a finite number)",
        f"{path}: entry '{HCM}': max is nan (must be a finite number)",
        f"{path}: entry 'A:SP': must be a mapping of min, max, max_step, writable "
        "(e.g. {min: -5.0, max: 5.0}), not 3",
        f"{path}: an entry's key is empty, not a channel name or pattern (put the name in quotes)",
    ]
    assert str(error) == f"{error.problems[0]} (and 3 more problems in the same file)"
    assert isinstance(error, LimitsError)


def test_a_merge_key_may_override_the_value_it_merged(tmp_path: Path) -> None:
    path = limits_file(
        tmp_path,
        f'base: &base {{min: -5.0, max: 5.0}}\nchannels:\n  "{HCM}": {{<<: *base, max: 1.0}}\n',
    )
    assert load_limits_database(path).rule_for(HCM)[1] == LimitRule(min=-5.0, max=1.0)


@pytest.mark.parametrize(
    "field", [{"max": float("nan")}, {"min": float("-inf")}, {"max": "5"}, {"max_step": True}]
)
def test_a_rule_built_in_code_refuses_what_the_file_refuses(field: dict) -> None:
    with pytest.raises(ValueError):
        LimitRule(**field)


async def test_a_crashing_loader_blocks_every_write(
    configure, connector, tmp_path: Path, monkeypatch
) -> None:
    def crash(path: Path, allow_unlisted: bool = False) -> LimitsDatabase:
        raise RuntimeError("disk\nexploded")

    monkeypatch.setattr(write_policy, "load_limits_database", crash)
    path = limits_file(tmp_path, SHIPPED)
    message = f"{path}: cannot be used (RuntimeError: disk exploded)"
    await assert_every_write_is_blocked(configure, connector, path, message)


# -- values read at evaluate time ----------------------------------------------------------

PLAIN = LimitsDatabase({"A:SP": LimitRule(min=-5.0, max=5.0)})  # no step limit


@pytest.mark.parametrize(
    "requested", [float("nan"), float("inf"), float("-inf"), np.float64("nan")]
)
def test_a_non_finite_request_is_refused(requested: float) -> None:
    check = PLAIN.check_write("A:SP", 0.0, requested)
    assert not check.allowed and "is not a finite number; nothing will be written" in (
        check.violation
    )


@pytest.mark.parametrize("current", [float("nan"), float("inf"), np.array([np.nan]), "nan"])
def test_a_non_finite_current_value_is_refused_even_without_a_step_limit(current: object) -> None:
    check = PLAIN.check_write("A:SP", current, 1.0)
    assert not check.allowed
    assert "not a finite number, so the limits cannot be checked" in check.violation


def test_a_rule_that_slipped_past_validation_is_never_compared() -> None:
    forged = LimitRule.model_construct(min=-5.0, max=float("nan"), max_step=None, writable=True)
    check = LimitsDatabase({"A:SP": forged}).check_write("A:SP", 0.0, 9.5)
    assert not check.allowed and "max is nan" in check.violation


async def test_a_nan_reading_refuses_the_write(configure, connector) -> None:
    class NanReading(SimulatedControlSystemConnector):
        async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
            return ChannelValue(name, float("nan"), 0.0, ChannelMetadata(name, units="A"))

    nan = NanReading(connector.machine)
    await nan.connect()
    check = await WritePolicy.from_config(configure()).evaluate(nan, HCM, 1.0)
    assert not check.allowed and "is not a number" in check.violation
    assert check.config_error is None
