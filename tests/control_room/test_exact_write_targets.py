"""A named device the channel list lacks is asked about, never replaced by a similar one.

Whole turns through AgentSession (gateway, graph, checkpointer) on the simulated ring, whose
correctors run HCM01-HCM36 / VCM01-VCM36 and whose undulators are ID02, 04, 05, 07, 09, 11;
plus the same rule on a made-up facility's list, to show it depends on no naming of ours.
"""

from __future__ import annotations

import pytest

from osprey_desktop.base import ClarificationRequired
from osprey_desktop.capabilities.control_room.channel_finding import (
    find_channels,
    named_devices,
)
from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.connectors import get_configured_channel_database
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.support.turns import steps


def setpoints(machine: SimMachine) -> dict[str, object]:
    database = get_configured_channel_database()
    return {r.name: machine.value(r.name) for r in database if r.writable}


@pytest.mark.parametrize(
    ("request_text", "missing", "nearest"),
    [
        ("set HCM99 to 1 A", "HCM99", "SR03C:HCM09:Current:SP"),
        ("set VCM77 to 0.2 A", "VCM77", "SR03C:VCM07:Current:SP"),
        ("set the ID13 gap to 15 mm", "ID13", "SR11C:ID11:Gap:SP"),
        ("set HCM 99 to 1 A", "HCM99", "SR03C:HCM09:Current:SP"),  # named as the list spells
        ("set SR03C:HCM99 to 1 A", "SR03C:HCM99", "SR03C:HCM09:Current:SP"),
        ("set SR05C:HCM09 to 1 A", "SR05C:HCM09", "SR03C:HCM09:Current:SP"),
        ("set HCMM09 to 1 A", "HCMM09", "SR03C:HCM09:Current:SP"),
    ],
)
async def test_a_write_to_a_missing_device_asks_with_the_nearest_names(
    session, machine, request_text, missing, nearest
):
    before = setpoints(machine)

    result = await session.submit(request_text, "t1")

    assert steps(result)[-1] == "clarify" and "channel_write" not in steps(result)
    assert result.pending_approval is None and result.error is None
    assert f"There is no {missing} in the channel list" in result.response
    assert "Did you mean one of:" in result.response and nearest in result.response
    assert setpoints(machine) == before


async def test_the_question_says_which_devices_exist_and_offers_requests_to_send(session):
    result = await session.submit("set HCM99 to 1 A", "t1")
    assert "(HCM01–HCM36 exist)" in result.response
    assert "“set HCM09 to 1 A”" in result.response

    gaps = await session.submit("set the ID13 gap to 15 mm", "t2")
    assert "(ID02, ID04, ID05, ID07, ID09, ID11 exist)" in gaps.response
    assert "“set the ID11 gap to 15 mm”" in gaps.response


async def test_an_existing_corrector_is_still_approved_exactly(session, machine):
    result = await session.submit("set HCM09 to 1 A", "t1")

    operations = result.pending_approval["resume_payload"]["operations"]
    assert [(op["channel"], op["new_value"]) for op in operations] == [
        ("SR03C:HCM09:Current:SP", 1.0)
    ]
    assert machine.value("SR03C:HCM09:Current:SP") == 0.0


async def test_each_value_of_a_write_goes_to_the_channel_its_own_words_name(session, machine):
    """Two channels described by words, each with its own value: each is found on its own."""
    result = await session.submit(
        "set the RF frequency to 499.655 MHz and the RF voltage to 2.6 MV", "t1"
    )

    operations = result.pending_approval["resume_payload"]["operations"]
    assert sorted((op["channel"], op["new_value"]) for op in operations) == [
        ("SR:RF:Frequency:SP", 499.655),
        ("SR:RF:Voltage:SP", 2.6),
    ]
    assert machine.value("SR:RF:Voltage:SP") == 2.5


