"""A quantity word of a target phrase ("frequency", "voltage", "gap") is never dropped for the
channels the other words match: the channels that carry it, else a question with the nearest
channels that do; never another quantity's channels (the RF voltage for a frequency)."""

from __future__ import annotations

import pytest

from osprey_desktop.base import ClarificationRequired
from osprey_desktop.capabilities.control_room.channel_finding import find_channels
from osprey_desktop.connectors import get_configured_channel_database


def found(text: str) -> list[str]:
    return find_channels(
        get_configured_channel_database(), text, writable=False, max_write_channels=10
    )[0]


@pytest.mark.parametrize(
    "text", ["what is the cavity 1 frequency setpoint?", "frequency of the cavity 1"]
)
def test_a_quantity_the_matched_channels_lack_is_asked_about_with_channels_that_have_it(text):
    with pytest.raises(ClarificationRequired) as asked:
        found(text)
    assert "frequency" in str(asked.value)
    assert asked.value.suggestions
    assert all("Frequency" in name for name in asked.value.suggestions)


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("what is the RF frequency setpoint?", "SR:RF:Frequency:SP"),
        ("the QF3 current setpoint", "SR01C:QF03:Current:SP"),
        ("the ID9 gap setpoint", "SR09C:ID09:Gap:SP"),
    ],
)
def test_a_quantity_the_channels_carry_is_found_as_before(text, channel):
    assert channel in found(text)
