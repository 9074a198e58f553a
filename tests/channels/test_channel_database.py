"""Finding channels by what operators say, and loading the database safely."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml

from osprey_desktop.channels import (
    ChannelDatabase,
    ChannelDatabaseError,
    load_channel_database,
)
from osprey_desktop.config import resources_dir
from osprey_desktop.connectors.base import ChannelNotFoundError


def names(matches) -> list[str]:
    return [m.name for m in matches]


def test_beam_current_finds_the_dcct_alone(database: ChannelDatabase) -> None:
    assert names(database.top_matches("beam current")) == ["SR:DCCT:Current"]
    assert names(database.top_matches("what is the beam current now?")) == ["SR:DCCT:Current"]


def test_horizontal_orbit_in_sector_3_returns_the_six_x_bpms_of_sector_3(
    database: ChannelDatabase,
) -> None:
    found = names(database.top_matches("horizontal orbit in sector 3"))
    assert found == [f"SR03C:BPM{n}:X" for n in range(13, 19)]


def test_sector_given_in_words_or_as_prefix_filters_the_same_way(database: ChannelDatabase) -> None:
    by_word = names(database.top_matches("vertical orbit sector twelve"))
    by_prefix = names(database.top_matches("vertical orbit SR12"))
    assert by_word == by_prefix == [f"SR12C:BPM{n}:Y" for n in range(67, 73)]


def test_corrector_hcm01_resolves_to_its_setpoint_and_readback(database: ChannelDatabase) -> None:
    both = names(database.top_matches("corrector HCM01"))
    assert sorted(both) == ["SR01C:HCM01:Current:RB", "SR01C:HCM01:Current:SP"]
    assert names(database.top_matches("corrector HCM01", writable=True)) == [
        "SR01C:HCM01:Current:SP"
    ]


def test_value_in_a_write_request_does_not_disturb_the_match(database: ChannelDatabase) -> None:
    found = names(database.top_matches("set HCM05 to 1.25 A", writable=True))
    assert found == ["SR02C:HCM05:Current:SP"]


def test_exact_channel_name_scores_one_even_inside_a_sentence(database: ChannelDatabase) -> None:
    (match,) = database.search("please read SR05C:ID05:Gap:RB now", limit=5)
    assert match.name == "SR05C:ID05:Gap:RB"
    assert match.score == 1.0


def test_search_scores_rank_exact_over_synonym_over_token_overlap(
    database: ChannelDatabase,
) -> None:
    exact = database.search("SR:DCCT:Current")[0].score
    synonym = database.search("stored current")[0].score
    overlap = database.search("current of the dcct beam monitor")[0]
    assert exact == 1.0 > synonym == 0.95 > overlap.score
    assert overlap.name == "SR:DCCT:Current"


def test_misspelt_word_still_finds_the_channel(database: ChannelDatabase) -> None:
    assert names(database.top_matches("beam curent")) == ["SR:DCCT:Current"]
    assert names(database.top_matches("lifetme")) == ["SR:DCCT:Lifetime"]


def test_query_without_meaning_matches_nothing_and_suggest_offers_names(
    database: ChannelDatabase,
) -> None:
    assert database.search("the flux capacitor") == []
    near = database.suggest("SR01C:HCM1:Current:SP")
    assert near[0] == "SR01C:HCM01:Current:SP"
    assert len(near) <= 5


def test_require_of_unknown_channel_names_it_and_suggests(database: ChannelDatabase) -> None:
    with pytest.raises(ChannelNotFoundError) as caught:
        database.require("SR:DCCT:Curent")
    assert "SR:DCCT:Curent" in str(caught.value)
    assert "SR:DCCT:Current" in str(caught.value)


def test_every_setpoint_has_a_readback_pointing_back(database: ChannelDatabase) -> None:
    setpoints = [r for r in database if r.role == "setpoint"]
    assert len(setpoints) > 100
    for sp in setpoints:
        rb = database.get(sp.readback or "")
        assert rb is not None and rb.setpoint == sp.name and not rb.writable


def test_shipped_database_has_a_few_hundred_channels_in_every_family(
    database: ChannelDatabase,
) -> None:
    assert 300 <= len(database) <= 1000
    families = {r.family for r in database}
    assert {"DCCT", "RF", "BPM", "HCM", "VCM", "QUAD", "VACUUM", "ID", "TUNE"} <= families


def test_shipped_yaml_is_what_the_generator_script_writes() -> None:
    script = resources_dir() / "make_channels.py"
    spec = importlib.util.spec_from_file_location("make_channels", script)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    shipped = yaml.safe_load((resources_dir() / "channels.yaml").read_text())
    assert shipped == module.build()


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "channels.yaml"
    path.write_text(body)
    return path


def test_missing_file_error_names_the_file_and_the_config_key(tmp_path: Path) -> None:
    with pytest.raises(ChannelDatabaseError, match="control_system.channel_database"):
        load_channel_database(tmp_path / "nope.yaml")


def test_malformed_entry_error_names_the_entry(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "channels:\n  - {name: A:B, precision: lots}\n",
    )
    with pytest.raises(ChannelDatabaseError, match=r"entry 0 \(A:B\): precision"):
        load_channel_database(path)


def test_duplicate_channel_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "channels:\n  - {name: A:B}\n  - {name: A:B}\n")
    with pytest.raises(ChannelDatabaseError, match="twice"):
        load_channel_database(path)


def test_setpoint_must_be_writable(tmp_path: Path) -> None:
    path = _write(tmp_path, "channels:\n  - {name: A:SP, role: setpoint, writable: false}\n")
    with pytest.raises(ChannelDatabaseError, match="must be writable"):
        load_channel_database(path)


def test_a_part_of_a_hyphened_segment_names_its_channels() -> None:
    from osprey_desktop.channels import ChannelRecord

    database = ChannelDatabase(
        [ChannelRecord(name=f"{g:02d}G-BPM{n}:{p}") for g in (1, 2) for n in (1, 2) for p in "UV"]
    )
    assert database.channels_named("BPM2") == [
        "01G-BPM2:U",
        "01G-BPM2:V",
        "02G-BPM2:U",
        "02G-BPM2:V",
    ]
    assert database.channels_named("BPM9") == []
