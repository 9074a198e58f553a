"""A request naming several targets finds each; a word the list lacks asks, never guesses."""

from __future__ import annotations

import pytest

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.channel_finding import find_channels_noted
from osprey_desktop.channels import ChannelDatabase, ChannelRecord


def _database() -> ChannelDatabase:
    records = []
    for area in ("SR", "BR"):
        for n in range(1, 9):
            bpm = f"{area}:DIAG:BPM:{n:02d}"
            records += [
                ChannelRecord(name=f"{bpm}:POSITION:X", description="beam position monitor x"),
                ChannelRecord(name=f"{bpm}:POSITION:Y", description="beam position monitor y"),
            ]
    for n in range(1, 5):
        quad = f"SR:MAG:QF:{n:02d}:CURRENT"
        records += [
            ChannelRecord(
                name=f"{quad}:SP",
                description="focusing quadrupole current setpoint",
                role="setpoint",
                writable=True,
                readback=f"{quad}:RB",
            ),
            ChannelRecord(
                name=f"{quad}:RB",
                description="focusing quadrupole current readback",
                role="readback",
                setpoint=f"{quad}:SP",
            ),
            ChannelRecord(name=f"{quad}:GOLDEN", description="focusing quadrupole reference"),
        ]
    records.append(ChannelRecord(name="SR:DIAG:DCCT:01:CURRENT:RB", description="beam current"))
    return ChannelDatabase(records, source="targets")


def _read(text: str) -> tuple[list[str], str]:
    names, _, note = find_channels_noted(_database(), text, writable=False, max_write_channels=10)
    return names, note


def test_several_targets_in_one_request_are_each_found() -> None:
    names, note = _read("horizontal and vertical position at BPM 7 and the beam current")
    assert sorted(names) == [
        "SR:DIAG:BPM:07:POSITION:X",
        "SR:DIAG:BPM:07:POSITION:Y",
        "SR:DIAG:DCCT:01:CURRENT:RB",
    ]
    assert "SR" in note  # the area assumed for BPM 7 is said


def test_modifiers_share_the_device_they_precede() -> None:
    names, _ = _read("setpoint, readback and reference of focusing quad 2")
    assert sorted(names) == [
        "SR:MAG:QF:02:CURRENT:GOLDEN",
        "SR:MAG:QF:02:CURRENT:RB",
        "SR:MAG:QF:02:CURRENT:SP",
    ]


def test_a_list_of_numbers_stays_one_target() -> None:
    names, _ = _read("x position of BPMs 1 and 3 in the booster")
    assert names == ["BR:DIAG:BPM:01:POSITION:X", "BR:DIAG:BPM:03:POSITION:X"]


def test_a_word_the_list_lacks_asks_with_the_nearest_channels() -> None:
    with pytest.raises(ClarificationRequired) as asked:
        _read("the cryoplant quadrupole current")
    assert "no 'cryoplant'" in asked.value.question
    assert asked.value.suggestions  # the nearest real channels, to choose from


def test_a_sector_the_list_does_not_state_is_asked_with_the_devices_to_choose_from() -> None:
    gauges = ChannelDatabase(
        [
            ChannelRecord(name=f"VAC:IG{n}:PRESSURE", description="vacuum ion gauge pressure")
            for n in range(1, 7)
        ],
        source="gauges",
    )
    with pytest.raises(ClarificationRequired) as asked:
        find_channels_noted(
            gauges, "vacuum pressure in sector 2", writable=False, max_write_channels=10
        )
    assert "does not say which of these serve the sector" in asked.value.question
    assert "channel_finding.sectors" in asked.value.question
    assert asked.value.suggestions[0] == "VAC:IG1:PRESSURE"