@pytest.mark.parametrize(
    "request_text",
    [
        "set sector 5 HCM09 to 1 A",  # HCM09 is in sector 3: not "every setpoint of sector 5"
        "set insertion device 13 gap to 15 mm",  # no ID13: not "every gap"
    ],
)
async def test_a_write_is_never_widened_beyond_the_device_or_number_named(session, request_text):
    result = await session.submit(request_text, "t1")

    assert steps(result)[-1] == "clarify" and result.pending_approval is None


async def test_a_read_of_a_missing_device_answers_with_a_labelled_suggestion(session):
    result = await session.submit("read HCM99", "t1")

    assert "There is no HCM99 in the channel list" in result.response
    assert "nothing was read" in result.response
    assert "(a suggestion, not HCM99): SR03C:HCM09:Current" in result.response
    values = await session.get_state_values("t1")
    assert "CHANNEL_VALUES" not in (values.get("capability_context_data") or {})


async def test_in_react_mode_a_missing_device_is_asked_about_as_a_write(session):
    result = await session.submit("/mode:react set HCM99 to 1 A", "t1")

    assert result.pending_approval is None
    assert "There is no HCM99" in result.response
    assert "a write never goes to a similar name" in result.response


@pytest.mark.parametrize(
    ("phrase", "names", "numbers"),
    [
        ("hcm99", ["hcm99"], []),
        ("hcm 99", ["hcm99"], []),
        ("sr03c:hcm09:current:sp", ["sr03c:hcm09:current:sp"], []),
        ("horizontal orbit sector 3", [], []),  # a sector is not a device
        ("horizontal corrector 9", [], ["9"]),
        ("bpm13 x and bpm14 x", ["bpm13", "bpm14"], []),
    ],
)
def test_device_names_are_told_from_sectors_and_bare_numbers(phrase, names, numbers):
    assert named_devices(phrase, get_configured_channel_database()) == (names, numbers)


def klystrons() -> ChannelDatabase:
    """Another facility's naming: linac klystrons KLY1..KLY3, phase setpoints and readbacks."""
    records = []
    for n in (1, 2, 3):
        for role in ("setpoint", "readback"):
            records.append(
                ChannelRecord(
                    name=f"LI-RF:KLY{n}:Phase:{'Set' if role == 'setpoint' else 'Mon'}",
                    description=f"Klystron {n} phase {role}",
                    device=f"KLY{n}",
                    role=role,
                    writable=role == "setpoint",
                    units="deg",
                )
            )
    return ChannelDatabase(records)


def test_the_rule_needs_no_knowledge_of_a_facilitys_names():
    database = klystrons()
    names, _ = find_channels(
        database, "set KLY2 phase to 5 deg", writable=True, max_write_channels=12
    )
    assert names == ["LI-RF:KLY2:Phase:Set"]

    with pytest.raises(ClarificationRequired) as asked:
        find_channels(database, "set KLY7 phase to 5 deg", writable=True, max_write_channels=12)
    assert "There is no KLY7 in the channel list (KLY1–KLY3 exist)" in asked.value.question
    assert "LI-RF:KLY3:Phase:Set" in asked.value.question
    assert "set KLY3 phase to 5 deg" in asked.value.suggestions


@pytest.mark.parametrize(
    ("request_text", "read", "written"),
    [
        (
            "First tell me the tune, then raise QF01 by 0.5 A",
            {"SR:TUNE:X", "SR:TUNE:Y"},
            ("SR01C:QF01:Current:SP", 120.5),
        ),
        ("BPM40 y? then VCM20 +0.05A", {"SR07C:BPM40:Y"}, ("SR07C:VCM20:Current:SP", 0.05)),
        (
            "if the lifetime is above 5 h, close ID09 to 14 mm",
            {"SR:DCCT:Lifetime"},
            ("SR09C:ID09:Gap:SP", 14.0),
        ),
    ],
)
async def test_a_reading_of_other_channels_before_a_change_is_found_read_and_never_written(
    session, request_text, read, written
):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit(request_text, "t1")

    found = {c["name"] for c in found_channels(result)}
    assert read <= found and written[0] in found
    operations = result.pending_approval["resume_payload"]["operations"]
    assert [(op["channel"], op["new_value"]) for op in operations] == [written]
