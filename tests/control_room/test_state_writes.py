"""Writes of a state ("open the cooling valve", "turn the heater off", "set MODE to Fast"):
read from the request's form, matched against the channel's own states."""

from __future__ import annotations

import pytest

from osprey_desktop.language.write_parsing import parse_write_request
from osprey_desktop.language.write_states import (
    is_command_channel,
    parse_state_request,
    resolve_state,
)


@pytest.mark.parametrize(
    ("text", "target", "state"),
    [
        ("open the cooling valve", "the cooling valve", "open"),
        ("please close the beamline shutter", "the beamline shutter", "close"),
        ("turn the heater off", "the heater", "off"),
        ("switch on the ion pump", "the ion pump", "on"),
        ("set MODE to Fast", "MODE", "Fast"),
        ("put the valve into 'Open' position", "the valve", "Open"),
        ("retract the screen", "the screen", "retract"),
    ],
)
def test_state_writes_name_their_target_and_state(text, target, state):
    assert parse_state_request(text)[:2] == (target, state)
    (spec,) = parse_write_request(text)
    assert (spec.mode, spec.state) == ("state", state)


@pytest.mark.parametrize(
    "text",
    ["open the ID04 gap 2 mm", "set HCM01 to zero", "read the valve", "set HCM01 to 1.5 A"],
)
def test_numbers_and_reads_are_not_state_writes(text):
    assert parse_state_request(text) is None


@pytest.mark.parametrize(
    ("word", "states", "state"),
    [
        ("open", ("Closed", "Open"), "Open"),
        ("close", ("Closed", "Open"), "Closed"),
        ("off", ("Off", "On"), "Off"),
        ("disable", ("Disabled", "Enabled"), "Disabled"),
        ("retract", ("In", "Out"), "Out"),
        ("fast", ("Slow", "Fast"), "Fast"),
        ("open", ("Off", "On"), None),
    ],
)
def test_a_state_word_means_the_channels_own_state_or_none(word, states, state):
    assert resolve_state(word, states) == state


@pytest.mark.parametrize(
    ("channel", "word", "command"),
    [
        ("VAC:VALVE[V04]:CONTROL:OPEN", "open", True),
        ("VAC:VALVE[V04]:CONTROL:CLOSE", "close", True),
        ("PS:HCM01:CMD:OFF", "off", True),
        ("VAC:VALVE[V04]:POSITION:OPEN", "close", False),
        ("SR04C:ID04:Gap:SP", "open", False),
    ],
)
def test_a_command_channel_is_named_after_its_command(channel, word, command):
    assert is_command_channel(channel, word) is command


def test_a_command_is_found_for_an_imperative_even_when_the_list_says_no_write(tmp_path):
    """'open gate valve 9' names the valve's OPEN command, not its position flag, whether or
    not the list marks the command writable; 'is gate valve 9 open?' asks for the position."""
    from osprey_desktop.capabilities.control_room.channel_finding import find_channels_noted
    from osprey_desktop.channels import load_channel_database

    rows = ["name,description"]
    for field in ("CONTROL:OPEN", "CONTROL:CLOSE", "POSITION:OPEN", "POSITION:CLOSED"):
        rows.append(f"SR:VAC:VALVE:09:{field},Storage ring gate valve 09 {field.lower()}")
    path = tmp_path / "valves.csv"
    path.write_text("\n".join(rows) + "\n")
    database = load_channel_database(path)

    def found(text: str) -> list[str]:
        return find_channels_noted(database, text, writable=False, max_write_channels=48)[0]

    assert found("open gate valve 9") == ["SR:VAC:VALVE:09:CONTROL:OPEN"]
    assert found("is gate valve 9 open?") == ["SR:VAC:VALVE:09:POSITION:OPEN"]
