"""Several targets in one request: each part is completed from its neighbours and found on its
own; target phrases handed over by a plan are checked against the request they came from."""

from __future__ import annotations

from pathlib import Path

import pytest

from osprey_desktop.capabilities.control_room.channel_finding import (
    find_channels_noted,
    find_each_target,
)
from osprey_desktop.capabilities.control_room.channel_phrases import finder_of
from osprey_desktop.capabilities.control_room.channel_targets import (
    borrowed_targets,
    said_only,
    targets_keep_request,
)
from osprey_desktop.channels import ChannelDatabase, ChannelRecord

TIER3 = Path("/work/shared/facility-channels/osprey-tier3/in_context.json")


def _database() -> ChannelDatabase:
    records = [
        ChannelRecord(
            name="SR:DIAG:DCCT:01:CURRENT:RB", description="DC current transformer current"
        )
    ]
    for area, words in (("SR", "storage ring"), ("BR", "booster")):
        for n in range(1, 9):
            bpm = f"{area}:DIAG:BPM:{n:02d}:POSITION"
            records += [
                ChannelRecord(name=f"{bpm}:X", description=f"{words} beam position monitor x"),
                ChannelRecord(name=f"{bpm}:Y", description=f"{words} beam position monitor y"),
            ]
    for n in range(1, 7):
        for kind, words in (("VCM", "vertical corrector"), ("DIPOLE", "dipole")):
            name = f"SR:MAG:{kind}:{n:02d}:CURRENT"
            records += [
                ChannelRecord(
                    name=f"{name}:SP",
                    description=f"{words} current setpoint",
                    role="setpoint",
                    writable=True,
                    readback=f"{name}:RB",
                ),
                ChannelRecord(
                    name=f"{name}:RB",
                    description=f"{words} current readback",
                    role="readback",
                    setpoint=f"{name}:SP",
                ),
            ]
    return ChannelDatabase(records, source="several")


def _find(text: str) -> list[str]:
    return find_channels_noted(_database(), text, writable=False, max_write_channels=50)[0]


def test_a_lone_word_after_a_device_takes_the_place_of_its_last_word() -> None:
    found = _find("booster BPM 2 x and y and the beam current")
    assert sorted(found) == [
        "BR:DIAG:BPM:02:POSITION:X",
        "BR:DIAG:BPM:02:POSITION:Y",
        "SR:DIAG:DCCT:01:CURRENT:RB",
    ]


def test_each_part_keeps_its_own_modifier() -> None:
    found = _find("the vertical position of BPM 2 and the horizontal position of BPM 7")
    assert sorted(found) == ["SR:DIAG:BPM:02:POSITION:Y", "SR:DIAG:BPM:07:POSITION:X"]


def test_first_and_last_are_both_picked() -> None:
    found = _find("readbacks of the first and last vertical correctors")
    assert sorted(found) == ["SR:MAG:VCM:01:CURRENT:RB", "SR:MAG:VCM:06:CURRENT:RB"]


def test_a_quantity_alone_means_the_device_named_by_it() -> None:
    # the current transformer measures current; the magnets only have one
    assert _find("the storage ring current") == ["SR:DIAG:DCCT:01:CURRENT:RB"]
    assert _find("dipole 3 current") == ["SR:MAG:DIPOLE:03:CURRENT:RB"]


def test_targets_that_lost_a_number_or_a_list_word_are_not_used() -> None:
    finder = finder_of(_database())
    assert not targets_keep_request(finder, "dipole currents 1-4 readbacks", ["dipole currents 1-"])
    assert not targets_keep_request(
        finder, "vertical corrector 3 readback", ["corrector 3 readback"]
    )
    assert targets_keep_request(
        finder, "show BPM 3 x and the beam current", ["BPM3 x", "beam current"]
    )


def test_a_field_alone_borrows_the_device_of_the_next_target() -> None:
    assert borrowed_targets(["setpoint", "readback", "reference of the 2nd quad"]) == [
        "setpoint of the 2nd quad",
        "readback of the 2nd quad",
        "reference of the 2nd quad",
    ]


def test_the_whole_request_answers_when_the_cut_parted_a_modifier_from_its_devices() -> None:
    names, _ = find_each_target(
        _database(), ["vertical position", "BPMs 4", "BPMs 6"], "vertical position, BPMs 4 and 6"
    )
    assert sorted(names) == ["SR:DIAG:BPM:04:POSITION:Y", "SR:DIAG:BPM:06:POSITION:Y"]


@pytest.mark.skipif(not TIER3.exists(), reason="the shared tier-3 list is not on this machine")
def test_setpoint_readback_and_reference_of_one_quad() -> None:
    from osprey_desktop.channels import load_channel_database

    found = find_channels_noted(
        load_channel_database(TIER3),
        "setpoint, readback and reference of the 2nd focusing quad",
        writable=False,
        max_write_channels=50,
    )[0]
    assert sorted(found) == [
        "SR:MAG:QF:02:CURRENT:GOLDEN",
        "SR:MAG:QF:02:CURRENT:RB",
        "SR:MAG:QF:02:CURRENT:SP",
    ]


def test_a_time_number_the_parse_took_out_is_not_a_lost_target_number() -> None:
    finder = finder_of(_database())
    assert targets_keep_request(finder, "dipole 3 current at 6 this morning", ["dipole 3 current"])
    assert not targets_keep_request(finder, "dipoles 2 to 4 currents", ["dipoles 2 currents"])


def test_a_request_for_everything_drops_the_role_the_parse_added() -> None:
    assert said_only(["vertical correctors readback"], "all vertical correctors") == [
        "vertical correctors"
    ]
    assert said_only(["the RF voltage readback"], "the RF voltage") == ["the RF voltage readback"]


def test_an_item_whose_word_the_whole_answer_only_implies_is_found_on_its_own(database):
    """ "lifetime and the current": the lifetime channel's DCCT implies "current", but the
    current's own channel says it; both are read."""
    names, _ = find_each_target(database, ["lifetime", "the current"], "lifetime and the current")
    assert set(names) == {"SR:DCCT:Lifetime", "SR:DCCT:Current"}


def test_thresholds_and_exponents_are_amounts_not_device_numbers():
    from osprey_desktop.capabilities.control_room.channel_phrases import without_quantities

    assert "6" not in without_quantities("has the lifetime fallen under 6 h")
    assert without_quantities("the 1 hour average dose") == "the 1 hour average dose"
    assert "1" not in without_quantities("any of them above 1e-8 Torr")


def test_the_whole_request_adds_no_device_that_no_item_found(database):
    """Each item finds its corrector; the whole request's numbers 7 and 8 of both families
    would add VCM08, which no item named."""
    names, _ = find_each_target(
        database,
        ["HCM07 setpoints", "HCM08 setpoints", "VCM07 setpoints"],
        "HCM 07, HCM 08, VCM 07 setpoints",
    )
    assert sorted(names) == [
        "SR03C:HCM07:Current:SP",
        "SR03C:HCM08:Current:SP",
        "SR03C:VCM07:Current:SP",
    ]


def test_an_item_naming_what_the_list_lacks_is_named_as_not_found(database):
    """ "the beam size at the pinhole": no channel has a size or a pinhole; the whole
    request's "beam" must not answer it with the beam energy."""
    names, note = find_each_target(
        database,
        ["the ID4 gap", "the beam size at the pinhole"],
        "the ID 4 gap and the beam size at the pinhole",
    )
    assert names == ["SR04C:ID04:Gap:RB"]
    assert "'the beam size at the pinhole'" in note
