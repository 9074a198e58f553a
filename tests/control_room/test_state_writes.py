"""Writes of a state ("open the cooling valve", "turn the heater off", "set MODE to Fast"):
read from the request's form, matched against the channel's own states."""

from __future__ import annotations

import pytest

from osprey_desktop.capabilities.control_room.write_parsing import parse_write_request
from osprey_desktop.capabilities.control_room.write_states import (
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
