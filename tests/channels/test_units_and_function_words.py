"""Words a request uses that are no channel's name: a unit said as a word ("how many
milliamps") names what is measured in it; words that never name a thing ("we have", "in the
machine") are not asked about."""

from __future__ import annotations

from pathlib import Path

import pytest

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.channel_finding import find_channels_noted
from osprey_desktop.channels import ChannelDatabase, ChannelRecord
from osprey_desktop.language.units import spoken_names


@pytest.fixture(autouse=True)
def _own_aliases(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OSPREY_DESKTOP_CHANNEL_ALIASES", str(tmp_path / "aliases.yaml"))


def _find(database: ChannelDatabase, text: str) -> tuple[list[str], str]:
    names, _, note = find_channels_noted(database, text, writable=False, max_write_channels=10)
    return names, note


def test_a_unit_is_said_with_its_long_names_only() -> None:
    assert {"milliamp", "milliamps", "milliampere"} <= set(spoken_names("mA"))
    assert "ma" not in spoken_names("mA")  # a symbol is another word too
    assert "megahertz" in spoken_names("MHz")
    assert spoken_names("furlong") == ()
    assert spoken_names("") == ()


def test_a_unit_said_as_a_word_finds_what_is_measured_in_it() -> None:
    database = ChannelDatabase(
        [
            ChannelRecord(name="ST:CT:I", description="stored charge monitor", units="mA"),
            ChannelRecord(name="ST:CT:T", description="stored charge decay time", units="h"),
            ChannelRecord(name="ST:MAG:I", description="magnet supply output", units="A"),
        ],
        source="units",
    )
    names, note = _find(database, "how many milliamps are stored")
    assert names == ["ST:CT:I"]
    assert "milliamp" not in note
    assert _find(database, "stored hours")[0] == ["ST:CT:T"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what's the current in the machine", ["SR:DCCT:Current"]),
        ("the lifetime we have had", ["SR:DCCT:Lifetime"]),
        ("lifetime, how's it looking", ["SR:DCCT:Lifetime"]),
    ],
)
def test_words_that_name_nothing_are_neither_asked_nor_noted(
    database: ChannelDatabase, text: str, expected: list[str]
) -> None:
    names, note = _find(database, text)
    assert names == expected
    assert note == ""


def test_everywhere_asks_for_every_channel_of_the_kind(database: ChannelDatabase) -> None:
    names, note = _find(database, "what's the pressure everywhere")
    assert len(names) == 24 and all(n.endswith(":Pressure") for n in names)
    assert "everywhere" not in note


def test_a_word_that_names_a_thing_the_list_lacks_is_still_asked(
    database: ChannelDatabase,
) -> None:
    with pytest.raises(ClarificationRequired, match="efficiency"):
        _find(database, "the injection efficiency")


def test_a_preposition_and_a_threshold_unit_are_no_words_the_list_lacks(
    database: ChannelDatabase,
) -> None:
    names, note = _find(database, "the vertical orbit across sector 10")
    assert len(names) == 6 and all(n.startswith("SR10C:BPM") and n.endswith(":Y") for n in names)
    assert note == ""
    names, note = _find(database, "IG 9 above 5e-9 Torr")
    assert names == ["SR05C:IG09:Pressure"] and "torr" not in note.lower()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("LT", ["SR:DCCT:Lifetime"]),
        ("qy", ["SR:TUNE:Y"]),
        ("the gap of the sector 9 wiggler", ["SR09C:ID09:Gap:RB"]),
    ],
)
def test_the_shipped_vocabulary_knows_control_room_shorthand(
    database: ChannelDatabase, text: str, expected: list[str]
) -> None:
    assert _find(database, text)[0] == expected


def test_a_straight_is_the_sector_of_its_number(database: ChannelDatabase) -> None:
    names, note = _find(database, "the undulator gap in straight 5")
    assert names == ["SR05C:ID05:Gap:RB"] and note == ""


def test_a_beam_quantity_the_list_lacks_is_asked_not_read_from_a_monitor(
    database: ChannelDatabase,
) -> None:
    with pytest.raises(ClarificationRequired, match="dispersion"):
        _find(database, "the horizontal dispersion at BPM 5")


def test_a_comparative_of_a_question_is_no_word_the_list_lacks(database: ChannelDatabase) -> None:
    names, note = _find(database, "is the lifetime longer now than before")
    assert names == ["SR:DCCT:Lifetime"] and note == ""


def test_a_comparative_without_than_still_asks(database: ChannelDatabase) -> None:
    with pytest.raises(ClarificationRequired):
        _find(database, "the vertical correctors in sector 5 a little stronger")


def test_an_ordinal_before_sector_is_the_sector(database: ChannelDatabase) -> None:
    assert _find(database, "the first vertical corrector of the fifth sector")[0] == [
        "SR05C:VCM13:Current:RB"
    ]
    names, _ = _find(database, "the gauges in the first sector")
    assert names == ["SR01C:IG01:Pressure", "SR01C:IG02:Pressure"]
